// For a projector (issue 35): the light theme turns the palette and the painted views light,
// large fonts scale the application's font by kLargeFontScale, both are kept in the settings; the
// presentation view shows the wavefield and the receivers' plot alone, full screen, with keys to
// run, pause, step and leave.
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QToolBar>
#include <QtTest>

#include "appearance.hpp"
#include "main_window.hpp"
#include "ui_test_support.hpp"
#include "views/gl_format.hpp"
#include "views/trace_panel.hpp"
#include "views/view_theme.hpp"
#include "views/wavefield_view.hpp"

using namespace voxwave;
using namespace voxwave::ui;
using namespace voxwave::ui::test;

class TestProjectorModes : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;
    QTemporaryDir dir_;

    // The wavefield pane's top left corner, drawn in the background colour (no slice there).
    QColor wavefieldCorner() {
        const QImage img = w_->wavefield()->grabFramebuffer();
        return QColor(img.pixel(2, img.height() - 3));
    }

private slots:
    void initTestCase() {
        w_ = shown_window();
        QVERIFY(open_in_window(*w_, dir_.filePath("small.json"), small_scene(0.005, 1e-3)));
    }

    void lightThemeMakesThePaletteAndTheViewsLight() {
        const int window_before = QApplication::palette().color(QPalette::Window).lightness();
        QVERIFY(!w_->lightThemeAction()->isChecked());
        QVERIFY(wavefieldCorner().lightness() < 60);  // the dark views of the default
        w_->lightThemeAction()->setChecked(true);
        QVERIFY(light_views());
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 230);
        QVERIFY(QApplication::palette().color(QPalette::WindowText).lightness() < 40);
        QVERIFY2(wavefieldCorner().lightness() > 230, qPrintable(wavefieldCorner().name()));
        const auto charts = w_->findChildren<QChartView*>();
        QVERIFY(!charts.isEmpty());
        for (QChartView* v : charts) QCOMPARE(v->chart()->theme(), QChart::ChartThemeLight);
        QCOMPARE(QSettings().value("appearance/light").toBool(), true);
        QCOMPARE(saved_appearance().light, true);
        // Off again: the palette the application started with.
        w_->lightThemeAction()->setChecked(false);
        QCOMPARE(QApplication::palette().color(QPalette::Window).lightness(), window_before);
        QVERIFY(wavefieldCorner().lightness() < 60);
        for (QChartView* v : charts) QCOMPARE(v->chart()->theme(), QChart::ChartThemeDark);
        QCOMPARE(QSettings().value("appearance/light").toBool(), false);
    }

    void largeFontsScaleEveryFont() {
        const double base = QApplication::font().pointSizeF();
        QVERIFY(base > 0);
        QCOMPARE(base_font_point_size(), base);
        auto* time_label = w_->statusBar()->findChild<QLabel*>("time-label");
        QVERIFY(time_label);
        const int line_before = QFontMetrics(time_label->font()).height();
        w_->largeFontAction()->setChecked(true);
        QCOMPARE(QApplication::font().pointSizeF(), base * kLargeFontScale);
        // Widgets take the application's font from a posted font-change event.
        QTRY_COMPARE(time_label->font().pointSizeF(), base * kLargeFontScale);
        QTRY_COMPARE(w_->wavefield()->font().pointSizeF(), base * kLargeFontScale);
        QVERIFY(QFontMetrics(time_label->font()).height() > line_before);
        QCOMPARE(QSettings().value("appearance/large_font").toBool(), true);
        w_->largeFontAction()->setChecked(false);
        QCOMPARE(QApplication::font().pointSizeF(), base);
        QTRY_COMPARE(time_label->font().pointSizeF(), base);
    }

    void presentationViewShowsTheWavefieldAndTracesWithKeys() {
        MainWindow& w = *w_;
        QDockWidget* sources = nullptr;
        QDockWidget* traces = nullptr;
        for (QDockWidget* d : w.docks()) {
            if (d->objectName() == "sources-dock") sources = d;
            if (d->objectName() == "traces-dock") traces = d;
        }
        QVERIFY(sources && traces && sources->isVisible());
        w.presentationAction()->setChecked(true);
        QVERIFY(w.presentationMode());
        QTRY_VERIFY(w.windowState() & Qt::WindowFullScreen);
        QVERIFY(!w.menuBar()->isVisible());
        for (QToolBar* t : w.findChildren<QToolBar*>()) QVERIFY(!t->isVisible());
        QVERIFY(!sources->isVisible());
        QVERIFY(traces->isVisible());
        QVERIFY(w.traces()->ascan()->isVisible());
        QVERIFY(!w.traces()->bscan()->isVisible());  // one plot: the A-scans
        auto* keys = w.statusBar()->findChild<QLabel*>("presentation-keys");
        QVERIFY(keys && keys->isVisible());
        QVERIFY(keys->text().contains("Esc") && keys->text().contains("Space"));
        // The wavefield takes the whole width above the receivers' plot.
        QTRY_VERIFY2(w.wavefield()->width() > 0.9 * w.width(),
                     qPrintable(QString("%1 of %2").arg(w.wavefield()->width()).arg(w.width())));
        QCOMPARE(QSettings().value("appearance/presentation").toBool(), true);

        // Its keys: Space runs, Space pauses, Right steps, Esc leaves.
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        SimulationController* ctl = w.controller();
        std::int64_t step = -1;
        auto c =
            connect(ctl, &SimulationController::frameReady, this, [&](const SimulationFrame& f) { step = f.step; });
        QTest::keyClick(&w, Qt::Key_Space);
        QTRY_VERIFY(ctl->state() == SimulationController::State::Running);
        QTRY_VERIFY(step >= 0);
        QTest::keyClick(&w, Qt::Key_Space);
        QTRY_VERIFY(ctl->state() == SimulationController::State::Paused);
        QTest::qWait(300);  // the frame of the pause
        const std::int64_t paused_at = step;
        QTest::keyClick(&w, Qt::Key_Right);
        QTRY_COMPARE(step, paused_at + 1);
        disconnect(c);
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!w.presentationMode());
        QVERIFY(!w.presentationAction()->isChecked());
        QTRY_VERIFY(!(w.windowState() & Qt::WindowFullScreen));
        QVERIFY(w.menuBar()->isVisible());
        QVERIFY(sources->isVisible());
        QVERIFY(!keys->isVisible());
        QVERIFY(w.traces()->bscan()->isVisible());
        QCOMPARE(QSettings().value("appearance/presentation").toBool(), false);
        // Outside it, Space belongs to the widgets again: it does not run the simulation.
        w.stopRun();
        ctl->waitForIdle();
        QTest::keyClick(&w, Qt::Key_Space);
        QTest::qWait(200);
        QCOMPARE(ctl->state(), SimulationController::State::Idle);
    }

    void cleanupTestCase() { w_.reset(); }
};

int main(int argc, char** argv) {
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    TestProjectorModes t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_projector_modes.moc"
