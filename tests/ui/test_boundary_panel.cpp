// The Boundary panel (issue 31): per-face conditions and the absorbing layer written into the
// scene through undoable commands, the thickness kept in mm across a new spacing, refusals that
// leave the scene as it was, and the layer drawn in the slice editor and the 3D view.
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolTip>
#include <QUndoStack>
#include <QtTest>
#include <cmath>

#include "document/edit_commands.hpp"
#include "document/scene_document.hpp"
#include "editing/slice_painter.hpp"
#include "main_window.hpp"
#include "panels/boundary_panel.hpp"
#include "scene/scene_io.hpp"
#include "views/gl_format.hpp"
#include "views/model_view_3d.hpp"

using namespace voxwave;
using namespace voxwave::ui;

namespace {

// 100 x 100 x 50 mm at 2 mm: 50 x 50 x 25 cells, no absorbing face.
Scene box_scene() {
    Scene s;
    s.grid.size = {0.1, 0.1, 0.05};
    s.grid.spacing = 0.002;
    s.materials = {{"concrete", 2400, 4000, 2450, "#9a9a9a", ""}};
    s.background = "concrete";
    Source src;
    src.name = "S";
    src.position = {0.05, 0.05, 0.05};
    src.wavelet.type = WaveletType::Ricker;
    src.wavelet.frequency = 100e3;
    src.wavelet.delay = 15e-6;
    s.sources = {src};
    s.run.duration = 2e-5;
    return s;
}

// A face's combo box set as a user picks an item.
void choose(BoundaryPanel& p, int face, BoundaryPanel::FaceChoice c) {
    QComboBox* box = p.faceBox(face);
    box->setCurrentIndex(c);
    emit box->activated(c);
}

void type_into(QDoubleSpinBox* box, double v) {
    box->setValue(v);
    emit box->editingFinished();
}

void type_into(QLineEdit* e, const QString& text) {
    e->setText(text);
    emit e->editingFinished();
}

constexpr int kXm = 0, kXp = 1, kYm = 2, kZm = 4, kZp = 5;

}  // namespace

class TestBoundaryPanel : public QObject {
    Q_OBJECT
private slots:
    void pmlTenCellsAtTwoMmWritesTwentyMmAndReadsBack() {
        SceneDocument doc;
        doc.reset(box_scene());
        BoundaryPanel p(&doc);
        choose(p, kXm, BoundaryPanel::AbsorbingPml);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        type_into(p.thicknessCells(), 15);
        QCOMPARE(doc.scene().boundary.absorbing.thickness, 0.03);
        type_into(p.thicknessCells(), 10);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const AbsorbingSpec& a = doc.scene().boundary.absorbing;
        QCOMPARE(a.type, std::string("pml"));
        QCOMPARE(a.faces, std::vector<std::string>{"x-"});
        QVERIFY(std::abs(a.thickness - 10 * 0.002) < 1e-15);
        QCOMPARE(p.thicknessMm()->value(), 20.0);
        // Saved and read back: the file says pml, 0.02 m.
        QTemporaryDir dir;
        const QString path = dir.filePath("pml.json");
        doc.save(path);
        const Scene back = read_scene_json(path.toStdString());
        QCOMPARE(back.boundary.absorbing.type, std::string("pml"));
        QCOMPARE(back.boundary.absorbing.faces, std::vector<std::string>{"x-"});
        QVERIFY(std::abs(back.boundary.absorbing.thickness - 0.02) < 1e-15);
        QVERIFY(back.boundary.fixed_faces.empty());
        // The PML's options: typed in the panel's units (frequency in kHz), written in SI.
        type_into(p.frequencyEdit(), "80");
        type_into(p.reflectionEdit(), "1e-4");
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        doc.save(path);
        const Scene back2 = read_scene_json(path.toStdString());
        QCOMPARE(*back2.boundary.absorbing.frequency, 80e3);
        QCOMPARE(*back2.boundary.absorbing.reflection, 1e-4);
        QVERIFY(!back2.boundary.absorbing.kappa_max.has_value());
        // Empty is the default again (the key leaves the file).
        type_into(p.frequencyEdit(), "");
        QVERIFY(!doc.scene().boundary.absorbing.frequency.has_value());
        QVERIFY(p.frequencyEdit()->placeholderText().contains("100 kHz"));
        // It fits the left docks' default width (360 px, less a scroll bar) without scrolling sideways.
        QVERIFY2(p.minimumSizeHint().width() <= 340, qPrintable(QString::number(p.minimumSizeHint().width())));
    }

    void newSpacingKeepsTheMillimetresAndUndoRestores() {
        SceneDocument doc;
        doc.reset(box_scene());
        BoundaryPanel p(&doc);
        const int before = doc.undoStack()->count();
        choose(p, kXm, BoundaryPanel::AbsorbingPml);
        choose(p, kXp, BoundaryPanel::AbsorbingPml);
        type_into(p.thicknessMm(), 20);  // what a new layer has already: no command
        QCOMPARE(doc.undoStack()->count(), before + 2);
        QCOMPARE(p.thicknessCells()->value(), 10.0);
        // 4 mm spacing: the layer stays 20 mm, now 5 cells.
        doc.undoStack()->push(new SetRunCommand(&doc, doc.scene().run, 0.004));
        QCOMPARE(doc.scene().boundary.absorbing.thickness, 0.02);
        QCOMPARE(p.thicknessMm()->value(), 20.0);
        QCOMPARE(p.thicknessCells()->value(), 5.0);
        // Cells typed at 4 mm: 7 cells = 28 mm.
        type_into(p.thicknessCells(), 7);
        QVERIFY(std::abs(doc.scene().boundary.absorbing.thickness - 0.028) < 1e-15);
        QCOMPARE(p.thicknessMm()->value(), 28.0);
        doc.undoStack()->undo();  // 28 mm
        doc.undoStack()->undo();  // the spacing
        QCOMPARE(p.thicknessCells()->value(), 10.0);
        doc.undoStack()->undo();  // x+
        QCOMPARE(doc.scene().boundary.absorbing.faces, std::vector<std::string>{"x-"});
        QCOMPARE(p.faceBox(kXp)->currentIndex(), int(BoundaryPanel::Free));
        doc.undoStack()->undo();  // x-
        QCOMPARE(doc.scene().boundary, box_scene().boundary);
        QCOMPARE(p.faceBox(kXm)->currentIndex(), int(BoundaryPanel::Free));
        doc.undoStack()->redo();
        QCOMPARE(doc.scene().boundary.absorbing.faces, std::vector<std::string>{"x-"});
        QCOMPARE(p.faceBox(kXm)->currentIndex(), int(BoundaryPanel::AbsorbingPml));
    }

    void invalidInputIsRefusedWithOneMessageAndChangesNothing() {
        SceneDocument doc;
        Scene s = box_scene();
        s.boundary.absorbing.type = "sponge";
        s.boundary.absorbing.faces = {"x-"};
        s.boundary.absorbing.thickness = 0.02;
        doc.reset(s);
        BoundaryPanel p(&doc);
        QSignalSpy failed(&p, &BoundaryPanel::failed);
        const auto unchanged = [&] {
            QCOMPARE(doc.scene().boundary, s.boundary);
            QCOMPARE(doc.undoStack()->count(), 0);
            QCOMPARE(p.thicknessMm()->value(), 20.0);  // the widgets show the scene again
        };
        // Thickness 0.
        type_into(p.thicknessMm(), 0);
        QCOMPARE(failed.count(), 1);
        QVERIFY2(p.lastError().startsWith("Layer thickness 0 mm: must be > 0"), qPrintable(p.lastError()));
        unchanged();
        // More than half the box along x (50 mm).
        type_into(p.thicknessMm(), 60);
        QCOMPARE(failed.count(), 2);
        QVERIFY2(p.lastError().startsWith("Layer thickness 60 mm: must be at most half the box along x (50 mm)"),
                 qPrintable(p.lastError()));
        unchanged();
        // The same in cells: 26 cells of 2 mm = 52 mm along z (half: 25 mm) once z- absorbs too.
        type_into(p.thicknessCells(), 26);
        QCOMPARE(failed.count(), 3);
        QVERIFY2(p.lastError().contains("26 cells (52 mm)"), qPrintable(p.lastError()));
        unchanged();
        // A face fixed behind the sponge, then a PML asked for elsewhere: every absorbing face
        // would become a PML, and a PML face must not be fixed.
        choose(p, kZm, BoundaryPanel::FixedBehindSponge);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const BoundarySpec fixed_sponge = doc.scene().boundary;
        QCOMPARE(fixed_sponge.fixed_faces, std::vector<std::string>{"z-"});
        QCOMPARE(fixed_sponge.absorbing.faces, (std::vector<std::string>{"x-", "z-"}));
        choose(p, kXp, BoundaryPanel::AbsorbingPml);
        QCOMPARE(failed.count(), 4);
        QVERIFY2(p.lastError().startsWith("Face z-: ") && p.lastError().contains("must not be fixed"),
                 qPrintable(p.lastError()));
        QCOMPARE(doc.scene().boundary, fixed_sponge);
        QCOMPARE(p.faceBox(kXp)->currentIndex(), int(BoundaryPanel::Free));
        QCOMPARE(doc.undoStack()->count(), 1);
        // PML keys are refused on a sponge, and bad numbers on a PML.
        doc.undoStack()->undo();
        choose(p, kXm, BoundaryPanel::AbsorbingPml);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const BoundarySpec pml = doc.scene().boundary;
        type_into(p.reflectionEdit(), "2");
        QVERIFY2(p.lastError().startsWith("PML target reflection 2: must be between 0 and 1"),
                 qPrintable(p.lastError()));
        type_into(p.kappaMaxEdit(), "many");
        QVERIFY2(p.lastError() == "PML kappa max many: is not a number", qPrintable(p.lastError()));
        type_into(p.alphaMaxEdit(), "-1");
        QVERIFY2(p.lastError().startsWith("PML alpha max -1: must be >= 0"), qPrintable(p.lastError()));
        QCOMPARE(doc.scene().boundary, pml);
        QVERIFY(p.reflectionEdit()->text().isEmpty());
    }

    void panelFollowsTheOpenScene() {
        SceneDocument doc;
        doc.reset(box_scene());
        BoundaryPanel p(&doc);
        Scene s = box_scene();
        s.boundary.absorbing.type = "sponge";
        s.boundary.absorbing.faces = {"x-", "x+", "y-", "y+"};
        s.boundary.absorbing.thickness = 0.01;
        s.boundary.fixed_faces = {"z-"};
        doc.reset(s);
        for (int f : {kXm, kXp, kYm, 3}) QCOMPARE(p.faceBox(f)->currentIndex(), int(BoundaryPanel::AbsorbingSponge));
        QCOMPARE(p.faceBox(kZm)->currentIndex(), int(BoundaryPanel::Fixed));
        QCOMPARE(p.faceBox(kZp)->currentIndex(), int(BoundaryPanel::Free));
        QCOMPARE(p.thicknessMm()->value(), 10.0);
        QCOMPARE(p.thicknessCells()->value(), 5.0);
        QVERIFY(!p.reflectionEdit()->isEnabled() || !p.reflectionEdit()->parentWidget()->isEnabled());
        // A new scene: no absorbing face, and a face made absorbing is a PML of 10 cells.
        doc.reset(box_scene());
        QCOMPARE(doc.scene().boundary.absorbing.type, std::string("pml"));
        choose(p, kZm, BoundaryPanel::AbsorbingPml);
        QCOMPARE(doc.scene().boundary.absorbing.type, std::string("pml"));
        QCOMPARE(p.thicknessCells()->value(), 10.0);
    }

    void sliceEditorDrawsTheBandsOverTheLayersCells() {
        SceneDocument doc;
        Scene s = box_scene();
        s.boundary.absorbing.faces = {"x-", "x+", "y-", "z-"};
        s.boundary.absorbing.thickness = 0.02;  // 10 cells of 2 mm
        doc.reset(s);
        SlicePainter painter(&doc);
        painter.resize(600, 400);
        painter.show();
        QVERIFY(QTest::qWaitForWindowExposed(&painter));
        painter.setPlane(SlicePlane::XZ);
        painter.setNodePlane(25);  // y = 50 mm: outside the y- layer (0 .. 20 mm)
        QCOMPARE(doc.model().n, (std::array<int, 3>{50, 50, 25}));
        // Expected, in cells of the XZ slice (x across, z up): x- 0..10 full height, x+ 40..50,
        // z- the bottom 10 cells across.
        const double t = 0.02 / 0.002;
        struct Want {
            int face;
            QRectF cells;
        };
        const std::vector<Want> want = {
            {kXm, QRectF(0, 0, t, 25)}, {kXp, QRectF(50 - t, 0, t, 25)}, {kZm, QRectF(0, 0, 50, t)}};
        auto bands = painter.layerBands();
        QCOMPARE(bands.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            QCOMPARE(bands[i].face, want[i].face);
            QCOMPARE(int(bands[i].type), int(AbsorbingType::Pml));
            QVERIFY2(std::abs(bands[i].cells.left() - want[i].cells.left()) < 1e-9 &&
                         std::abs(bands[i].cells.right() - want[i].cells.right()) < 1e-9 &&
                         std::abs(bands[i].cells.top() - want[i].cells.top()) < 1e-9 &&
                         std::abs(bands[i].cells.bottom() - want[i].cells.bottom()) < 1e-9,
                     qPrintable(QString("face %1").arg(want[i].face)));
        }
        // The pixels: a cell inside the x- band is bluer than the same concrete outside every
        // band; the cell just beyond the band's edge is not tinted.
        const QImage img = painter.grab().toImage();
        const auto at = [&](int a, int b) { return img.pixelColor(painter.pixelOfCellCentre(QPoint(a, b)).toPoint()); };
        const QColor inside = at(5, 15), beyond = at(10, 15), plain = at(25, 15);
        QCOMPARE(beyond, plain);
        QVERIFY2(inside != plain && inside.blue() > plain.blue() && inside.red() < plain.red(),
                 qPrintable(inside.name() + " vs " + plain.name()));
        // The bottom-left corner lies in two layers: tinted twice.
        const QColor corner = at(5, 5);
        QVERIFY2(corner.blue() - plain.blue() > inside.blue() - plain.blue(),
                 qPrintable(corner.name() + " vs " + inside.name()));
        // The tooltip over the corner names both layers, with the thickness in mm and cells.
        const QPoint corner_px = painter.pixelOfCellCentre(QPoint(5, 5)).toPoint();
        QHelpEvent help(QEvent::ToolTip, corner_px, painter.mapToGlobal(corner_px));
        QApplication::sendEvent(&painter, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), QString("Face x-: absorbing PML layer, 20 mm = 10 cells\n"
                                           "Face z-: absorbing PML layer, 20 mm = 10 cells"));
        QToolTip::hideText();
        // A slice inside the y- layer (element layer 3: y 6..8 mm) lies in it entirely.
        painter.setNodePlane(3);
        bands = painter.layerBands();
        QCOMPARE(bands.size(), std::size_t(4));
        QCOMPARE(bands[2].face, kYm);
        QCOMPARE(bands[2].cells, QRectF(0, 0, 50, 25));
        // A sponge is drawn in another colour (orange: more red than blue).
        Scene sp = s;
        sp.boundary.absorbing.type = "sponge";
        doc.reset(sp);
        painter.setPlane(SlicePlane::XZ);
        painter.setNodePlane(25);
        QCOMPARE(int(painter.layerBands().front().type), int(AbsorbingType::Sponge));
        painter.repaint();
        const QImage img2 = painter.grab().toImage();
        const QColor sponge = img2.pixelColor(painter.pixelOfCellCentre(QPoint(5, 15)).toPoint());
        const QColor plain2 = img2.pixelColor(painter.pixelOfCellCentre(QPoint(25, 15)).toPoint());
        QVERIFY2(sponge.red() - plain2.red() > sponge.blue() - plain2.blue(),
                 qPrintable(sponge.name() + " vs " + plain2.name()));
    }

    void windowHasTheBoundaryDockInTheViewMenuAndShowsRefusals() {
        QStandardPaths::setTestModeEnabled(true);  // QSettings of the tests stay apart from a user's
        MainWindow w;
        w.setNonInteractive(true);  // a refusal goes to lastError(), not a modal dialog
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* dock = w.findChild<QDockWidget*>("boundary-dock");
        QVERIFY(dock && dock->isAncestorOf(w.boundary()));
        bool in_view_menu = false;
        for (QAction* menu : w.menuBar()->actions())
            if (menu->menu() && menu->text().remove('&') == "View")
                in_view_menu = menu->menu()->actions().contains(dock->toggleViewAction());
        QVERIFY(in_view_menu);
        w.showPage("boundary");
        QTRY_VERIFY(!w.boundary()->visibleRegion().isEmpty());
        // A refused value: one message in the window's error, the document as it was.
        w.document()->reset(box_scene());
        choose(*w.boundary(), kXm, BoundaryPanel::AbsorbingPml);
        const BoundarySpec before = w.document()->scene().boundary;
        type_into(w.boundary()->thicknessMm(), 70);
        QVERIFY2(w.lastError().contains("Layer thickness 70 mm: must be at most half the box along x (50 mm)"),
                 qPrintable(w.lastError()));
        QCOMPARE(w.document()->scene().boundary, before);
    }

    void view3dHasOneLayerBoxPerAbsorbingFace() {
        SceneDocument doc;
        Scene s = box_scene();
        s.boundary.absorbing.faces = {"x-", "y+", "z-"};
        s.boundary.absorbing.thickness = 0.012;
        doc.reset(s);
        ModelView3D view(&doc);
        view.resize(500, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.layerActorCount(), 3);
        const auto o = doc.model().origin;
        const std::vector<std::array<double, 6>> want = {
            {o[0], o[0] + 0.012, o[1], o[1] + 0.1, o[2], o[2] + 0.05},
            {o[0], o[0] + 0.1, o[1] + 0.1 - 0.012, o[1] + 0.1, o[2], o[2] + 0.05},
            {o[0], o[0] + 0.1, o[1], o[1] + 0.1, o[2], o[2] + 0.012}};
        const auto got = view.layerActorBounds();
        for (std::size_t i = 0; i < want.size(); ++i)
            for (int c = 0; c < 6; ++c)
                QVERIFY2(std::abs(got[i][std::size_t(c)] - want[i][std::size_t(c)]) < 1e-7,  // VTK keeps floats
                         qPrintable(QString("box %1 bound %2: %3 vs %4").arg(i).arg(c).arg(got[i][c]).arg(want[i][c])));
        // The panel's edits reach the view: a fourth face, then undo.
        BoundaryPanel p(&doc);
        choose(p, kZp, BoundaryPanel::AbsorbingPml);
        QCOMPARE(view.layerActorCount(), 4);
        doc.undoStack()->undo();
        QCOMPARE(view.layerActorCount(), 3);
        view.setLayersShown(false);
        QCOMPARE(view.layerActorCount(), 0);
        view.setLayersShown(true);
        QCOMPARE(view.layerActorCount(), 3);
    }
};

int main(int argc, char** argv) {
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    TestBoundaryPanel t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_boundary_panel.moc"
