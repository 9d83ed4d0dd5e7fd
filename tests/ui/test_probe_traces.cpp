// Receiving probes in the live view (issue 35): the trace panel lists one trace per piston and
// per active array element ("A / element 2"), not the face nodes the probe became, and each trace
// is the weighted mean of the face nodes' displacements, computed here on its own from the
// footprints' nodal weights and a separate run of the same problem. The wavefield view draws the
// probes: every element's face, and the beam at the law's angle (through a wedge by Snell's law).
#include <QComboBox>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <numbers>

#include "probe/probe_footprint.hpp"
#include "ui_test_support.hpp"
#include "views/gl_format.hpp"
#include "views/trace_panel.hpp"
#include "views/wavefield_view.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_session.hpp"

using namespace voxwave;
using namespace voxwave::ui;
using namespace voxwave::ui::test;

namespace {

// A receiver, a 2 mm square piston and a 4-element array using its middle two elements, on top
// of a small steel block.
constexpr const char* kScene = R"({
  "format": "voxwave-scene", "version": 1,
  "grid": {"size": [0.012, 0.006, 0.006], "spacing": 0.0005, "origin": [0, 0, 0]},
  "materials": [{"name": "steel", "density": 7850, "vp": 5900, "vs": 3200, "color": "#4a6fa5"}],
  "background": "steel",
  "receivers": [{"name": "R", "position": [0.006, 0.003, 0.002]}],
  "probes": [
    {"name": "P", "type": "piston", "shape": "rect", "width": 0.0021, "length": 0.0017,
     "center": [0.003, 0.003, 0.006], "normal": [0, 0, -1], "array_axis": [1, 0, 0],
     "amplitude": 1e6, "wavelet": {"type": "tone_burst", "frequency": 2e6, "cycles": 2}},
    {"name": "A", "type": "array", "elements": 4, "pitch": 0.001, "element_width": 0.0008, "elevation": 0.0023,
     "center": [0.0085, 0.003, 0.006], "normal": [0, 0, -1], "array_axis": [1, 0, 0], "active": [1, 2],
     "amplitude": 1e6, "wavelet": {"type": "tone_burst", "frequency": 2e6, "cycles": 2},
     "delay_law": {"type": "steer", "angle": 20}}
  ],
  "damping": {"type": "none"},
  "run": {"method": "ovfem", "precision": "fp64", "dt": 0, "duration": 1e-5, "backend": "cpu"}
})";

constexpr double kDegree = std::numbers::pi / 180;

// The angle (degrees) of screen segment a -> b from straight down, positive to the right.
double angle_from_down(QPointF a, QPointF b) { return std::atan2(b.x() - a.x(), b.y() - a.y()) / kDegree; }

}  // namespace

class TestProbeTraces : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        w_ = shown_window();
        QVERIFY(expose_non_interactive(*w_));
    }

    void tracesArePistonsAndElementsAsWeightedMeans() {
        const QString path = dir_.filePath("probes.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kScene);
        f.close();
        QVERIFY2(w_->openScene(path, true), qPrintable(w_->lastError()));
        constexpr int kSteps = 12;
        QVERIFY(step_frames(*w_, kSteps));
        const TracePanel* t = w_->traces();
        const std::vector<std::string> want = {"R", "P", "A / element 2", "A / element 3"};
        QCOMPARE(t->receiverNames(), want);
        // The list to pick one trace from names them too.
        auto* box = t->findChild<QComboBox*>("receiver-box");
        QVERIFY(box);
        QStringList items;
        for (int i = 1; i < box->count(); ++i) items << box->itemText(i);
        for (const auto& n : want) QVERIFY2(items.contains(QString::fromStdString(n)), n.c_str());
        QCOMPARE(t->sampleCount(), std::size_t(kSteps));

        // The same problem run on its own: every face node's displacement, step by step.
        const Scene& scene = w_->document()->scene();
        const VoxelGrid& grid = w_->document()->model();
        WaveSession session(build_wave_problem(scene, grid, "test"));
        session.advance(kSteps);
        const WaveProblem& p = session.problem();
        const std::size_t nr = p.receivers.size();
        const auto& raw = session.receiver_samples();
        QCOMPARE(raw.size(), std::size_t(kSteps) * nr * 3);
        bool every_node_recorded = true;
        auto u = [&](std::size_t node, std::size_t n, int c) {
            for (std::size_t k = 0; k < nr; ++k)
                if (p.receivers[k].node == node) return raw[(n * nr + k) * 3 + std::size_t(c)];
            every_node_recorded = false;
            return 0.0;
        };
        // Each probe trace: sum_i w_i u_i / sum_i w_i over its footprint's nodal weights.
        struct Row {
            std::size_t trace, probe, element;
        };
        const Row rows[] = {{1, 0, 0}, {2, 1, 1}, {3, 1, 2}};
        double peak = 0, worst = 0;
        for (const Row& row : rows) {
            const ProbeFootprint fp = probe_footprint(scene.probes[row.probe], grid, "test", "probes");
            const auto& weights = fp.elements[row.element];
            QVERIFY(weights.size() >= 4);
            double area = 0;
            for (const NodalWeight& w : weights) area += w.weight;
            for (std::size_t n = 0; n < std::size_t(kSteps); ++n)
                for (int c = 0; c < 3; ++c) {
                    double mean = 0;
                    for (const NodalWeight& w : weights) mean += w.weight * u(w.node, n, c);
                    mean /= area;
                    peak = std::max(peak, std::abs(mean));
                    worst = std::max(worst, std::abs(t->sample(row.trace, n, c) - mean));
                }
        }
        QVERIFY(every_node_recorded);
        QVERIFY2(peak > 0, "the probes' faces did not move");
        QVERIFY2(worst <= 1e-12 * peak, qPrintable(QString("worst %1 of peak %2").arg(worst).arg(peak)));
        // The point receiver is its node's displacement, as before.
        const ReceiverPoint& r = p.receivers[0];
        for (std::size_t n = 0; n < std::size_t(kSteps); ++n) QCOMPARE(t->sample(0, n, 2), u(r.node, n, 2));
    }

    void steeredArrayIsDrawnWithItsBeam() {
        QVERIFY2(w_->openExample("phased_array_steering", true), qPrintable(w_->lastError()));
        QVERIFY(step_frames(*w_, 1));
        const WavefieldView* v = w_->wavefield();
        QTRY_VERIFY_WITH_TIMEOUT(!v->drawnProbeBeams().empty(), 10000);
        QCOMPARE(v->drawnProbeFaces(), 16);
        const QPolygonF beam = v->drawnProbeBeams().front();
        QCOMPARE(beam.size(), qsizetype(2));
        // Down into the steel at the law's 30 degrees, towards +x (right on screen).
        const double a = angle_from_down(beam[0], beam[1]);
        QVERIFY2(std::abs(a - 30) < 0.5, qPrintable(QString::number(a)));
    }

    void wedgeBeamBendsBySnellsLaw() {
        QVERIFY2(w_->openExample("angle_beam_wedge", true), qPrintable(w_->lastError()));
        QVERIFY(step_frames(*w_, 1));
        const WavefieldView* v = w_->wavefield();
        QTRY_VERIFY_WITH_TIMEOUT(!v->drawnProbeBeams().empty(), 10000);
        const QPolygonF beam = v->drawnProbeBeams().front();
        QCOMPARE(beam.size(), qsizetype(3));
        // In the wedge (Rexolite, 2330 m/s) the incidence that refracts to 55 degrees of shear in
        // steel (3200 m/s); in the steel, 55 degrees.
        const double incidence = std::asin(2330.0 / 3200.0 * std::sin(55 * kDegree)) / kDegree;
        const double in_wedge = angle_from_down(beam[0], beam[1]), in_steel = angle_from_down(beam[1], beam[2]);
        QVERIFY2(std::abs(in_wedge - incidence) < 0.5, qPrintable(QString::number(in_wedge)));
        QVERIFY2(std::abs(in_steel - 55) < 0.5, qPrintable(QString::number(in_steel)));
    }

    void cleanupTestCase() { w_.reset(); }
};

int main(int argc, char** argv) {
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    TestProbeTraces t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_probe_traces.moc"
