// The analytic wavefront overlay (issue 35): on a known scene the P and S circles drawn over the
// wavefield have radius v (t - t0) in pixels, worked out here from the scene and the slice's place
// on screen, about the source's pixel; a replayed frame shows the fronts of its own time; the
// toggle is in the View menu and on the wavefield toolbar and is kept in the settings.
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolBar>
#include <QtTest>

#include <cmath>

#include "editing/slice_painter.hpp"
#include "main_window.hpp"
#include "sim/replay_buffer.hpp"
#include "ui_test_support.hpp"
#include "views/gl_format.hpp"
#include "views/replay_bar.hpp"
#include "views/wavefield_view.hpp"

using namespace voxwave;
using namespace voxwave::ui;
using namespace voxwave::ui::test;

namespace {
constexpr double kVp = 4000, kVs = 2450, kDs = 0.005, kDelay = 1.2e-5;

// Concrete, 200 x 50 x 100 mm at 5 mm (40 x 10 x 20 elements), the source in the middle, free faces.
Scene overlay_scene() {
    Scene s;
    s.grid.size = {0.2, 0.05, 0.1};
    s.grid.spacing = kDs;
    s.materials = {{"concrete", 2400, kVp, kVs, "#9a9a9a", ""}};
    s.background = "concrete";
    Source src;
    src.name = "S";
    src.position = {0.1, 0.025, 0.05};
    src.wavelet.type = WaveletType::Ricker;
    src.wavelet.frequency = 1e5;
    src.wavelet.delay = kDelay;
    s.sources = {src};
    s.run.backend = Backend::Cpu;
    s.run.steps = 45;
    return s;
}

bool near_colour(QRgb a, QColor b, int tolerance) {
    return std::abs(qRed(a) - b.red()) <= tolerance && std::abs(qGreen(a) - b.green()) <= tolerance &&
           std::abs(qBlue(a) - b.blue()) <= tolerance;
}

// Whether a pixel within 2 px of `at` has colour `c` (the curve's 2 px pen is antialiased).
bool colour_near(const QImage& img, QPoint at, QColor c, int tolerance) {
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx)
            if (near_colour(img.pixel(at + QPoint(dx, dy)), c, tolerance)) return true;
    return false;
}
}  // namespace

class TestWavefrontOverlay : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        w_ = shown_window();
        QVERIFY(open_in_window(*w_, dir_.filePath("overlay.json"), overlay_scene()));
        w_->painter()->setPlane(SlicePlane::XZ);
        w_->painter()->setNodePlane(5);  // y = 25 mm, through the source
    }

    void toggleIsInTheViewMenuAndToolbarAndSaved() {
        QAction* a = w_->wavefrontsAction();
        QVERIFY(a && a->isCheckable());
        QVERIFY(!a->isChecked());  // off in fresh settings
        QMenu* view = nullptr;
        for (QAction* m : w_->menuBar()->actions())
            if (m->text() == "&View") view = m->menu();
        QVERIFY(view && view->actions().contains(a));
        bool on_toolbar = false;
        for (QToolBar* t : w_->findChildren<QToolBar*>()) on_toolbar = on_toolbar || t->actions().contains(a);
        QVERIFY(on_toolbar);
        a->setChecked(true);
        QVERIFY(w_->wavefield()->showWavefronts());
        QCOMPARE(QSettings().value("view/wavefronts").toBool(), true);
    }

    void circlesHaveRadiusVTimesTimeInPixels() {
        MainWindow& w = *w_;
        // Step by step (F7), so that the store keeps a frame of every step.
        QVERIFY(step_frames(w, 40));
        const ReplayBuffer& store = w.replay()->buffer();
        QVERIFY2(store.size() >= 30, qPrintable(QString::number(store.size())));
        int checked = 0;
        for (int k = 0; k < int(store.size()); ++k) {
            const ReplayFrame& f = store.at(std::size_t(k));
            w.replay()->showFrame(k);
            const QImage shot = w.wavefield()->grabFramebuffer();
            const auto& drawn = w.wavefield()->drawnCircles();
            const double since = f.time - kDelay;
            if (since <= 0) {
                QVERIFY(drawn.empty());
                continue;
            }
            // The slice fills sliceRect(): 40 spacings across, 20 up; the source is node (20, 10).
            const QRect r = w.wavefield()->sliceRect();
            const double px = r.width() / 40.0;
            const QPointF centre(r.left() + 20 * px, r.top() + r.height() - 10 * (r.height() / 20.0));
            QCOMPARE(int(drawn.size()), 2);
            for (const auto& c : drawn) {
                const double v = c.kind == WavefrontKind::P ? kVp : kVs;
                const double expected = v * since / kDs * px;
                QVERIFY2(std::abs(c.radius - expected) < 1.5,
                         qPrintable(QString("t %1: radius %2 px, v t %3 px").arg(f.time).arg(c.radius).arg(expected)));
                QVERIFY(std::abs(c.centre.x() - centre.x()) < 1.0 && std::abs(c.centre.y() - centre.y()) < 1.0);
            }
            // The P circle is drawn where it says: its colour on the circle's right end (inside
            // the slice while the front has not reached the side faces).
            const double rp = kVp * since / kDs * px;
            if (rp > 4 && rp < 18 * px) {
                const qreal dpr = shot.devicePixelRatio();
                const QPoint at = ((centre + QPointF(rp, 0)) * dpr).toPoint();
                QVERIFY2(colour_near(shot, at, WavefieldView::wavefrontColor(WavefrontKind::P), 40),
                         qPrintable(QColor(shot.pixel(at)).name()));
                w.wavefrontsAction()->setChecked(false);
                const QImage plain = w.wavefield()->grabFramebuffer();
                QVERIFY(!colour_near(plain, at, WavefieldView::wavefrontColor(WavefrontKind::P), 40));
                QVERIFY(w.wavefield()->drawnCircles().empty());
                w.wavefrontsAction()->setChecked(true);
                ++checked;
            }
        }
        QVERIFY2(checked > 0, "no stored frame had its P front inside the slice");
    }

    void cleanupTestCase() { w_.reset(); }
};

int main(int argc, char** argv) {
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    TestWavefrontOverlay t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_wavefront_overlay.moc"
