// The window on a laptop screen: its minimum size fits 1280 x 720, and at 1366 x 768 every
// shown dock has room of its own, inside the window and clear of the others and of the centre.
// View > Reset layout brings every dock back; the saved layout round-trips through the settings.
#include <QDockWidget>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QtTest>

#include "main_window.hpp"

using namespace voxwave::ui;

namespace {

// A laptop screen and the largest minimum size the window may have.
constexpr QSize kLaptop(1366, 768);
constexpr QSize kMaxMinimum(1280, 720);
// A shown dock smaller than this (or than its own minimum, if that is smaller) is not usable.
constexpr QSize kUsableDock(120, 80);

// Geometry of a child in the window's coordinates.
QRect in_window(const QWidget* w, const QWidget* window) { return QRect(w->mapTo(window, QPoint(0, 0)), w->size()); }

}  // namespace

class TestWindowFits : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;

    // Every shown dock inside the window, of usable size, overlapping neither another shown dock
    // nor the centre; the status bar inside the window. Returns how many docks are shown.
    int checkDocksFit() {
        QApplication::processEvents();
        const QRect window(QPoint(0, 0), w_->size());
        const QRect centre = in_window(w_->centralWidget(), w_.get());
        std::vector<std::pair<QString, QRect>> shown;
        for (QDockWidget* d : w_->docks()) {
            if (!d->isVisible() || behindATab(d)) continue;
            const QRect r = in_window(d, w_.get());
            const QSize usable = kUsableDock.boundedTo(d->minimumSizeHint());
            if (!window.contains(r)) qWarning() << d->objectName() << r << "not inside" << window;
            if (r.width() < usable.width() || r.height() < usable.height())
                qWarning() << d->objectName() << r.size() << "smaller than" << usable;
            if (r.intersects(centre)) qWarning() << d->objectName() << r << "overlaps the centre" << centre;
            for (const auto& [name, other] : shown)
                if (r.intersects(other)) qWarning() << d->objectName() << r << "overlaps" << name << other;
            [&] {
                QVERIFY(window.contains(r));
                QVERIFY(r.width() >= usable.width() && r.height() >= usable.height());
                QVERIFY(!r.intersects(centre));
                for (const auto& [name, other] : shown) QVERIFY(!r.intersects(other));
            }();
            shown.emplace_back(d->objectName(), r);
        }
        const QRect status = in_window(w_->statusBar(), w_.get());
        if (!window.contains(status)) qWarning() << "status bar" << status << "not inside" << window;
        [&] { QVERIFY(w_->statusBar()->isVisible() && window.contains(status)); }();
        const QSize c = w_->centralWidget()->size();
        [&] { QVERIFY(c.width() >= 400 && c.height() >= 250); }();
        // Of each group of tabbed docks, one is shown.
        for (QDockWidget* d : w_->docks())
            if (d->isVisible() && behindATab(d)) {
                bool one_shown = false;
                for (QDockWidget* o : w_->tabifiedDockWidgets(d)) one_shown = one_shown || !behindATab(o);
                [&] { QVERIFY2(one_shown, qPrintable(d->objectName())); }();
            }
        return int(shown.size());
    }

    // A tabbed dock that is not the current tab: Qt keeps it "visible" but places it where it
    // cannot be seen (outside the window), so it has nothing on screen.
    bool behindATab(QDockWidget* d) const {
        return !w_->tabifiedDockWidgets(d).isEmpty() && d->visibleRegion().isEmpty();
    }

    void showAt(QSize size) {
        w_->resize(size);
        QApplication::processEvents();
        QTRY_COMPARE(w_->size(), size);
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // QSettings of the tests stay apart from a user's
        QSettings().clear();
        w_ = std::make_unique<MainWindow>();
        w_->setNonInteractive(true);
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    }

    void minimumSizeFitsALaptop() {
        const QSize hint = w_->minimumSizeHint().expandedTo(w_->minimumSize());
        qInfo() << "minimum size" << hint;
        QVERIFY2(hint.width() <= kMaxMinimum.width() && hint.height() <= kMaxMinimum.height(),
                 qPrintable(QStringLiteral("%1 x %2").arg(hint.width()).arg(hint.height())));
        // And the window really goes that small, with every shown dock still of usable size.
        showAt(kMaxMinimum);
        QCOMPARE(checkDocksFit(), 3);
    }

    void everyDockHasRoomAt1366x768() {
        showAt(kLaptop);
        // Default layout: sources, run and receivers shown (shapes and dispersion are tabs).
        QCOMPARE(checkDocksFit(), 3);
        // Each tab of a tabbed dock, raised, has room too.
        for (QDockWidget* d : w_->docks()) {
            d->raise();
            QApplication::processEvents();
            QVERIFY2(d->isVisible() && !behindATab(d), qPrintable(d->objectName()));
            checkDocksFit();
            if (QTest::currentTestFailed()) return;
        }
        // Every page of the centre at this size.
        for (const QString& page : MainWindow::pageNames()) {
            if (page == "cluster" || page == "materials") continue;  // dialogs
            w_->showPage(page);
            checkDocksFit();
            if (QTest::currentTestFailed()) QFAIL(qPrintable(page));
        }
        // --page dispersion brings the dispersion dock to the front.
        w_->showPage("dispersion");
        QDockWidget* dispersion = w_->findChild<QDockWidget*>("dispersion-dock");
        QTRY_VERIFY(!behindATab(dispersion));
        w_->showPage("model");
    }

    void resetLayoutBringsEveryDockBack() {
        showAt(kLaptop);
        for (QDockWidget* d : w_->docks()) d->close();
        w_->docks()[0]->setFloating(true);
        w_->resetLayout();
        QApplication::processEvents();
        for (QDockWidget* d : w_->docks()) {
            QVERIFY2(!d->isHidden() && !d->isFloating(), qPrintable(d->objectName()));
            const bool bottom = d->objectName() == "traces-dock" || d->objectName() == "dispersion-dock" ||
                                d->objectName() == "probe-scan-dock";
            QCOMPARE(w_->dockWidgetArea(d), bottom ? Qt::BottomDockWidgetArea : Qt::LeftDockWidgetArea);
        }
        for (QToolBar* t : w_->findChildren<QToolBar*>()) QVERIFY(!t->isHidden());
        QCOMPARE(checkDocksFit(), 3);
        // The View menu offers it, and every dock's toggle.
        QAction* reset = nullptr;
        QStringList view_actions;
        for (QAction* m : w_->menuBar()->actions())
            if (m->menu() && m->text().remove('&') == "View")
                for (QAction* a : m->menu()->actions()) {
                    view_actions << a->text();
                    if (a->text().remove('&') == "Reset layout") reset = a;
                }
        QVERIFY(reset);
        for (QDockWidget* d : w_->docks()) QVERIFY(view_actions.contains(d->toggleViewAction()->text()));
        w_->docks()[3]->close();
        reset->trigger();
        QVERIFY(!w_->docks()[3]->isHidden());
    }

    void savedLayoutRoundTrips() {
        showAt(kLaptop);
        w_->resetLayout();
        // Saved: the dispersion dock closed, the shapes tab raised.
        QDockWidget* dispersion = nullptr;
        for (QDockWidget* d : w_->docks())
            if (d->objectName() == "dispersion-dock") dispersion = d;
        QVERIFY(dispersion);
        dispersion->close();
        w_->saveLayout();
        // Changed, then restored from the settings.
        w_->resetLayout();
        QVERIFY(!dispersion->isHidden());
        QVERIFY(w_->restoreLayout());
        QVERIFY(dispersion->isHidden());
        // A new window (the next start) reads it too.
        {
            MainWindow again;
            QDockWidget* d = again.findChild<QDockWidget*>("dispersion-dock");
            QVERIFY(d && d->isHidden());
            QVERIFY(!again.findChild<QDockWidget*>("sources-dock")->isHidden());
        }
        // A saved state that hides every dock, or one of another layout version, is not used.
        for (QDockWidget* d : w_->docks()) d->close();
        w_->saveLayout();
        QVERIFY(!w_->restoreLayout());
        for (QDockWidget* d : w_->docks()) QVERIFY(!d->isHidden());
        QSettings().setValue("window/state", w_->saveState(/*version*/ 0));
        QVERIFY(!w_->restoreLayout());
        // Closing on the Solvers tab (which hides the docks) saves the Explore tab's docks.
        w_->resetLayout();
        w_->showPage("solvers");
        QVERIFY(w_->docks()[0]->isHidden());
        w_->saveLayout();
        QVERIFY(w_->restoreLayout());
        w_->showPage("model");
        QVERIFY(!w_->docks()[0]->isHidden());
        QSettings().clear();
    }
};

QTEST_MAIN(TestWindowFits)
#include "test_window_fits.moc"
