// Shapes placed with the form paint exactly the elements the engine's rasteriser would; imports
// of an HDF5 volume and of an image stack give exactly the ids in the files; bad files change nothing.
#include <QApplication>
#include <QTemporaryDir>
#include <QtTest>

#include "../engine/scene_builders.hpp"
#include "core/errors.hpp"
#include "document/scene_document.hpp"
#include "panels/shapes_panel.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"

using namespace voxwave;
using namespace voxwave::ui;

namespace {

// 30 x 20 x 10 mm of concrete at 1 mm, steel in the table.
Scene base_scene() { return testing::concrete_block_with_steel(30, 20, 10, 1e-3); }

}  // namespace

class TestShapesPanel : public QObject {
    Q_OBJECT
private slots:
    void formShapesPaintWhatTheRasteriserPaints() {
        SceneDocument doc;
        doc.reset(base_scene());
        ShapesPanel panel(&doc);
        const auto before = doc.model().ids;
        const Shape shapes[] = {
            Shape{"steel", CylinderShape{{0.015, 0.01, 0.005}, {0, 1, 0}, 0.003, 0.02}},
            Shape{"void", SphereShape{{0.006, 0.006, 0.005}, 0.0035}},
            Shape{"steel", BoxShape{{0.02, 0.002, 0.001}, {0.028, 0.005, 0.004}}},
            Shape{"steel", AggregateShape{{0.0, 0.0, 0.0}, {0.03, 0.02, 0.01}, 0.3, 0.001, 0.002, 7}},
        };
        for (const Shape& sh : shapes) {
            panel.setFormShape(sh);
            const Shape from_form = panel.formShape();
            QVERIFY(from_form == sh);  // the form shows and gives back the exact parameters
            panel.addShape(from_form);
        }
        // The engine's rasteriser on the same scene with these shapes is the oracle.
        Scene s = base_scene();
        for (const Shape& sh : shapes) s.shapes.push_back(sh);
        QVERIFY(doc.model().ids == rasterise(s).ids);
        for (int i = 0; i < 4; ++i) doc.undoStack()->undo();
        QVERIFY(doc.model().ids == before);
    }

    // A placed shape can be edited later: the edit gives the old shape's voxels back, paints the
    // new one, is one undo step, and the list of placed shapes follows undo and redo.
    void placedShapesCanBeEditedAndTheEditUndone() {
        SceneDocument doc;
        doc.reset(base_scene());
        ShapesPanel panel(&doc);
        const auto original = doc.model().ids;
        const Shape first{"steel", SphereShape{{0.010, 0.010, 0.005}, 0.003}};
        const Shape box{"void", BoxShape{{0.0, 0.0, 0.0}, {0.004, 0.004, 0.004}}};
        panel.addShape(first);
        panel.addShape(box);  // another shape, placed later, must survive the edit
        const auto after_first = doc.model().ids;
        QCOMPARE(panel.placedShapes().size(), std::size_t(2));
        QVERIFY(panel.placedShapes()[0]->shape() == first);

        const Shape moved{"steel", SphereShape{{0.020, 0.012, 0.005}, 0.002}};
        panel.editShape(panel.placedShapes()[0], moved);
        // Oracle: the rasteriser with the box and the moved sphere only.
        Scene s = base_scene();
        s.shapes = {box, moved};
        const auto expected = rasterise(s).ids;
        QVERIFY(doc.model().ids == expected);
        QCOMPARE(panel.placedShapes().size(), std::size_t(2));
        QVERIFY(panel.placedShapes()[1]->shape() == moved);  // the edit, listed after the box

        // A second edit of the edited shape, with another material: still the rasteriser's answer.
        const Shape grown{"void", SphereShape{{0.020, 0.012, 0.005}, 0.004}};
        panel.editShape(panel.placedShapes()[1], grown);
        s.shapes = {box, grown};
        QVERIFY(doc.model().ids == rasterise(s).ids);
        QCOMPARE(panel.placedShapes().size(), std::size_t(2));

        doc.undoStack()->undo();
        QVERIFY(doc.model().ids == expected);
        doc.undoStack()->undo();
        QVERIFY(doc.model().ids == after_first);
        QVERIFY(panel.placedShapes()[0]->shape() == first);
        doc.undoStack()->redo();
        QVERIFY(doc.model().ids == expected);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QVERIFY(doc.model().ids == original);
        QVERIFY(panel.placedShapes().empty());
        // Editing a shape that is no longer in the model is refused.
        doc.undoStack()->redo();
        const ShapePaintCommand* c = panel.placedShapes()[0];
        doc.undoStack()->undo();
        QVERIFY_THROWS_EXCEPTION(InputError, panel.editShape(c, moved));
    }

    void importVolumeGivesTheFileIds() {
        QTemporaryDir dir;
        SceneDocument doc;
        doc.reset(base_scene());
        ShapesPanel panel(&doc);
        VoxelGrid vol = doc.model();
        for (std::size_t e = 0; e < vol.ids.size(); ++e) vol.ids[e] = MaterialId(e % 3);  // void, concrete, steel
        const QString path = dir.filePath("vol.h5");
        write_voxels_h5(path.toStdString(), "/v", vol);
        QCOMPARE(panel.importVolume(path, "/v"), vol.ids.size());
        QVERIFY(doc.model().ids == vol.ids);
        doc.undoStack()->undo();
        // A volume naming a material the scene lacks, and a truncated file: errors, nothing changed.
        const auto kept = doc.model().ids;
        vol.ids[5] = 7;
        write_voxels_h5(path.toStdString(), "/v", vol);
        QVERIFY_THROWS_EXCEPTION(InputError, panel.importVolume(path, "/v"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        f.resize(f.size() / 2);
        f.close();
        QVERIFY_THROWS_EXCEPTION(InputError, panel.importVolume(path, "/v"));
        QVERIFY(doc.model().ids == kept);
    }

    void importImageStackMapsColoursToMaterials() {
        QTemporaryDir dir;
        SceneDocument doc;
        doc.reset(base_scene());
        ShapesPanel panel(&doc);
        // Two 30 x 20 slices: left third black (void), middle concrete grey, right third steel blue,
        // with slightly perturbed colours (nearest colour decides).
        QStringList files;
        for (int k = 0; k < 2; ++k) {
            QImage img(30, 20, QImage::Format_RGB32);
            for (int y = 0; y < 20; ++y)
                for (int x = 0; x < 30; ++x)
                    img.setPixelColor(x, y,
                                      x < 10   ? QColor(10, 5, 0)
                                      : x < 20 ? QColor(150, 160, 150)
                                               : QColor(80, 110, 160));
            files << dir.filePath(QString("slice%1.png").arg(k));
            QVERIFY(img.save(files.back()));
        }
        QCOMPARE(panel.importImageStack(files), std::size_t(2 * 30 * 20));
        const VoxelGrid& g = doc.model();
        for (int k = 0; k < 2; ++k)
            for (int j = 0; j < 20; ++j)
                for (int i = 0; i < 30; ++i) QCOMPARE(int(g.at(i, j, k)), i < 10 ? 0 : i < 20 ? 1 : 2);
        QCOMPARE(int(g.at(5, 5, 2)), 1);  // slices beyond the stack untouched
        QVERIFY_THROWS_EXCEPTION(InputError, panel.importImageStack({dir.filePath("missing.png")}));
    }
};

QTEST_MAIN(TestShapesPanel)
#include "test_shapes_panel.moc"
