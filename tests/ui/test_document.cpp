// Save then Open gives back the same document; a broken file or an unwritable place leaves the
// current document as it was.
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

#include "core/errors.hpp"
#include "document/edit_commands.hpp"
#include "document/scene_document.hpp"
#include "editing/paint_tools.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"

using namespace voxwave;
using namespace voxwave::ui;

namespace {

Scene sample_scene() {
    Scene s;
    s.grid.size = {0.012, 0.006, 0.008};
    s.grid.spacing = 0.001;
    s.materials = {{"concrete", 2400, 4000, 2450, "#9a9a9a", ""}, {"steel", 7850, 5900, 3200, "#4a6fa5", ""}};
    s.background = "concrete";
    s.shapes.push_back(Shape{"steel", SphereShape{{0.006, 0.003, 0.004}, 0.002}});
    Source src;
    src.name = "S";
    src.position = {0.006, 0.003, 0.008};
    src.wavelet.type = WaveletType::Ricker;
    src.wavelet.frequency = 200e3;
    src.wavelet.delay = 6e-6;
    s.sources = {src};
    s.receivers = {{"A", {0.002, 0.003, 0.008}}, {"B", {0.010, 0.003, 0.008}}};
    s.run.method = Method::Vfem;
    s.run.precision = Precision::Fp32;
    s.run.duration = 2e-5;
    return s;
}

}  // namespace

class TestDocument : public QObject {
    Q_OBJECT
private slots:
    void saveOpenRoundTripWithPaintAndEdits() {
        QTemporaryDir dir;
        SceneDocument doc;
        doc.reset(sample_scene());
        // Paint, move a receiver, change run settings: all through the undo stack.
        doc.undoStack()->push(new PaintVoxelsCommand(
            &doc, rectangle_cells(doc.model(), {SlicePlane::XY, 1}, {0, 0}, {3, 2}), 0, "void corner"));
        auto recs = doc.scene().receivers;
        recs[1].position = {0.011, 0.002, 0.008};
        doc.undoStack()->push(new SetReceiversCommand(&doc, recs, "move"));
        RunSpec run = doc.scene().run;
        run.method = Method::Tcovfem;
        run.precision = Precision::Fp64;
        run.stages = 5;
        doc.undoStack()->push(new SetRunCommand(&doc, run, 0.001));
        const QString path = dir.filePath("painted.json");
        doc.save(path);
        QVERIFY(!doc.isModified());
        QVERIFY(QFile::exists(dir.filePath("painted.voxels.h5")));

        SceneDocument back;
        back.open(path);
        QVERIFY(back.model() == doc.model());  // every voxel, the spacing and the origin
        QVERIFY(back.scene().sources == doc.scene().sources);
        QVERIFY(back.scene().receivers == doc.scene().receivers);
        QVERIFY(back.scene().run == doc.scene().run);
        QVERIFY(back.scene().materials == doc.scene().materials);
        QCOMPARE(back.scene().run.stages, 5);
        // The sphere was baked into the voxels (the painted grid is the truth after painting).
        QVERIFY(back.scene().shapes.empty());
        QCOMPARE(int(back.model().at(6, 3, 4)), 2);
        QCOMPARE(int(back.model().at(0, 0, 1)), 0);
    }

    // Save as into another folder: a voxels file and a sample wavelet referenced relative to the
    // first folder must still be found from the second (the saved scene reopens to the same model).
    void saveAsElsewhereKeepsRelativeReferencesWorking() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("a/data") && QDir(dir.path()).mkpath("b"));
        Scene s = sample_scene();
        VoxelGrid g = rasterise(s);
        g.ids[3] = 2;  // not what the shapes give: proves the voxels file is what is read
        write_voxels_h5(dir.filePath("a/data/model.h5").toStdString(), "/ids", g);
        {
            std::ofstream w(dir.filePath("a/data/pulse.csv").toStdString());
            w << "0\n1\n0.5\n0\n";
        }
        s.shapes.clear();
        s.voxels = VoxelsRef{"data/model.h5", "/ids"};
        s.sources[0].wavelet = Wavelet{};
        s.sources[0].wavelet.type = WaveletType::Samples;
        s.sources[0].wavelet.file = "data/pulse.csv";
        s.sources[0].wavelet.sample_dt = 1e-7;
        s.sources[0].wavelet.samples = {0, 1, 0.5, 0};  // as the reader loads them
        write_scene_json(dir.filePath("a/scene.json").toStdString(), s);

        SceneDocument doc;
        doc.open(dir.filePath("a/scene.json"));
        QCOMPARE(doc.model().ids[3], MaterialId(2));
        doc.save(dir.filePath("b/copy.json"));
        const Scene back = read_scene_json(dir.filePath("b/copy.json").toStdString());
        QCOMPARE(QString::fromStdString(back.voxels->file), QString("../a/data/model.h5"));
        QCOMPARE(QString::fromStdString(back.sources[0].wavelet.file), QString("../a/data/pulse.csv"));
        QCOMPARE(back.sources[0].wavelet.samples.size(), std::size_t(4));
        QCOMPARE(rasterise(back).ids, g.ids);
        // The document itself now lives in b: saving again there keeps the same references.
        doc.save(dir.filePath("b/copy.json"));
        QCOMPARE(QString::fromStdString(read_scene_json(dir.filePath("b/copy.json").toStdString()).voxels->file),
                 QString("../a/data/model.h5"));
    }

    void unpaintedSceneKeepsItsShapes() {
        QTemporaryDir dir;
        SceneDocument doc;
        doc.reset(sample_scene());
        const QString path = dir.filePath("plain.json");
        doc.save(path);
        QVERIFY(!QFile::exists(dir.filePath("plain.voxels.h5")));
        const Scene back = read_scene_json(path.toStdString());
        QCOMPARE(back.shapes.size(), std::size_t(1));
        QVERIFY(back.shapes == sample_scene().shapes);
    }

    void brokenFileKeepsTheDocument() {
        QTemporaryDir dir;
        SceneDocument doc;
        doc.reset(sample_scene());
        const auto model = doc.model();
        const Scene scene = doc.scene();
        const QString bad = dir.filePath("broken.json");
        std::ofstream(bad.toStdString()) << R"({"format": "voxwave-scene", "version": 1, "grid": {"size": [0.1, )";
        bool threw = false;
        try {
            doc.open(bad);
        } catch (const InputError& e) {
            threw = true;
            QVERIFY(QString(e.what()).contains("broken.json"));
        }
        QVERIFY(threw);
        QVERIFY(doc.model() == model);
        QVERIFY(doc.scene() == scene);
        // A negative density names the field.
        const QString neg = dir.filePath("negative.json");
        std::string text = scene_to_json_text(sample_scene());
        text.replace(text.find("2400"), 4, "-2400");
        std::ofstream(neg.toStdString()) << text;
        try {
            doc.open(neg);
            QFAIL("a negative density was accepted");
        } catch (const InputError& e) {
            QVERIFY(QString(e.what()).contains("density"));
        }
        QVERIFY(doc.scene() == scene);
    }

    void unwritablePlaceKeepsPreviousFile() {
        QTemporaryDir dir;
        SceneDocument doc;
        doc.reset(sample_scene());
        QVERIFY_THROWS_EXCEPTION(InputError, doc.save(dir.filePath("no/such/dir/x.json")));
        QVERIFY(doc.path().isEmpty());  // not renamed to a file that does not exist
    }

    void spacingChangeIsUndoneExactly() {
        SceneDocument doc;
        doc.reset(sample_scene());
        doc.undoStack()->push(new PaintVoxelsCommand(&doc, {0, 1, 2}, 2, "paint"));
        const auto painted = doc.model();
        doc.undoStack()->push(new SetRunCommand(&doc, doc.scene().run, 0.002));
        QCOMPARE(doc.model().n, (std::array<int, 3>{6, 3, 4}));
        QCOMPARE(doc.scene().grid.spacing, 0.002);
        doc.undoStack()->undo();
        QVERIFY(doc.model() == painted);
        QCOMPARE(doc.scene().grid.spacing, 0.001);
    }
};

QTEST_MAIN(TestDocument)
#include "test_document.moc"
