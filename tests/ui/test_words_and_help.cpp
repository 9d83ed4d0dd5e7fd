// What the window says: table errors that name the row as shown and the value in the table's
// unit, the material library (add to the scene, refused edits, the user's library on disk), the
// Help pages (shortcuts read off the actions), the first-run hint and the no-source warning.
#include <QAbstractButton>
#include <QAction>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QtTest>

#include "model/material.hpp"
#include "panels/material_library_dialog.hpp"
#include "panels/shapes_panel.hpp"
#include "panels/sources_panel.hpp"
#include "sim/simulation_controller.hpp"
#include "ui_test_support.hpp"
#include "views/gl_format.hpp"
#include "views/wavefield_view.hpp"

using namespace voxwave;
using namespace voxwave::ui;

class TestWordsAndHelp : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;
    QTemporaryDir dir_;

    // Types `text` into a cell as a user would (the table's cellChanged does the rest).
    static void type(QTableWidget* t, int row, int col, const QString& text) { t->item(row, col)->setText(text); }
    void openSmallScene() {
        const QString path = dir_.filePath("block.json");
        write_scene_json(path.toStdString(), test::small_scene());  // 100 x 100 x 50 mm
        QVERIFY(w_->openScene(path, true));
    }

private slots:
    void initTestCase() {
        w_ = test::shown_window();
        w_->setNonInteractive(true);
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
        QFile::remove(MainWindow::userMaterialLibraryPath());
        openSmallScene();
    }

    void receiverErrorsNameTheRowAsShownInMillimetres() {
        QTableWidget* t = w_->sources()->receiverTable();
        const auto before = w_->document()->scene().receivers;
        // Row 2 as displayed is receivers[1], "R2"; the model's x runs 0 .. 100 mm.
        QCOMPARE(t->item(1, kRecName)->text(), QString("R2"));
        type(t, 1, kRecX, "5000");
        const QString e = w_->lastError();
        QVERIFY2(e.startsWith("Receivers table, row 2 (R2), column \"x mm\": 5000 "), qPrintable(e));
        QVERIFY2(e.contains("x runs from 0 to 100 mm"), qPrintable(e));
        QVERIFY2(!e.contains("receivers[1]") && !e.contains("0.1"), qPrintable(e));  // no field, no metres
        QCOMPARE(w_->document()->scene().receivers, before);
        QCOMPARE(t->item(1, kRecX)->text(), QString("70"));  // the table shows the document again

        type(t, 3, kRecZ, "-1");
        QVERIFY2(w_->lastError().startsWith("Receivers table, row 4 (R4), column \"z mm\": -1 "),
                 qPrintable(w_->lastError()));
        QVERIFY2(w_->lastError().contains("z runs from 0 to 50 mm"), qPrintable(w_->lastError()));
        type(t, 0, kRecY, "abc");
        QCOMPARE(w_->lastError(), QString("Receivers table, row 1 (R1), column \"y mm\": abc is not a number"));
        type(t, 4, kRecName, "R1");
        QVERIFY2(
            w_->lastError().startsWith("Receivers table, row 5, column \"name\": R1: duplicate receiver name 'R1'"),
            qPrintable(w_->lastError()));
        QCOMPARE(w_->document()->scene().receivers, before);
        // A good value still goes in, in mm.
        type(t, 1, kRecX, "65");
        QCOMPARE(w_->document()->scene().receivers[1].position[0], 0.065);
        w_->document()->undoStack()->undo();
    }

    void sourceErrorsNameTheRowAndColumnInTheTablesUnits() {
        QTableWidget* t = w_->sources()->sourceTable();
        const auto before = w_->document()->scene().sources;
        QCOMPARE(t->item(0, kSrcName)->text(), QString("S"));
        type(t, 0, kSrcY, "250");
        QVERIFY2(w_->lastError().startsWith("Sources table, row 1 (S), column \"y mm\": 250 "),
                 qPrintable(w_->lastError()));
        QVERIFY2(w_->lastError().contains("y runs from 0 to 100 mm"), qPrintable(w_->lastError()));
        type(t, 0, kSrcF1, "0");
        QVERIFY2(w_->lastError().startsWith("Sources table, row 1 (S), column \"f / f_low Hz\": 0 must be > 0"),
                 qPrintable(w_->lastError()));
        type(t, 0, kSrcDelay, "-1e-6");
        QVERIFY2(w_->lastError().startsWith("Sources table, row 1 (S), column \"delay s\": -1e-6 must be >= 0"),
                 qPrintable(w_->lastError()));
        type(t, 0, kSrcType, "sine");
        QVERIFY2(w_->lastError().startsWith("Sources table, row 1 (S), column \"wavelet\": sine: ") &&
                     w_->lastError().contains("ricker"),
                 qPrintable(w_->lastError()));
        type(t, 0, kSrcAmp, "loud");
        QCOMPARE(w_->lastError(), QString("Sources table, row 1 (S), column \"force N\": loud is not a number"));
        type(t, 0, kSrcName, "");
        QCOMPARE(w_->lastError(), QString("Sources table, row 1, column \"name\": (empty) must not be empty"));
        QCOMPARE(w_->document()->scene().sources, before);
    }

    void shapeFormErrorsQuoteTheFormInMillimetres() {
        ShapesPanel* shapes = w_->shapes();
        QPushButton* add = nullptr;
        for (auto* b : shapes->findChildren<QPushButton*>())
            if (b->text() == "Add to model") add = b;
        QVERIFY(add);
        const int undo_before = w_->document()->undoStack()->count();
        shapes->setFormShape(Shape{"steel", BoxShape{{0.03, 0.01, 0.01}, {0.02, 0.03, 0.03}}});
        add->click();
        QCOMPARE(w_->lastError(), QString("Shape form (box), max (mm): must be greater than min in every component "
                                          "(x: 20 <= 30) (lengths in mm)"));
        shapes->setFormShape(Shape{"steel", SphereShape{{0.05, 0.05, 0.025}, 0.0}});
        add->click();
        QCOMPARE(w_->lastError(),
                 QString("Shape form (sphere / void), radius (mm): must be > 0 (got 0) (lengths in mm)"));
        QCOMPARE(w_->document()->undoStack()->count(), undo_before);  // nothing painted
    }

    void libraryAddsAMaterialToTheSceneAndUndoRemovesIt() {
        MaterialLibraryDialog* d = w_->openMaterialLibrary();
        const std::size_t n = w_->document()->scene().materials.size();
        const int row = d->rowOf("aluminium");
        QVERIFY(row >= 0);
        QVERIFY(!d->isUserRow(row));
        QCOMPARE(d->table()->item(row, MaterialLibraryDialog::kDensity)->text(), QString("2700"));
        // Derived columns, from the published values (2700 kg/m3, 6320 and 3130 m/s).
        const double p2 = 6320.0 * 6320.0, s2 = 3130.0 * 3130.0, nu = (p2 - 2 * s2) / (2 * (p2 - s2));
        QCOMPARE(d->table()->item(row, MaterialLibraryDialog::kPoisson)->text(), QString::number(nu, 'g', 3));
        QCOMPARE(d->table()->item(row, MaterialLibraryDialog::kImpedance)->text(),
                 QString::number(2700 * 6320 * 1e-6, 'g', 4));
        QVERIFY(d->addToScene({row}));
        const auto& mats = w_->document()->scene().materials;
        QCOMPARE(mats.size(), n + 1);
        QCOMPARE(mats.back().name, std::string("aluminium"));
        QCOMPARE(std::vector<double>({mats.back().density, mats.back().vp, mats.back().vs}),
                 std::vector<double>({2700, 6320, 3130}));
        QVERIFY(w_->lastInfo().contains("aluminium"));
        // Twice is refused, naming the row.
        QVERIFY(!d->addToScene({row}));
        QVERIFY2(w_->lastError().contains(QString("row %1 (aluminium)").arg(row + 1)), qPrintable(w_->lastError()));
        QCOMPARE(w_->document()->scene().materials.size(), n + 1);
        w_->document()->undoStack()->undo();
        QCOMPARE(w_->document()->scene().materials.size(), n);
    }

    void invalidLibraryEditIsRefusedWithTheRowAndTheValue() {
        MaterialLibraryDialog* d = w_->openMaterialLibrary();
        const int row = d->newUserMaterial(d->rowOf("steel"));
        QVERIFY(d->isUserRow(row));
        QCOMPARE(row, int(d->builtIn().size()));  // the first row after the built-in ones
        const QString name = d->table()->item(row, MaterialLibraryDialog::kName)->text();
        QVERIFY(name != "steel");
        const Material kept = d->user().back();
        // vs above sqrt(3)/2 vp (5900 m/s: 5109.5) is the engine's rule (positive bulk modulus).
        type(d->table(), row, MaterialLibraryDialog::kVs, "5200");
        QVERIFY2(
            w_->lastError().startsWith(QString("Material library table, row %1 (%2), column \"vs m/s\": 5200 must be "
                                               "below")
                                           .arg(row + 1)
                                           .arg(name)),
            qPrintable(w_->lastError()));
        QCOMPARE(d->user().back(), kept);
        QCOMPARE(d->table()->item(row, MaterialLibraryDialog::kVs)->text(), QString("3200"));
        // Lowering vp below what vs allows names the column it breaks.
        type(d->table(), row, MaterialLibraryDialog::kVp, "3000");
        QVERIFY2(w_->lastError().contains("column \"vp m/s\": 3000 makes vs m/s invalid"), qPrintable(w_->lastError()));
        type(d->table(), row, MaterialLibraryDialog::kDensity, "heavy");
        QVERIFY2(w_->lastError().endsWith("column \"density kg/m³\": heavy is not a number"),
                 qPrintable(w_->lastError()));
        type(d->table(), row, MaterialLibraryDialog::kName, "concrete");
        QVERIFY2(w_->lastError().contains(QString("is the name of row %1").arg(d->rowOf("concrete") + 1)),
                 qPrintable(w_->lastError()));
        QCOMPARE(d->user().back(), kept);
        // Built-in rows cannot be edited at all.
        QVERIFY(!(d->table()->item(d->rowOf("steel"), MaterialLibraryDialog::kVp)->flags() & Qt::ItemIsEditable));
    }

    void userLibraryRoundTripsThroughItsFile() {
        MaterialLibraryDialog* d = w_->openMaterialLibrary();
        const int row = int(d->builtIn().size());
        type(d->table(), row, MaterialLibraryDialog::kName, "my_steel");
        type(d->table(), row, MaterialLibraryDialog::kVp, "5950.5");
        QVERIFY(d->userLibraryModified());
        QVERIFY(d->saveUserLibrary());
        QVERIFY(!d->userLibraryModified());
        const std::vector<Material> saved = d->user();
        QCOMPARE(saved.back().name, std::string("my_steel"));
        QCOMPARE(saved.back().vp, 5950.5);
        // The file is the engine's library format, read back equal.
        QCOMPARE(load_material_library(MainWindow::userMaterialLibraryPath().toStdString()), saved);
        // Unsaved edits go when the library is read again; the saved ones come back.
        d->newUserMaterial(d->rowOf("glass"));
        QCOMPARE(d->user().size(), saved.size() + 1);
        QVERIFY(d->loadUserLibrary());
        QCOMPARE(d->user(), saved);
        // A new dialog (as at the next start) reads it with the built-in ones.
        MaterialLibraryDialog fresh(w_->document(), VOXWAVE_ASSETS_DIR "/materials/library.json",
                                    MainWindow::userMaterialLibraryPath());
        QCOMPARE(fresh.user(), saved);
        QCOMPARE(fresh.rowOf("my_steel"), int(fresh.builtIn().size()));
        QVERIFY(fresh.rowOf("steel") >= 0);
        // A broken user library is reported and the built-in ones stay usable.
        {
            QFile f(MainWindow::userMaterialLibraryPath());
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(R"({"format": "nope", "version": 1, "materials": []})");
        }
        QVERIFY(!d->loadUserLibrary());
        QVERIFY2(w_->lastError().contains("format"), qPrintable(w_->lastError()));
        QVERIFY(d->rowOf("steel") >= 0);
        QFile::remove(MainWindow::userMaterialLibraryPath());
    }

    void shortcutsPageIsReadOffTheActions() {
        QAction* start = test::menu_action(*w_, "&Start / resume");
        QVERIFY(start);
        const QString page = w_->helpPage("shortcuts");
        QVERIFY2(page.contains("<b>F5</b></td><td>Start / resume</td>"), qPrintable(page));
        QVERIFY(page.contains("Undo"));
        // Another key for the action: the page says the new one, never the old.
        start->setShortcut(Qt::Key_F9);
        const QString changed = w_->helpPage("shortcuts");
        QVERIFY(changed.contains("<b>F9</b></td><td>Start / resume</td>"));
        QVERIFY(!changed.contains("<b>F5</b></td><td>Start / resume</td>"));
        QVERIFY(w_->helpPage("getting-started").contains("Press <b>F9</b>"));
        start->setShortcut(Qt::Key_F5);
        QVERIFY(w_->helpPage("about").contains("voxwave"));
        // The menu shows the pages.
        QVERIFY(test::menu_action(*w_, "&Getting started"));
        QVERIFY(test::menu_action(*w_, "&Keyboard shortcuts"));
        QVERIFY(test::menu_action(*w_, "&About voxwave"));
    }

    void toolbarNamesSayWhatTheyDo() {
        QStringList names;
        for (QToolBar* tb : w_->findChildren<QToolBar*>())
            for (QAction* a : tb->actions()) names << a->text();
        QVERIFY2(names.contains("Outlines") && !names.contains("Materials"), qPrintable(names.join(", ")));
        QVERIFY(names.contains("Material &library..."));
    }

    void firstRunHintGoesWhenARunStartsAndSourcelessRunsAreSaid() {
        openSmallScene();
        QVERIFY2(w_->wavefield()->hint().contains("Press F5"), qPrintable(w_->wavefield()->hint()));
        // A scene without sources: non-interactive, the run goes ahead and lastInfo says why it is still.
        QTableWidget* t = w_->sources()->sourceTable();
        t->selectRow(0);
        w_->sources()->receiverTable()->clearSelection();
        w_->sources()->removeSelected();
        QVERIFY(w_->document()->scene().sources.empty());
        w_->startRun();
        QVERIFY(w_->wavefield()->hint().isEmpty());
        QVERIFY2(w_->lastInfo().contains("has no source"), qPrintable(w_->lastInfo()));
        QVERIFY(w_->controller()->busy());
        w_->resetRun();
        QVERIFY(!w_->controller()->busy());
        QVERIFY(w_->wavefield()->hint().contains("F5"));
        w_->document()->undoStack()->undo();  // the source back
        QCOMPARE(w_->document()->scene().sources.size(), std::size_t(1));
    }

    void noSourceDialogOffersRunAnywayAndCancel() {
        openSmallScene();
        w_->sources()->sourceTable()->selectRow(0);
        w_->sources()->receiverTable()->clearSelection();
        w_->sources()->removeSelected();
        QVERIFY(w_->document()->scene().sources.empty());
        // Answers the dialog with the button whose text is `answer`, recording what it said.
        QString asked;
        auto answer_with = [&asked](const QString& answer) {
            QTimer::singleShot(50, [&asked, answer] {
                for (QWidget* top : QApplication::topLevelWidgets())
                    if (auto* box = qobject_cast<QMessageBox*>(top); box && box->isVisible()) {
                        asked = box->windowTitle() + ": " + box->text();
                        QAbstractButton* pick = nullptr;
                        for (QAbstractButton* b : box->buttons())
                            if (b->text() == answer) pick = b;
                        if (pick)
                            pick->click();
                        else
                            box->reject();  // no such button: the check below fails instead of hanging
                    }
            });
        };
        w_->setNonInteractive(false);
        answer_with("Cancel");
        w_->startRun();
        QVERIFY2(asked.startsWith("No source: block.json has no source"), qPrintable(asked));
        QVERIFY(!w_->controller()->busy());
        QVERIFY(w_->wavefield()->hint().contains("F5"));  // nothing started: the hint stays
        asked.clear();
        answer_with("Run anyway");
        w_->startRun();
        w_->setNonInteractive(true);
        QVERIFY(asked.startsWith("No source"));
        QVERIFY(w_->controller()->busy());
        w_->resetRun();
        w_->document()->undoStack()->undo();
    }

    void cleanupTestCase() { w_.reset(); }
};

int main(int argc, char** argv) {
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    TestWordsAndHelp t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_words_and_help.moc"
