// Helpers shared by the window tests: a small scene the CPU runs quickly, closing the dialogs the
// window shows, and finding a menu item.
#pragma once

#include <QApplication>
#include <QFileDialog>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStringList>
#include <QTest>
#include <QTimer>

#include <QStandardPaths>
#include <memory>

#include "main_window.hpp"
#include "scene/scene_io.hpp"

namespace voxwave::ui::test {

// A small two-material block the CPU runs in milliseconds per step; `duration` long enough that
// the tests stop it.
inline Scene small_scene(double spacing = 0.005, double duration = 5e-3) {
    Scene s = read_scene_json(VOXWAVE_ASSETS_DIR "/scenes/homogeneous_block.json");
    s.grid.spacing = spacing;
    s.materials.push_back({"steel", 7850, 5900, 3200, "#4a6fa5", ""});
    s.shapes.push_back(Shape{"steel", BoxShape{{0.03, 0.0, 0.01}, {0.05, 0.1, 0.02}}});
    s.boundary = {};
    s.run.backend = Backend::Cpu;
    s.run.duration = duration;
    return s;
}

// Records and closes every message box (accepted) and file dialog (cancelled) shown while it
// lives: polling, so one shown from inside a nested modal loop is closed too.
class DialogCloser : public QObject {
public:
    DialogCloser() {
        connect(&timer_, &QTimer::timeout, this, [this] {
            for (QWidget* w : QApplication::topLevelWidgets()) {
                if (!w->isVisible()) continue;
                if (auto* box = qobject_cast<QMessageBox*>(w)) {
                    messages << box->text();
                    box->accept();
                } else if (auto* files = qobject_cast<QFileDialog*>(w)) {
                    ++file_dialogs;
                    files->reject();
                }
            }
        });
        timer_.start(50);
    }
    QStringList messages;
    int file_dialogs = 0;

private:
    QTimer timer_;
};

// A window as the tests drive it: QSettings apart from a user's and cleared, 1400 x 900, shown.
inline std::unique_ptr<MainWindow> shown_window() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    auto w = std::make_unique<MainWindow>();
    w->resize(1400, 900);
    w->show();
    return w;
}

inline QAction* menu_action(QMainWindow& w, const QString& text) {
    for (QAction* a : w.menuBar()->findChildren<QAction*>())
        if (a->text() == text) return a;
    return nullptr;
}

// Makes a shown window non-interactive (it reports errors without modal dialogs) and waits until
// it is exposed; false when it never was.
inline bool expose_non_interactive(MainWindow& w) {
    w.setNonInteractive(true);
    return QTest::qWaitForWindowExposed(&w);
}

// Opens `scene`, saved as `path`, in a shown non-interactive window; false when it did not open.
inline bool open_in_window(MainWindow& w, const QString& path, const Scene& scene) {
    if (!expose_non_interactive(w)) return false;
    write_scene_json(path.toStdString(), scene);
    return w.openScene(path, true);
}

// Runs the open scene `n` single steps (F7), each waited for until its frame arrives (the
// replay's store then keeps one frame per step), then stops the run; false on a timeout.
inline bool step_frames(MainWindow& w, int n) {
    for (int i = 0; i < n; ++i) {
        QSignalSpy frame(w.controller(), &SimulationController::frameReady);
        w.stepRun();
        if (!QTest::qWaitFor([&] { return frame.count() >= 1; }, 60000)) return false;
    }
    w.stopRun();
    w.controller()->waitForIdle();
    return true;
}

}  // namespace voxwave::ui::test
