// The Solvers tab's panels run their engine on a worker thread and show exactly its results.
#include <QApplication>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

#include "solvers/iga_panel.hpp"
#include "solvers/integration_panel.hpp"
#include "solvers/matrix_heatmap.hpp"
#include "solvers/poisson_panel.hpp"

using namespace voxwave;
using namespace voxwave::ui;
using namespace voxwave::integration;

class TestSolverPanels : public QObject {
    Q_OBJECT
private slots:
    void integrationRunShowsTheLabsResult() {
        IntegrationPanel panel;
        IntegrationParams p;
        p.element = ElementType::Hexahedron;
        p.order = 2;
        p.elements = 40;
        p.problem = Problem::Elasticity;
        p.variant = Variant::Shm;
        p.fp64 = true;
        p.backend = Backend::Cpu;
        panel.setParams(p);
        const IntegrationParams shown = panel.params();
        QCOMPARE(shown.order, 2);
        QCOMPARE(shown.elements, std::int64_t(40));
        QVERIFY(shown.fp64);
        QSignalSpy done(panel.job(), &BackgroundJob::finished);
        panel.run();
        QVERIFY(done.wait(60000));
        QCOMPARE(panel.table()->rowCount(), 1);
        QCOMPARE(panel.table()->item(0, 6)->text(), QString("60"));  // seed 001 Table 1: p = 2 has 60 DOFs
        const IntegrationResult direct = run_integration_lab(shown);
        QCOMPARE(panel.results().front().first_element, direct.first_element);
        QCOMPARE(panel.heatmap()->image().width(), 60);
        QCOMPARE(panel.plottedPoints(), 1);
    }

    void sweepAddsOneRowAndPointPerOrder() {
        IntegrationPanel panel;
        IntegrationParams p;
        p.element = ElementType::Prism;
        p.order = 2;
        p.elements = 4;
        p.problem = Problem::Laplace;
        p.backend = Backend::Cpu;
        panel.setParams(p);
        QSignalSpy done(panel.job(), &BackgroundJob::finished);
        panel.sweep();
        QVERIFY(done.wait(120000));
        QCOMPARE(panel.table()->rowCount(), 6);  // prisms p = 2..7
        for (int r = 0; r < 6; ++r) QCOMPARE(panel.table()->item(r, 1)->text(), QString::number(r + 2));
        QCOMPARE(panel.plottedPoints(), 6);
    }

    void cancelStopsASweep() {
        IntegrationPanel panel;
        IntegrationParams p;
        p.element = ElementType::Hexahedron;
        p.elements = 200000;
        p.backend = Backend::Cpu;
        panel.setParams(p);
        QSignalSpy failed(panel.job(), &BackgroundJob::failed);
        panel.sweep();
        QTest::qWait(200);
        panel.job()->cancel();
        QVERIFY(failed.wait(60000));
        QCOMPARE(failed.first().first().toString(), QString("cancelled"));
        QCOMPARE(panel.table()->rowCount(), 0);
    }

    void igaRunShowsTheSolutionAndACostSweepPlotsIt() {
        IgaPanel panel;
        panel.resize(900, 500);
        panel.show();
        iga::IgaParams p;
        p.degree = 2;
        p.elements = 8;
        p.problem = iga::IgaProblemKind::Seed;
        p.backend = Backend::Cpu;
        panel.setParams(p);
        QSignalSpy done(panel.job(), &BackgroundJob::finished);
        panel.run();
        QVERIFY(done.wait(60000));
        QCOMPARE(panel.results().size(), std::size_t(1));
        const iga::IgaResult& r = panel.results().front();
        // The seed problem's exact solution is u = x2: the surface drawn is that plane.
        QCOMPARE(panel.surfacePoints(), r.params.grid * r.params.grid);
        for (std::size_t i = 0; i < r.u.size(); i += 97) QVERIFY(std::abs(r.u[i] - r.y[i]) < 1e-12);
        QVERIFY(panel.summary().contains("L2 error"));
        // Cost sweep: N = 4 and 8 -> two more measured points on the log-log plot.
        panel.costSweep();
        QVERIFY(done.wait(60000));
        QCOMPARE(panel.results().size(), std::size_t(3));
        QCOMPARE(panel.plottedPoints(), 2);  // N = 4 and 8 (the first run at N = 8 is the same point)
    }

    void poissonRunDrawsTheSolutionOnTheMeshAndSweepsLevels() {
        PoissonPanel panel;
        panel.resize(900, 600);
        panel.show();
        poisson::PoissonParams p;
        p.grid = poisson::PoissonGrid::FlowAroundSquare;
        p.level = 3;
        p.coarse_level = 1;
        p.precision = poisson::PoissonPrecision::Fp64;
        p.backend = Backend::Cpu;
        panel.setParams(p);
        QSignalSpy done(panel.job(), &BackgroundJob::finished);
        panel.run();
        QVERIFY(done.wait(60000));
        QCOMPARE(panel.results().size(), std::size_t(1));
        const poisson::PoissonResult& r = panel.results().front();
        QCOMPARE(r.N, 840);  // seed 002 Table 2: N at L = 3
        QCOMPARE(panel.meshCells(), 28 * 64);
        // Every interior node shows its solution value, every boundary node 0.
        const auto& mesh = panel.drawnMesh();
        std::size_t interior = 0;
        for (std::size_t n = 0; n < mesh.node_count(); ++n) {
            if (mesh.on_boundary[n]) {
                QCOMPARE(panel.drawnValues()[n], 0.0);
                continue;
            }
            for (std::size_t i = 0; i < r.nodes.size(); ++i)
                if (r.nodes[i] == mesh.xy[n]) {
                    QCOMPARE(panel.drawnValues()[n], r.solution(Eigen::Index(i), 0));
                    ++interior;
                    break;
                }
        }
        QCOMPARE(interior, r.nodes.size());
        panel.sweepLevels();
        QVERIFY(done.wait(120000));
        QCOMPARE(panel.table()->rowCount(), 1 + 2 * 3);  // levels 2 and 3 in fp64, fp32, fp16
        QCOMPARE(panel.plottedPoints(), 6);
    }
};

QTEST_MAIN(TestSolverPanels)
#include "test_solver_panels.moc"
