// The imaging GUI (docs/architecture.md#imaging): the image view's dB colours against the map,
// one mm scale on both axes, its axes in mm and its colour bar in dB, the array along the top, no
// overlapping labels; Make image... on an FMC file written here (a point scatterer from the closed
// form) computes on a worker thread with progress and opens a window whose image peaks at the
// scatterer; a bad file is refused with one line and no window; File > Open result... with an
// image file opens it in its own window.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QProgressBar>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "../engine/fmc_synthesis.hpp"
#include "imaging/image_window.hpp"
#include "imaging/make_image_dialog.hpp"
#include "ui_test_support.hpp"
#include "views/gl_format.hpp"
#include "views/image_view.hpp"

using namespace voxwave;
using namespace voxwave::ui;

namespace {

// A Gaussian spot of peak 2 at (lateral 1 mm, depth 12 mm) on 0.25 mm pixels, 8 elements.
Image spot_image() {
    Image im;
    for (int i = 0; i <= 40; ++i) im.lateral.push_back(-5e-3 + 0.25e-3 * i);
    for (int i = 0; i <= 60; ++i) im.depth.push_back(5e-3 + 0.25e-3 * i);
    for (double d : im.depth)
        for (double l : im.lateral) {
            const double r2 = (l - 1e-3) * (l - 1e-3) + (d - 12e-3) * (d - 12e-3);
            im.values.push_back(2 * std::exp(-r2 / (2 * 1e-6)));
        }
    for (int e = 0; e < 8; ++e) {
        im.element_lateral.push_back((e - 3.5) * 1e-3);
        im.element_depth.push_back(0);
    }
    im.method = "tfm";
    im.mode = "LL";
    im.backend = "cpu";
    im.vp = 5900;
    im.pixel = 0.25e-3;
    return im;
}

QPoint peak_of(const Image& im) {
    std::size_t best = 0;
    for (std::size_t i = 0; i < im.values.size(); ++i)
        if (im.values[i] > im.values[best]) best = i;
    return {int(best % im.n_lateral()), int(best / im.n_lateral())};
}

}  // namespace

class TestImaging : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        // Settings apart from a user's (the dB range is saved).
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void imageViewColoursAxesAndArray() {
        ImageView v;
        v.resize(700, 600);
        const Image im = spot_image();
        v.setImage(im);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        const QImage& r = v.raster();
        QCOMPARE(r.width(), 41);
        QCOMPARE(r.height(), 61);
        // The peak is 0 dB: the map's top colour; 40 dB down and below: its bottom colour.
        QCOMPARE(r.pixel(24, 28), qcolor_at(sequential_color_map(), 1.0).rgb());
        QCOMPARE(r.pixel(0, 0), qcolor_at(sequential_color_map(), 0.0).rgb());
        // -20 dB (amplitude 0.2 of 2) is halfway on a 40 dB scale: r^2 = 2 ln(10) sigma^2.
        const double half = std::sqrt(2 * std::log(10.0)) * 1e-3;  // m from the spot, laterally
        const int col = int(std::lround((1e-3 + half + 5e-3) / 0.25e-3));
        const double level = 1 + 20 * std::log10(im.at(28, std::size_t(col)) / 2) / 40;
        QCOMPARE(r.pixel(col, 28), qcolor_at(sequential_color_map(), level).rgb());
        QVERIFY(std::fabs(level - 0.5) < 0.1);
        v.setRangeDb(20);
        QCOMPARE(v.raster().pixel(col, 28), qcolor_at(sequential_color_map(), 0.0).rgb());
        // One mm scale: the plot's aspect is the image's extent's (10.25 x 15.25 mm).
        const QRect plot = v.plotRect();
        QVERIFY(std::fabs(double(plot.width()) / plot.height() - 10.25 / 15.25) < 0.02);
        QCOMPARE(v.lateralTitle(), QString("lateral (mm)"));
        QCOMPARE(v.depthTitle(), QString("depth (mm)"));
        QCOMPARE(v.colourBar().title(), QString("amplitude (dB)"));
        QCOMPARE(v.colourBar().lo(), -20.0);
        QCOMPARE(v.colourBar().hi(), 0.0);
        // Depth grows downwards, lateral to the right.
        QVERIFY(v.toScreen(0, 10e-3).y() < v.toScreen(0, 15e-3).y());
        QVERIFY(v.toScreen(-2e-3, 10e-3).x() < v.toScreen(2e-3, 10e-3).x());
        // The 8 elements above the plot, 1 mm apart on screen as in the image.
        const auto els = v.elementRects();
        QCOMPARE(int(els.size()), 8);
        for (const QRect& e : els) QVERIFY(e.bottom() < plot.top());
        const double mm = plot.width() / 10.25;
        QVERIFY(std::fabs(els[1].center().x() - els[0].center().x() - mm) <= 1.5);
        v.repaint();
        const auto& labels = v.labelRects();
        QVERIFY(labels.size() >= 6);
        for (std::size_t i = 0; i < labels.size(); ++i)
            for (std::size_t j = i + 1; j < labels.size(); ++j)
                QVERIFY2(!labels[i].intersects(labels[j]), "two labels overlap");
    }

    void makeImageRunsOnAWorkerAndPeaksAtTheScatterer() {
        QTemporaryDir dir;
        voxwave::test::PointScatterer s;
        s.elements = 12;
        s.samples = 700;
        const QString path = dir.filePath("fmc.h5");
        write_array_acquisition_h5(path.toStdString(),
                                   voxwave::test::point_scatterer_acquisition(s, AcquisitionType::Fmc));
        MakeImageDialog d(path);
        d.show();
        auto* info = d.findChild<QLabel*>("acquisition-info");
        QVERIFY(info && info->text().contains("FMC: 12 transmissions"));
        d.findChild<QComboBox*>("image-backend")->setCurrentIndex(1);  // cpu
        QSignalSpy ready(&d, &MakeImageDialog::imageReady);
        d.start();
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 60000);
        QVERIFY(d.lastError().isEmpty());
        const Image& im = d.lastImage();
        const QPoint p = peak_of(im);
        const double q = s.vp / s.frequency / 4;
        QVERIFY(std::fabs(im.lateral[std::size_t(p.x())] - s.lateral) <= q);
        QVERIFY(std::fabs(im.depth[std::size_t(p.y())] - s.depth) <= q);
        auto* bar = d.findChild<QProgressBar*>("image-progress");
        QCOMPARE(bar->value(), bar->maximum());
        auto* w = qobject_cast<ImageWindow*>(d.lastWindow());
        QVERIFY(w && w->isVisible());
        QCOMPARE(w->view()->image().values, im.values);
        // Saved and read back: the same image.
        QVERIFY(w->saveTo(dir.filePath("image.h5")));
        QCOMPARE(read_image_h5(dir.filePath("image.h5").toStdString()).values, im.values);
        w->close();

        // A file without an acquisition: one line naming it, no new window.
        d.setAcquisitionPath(dir.filePath("image.h5"));
        QVERIFY(info->text().contains("image.h5: /fmc/data: missing dataset"));
        voxwave::ui::test::DialogCloser closer;
        QSignalSpy failed(&d.job(), &BackgroundJob::failed);
        d.start();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
        QVERIFY(d.lastError().contains("image.h5: /fmc/data: missing dataset"));
        QVERIFY(!d.lastError().contains('\n'));
        QCOMPARE(ready.count(), 1);
    }

    void mainWindowOpensImagesAndRefusesBadOnes() {
        auto w = voxwave::ui::test::shown_window();
        QVERIFY(voxwave::ui::test::menu_action(*w, "Open &image..."));
        QVERIFY(voxwave::ui::test::menu_action(*w, "&Make image..."));
        QTemporaryDir dir;
        const QString path = dir.filePath("spot.h5");
        write_image_h5(path.toStdString(), spot_image());
        QVERIFY(w->openResult(path, true));
        ImageWindow* shown = nullptr;
        for (QWidget* t : QApplication::topLevelWidgets())
            if (auto* iw = qobject_cast<ImageWindow*>(t); iw && iw->isVisible()) shown = iw;
        QVERIFY(shown);
        QCOMPARE(shown->view()->image().values, spot_image().values);
        // The saved dB range is the window's.
        shown->rangeBox()->setValue(30);
        QCOMPARE(shown->view()->rangeDb(), 30.0);
        QCOMPARE(QSettings().value("imaging/range_db").toDouble(), 30.0);
        shown->close();
        // A file that is no image: nullptr, the error kept, the document unchanged.
        const QString name = w->windowTitle();
        QVERIFY(!w->openImage(dir.filePath("missing.h5"), true));
        QCOMPARE(w->windowTitle(), name);
    }
};

int main(int argc, char** argv) {
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    TestImaging t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_imaging.moc"
