// voxwave: the desktop explorer. Thin: set up OpenGL, parse, open the window.
//   voxwave [--scene S.json] [--run-steps N] [--page model|3d|dispersion|cluster...] [--screenshot FILE.png]
// --screenshot renders the window after the scene (and the N steps) and exits: reviewers and
// tests get a picture of any state without clicking.
#include <QApplication>
#include <QCommandLineParser>
#include <QLineEdit>
#include <QSpinBox>
#include <QSurfaceFormat>
#include <QTimer>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "main_window.hpp"
#include "panels/cluster_job_dialog.hpp"
#include "panels/compare_panel.hpp"
#include "sim/simulation_controller.hpp"
#include "solvers/iga_panel.hpp"
#include "solvers/integration_panel.hpp"
#include "solvers/poisson_panel.hpp"
#include "views/gl_format.hpp"
#include "views/gl_view.hpp"

int main(int argc, char** argv) {
    // Idle engine threads sleep instead of spinning between steps: spinning threads take the
    // cores the window needs to paint (set before the OpenMP runtime starts; a user's setting wins).
    setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
    // VTK and our shaders need OpenGL 3.2 core with depth and stencil, set before QApplication (§4).
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("voxwave");
    QApplication::setApplicationName("voxwave");
    QApplication::setApplicationVersion(VOXWAVE_VERSION);

    QCommandLineParser cli;
    cli.setApplicationDescription("voxwave: paint a voxel model, place sources and receivers, watch the wavefield");
    cli.addHelpOption();
    cli.addVersionOption();
    QCommandLineOption scene({"s", "scene"}, "Scene to open.", "FILE");
    QCommandLineOption steps("run-steps", "Run N steps after opening.", "N");
    QCommandLineOption page(
        "page",
        "Page to show: model, 3d, 3d-wavefield, dispersion, compare, solvers, solvers-iga, solvers-poisson or cluster "
        "(the Run on a cluster dialog, filled in).",
        "NAME");
    QCommandLineOption shot("screenshot", "Save a picture of the window to FILE and exit.", "FILE");
    cli.addOptions({scene, steps, page, shot});
    cli.process(app);

    voxwave::ui::MainWindow w;
    w.setNonInteractive(cli.isSet(shot));
    if (cli.isSet(shot)) w.resize(1500, 920);  // pictures of one size, whatever the saved geometry
    if (cli.isSet(scene) && !w.openScene(cli.value(scene), cli.isSet(shot))) {
        std::fprintf(stderr, "voxwave: %s\n", qPrintable(w.lastError()));
        return 1;
    }
    if (cli.isSet(page)) w.showPage(cli.value(page));
    w.show();

    const qint64 run_steps = cli.value(steps).toLongLong();
    const QString shot_path = cli.value(shot);
    QWidget* shot_target = &w;
    auto take_shot = [&] {
        QTimer::singleShot(300, &w, [&] {
            if (!voxwave::ui::grab_with_gl_views(shot_target).save(shot_path)) {
                std::fprintf(stderr, "voxwave: %s: cannot write the screenshot\n", qPrintable(shot_path));
                QApplication::exit(3);
                return;
            }
            std::printf("screenshot: %s\n", qPrintable(shot_path));
            QApplication::exit(0);
        });
    };
    bool shot_taken = false;
    auto finish_run = [&] {
        if (shot_taken) return;
        shot_taken = true;
        std::printf("longest event-loop gap during the run: %.1f ms\n", w.longestStallMs());
        if (!shot_path.isEmpty())
            take_shot();
        else
            QTimer::singleShot(300, &w, [] { QApplication::exit(0); });
    };
    // A Solvers-tab page: start its job shortly after the window shows, take the picture when it ends.
    auto run_job_then_shot = [&](voxwave::ui::BackgroundJob* job, std::function<void()> start) {
        QObject::connect(job, &voxwave::ui::BackgroundJob::finished, &w, [&] {
            if (!shot_path.isEmpty()) take_shot();
        });
        QTimer::singleShot(200, &w, std::move(start));
        return app.exec();
    };
    // On the solvers page the steps are the element count of an integration sweep (hexahedra p = 1..10).
    if (cli.value(page) == "solvers" && run_steps > 0) {
        voxwave::integration::IntegrationParams ip = w.integration()->params();
        ip.elements = run_steps;
        w.integration()->setParams(ip);
        return run_job_then_shot(w.integration()->job(), [&] { w.integration()->sweep(); });
    }
    // On the Poisson page the steps are the finest level of a sweep (flow around a square, L0 = 1).
    if (cli.value(page) == "solvers-poisson" && run_steps > 0) {
        w.solvers()->setCurrentWidget(w.poisson());
        voxwave::poisson::PoissonParams pp = w.poisson()->params();
        pp.level = int(run_steps);
        pp.coarse_level = 1;
        w.poisson()->setParams(pp);
        return run_job_then_shot(w.poisson()->job(), [&] { w.poisson()->sweepLevels(); });
    }
    // On the IGA page the steps are N (a power of two): a cost sweep up to it at p = 3.
    if (cli.value(page) == "solvers-iga" && run_steps > 0) {
        w.solvers()->setCurrentWidget(w.iga());
        voxwave::iga::IgaParams ip = w.iga()->params();
        ip.degree = 3;
        ip.elements = int(run_steps);
        ip.problem = voxwave::iga::IgaProblemKind::Manufactured;
        w.iga()->setParams(ip);
        return run_job_then_shot(w.iga()->job(), [&] { w.iga()->costSweep(); });
    }
    // The cluster page: the dialog filled in as for an 8-GPU job; the picture is of the dialog.
    if (cli.value(page) == "cluster") {
        voxwave::ui::ClusterJobDialog* d = w.openClusterJobDialog();
        d->gpusBox()->setValue(8);
        d->gpusPerNodeBox()->setValue(4);
        d->partitionEdit()->setText("gpu");
        d->accountEdit()->setText("proj-ndt");
        d->timeEdit()->setText("02:00:00");
        d->modulesEdit()->setText("cuda openmpi");
        d->folderEdit()->setText("/home/me/voxwave-jobs/" + d->nameEdit()->text());
        d->resize(1180, 560);
        shot_target = d;
        if (!shot_path.isEmpty()) take_shot();
        return app.exec();
    }
    // On the compare page the steps run the comparison (VFEM against OVFEM) instead.
    const bool compare = cli.value(page) == "compare";
    voxwave::ui::SimulationController* ctl = compare ? w.compare()->controller() : w.controller();
    if (run_steps > 0) {
        QObject::connect(ctl, &voxwave::ui::SimulationController::frameReady, &w,
                         [&](const voxwave::ui::SimulationFrame& f) {
                             if (f.step >= run_steps && ctl->busy()) {
                                 ctl->stop();
                                 finish_run();
                             }
                         });
        // A run shorter than N steps, or one that failed, still ends with the picture.
        QObject::connect(ctl, &voxwave::ui::SimulationController::finished, &w, finish_run);
        QObject::connect(ctl, &voxwave::ui::SimulationController::failed, &w, [&](const QString& m) {
            std::fprintf(stderr, "voxwave: %s\n", qPrintable(m));
            finish_run();
        });
        QTimer::singleShot(200, &w, [&] {
            if (compare)
                w.compare()->runBoth();
            else
                w.startRun();
        });
    } else if (!shot_path.isEmpty()) {
        take_shot();
    }
    return app.exec();
}
