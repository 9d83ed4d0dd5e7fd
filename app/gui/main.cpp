// voxwave: the desktop explorer. Thin: set up OpenGL, parse, open the window.
//   voxwave [--scene S.json] [--run-steps N] [--page model|3d|dispersion|solvers|cluster...] [--screenshot FILE.png]
//           [--window-size WxH] [--example NAME] [--thumbnail FILE.png]
// --screenshot renders the window after the scene (and the N steps) and exits: reviewers and
// tests get a picture of any state without clicking.
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QSurfaceFormat>
#include <QTimer>
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "main_window.hpp"
#include "panels/cluster_job_dialog.hpp"
#include "panels/compare_panel.hpp"
#include "panels/examples_gallery.hpp"
#include "panels/material_library_dialog.hpp"
#include "sim/simulation_controller.hpp"
#include "solvers/iga_panel.hpp"
#include "solvers/integration_panel.hpp"
#include "solvers/poisson_panel.hpp"
#include "views/gl_format.hpp"
#include "views/gl_view.hpp"
#include "views/wavefield_view.hpp"

namespace {
// --run-steps on the Poisson page: the sweep solves every level up to this one three times (FP64,
// FP32, FP16) on the CPU, and each level more costs about eight times as much (one FP64 solve on
// two cores: 5 s at L = 5, 36 s at L = 6, 7 min at L = 7), so a screenshot stops at the page's
// default level.
constexpr int kPoissonRunStepsMaxLevel = 5;
}  // namespace

int main(int argc, char** argv) {
    // Idle engine threads sleep instead of spinning between steps: spinning threads take the
    // cores the window needs to paint (set before the OpenMP runtime starts; a user's setting wins).
    setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
    // VTK and our shaders need OpenGL 3.2 core with depth and stencil, set before QApplication
    // (docs/architecture.md#building).
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
    QCommandLineOption steps("run-steps",
                             "Run N steps after opening. On a Solvers page, run its sweep: N elements (solvers), "
                             "N x N at most (solvers-iga), finest level N, at most " +
                                 QString::number(kPoissonRunStepsMaxLevel) + " (solvers-poisson).",
                             "N");
    const QStringList pages = voxwave::ui::MainWindow::pageNames();
    QCommandLineOption page(
        "page",
        "Page to show: " + pages.join(", ") +
            " (cluster: the Run on a cluster dialog, filled in; materials: the Material library dialog; examples: "
            "the examples gallery).",
        "NAME");
    QCommandLineOption shot("screenshot", "Save a picture of the window to FILE and exit.", "FILE");
    QCommandLineOption example("example",
                               "Open an example of File > Examples (its scene file's name without .json, e.g. "
                               "rayleigh_wave) with its view.",
                               "NAME");
    QCommandLineOption thumbnail("thumbnail",
                                 "Save a picture of the wavefield pane (of the Compare methods page when it is shown), "
                                 "scaled to the gallery's thumbnail width, to FILE and exit.",
                                 "FILE");
    QCommandLineOption presentation("presentation",
                                    "Start in the presentation view (View > Appearance; also when the settings say so, "
                                    "except for pictures).");
    QCommandLineOption size("window-size",
                            "Window size WIDTHxHEIGHT in pixels, e.g. 1366x768 (with --screenshot: default 1500x920).",
                            "WxH");
    cli.addOptions({scene, steps, page, shot, size, example, thumbnail, presentation});
    cli.process(app);
    if (cli.isSet(page) && !pages.contains(cli.value(page))) {
        std::fprintf(stderr, "voxwave: --page: unknown page '%s' (pages: %s)\n", qPrintable(cli.value(page)),
                     qPrintable(pages.join(", ")));
        return 2;
    }
    bool steps_ok = true;
    const qint64 run_steps = cli.isSet(steps) ? cli.value(steps).toLongLong(&steps_ok) : 0;
    if (!steps_ok || run_steps < 0) {
        std::fprintf(stderr, "voxwave: --run-steps: '%s' is not a whole number of steps\n",
                     qPrintable(cli.value(steps)));
        return 2;
    }

    QSize window_size;
    if (cli.isSet(size)) {
        const QStringList wh = cli.value(size).split('x');
        bool w_ok = false, h_ok = false;
        if (wh.size() == 2) window_size = QSize(wh[0].toInt(&w_ok), wh[1].toInt(&h_ok));
        if (!w_ok || !h_ok || window_size.width() <= 0 || window_size.height() <= 0) {
            std::fprintf(stderr, "voxwave: --window-size: '%s' is not WIDTHxHEIGHT (e.g. 1366x768)\n",
                         qPrintable(cli.value(size)));
            return 2;
        }
    } else if (cli.isSet(shot) || cli.isSet(thumbnail)) {
        window_size = QSize(1500, 920);
    }
    const bool picture = cli.isSet(shot) || cli.isSet(thumbnail);

    voxwave::ui::MainWindow w;
    w.setNonInteractive(picture);
    // Pictures of one size and the default layout, whatever the user's saved layout.
    if (picture) w.resetLayout();
    if (window_size.isValid()) w.resize(window_size);
    if (cli.isSet(scene) && !w.openScene(cli.value(scene), picture)) {
        std::fprintf(stderr, "voxwave: %s\n", qPrintable(w.lastError()));
        return 1;
    }
    if (cli.isSet(example) && !w.openExample(cli.value(example), picture)) {
        std::fprintf(stderr, "voxwave: --example: %s\n", qPrintable(w.lastError()));
        return 1;
    }
    w.show();
    // After show: a tabbed dock raised before the window is laid out stays behind its tab.
    if (cli.isSet(page)) w.showPage(cli.value(page));
    if (cli.isSet(presentation) || (!picture && QSettings().value("appearance/presentation", false).toBool()))
        w.setPresentationMode(true);

    const QString shot_path = cli.value(shot);
    const QString thumb_path = cli.value(thumbnail);
    QWidget* shot_target = &w;
    // The gallery's thumbnails: the field alone, cut from the wavefield pane at the slice's
    // rectangle (the Compare page's panel when shown), at twice the width the gallery shows them,
    // so they stay sharp on a high-density screen.
    constexpr int kThumbnailWidth = 2 * voxwave::ui::ExamplesDialog::kThumbWidth;
    auto save_thumbnail = [&] {
        QImage full;
        if (w.comparePageShown()) {
            full = voxwave::ui::grab_with_gl_views(w.compare()).toImage();
        } else {
            full = w.wavefield()->grabFramebuffer();
            const qreal dpr = full.devicePixelRatio();
            const QRect r = w.wavefield()->sliceRect();
            const QRect cut(QPoint(int(r.left() * dpr), int(r.top() * dpr)), r.size() * dpr);
            if (cut.isValid()) full = full.copy(cut);
        }
        return full.scaledToWidth(kThumbnailWidth, Qt::SmoothTransformation).save(thumb_path);
    };
    // exit_code: 0, or 1 after a failed run (the picture still shows what the window shows).
    auto take_shot = [&](int exit_code) {
        QTimer::singleShot(300, &w, [&, exit_code] {
            for (const QString& path : {shot_path, thumb_path}) {
                if (path.isEmpty()) continue;
                const bool ok = path == thumb_path && cli.isSet(thumbnail)
                                    ? save_thumbnail()
                                    : voxwave::ui::grab_with_gl_views(shot_target).save(path);
                if (!ok) {
                    std::fprintf(stderr, "voxwave: %s: cannot write the picture\n", qPrintable(path));
                    QApplication::exit(3);
                    return;
                }
                std::printf("screenshot: %s\n", qPrintable(path));
            }
            QApplication::exit(exit_code);
        });
    };
    // The end of a run on any page: the picture (or, without --screenshot, the exit); once.
    bool shot_taken = false;
    auto finish_run = [&](int exit_code) {
        if (shot_taken) return;
        shot_taken = true;
        if (picture)
            take_shot(exit_code);
        else
            QTimer::singleShot(300, &w, [exit_code] { QApplication::exit(exit_code); });
    };
    // A Solvers-tab page: start its job shortly after the window shows; it ends as a run does,
    // failed or not (a job that fails or never starts must not leave the app waiting).
    auto run_job = [&](voxwave::ui::BackgroundJob* job, std::function<void()> start) {
        QObject::connect(job, &voxwave::ui::BackgroundJob::finished, &w, [&] { finish_run(0); });
        QObject::connect(job, &voxwave::ui::BackgroundJob::failed, &w, [&](const QString& m) {
            std::fprintf(stderr, "voxwave: %s: %s\n", qPrintable(cli.value(page)), qPrintable(m));
            finish_run(1);
        });
        QTimer::singleShot(200, &w, [&, job, start = std::move(start)] {
            start();
            if (!job->busy()) {
                std::fprintf(stderr, "voxwave: %s: the job did not start\n", qPrintable(cli.value(page)));
                finish_run(1);
            }
        });
        return app.exec();
    };
    // Each Solvers page reads N in its own unit, clamped to what its controls offer; a clamp is said.
    auto clamped = [&](qint64 lo, qint64 hi, const char* unit) {
        const qint64 v = std::clamp(run_steps, lo, hi);
        if (v != run_steps)
            std::fprintf(stderr, "voxwave: --run-steps %lld on %s: %s %lld (the page takes %lld .. %lld)\n",
                         static_cast<long long>(run_steps), qPrintable(cli.value(page)), unit,
                         static_cast<long long>(v), static_cast<long long>(lo), static_cast<long long>(hi));
        return v;
    };
    // On the solvers page the steps are the element count of an integration sweep (hexahedra p = 1..10).
    if (cli.value(page) == "solvers" && run_steps > 0) {
        voxwave::integration::IntegrationParams ip = w.integration()->params();
        ip.elements = clamped(1, voxwave::ui::IntegrationPanel::kMaxElements, "elements");
        w.integration()->setParams(ip);
        return run_job(w.integration()->job(), [&] { w.integration()->sweep(); });
    }
    // On the Poisson page the steps are the finest level of a sweep (flow around a square, L0 = 1).
    if (cli.value(page) == "solvers-poisson" && run_steps > 0) {
        voxwave::poisson::PoissonParams pp = w.poisson()->params();
        pp.coarse_level = 1;
        pp.level = int(clamped(pp.coarse_level + 1, kPoissonRunStepsMaxLevel, "finest level"));
        w.poisson()->setParams(pp);
        return run_job(w.poisson()->job(), [&] { w.poisson()->sweepLevels(); });
    }
    // On the IGA page the steps are N: a cost sweep at p = 3 up to the page's largest power of two
    // not above N.
    if (cli.value(page) == "solvers-iga" && run_steps > 0) {
        voxwave::iga::IgaParams ip = w.iga()->params();
        ip.degree = 3;
        ip.elements = int(std::bit_floor(std::uint64_t(clamped(4, voxwave::ui::IgaPanel::kMaxElements, "N"))));
        ip.problem = voxwave::iga::IgaProblemKind::Manufactured;
        w.iga()->setParams(ip);
        return run_job(w.iga()->job(), [&] { w.iga()->costSweep(); });
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
        d->processGridEdit()->setText("1x2x4");
        d->folderEdit()->setText("/home/me/voxwave-jobs/" + d->nameEdit()->text());
        d->resize(1290, 560);  // the whole mpirun line, process grid included
        shot_target = d;
        if (picture) take_shot(0);
        return app.exec();
    }
    // The examples page: the gallery over the window; the picture is of the dialog.
    if (cli.value(page) == "examples") {
        QWidget* d = w.findChild<voxwave::ui::ExamplesDialog*>();
        if (!d) {
            std::fprintf(stderr, "voxwave: --page examples: %s\n", qPrintable(w.lastError()));
            return 1;
        }
        d->resize(1180, 720);
        shot_target = d;
        if (picture) take_shot(0);
        return app.exec();
    }
    // The materials page: the library dialog over the window; the picture is of the dialog.
    if (cli.value(page) == "materials") {
        QDialog* d = w.openMaterialLibrary();
        d->resize(1180, 520);
        shot_target = d;
        if (picture) take_shot(0);
        return app.exec();
    }
    // On the compare page the steps run the comparison (VFEM against OVFEM) instead.
    const bool compare = cli.value(page) == "compare" || w.comparePageShown();
    voxwave::ui::SimulationController* ctl = compare ? w.compare()->controller() : w.controller();
    // Frames shown per second of the run (first frame to last) and the steps they covered: how
    // live the view is on this machine, printed with the stall for benchmarks.
    QElapsedTimer since_first_frame;
    long long frames_shown = 0, first_step = 0, last_step = 0;
    auto finish_wave_run = [&](int exit_code) {
        if (!shot_taken) {
            std::printf("longest event-loop gap during the run: %.1f ms\n", w.longestStallMs());
            const double seconds = since_first_frame.isValid() ? since_first_frame.elapsed() / 1000.0 : 0;
            if (frames_shown > 1 && seconds > 0)
                std::printf("frames shown: %lld in %.2f s (%.1f frames/s), steps %lld to %lld (%.0f steps/s)\n",
                            frames_shown, seconds, double(frames_shown - 1) / seconds, first_step, last_step,
                            double(last_step - first_step) / seconds);
        }
        finish_run(exit_code);
    };
    if (run_steps > 0) {
        QObject::connect(ctl, &voxwave::ui::SimulationController::frameReady, &w,
                         [&](const voxwave::ui::SimulationFrame& f) {
                             if (!since_first_frame.isValid()) {
                                 since_first_frame.start();
                                 first_step = f.step;
                             }
                             ++frames_shown;
                             last_step = f.step;
                             if (f.step >= run_steps && ctl->busy()) {
                                 ctl->stop();
                                 finish_wave_run(0);
                             }
                         });
        // A run shorter than N steps, or one that failed, still ends with the picture.
        QObject::connect(ctl, &voxwave::ui::SimulationController::finished, &w, [&] { finish_wave_run(0); });
        QObject::connect(ctl, &voxwave::ui::SimulationController::failed, &w, [&](const QString& m) {
            std::fprintf(stderr, "voxwave: %s\n", qPrintable(m));
            finish_wave_run(1);
        });
        QTimer::singleShot(200, &w, [&] {
            if (compare)
                w.compare()->runBoth();
            else
                w.startRun();
        });
    } else if (picture) {
        take_shot(0);
    }
    return app.exec();
}
