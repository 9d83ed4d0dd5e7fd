// The Probes and Scan panels (issue 32): edits of a probe and of the scan change the scene
// document and undo restores it; a bad probe shows the engine's own line and keeps the document;
// the delay-law preview equals the steering law worked out here; a probe dragged in the slice
// editor slides along the surface (one undo step); a three-shot linear scan run from the Scan panel
// fills the B-scan one row a shot and its data equal the engine's scan function's, in memory and
// in the saved file; a raster's B-scan shows one line of shots at their places along it; a click on
// an element of the array's face shows that element's channel; the Probes dock fits its default
// width.
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <cmath>
#include <numbers>

#include "../engine/scene_builders.hpp"
#include "core/errors.hpp"
#include "document/edit_commands.hpp"
#include "document/scene_document.hpp"
#include "editing/slice_painter.hpp"
#include "main_window.hpp"
#include "panels/probes_panel.hpp"
#include "panels/scan_panel.hpp"
#include "scene/rasterise.hpp"
#include "scene/result.hpp"
#include "scene/scene_io.hpp"
#include "views/array_face_view.hpp"
#include "views/gl_format.hpp"
#include "views/model_view_3d.hpp"
#include "views/view_theme.hpp"
#include "wave/probe_scan.hpp"
#include "wave/wave_problem.hpp"

using namespace voxwave;
using namespace voxwave::ui;

namespace {

// tests/cli/lib_probe_scene.sh's scene: a 16 x 6 x 8 mm steel block at 1 mm, a 4-element array on
// its top face (normal -z) and a linear scan of 3 shots 2 mm apart with a gate; 40 steps.
Scene probe_scene() {
    Scene s = testing::block_scene(16, 6, 8, 0.001, testing::steel());
    ProbeSpec p =
        testing::top_array_probe("PA", 4, 0.001, 0.0008, 0.004, {0.005, 0.003, 0.008}, testing::ricker(700e3, 0));
    p.delay_law.type = "steer";
    p.delay_law.angle = 20;
    s.probes = {p};
    ScanSpec scan;
    scan.probe = "PA";
    scan.type = "linear";
    scan.step = {0.002, 0, 0};
    scan.positions = 3;
    scan.gated = true;
    scan.gate_start = 1e-6;
    scan.gate_end = 3e-6;
    s.scan = scan;
    s.run.steps = 40;
    return s;
}

template <class Box, class V>
void type_into(ProbesPanel& panel, const char* name, V v) {
    auto* box = panel.findChild<Box*>(name);
    QVERIFY2(box, name);
    box->setValue(v);
}

// The steering law worked out here: element e at x_e = (e - (N - 1) / 2) pitch fires at
// x_e sin(angle) / c, shifted so that the earliest is 0.
std::vector<double> steer_law(int n, double pitch, double angle_deg, double c) {
    std::vector<double> d(std::size_t(n), 0.0);
    for (int e = 0; e < n; ++e)
        d[std::size_t(e)] = (e - 0.5 * (n - 1)) * pitch * std::sin(angle_deg * std::numbers::pi / 180) / c;
    const double lo = *std::min_element(d.begin(), d.end());
    for (double& x : d) x -= lo;
    return d;
}

// Rows of the B-scan image that hold a shot's samples (not the empty plot colour all along).
int filled_image_rows(const QImage& img) {
    int rows = 0;
    const QRgb empty = view_colors().plot.rgb();
    for (int y = 0; y < img.height(); ++y) {
        bool any = false;
        for (int x = 0; x < img.width() && !any; ++x) any = img.pixel(x, y) != empty;
        rows += any;
    }
    return rows;
}

}  // namespace

class TestProbesScanPanels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }  // QSettings apart from a user's

    void probeEditsGoThroughUndo() {
        SceneDocument doc;
        doc.reset(probe_scene());
        const Scene before = doc.scene();
        ProbesPanel panel(&doc);
        QCOMPARE(panel.probeList()->count(), 1);
        QCOMPARE(panel.currentProbe(), 0);
        type_into<QDoubleSpinBox>(panel, "probe-pitch", 0.9);
        QCOMPARE(doc.scene().probes[0].pitch, 0.0009);
        QVERIFY(panel.lastError().isEmpty());
        type_into<QDoubleSpinBox>(panel, "probe-law-angle", 30.0);
        QCOMPARE(doc.scene().probes[0].delay_law.angle, 30.0);
        // The preview shows the run's law: here a steer at 30 degrees in steel (vp 5900).
        const auto want = steer_law(4, 0.0009, 30, 5900);
        const auto& got = panel.preview()->delays();
        QCOMPARE(got.size(), want.size());
        for (std::size_t e = 0; e < want.size(); ++e) QVERIFY(std::abs(got[e] - want[e]) < 1e-15);
        QCOMPARE(panel.preview()->beamAngle(), 30.0);
        QCOMPARE(doc.undoStack()->count(), 2);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QVERIFY(doc.scene().probes == before.probes);
        // The form follows the document.
        QCOMPARE(panel.findChild<QDoubleSpinBox*>("probe-pitch")->value(), 1.0);
        // Add a piston, rename the array (the scan follows it), remove it (the scan goes), undo all.
        panel.addPiston();
        QCOMPARE(doc.scene().probes.size(), std::size_t(2));
        QCOMPARE(doc.scene().probes[1].shape, std::string("disk"));
        panel.setCurrentProbe(0);
        auto* name = panel.findChild<QLineEdit*>("probe-name");
        name->setText("B1");
        emit name->editingFinished();
        QCOMPARE(doc.scene().probes[0].name, std::string("B1"));
        QCOMPARE(doc.scene().scan->probe, std::string("B1"));
        panel.removeCurrent();
        QCOMPARE(doc.scene().probes.size(), std::size_t(1));
        QVERIFY(!doc.scene().scan.has_value());
        while (doc.undoStack()->canUndo()) doc.undoStack()->undo();
        QVERIFY(doc.scene().probes == before.probes);
        QVERIFY(doc.scene().scan == before.scan);
    }

    void badProbeShowsTheEngineLine() {
        SceneDocument doc;
        doc.reset(probe_scene());
        const Scene before = doc.scene();
        ProbesPanel panel(&doc);
        QSignalSpy failed(&panel, &ProbesPanel::failed);
        // Off the surface: the run's own check (build_wave_problem, as `voxwave-cli run` says it).
        Scene bad = before;
        bad.probes[0].center[2] = 0.004;
        QString want;
        try {
            (void)build_wave_problem(bad, document_label(doc));
        } catch (const InputError& e) {
            want = QString::fromStdString(e.what());
        }
        QVERIFY(want.contains("probes[0].center") && want.contains("probe 'PA'"));
        type_into<QDoubleSpinBox>(panel, "probe-center-z", 4.0);
        QCOMPARE(panel.lastError(), want);
        QCOMPARE(failed.count(), 1);
        QVERIFY(doc.scene().probes == before.probes);
        QCOMPARE(doc.undoStack()->count(), 0);
        QCOMPARE(panel.findChild<QDoubleSpinBox*>("probe-center-z")->value(), 8.0);  // back to the document
        QVERIFY(panel.findChild<QLabel*>("probe-error")->text() == want);
        // A law angle beyond 90 degrees: validate_scene's line.
        bad = before;
        bad.probes[0].delay_law.angle = 95;
        want.clear();
        try {
            validate_scene(bad, document_label(doc));
        } catch (const InputError& e) {
            want = QString::fromStdString(e.what());
        }
        QVERIFY(want.contains("probes[0].delay_law.angle"));
        type_into<QDoubleSpinBox>(panel, "probe-law-angle", 95.0);
        QCOMPARE(panel.lastError(), want);
        QVERIFY(doc.scene().probes == before.probes);
        // Elements that do not fit the grid.
        type_into<QSpinBox>(panel, "probe-elements", 20);
        QVERIFY(panel.lastError().contains("probes[0].elements"));
        QVERIFY(doc.scene().probes == before.probes);
        // A good edit clears the message.
        type_into<QSpinBox>(panel, "probe-elements", 3);
        QVERIFY(panel.lastError().isEmpty());
        QCOMPARE(doc.scene().probes[0].elements, 3);
    }

    // A wedge switched on in the panel paints its block (as rasterise paints it) on a painted
    // model too, and undo gives the exact grid back.
    void wedgePaintsItsBlock() {
        const double ds = 0.5e-3;
        Scene s;
        s.grid.size = {40 * ds, 16 * ds, 30 * ds};
        s.grid.spacing = ds;
        s.materials = {{"steel", 7850, 5900, 3200, "#4a6fa5", ""}, {"rexolite", 1180, 2330, 1160, "#e8d9a8", ""}};
        s.background = "void";
        s.shapes.push_back({"steel", BoxShape{{0, 0, 0}, {40 * ds, 16 * ds, 20 * ds}}});
        ProbeSpec p = probe_scene().probes[0];
        p.center = {20 * ds, 8 * ds, 20 * ds};
        p.delay_law.angle = 55;
        s.probes = {p};
        s.run.steps = 40;
        SceneDocument doc;
        doc.reset(s);
        // Painted: one voxel of the specimen made void, far from the probe.
        doc.undoStack()->push(new PaintVoxelsCommand(&doc, {doc.model().element_index(1, 1, 1)}, kVoidId, "paint"));
        const VoxelGrid before = doc.model();
        ProbesPanel panel(&doc);
        auto* wedge = panel.findChild<QGroupBox*>("probe-wedge");
        wedge->setChecked(true);
        QVERIFY2(panel.lastError().isEmpty(), qPrintable(panel.lastError()));
        QVERIFY(doc.scene().probes[0].wedge.has_value());
        QCOMPARE(doc.scene().probes[0].wedge->material, std::string("rexolite"));
        // The block the usual wedge would have: 36.6 degrees, 3 mm high.
        type_into<QDoubleSpinBox>(panel, "probe-wedge-angle", 36.6);
        type_into<QDoubleSpinBox>(panel, "probe-wedge-height", 3.0);
        QVERIFY2(panel.lastError().isEmpty(), qPrintable(panel.lastError()));
        QCOMPARE(doc.scene().probes[0].wedge->height, 3e-3);
        // The grid is the engine's rasterisation of the edited scene but for the painted voxel.
        VoxelGrid want = rasterise(doc.scene());
        want.ids[doc.model().element_index(1, 1, 1)] = kVoidId;
        QVERIFY(doc.model().ids == want.ids);
        QVERIFY(doc.model().ids != before.ids);
        // The preview is the run's law on the wedge (build_wave_problem on the model), the beam 55 degrees.
        const WaveProblem run = build_wave_problem(doc.scene(), doc.model(), "w");
        QVERIFY(panel.preview()->delays() == run.probes[0].delays);
        QCOMPARE(panel.preview()->beamAngle(), 55.0);
        while (doc.undoStack()->index() > 1) doc.undoStack()->undo();
        QVERIFY(doc.model().ids == before.ids);
        QVERIFY(!doc.scene().probes[0].wedge.has_value());
    }

    // The library's probes, centred on the top face; the wedge's material comes from the
    // material library in the same undo step.
    void libraryProbesAreAdded() {
        const auto library = ProbesPanel::libraryProbes();
        const auto named = [&](const std::string& n) {
            const auto it =
                std::find_if(library.begin(), library.end(), [&](const ProbeSpec& p) { return p.name == n; });
            return it == library.end() ? ProbeSpec{} : *it;
        };
        const ProbeSpec disk = named("disk-10mm-2.25MHz"), wedge = named("wedge-55S-2.25MHz");
        QVERIFY(disk.diameter == 0.010 && wedge.wedge.has_value());
        Scene s;
        s.grid.size = {0.06, 0.03, 0.04};
        s.grid.spacing = 0.001;
        s.materials = {{"steel", 7850, 5900, 3200, "#4a6fa5", ""}};
        s.background = "void";
        s.shapes.push_back({"steel", BoxShape{{0, 0, 0}, {0.06, 0.03, 0.025}}});
        s.run.steps = 10;
        SceneDocument doc;
        doc.reset(s);
        ProbesPanel panel(&doc);
        // The disk: on the steel's top face (the first material down the box's middle).
        panel.addFromLibrary(disk);
        QVERIFY2(panel.lastError().isEmpty(), qPrintable(panel.lastError()));
        QCOMPARE(doc.scene().probes.size(), std::size_t(1));
        QCOMPARE(doc.scene().probes[0].name, disk.name);
        QVERIFY(doc.scene().probes[0].center == (Vec3{0.03, 0.015, 0.025}));
        doc.undoStack()->undo();
        // The wedge needs rexolite, which the scene lacks: the material and the probe come
        // together, and one undo takes both out.
        panel.addFromLibrary(wedge);
        QVERIFY2(panel.lastError().isEmpty(), qPrintable(panel.lastError()));
        QCOMPARE(doc.scene().materials.size(), std::size_t(2));
        QCOMPARE(doc.scene().materials[1].name, std::string("rexolite"));
        QCOMPARE(doc.scene().probes.size(), std::size_t(1));
        QVERIFY(doc.scene().probes[0].center == (Vec3{0.03, 0.015, 0.025}));
        doc.undoStack()->undo();
        QCOMPARE(doc.scene().materials.size(), std::size_t(1));
        QVERIFY(doc.scene().probes.empty());
        // Steel up to the grid's top: the block has no room above it; refused with the engine's
        // line, the material not added.
        s.shapes.clear();
        s.background = "steel";
        doc.reset(s);
        panel.addFromLibrary(wedge);
        QVERIFY(panel.lastError().contains("probes[0].wedge"));
        QCOMPARE(doc.scene().materials.size(), std::size_t(1));
        QVERIFY(doc.scene().probes.empty());
    }

    void scanEditsGoThroughUndo() {
        SceneDocument doc;
        doc.reset(probe_scene());
        const Scene before = doc.scene();
        ScanPanel panel(&doc);
        auto* positions = panel.findChild<QSpinBox*>("scan-positions");
        positions->setValue(5);
        QCOMPARE(doc.scene().scan->positions, 5);
        auto* step = panel.findChild<QDoubleSpinBox*>("scan-step-x");
        step->setValue(1.5);
        QCOMPARE(doc.scene().scan->step[0], 0.0015);
        // Shots that leave the grid are refused when the scan runs (the engine checks every
        // shot's footprint first), with the engine's line.
        positions->setValue(9);
        QCOMPARE(doc.scene().scan->positions, 9);
        panel.runScan();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.job().busy(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(panel.lastError().contains("scan: shot"), 5000);
        QVERIFY(panel.lastError().contains("probes[0].elements: probe 'PA'"));
        while (doc.undoStack()->canUndo()) doc.undoStack()->undo();
        QVERIFY(doc.scene().scan == before.scan);
        QCOMPARE(positions->value(), 3);
        // No scan: the probe box's first item.
        auto* probe = panel.findChild<QComboBox*>("scan-probe");
        probe->setCurrentIndex(0);
        emit probe->activated(0);
        QVERIFY(!doc.scene().scan.has_value());
        doc.undoStack()->undo();
        QVERIFY(doc.scene().scan == before.scan);
    }

    void linearScanFillsTheBScanRowByRow() {
        SceneDocument doc;
        const Scene scene = probe_scene();
        doc.reset(scene);
        ScanPanel panel(&doc);
        panel.resultsView()->resize(900, 300);
        panel.resultsView()->show();
        std::vector<int> filled, image_rows, traces;
        connect(&panel, &ScanPanel::shotCompleted, &panel, [&](int n) {
            filled.push_back(n);
            image_rows.push_back(filled_image_rows(panel.bscan()->image()));
            traces.push_back(int(std::count_if(panel.state().traces.begin(), panel.state().traces.end(),
                                               [](const QPolygonF& t) { return !t.isEmpty(); })));
        });
        QSignalSpy finished(&panel, &ScanPanel::scanFinished);
        panel.runScan();
        QCOMPARE(panel.shotCount(), 3);
        QCOMPARE(panel.filledRows(), 0);
        QVERIFY(finished.wait(60000));
        QCOMPARE(filled, (std::vector<int>{1, 2, 3}));
        QCOMPARE(image_rows, (std::vector<int>{1, 2, 3}));
        QCOMPARE(traces, (std::vector<int>{1, 2, 3}));
        QCOMPARE(panel.cscan()->filledCells(), 3);
        // The same scan by the engine's function (voxwave-cli scan's path), called here.
        const Result direct = run_probe_scan(scene, rasterise(scene), "direct", {});
        QVERIFY(panel.result() != nullptr);
        QVERIFY(panel.result()->scan.has_value());
        const ScanRecord& got = *panel.result()->scan;
        const ScanRecord& want = *direct.scan;
        QVERIFY(got.shot_signals == want.shot_signals);
        QVERIFY(got.cscan == want.cscan);
        QVERIFY(got.shot_positions == want.shot_positions);
        QVERIFY(!want.shot_signals.empty());
        // What the B-scan shows of shot k: the delay-and-sum of its elements with the probe's law.
        const std::size_t nt = direct.sample_count();
        for (int k = 0; k < 3; ++k) {
            const std::vector<double> elements(want.shot_signals.begin() + std::ptrdiff_t(k * 4 * nt),
                                               want.shot_signals.begin() + std::ptrdiff_t((k + 1) * 4 * nt));
            QVERIFY(panel.shotChannel(k) == delay_and_sum(elements, nt, direct.probes[0].delays, direct.dt));
        }
        panel.setChannel(2);
        QVERIFY(panel.shotChannel(1) == std::vector<double>(want.shot_signals.begin() + std::ptrdiff_t((4 + 2) * nt),
                                                            want.shot_signals.begin() + std::ptrdiff_t((4 + 3) * nt)));
        // A click on a row shows that shot's A-scan alone.
        const QRect row = panel.bscan()->rowRect(1);
        QTest::mouseClick(panel.bscan(), Qt::LeftButton, {}, row.center());
        QCOMPARE(panel.state().selected, 1);
        QCOMPARE(panel.ascan()->visibleReceivers(), (std::vector<std::size_t>{1}));
        // Saved in the CLI's layout, and read back the same.
        QTemporaryDir dir;
        const QString path = dir.filePath("scan.h5");
        QVERIFY(panel.saveResult(path));
        const Result back = read_result_h5(path.toStdString());
        QVERIFY(back.scan.has_value());
        QVERIFY(back.scan->shot_signals == want.shot_signals);
        QVERIFY(back.scan->cscan == want.cscan);
        QVERIFY(back.probes == direct.probes);
        if (qEnvironmentVariableIsSet("VOXWAVE_SCREENSHOT_DIR")) {
            panel.setChannel(-1);
            panel.resultsView()->grab().save(qEnvironmentVariable("VOXWAVE_SCREENSHOT_DIR") + "/probe-scan-views.png");
        }
    }

    // Cancel stops the scan between steps: fewer rows than shots, no result to save.
    void cancelStopsTheScan() {
        Scene scene = probe_scene();
        scene.run.steps = 3000;
        SceneDocument doc;
        doc.reset(scene);
        ScanPanel panel(&doc);
        connect(&panel, &ScanPanel::shotCompleted, &panel, [&panel](int n) {
            if (n == 1) panel.cancelScan();
        });
        panel.runScan();
        QTRY_VERIFY_WITH_TIMEOUT(panel.filledRows() >= 1, 120000);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.job().busy(), 120000);
        QVERIFY2(panel.filledRows() < 3, qPrintable(QString::number(panel.filledRows())));
        QVERIFY(panel.result() == nullptr);
        QVERIFY(!panel.findChild<QPushButton*>("scan-save")->isEnabled());
        QVERIFY(panel.findChild<QPushButton*>("scan-run")->isEnabled());
        QVERIFY(panel.lastError().isEmpty());  // a cancel is no error
        QVERIFY(!panel.saveResult(QDir::temp().filePath("never.h5")));
    }

    // The 3D view draws one outline a probe and follows the document.
    void probesIn3D() {
        SceneDocument doc;
        doc.reset(probe_scene());
        ModelView3D view(&doc);
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.probeActorCount(), 1);
        auto probes = doc.scene().probes;
        probes.push_back(probes[0]);
        probes[1].name = "PB";
        probes[1].center[0] = 0.011;
        QVERIFY(push_probes_edit(&doc, probes, doc.scene().scan, "add").isEmpty());
        QCOMPARE(view.probeActorCount(), 2);
        doc.undoStack()->undo();
        QCOMPARE(view.probeActorCount(), 1);
    }

    void probeDraggedAlongTheSurface() {
        SceneDocument doc;
        doc.reset(probe_scene());
        SlicePainter painter(&doc);
        painter.resize(640, 400);
        painter.show();
        QVERIFY(QTest::qWaitForWindowExposed(&painter));
        painter.setPlane(SlicePlane::XZ);
        painter.setNodePlane(3);
        painter.fitToWindow();
        painter.setTool(SliceTool::Move);
        const QPointF from = painter.pixelOf({0.005, 0.003, 0.008});
        const QPointF to = painter.pixelOf({0.009, 0.003, 0.0065});  // off the surface in z: it stays on it
        QTest::mousePress(&painter, Qt::LeftButton, {}, from.toPoint());
        QTest::mouseMove(&painter, to.toPoint());
        QTest::mouseRelease(&painter, Qt::LeftButton, {}, to.toPoint());
        const Vec3 c = doc.scene().probes[0].center;
        QVERIFY(std::abs(c[0] - 0.009) < 1e-12);
        QCOMPARE(c[1], 0.003);
        QCOMPARE(c[2], 0.008);
        QCOMPARE(doc.undoStack()->count(), 1);
        doc.undoStack()->undo();
        QCOMPARE(doc.scene().probes[0].center[0], 0.005);
        // Dragged so far that its elements leave the grid: refused with the engine's line.
        QSignalSpy refused(&painter, &SlicePainter::probeMoveRefused);
        const QPointF edge = painter.pixelOf({0.015, 0.003, 0.008});
        QTest::mousePress(&painter, Qt::LeftButton, {}, from.toPoint());
        QTest::mouseMove(&painter, edge.toPoint());
        QTest::mouseRelease(&painter, Qt::LeftButton, {}, edge.toPoint());
        QCOMPARE(refused.count(), 1);
        QVERIFY(refused.at(0).at(0).toString().contains("probes[0].elements: probe 'PA'"));
        QCOMPARE(doc.scene().probes[0].center[0], 0.005);
        if (qEnvironmentVariableIsSet("VOXWAVE_SCREENSHOT_DIR"))
            painter.grab().save(qEnvironmentVariable("VOXWAVE_SCREENSHOT_DIR") + "/probe-slice-editor.png");
    }

    // A raster's B-scan shows one line of shots against their place along it (the Line box, or a
    // click on the C-scan, picks the line); the rows hold that line's shots' signals.
    void rasterBScanShowsOneLine() {
        Scene scene = probe_scene();
        scene.scan->type = "raster";
        scene.scan->positions2 = 2;
        scene.scan->step2 = {0, 0.001, 0};
        SceneDocument doc;
        doc.reset(scene);
        ScanPanel panel(&doc);
        panel.resultsView()->resize(900, 300);
        panel.resultsView()->show();
        QSignalSpy finished(&panel, &ScanPanel::scanFinished);
        panel.runScan();
        QCOMPARE(panel.shotCount(), 6);
        QVERIFY(finished.wait(60000));
        QCOMPARE(panel.cscan()->filledCells(), 6);
        QCOMPARE(panel.shownLine(), 1);  // the view followed the shots to the last line filled
        auto* line_box = panel.resultsView()->findChild<QSpinBox*>("scan-line");
        QVERIFY(line_box && line_box->isVisible());
        QCOMPARE(line_box->maximum(), 2);
        const Result direct = run_probe_scan(scene, rasterise(scene), "direct", {});
        const std::size_t nt = direct.sample_count();
        const ScanRecord& want = *direct.scan;
        const auto shot_sum = [&](std::size_t shot) {
            const std::vector<double> elements(want.shot_signals.begin() + std::ptrdiff_t(shot * 4 * nt),
                                               want.shot_signals.begin() + std::ptrdiff_t((shot + 1) * 4 * nt));
            return delay_and_sum(elements, nt, direct.probes[0].delays, direct.dt);
        };
        // The two lines' signals differ (the block's side faces are at other distances), so a row
        // of the wrong line would show.
        QVERIFY(shot_sum(1) != shot_sum(4));
        const Vec3 c = scene.probes[0].center;
        for (int j : {0, 1}) {
            line_box->setValue(j + 1);
            QCOMPARE(panel.shownLine(), j);
            QCOMPARE(panel.cscan()->line(), j);
            const ScanState& st = panel.state();
            QCOMPARE(st.count(), std::size_t(3));
            QCOMPARE(st.position_quantity, QStringLiteral("x"));
            QCOMPARE(panel.bscan()->positionTitle(), QStringLiteral("x (mm)"));
            // Shot (i, j) of the raster: the probe's centre + i step + j step2, here x = 5 + 2 i mm.
            for (std::size_t i = 0; i < 3; ++i) {
                const double x = c[0] + double(i) * scene.scan->step[0] + j * scene.scan->step2[0];
                QVERIFY2(std::abs(st.line.coordinate[i] - x) < 1e-12,
                         qPrintable(QString::number(st.line.coordinate[i])));
                QCOMPARE(st.names[i], QStringLiteral("shot %1").arg(3 * j + int(i) + 1));
                QVERIFY(panel.shotChannel(3 * j + int(i)) == shot_sum(std::size_t(3 * j) + i));
                // Its row: the image row filled from that shot's samples, drawn at its x.
                QImage want_row(panel.bscan()->image().width(), 1, QImage::Format_RGB32);
                fill_bscan_row(want_row, 0, shot_sum(std::size_t(3 * j) + i), st);
                const QImage& img = panel.bscan()->image();
                QCOMPARE(img.height(), 3);
                for (int col = 0; col < img.width(); ++col)
                    QCOMPARE(img.pixel(col, int(st.rank[i])), want_row.pixel(col, 0));
                const QRect plot = panel.bscan()->plotRect();
                const double top = c[0] - 0.5 * scene.scan->step[0];  // half a step beyond the first and last
                const double bottom = c[0] + 2.5 * scene.scan->step[0];
                QVERIFY(std::abs(panel.bscan()->positionTop() - top) < 1e-12);
                QVERIFY(std::abs(panel.bscan()->positionBottom() - bottom) < 1e-12);
                const int y = plot.top() + int((x - top) / (bottom - top) * plot.height());
                QCOMPARE(panel.bscan()->receiverAt(QPoint(plot.center().x(), y)), int(i));
            }
        }
        // A click on the C-scan's cell (i 2, line 0) selects that shot and shows its line.
        const QRect cplot = panel.cscan()->plotRect();
        const QPoint cell(cplot.left() + int(2.5 / 3 * cplot.width()), cplot.bottom() - int(0.25 * cplot.height()));
        QTest::mouseClick(panel.cscan(), Qt::LeftButton, {}, cell);
        QCOMPARE(panel.selectedShot(), 2);
        QCOMPARE(panel.shownLine(), 0);
        QCOMPARE(line_box->value(), 1);
        QCOMPARE(panel.state().selected, 2);
        QCOMPARE(panel.ascan()->visibleReceivers(), (std::vector<std::size_t>{2}));
        // A click on the B-scan's row of shot 2 of line 1 selects shot 5 of the scan.
        line_box->setValue(2);
        QCOMPARE(panel.selectedShot(), -1);
        QTest::mouseClick(panel.bscan(), Qt::LeftButton, {}, panel.bscan()->rowRect(2).center());
        QCOMPARE(panel.selectedShot(), 5);
        QCOMPARE(panel.cscan()->selected(), 5);
        if (qEnvironmentVariableIsSet("VOXWAVE_SCREENSHOT_DIR"))
            panel.resultsView()->grab().save(qEnvironmentVariable("VOXWAVE_SCREENSHOT_DIR") +
                                             "/probe-raster-views.png");
    }

    // A click on an element of the array's face shows that element's signal: the Channel box
    // follows, and the face follows the Channel box.
    void clickingAnElementShowsItsChannel() {
        const Scene scene = probe_scene();
        SceneDocument doc;
        doc.reset(scene);
        ScanPanel panel(&doc);
        panel.resultsView()->resize(900, 300);
        panel.resultsView()->show();
        QVERIFY(QTest::qWaitForWindowExposed(panel.resultsView()));
        QSignalSpy finished(&panel, &ScanPanel::scanFinished);
        panel.runScan();
        QVERIFY(finished.wait(60000));
        ArrayFaceView* face = panel.arrayFace();
        QVERIFY(face->isVisible());
        QCOMPARE(face->elementCount(), 4);
        auto* channel = panel.resultsView()->findChild<QComboBox*>("scan-channel");
        QVERIFY(channel);
        // The face from the probe's geometry: 4 elements 1 mm apart, 0.8 mm wide, the aperture from
        // -1.9 to 1.9 mm across the drawn face's width, element 1 at the left (-x: the array axis +x).
        const ProbeSpec& probe = scene.probes[0];
        const double half = 0.5 * (3 * probe.pitch + probe.element_width);
        const QRectF f = face->faceRect();
        QVERIFY(f.width() > 40);
        const auto pixel_at = [&](double offset) {
            return QPoint(int(std::lround(f.left() + (offset + half) / (2 * half) * f.width())), int(f.center().y()));
        };
        const auto element_centre = [&](int e) { return pixel_at((e - 1.5) * probe.pitch); };
        const Result direct = run_probe_scan(scene, rasterise(scene), "direct", {});
        const std::size_t nt = direct.sample_count();
        const auto element_signal = [&](int shot, int e) {
            const auto at =
                direct.scan->shot_signals.begin() + std::ptrdiff_t((std::size_t(shot) * 4 + std::size_t(e)) * nt);
            return std::vector<double>(at, at + std::ptrdiff_t(nt));
        };
        QTest::mouseClick(face, Qt::LeftButton, {}, element_centre(2));
        QCOMPARE(panel.channel(), 2);
        QCOMPARE(face->selected(), 2);
        QCOMPARE(channel->currentData().toInt(), 2);
        QCOMPARE(channel->currentText(), QStringLiteral("element 3"));
        QVERIFY(panel.shotChannel(1) == element_signal(1, 2));
        QTest::mouseClick(face, Qt::LeftButton, {}, element_centre(0));
        QCOMPARE(panel.channel(), 0);
        QCOMPARE(channel->currentText(), QStringLiteral("element 1"));
        QVERIFY(panel.shotChannel(0) == element_signal(0, 0));
        // The Channel box moves the face's pick.
        channel->setCurrentIndex(channel->findData(3));
        emit channel->activated(channel->currentIndex());
        QCOMPARE(panel.channel(), 3);
        QCOMPARE(face->selected(), 3);
        // A click on the element shown, or in the gap between two elements, is the delay-and-sum.
        QTest::mouseClick(face, Qt::LeftButton, {}, element_centre(3));
        QCOMPARE(panel.channel(), -1);
        QCOMPARE(channel->currentData().toInt(), -1);
        QTest::mouseClick(face, Qt::LeftButton, {}, element_centre(1));
        QCOMPARE(panel.channel(), 1);
        QTest::mouseClick(face, Qt::LeftButton, {}, pixel_at(-probe.pitch));  // between elements 1 and 2
        QCOMPARE(panel.channel(), -1);
        QCOMPARE(face->selected(), -1);
        QVERIFY(panel.shotChannel(1) == delay_and_sum({direct.scan->shot_signals.begin() + std::ptrdiff_t(4 * nt),
                                                       direct.scan->shot_signals.begin() + std::ptrdiff_t(8 * nt)},
                                                      nt, direct.probes[0].delays, direct.dt));
        if (qEnvironmentVariableIsSet("VOXWAVE_SCREENSHOT_DIR")) {
            QTest::mouseClick(face, Qt::LeftButton, {}, element_centre(2));
            panel.resultsView()->grab().save(qEnvironmentVariable("VOXWAVE_SCREENSHOT_DIR") +
                                             "/probe-element-channel.png");
        }
    }

    // The Probes dock at its default width (360 px) needs no horizontal scrollbar, whatever rows
    // the selected probe shows.
    void probesDockFitsItsDefaultWidth() {
        QSettings().clear();
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        Scene scene = probe_scene();
        ProbeSpec piston = scene.probes[0];
        piston.name = "P1";
        piston.type = "piston";
        piston.shape = "rect";
        piston.width = 0.004;
        piston.length = 0.004;
        piston.center = {0.012, 0.003, 0.008};
        scene.probes.push_back(piston);
        w.document()->reset(scene);
        auto* dock = w.findChild<QDockWidget*>("probes-dock");
        QVERIFY(dock);
        dock->raise();
        QApplication::processEvents();
        auto* area = qobject_cast<QScrollArea*>(dock->widget());
        QVERIFY(area);
        QVERIFY2(std::abs(dock->width() - 360) <= 8, qPrintable(QString::number(dock->width())));
        ProbesPanel* panel = w.probes();
        // Each number shows whole in its box (none cut short by a narrow field).
        const auto numbers_whole = [](QWidget* in) {
            for (QDoubleSpinBox* box : in->findChildren<QDoubleSpinBox*>()) {
                if (!box->isVisible()) continue;
                auto* edit = box->findChild<QLineEdit*>();
                QVERIFY(edit);
                QVERIFY2(
                    edit->width() >= edit->fontMetrics().horizontalAdvance(edit->text()) + 2,
                    qPrintable(
                        QStringLiteral("%1: %2 in %3 px").arg(box->objectName(), edit->text()).arg(edit->width())));
            }
        };
        const auto fits = [&](const char* what) {
            QApplication::processEvents();
            QVERIFY2(!area->horizontalScrollBar()->isVisible(),
                     qPrintable(QStringLiteral("%1: panel needs %2 px, the dock shows %3")
                                    .arg(what)
                                    .arg(panel->minimumSizeHint().width())
                                    .arg(area->viewport()->width())));
            numbers_whole(panel);
        };
        panel->setCurrentProbe(0);
        fits("array");
        QVERIFY(panel->findChild<QGroupBox*>("probe-wedge")->isVisible());  // an array shows the wedge's rows
        panel->setCurrentProbe(1);
        fits("rectangular piston");
        // The Scan dock shares the left column's width.
        auto* scan_dock = w.findChild<QDockWidget*>("scan-dock");
        scan_dock->raise();
        QApplication::processEvents();
        auto* scan_area = qobject_cast<QScrollArea*>(scan_dock->widget());
        QVERIFY(scan_area);
        QVERIFY2(!scan_area->horizontalScrollBar()->isVisible(),
                 qPrintable(QStringLiteral("the scan panel needs %1 px, the dock shows %2")
                                .arg(w.scan()->minimumSizeHint().width())
                                .arg(scan_area->viewport()->width())));
        numbers_whole(w.scan());
        if (qEnvironmentVariableIsSet("VOXWAVE_SCREENSHOT_DIR"))
            dock->grab().save(qEnvironmentVariable("VOXWAVE_SCREENSHOT_DIR") + "/probes-dock-360.png");
    }

    void panelsInTheWindow() {
        MainWindow w;
        w.document()->reset(probe_scene());
        QVERIFY(w.probes() != nullptr);
        QVERIFY(w.scan() != nullptr);
        QCOMPARE(w.probes()->probeList()->count(), 1);
        if (qEnvironmentVariableIsSet("VOXWAVE_SCREENSHOT_DIR")) {
            w.resize(1500, 950);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QSignalSpy finished(w.scan(), &ScanPanel::scanFinished);
            for (const char* name : {"probes-dock", "scan-dock"}) w.findChild<QDockWidget*>(name)->raise();
            w.scan()->runScan();
            QVERIFY(finished.wait(60000));
            w.scan()->selectShot(1);
            QTest::qWait(300);
            w.grab().save(qEnvironmentVariable("VOXWAVE_SCREENSHOT_DIR") + "/probe-window.png");
            w.showPage("3d");
            QTest::qWait(500);
            w.grab().save(qEnvironmentVariable("VOXWAVE_SCREENSHOT_DIR") + "/probe-window-3d.png");
            w.probes()->grab().save(qEnvironmentVariable("VOXWAVE_SCREENSHOT_DIR") + "/probes-panel.png");
        }
    }
};

int main(int argc, char** argv) {
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    TestProbesScanPanels t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_probes_scan_panels.moc"
