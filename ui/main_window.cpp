#include "main_window.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>
#include <cmath>

#include "appearance.hpp"
#include "core/backend.hpp"
#include "core/errors.hpp"
#include "document/model_vti.hpp"
#include "editing/slice_painter.hpp"
#include "imaging/image_window.hpp"
#include "imaging/make_image_dialog.hpp"
#include "panels/boundary_panel.hpp"
#include "panels/cluster_job_dialog.hpp"
#include "panels/compare_panel.hpp"
#include "panels/dispersion_panel.hpp"
#include "panels/examples_gallery.hpp"
#include "panels/help_pages.hpp"
#include "panels/material_library_dialog.hpp"
#include "panels/plain_words.hpp"
#include "panels/probes_panel.hpp"
#include "panels/run_panel.hpp"
#include "panels/scan_panel.hpp"
#include "panels/shapes_panel.hpp"
#include "panels/sources_panel.hpp"
#include "scene/result.hpp"
#include "solvers/iga_panel.hpp"
#include "solvers/integration_panel.hpp"
#include "solvers/poisson_panel.hpp"
#include "video_export.hpp"
#include "views/model_view_3d.hpp"
#include "views/replay_bar.hpp"
#include "views/trace_panel.hpp"
#include "views/wavefield_view.hpp"

namespace voxwave::ui {

namespace {
constexpr int kMaxRecent = 8;
const char* kStallTimerMs = "10";

// Saved layouts of another version are ignored: bump when docks or toolbars change place or
// name, so an old arrangement never comes back in a newer window.
constexpr int kLayoutVersion = 3;  // 2: the Boundary dock; 3: the Probes, Scan and probe-scan docks

// Form panels and pages with many controls sit in a scroll area: their controls' minimum sizes
// would otherwise add up to the window's minimum (1535 x 1215 px before), past a laptop screen.
// The panel still fills the area whenever there is room; the scroll bars come only below its
// own minimum.
QScrollArea* scrollable(QWidget* w) {
    auto* area = new QScrollArea;
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setWidget(w);
    return area;
}

// The tab of `tabs` that shows `w` (itself or the scroll area around it).
QWidget* page_holding(QTabWidget* tabs, QWidget* w) {
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->widget(i) == w || tabs->widget(i)->isAncestorOf(w)) return tabs->widget(i);
    return nullptr;
}

QString format_duration(double s) {
    if (s < 60) return QStringLiteral("%1 s").arg(s, 0, 'f', 1);
    return QStringLiteral("%1 min %2 s").arg(int(s / 60)).arg(int(s) % 60);
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle("voxwave");
    // The usual size, or the whole screen where it is smaller (a laptop's 1366 x 768).
    resize(QSize(1500, 920).boundedTo(screen()->availableGeometry().size()));

    // Centre: the model (slice painter / 3D) beside the live wavefield.
    painter_ = new SlicePainter(&doc_);
    model3d_ = new ModelView3D(&doc_);
    wavefield_ = new WavefieldView;
    tabs_ = new QTabWidget;
    tabs_->addTab(painter_, tr("Slice editor"));
    tabs_->addTab(model3d_, tr("3D model"));
    // The live wavefield with the replay's time slider under it.
    replay_ = new ReplayBar;
    auto* live = new QWidget;
    auto* live_column = new QVBoxLayout(live);
    live_column->setContentsMargins(0, 0, 0, 0);
    live_column->setSpacing(2);
    live_column->addWidget(wavefield_, 1);
    live_column->addWidget(replay_);
    auto* split = new QSplitter;
    split->addWidget(tabs_);
    split->addWidget(live);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    compare_ = new ComparePanel(&doc_);
    main_tabs_ = new QTabWidget;
    main_tabs_->addTab(split, tr("Explore"));
    main_tabs_->addTab(scrollable(compare_), tr("Compare methods"));
    solvers_ = new QTabWidget;
    integration_ = new IntegrationPanel;
    solvers_->addTab(scrollable(integration_), tr("Element integration"));
    iga_ = new IgaPanel;
    solvers_->addTab(scrollable(iga_), tr("IGA multi-frontal"));
    poisson_ = new PoissonPanel;
    solvers_->addTab(scrollable(poisson_), tr("Poisson (prehandled direct)"));
    main_tabs_->addTab(solvers_, tr("Solvers"));
    setCentralWidget(main_tabs_);

    buildActions();
    buildDocks();
    buildHelpMenu();

    // Status bar: simulated time, steps per second, ETA, progress, backend.
    time_label_ = new QLabel(tr("t = 0 µs"));
    rate_label_ = new QLabel;
    eta_label_ = new QLabel;
    backend_label_ = new QLabel(tr("Backend: not run yet"));
    backend_label_->setToolTip(tr("Where the simulation runs (CPU or CUDA GPU), once a run starts"));
    time_label_->setToolTip(tr("Simulated time of the frame shown"));
    time_label_->setObjectName("time-label");
    rate_label_->setObjectName("rate-label");
    eta_label_->setObjectName("eta-label");
    progress_ = new QProgressBar;
    progress_->setMaximumWidth(220);
    progress_->setRange(0, 1000);
    statusBar()->addPermanentWidget(time_label_);
    statusBar()->addPermanentWidget(rate_label_);
    statusBar()->addPermanentWidget(eta_label_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(backend_label_);

    connect(model3d_, &ModelView3D::wavefieldToggled, &controller_, &SimulationController::setVolumeView);
    connect(painter_, &SlicePainter::hoverInfo, this, [this](const QString& t) { statusBar()->showMessage(t, 3000); });
    connect(painter_, &SlicePainter::placeSourceRequested, sources_, &SourcesPanel::addSourceAt);
    connect(painter_, &SlicePainter::probeMoveRefused, this,
            [this](const QString& m) { showError(tr("Cannot move the probe there"), m, false); });
    connect(painter_, &SlicePainter::placeReceiverRequested, sources_, &SourcesPanel::addReceiverAt);
    connect(model3d_, &ModelView3D::placeSourceRequested, sources_, &SourcesPanel::addSourceAt);
    connect(model3d_, &ModelView3D::placeReceiverRequested, sources_, &SourcesPanel::addReceiverAt);
    connect(painter_, &SlicePainter::sliceChanged, this, [this] {
        QSignalBlocker b(slice_slider_);
        slice_slider_->setRange(0, painter_->nodePlaneCount() - 1);
        slice_slider_->setValue(painter_->nodePlane());
        pushViewToController();
    });
    connect(doc_.undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(&doc_, &SceneDocument::pathChanged, this, &MainWindow::updateTitle);
    connect(&doc_, &SceneDocument::documentReset, this, [this] {
        material_box_->clear();
        for (const auto& m : doc_.scene().materials) material_box_->addItem(QString::fromStdString(m.name));
        material_box_->setCurrentIndex(std::min(1, material_box_->count() - 1));
        // A 2D (plane-strain) scene is its x-y plane: no slice axis or position to choose, and u_z is 0.
        const bool plane = doc_.scene().grid.plane_strain();
        if (plane) plane_box_->setCurrentIndex(0);
        plane_box_->setEnabled(!plane);
        slice_slider_->setEnabled(!plane);
        if (plane && quantity_box_->currentIndex() == 2) quantity_box_->setCurrentIndex(1);
        if (plane) traces_->setComponent(1);
        resetRun();
    });
    connect(&doc_, &SceneDocument::materialsChanged, this, [this] {
        const int keep = material_box_->currentIndex();
        QSignalBlocker block(material_box_);
        material_box_->clear();
        for (const auto& m : doc_.scene().materials) material_box_->addItem(QString::fromStdString(m.name));
        material_box_->setCurrentIndex(std::clamp(keep, 0, material_box_->count() - 1));
        painter_->setMaterial(material_box_->currentIndex() + 1);
    });

    connect(&controller_, &SimulationController::started, this,
            [this](const QString& note, qint64 total, double dt, double dts) {
                if (showing_result_) return;  // a stopped run's late signal
                rate_label_->clear();         // the previous run's average and end
                rate_label_->setToolTip({});
                eta_label_->clear();
                backend_label_->setText(
                    tr("Backend: %1").arg(backend_words(note.toStdString()).section(':', 0, 0).left(60)));
                backend_label_->setToolTip(note);
                statusBar()->showMessage(tr("%1 — dt %2 µs (stable limit %3 µs), %4 steps")
                                             .arg(note)
                                             .arg(dt * 1e6, 0, 'g', 4)
                                             .arg(dts * 1e6, 0, 'g', 4)
                                             .arg(total),
                                         8000);
                std::vector<std::string> names;
                std::vector<std::array<double, 3>> positions;
                for (const auto& r : doc_.scene().receivers) {
                    names.push_back(r.name);
                    positions.push_back(r.position);
                }
                // Then one trace per receiving piston or array element, not its face nodes.
                const ProbeTraceRows& probes = controller_.probeTraceRows();
                names.insert(names.end(), probes.names.begin(), probes.names.end());
                positions.insert(positions.end(), probes.positions.begin(), probes.positions.end());
                traces_->reset(names, dt, positions);
            });
    connect(&controller_, &SimulationController::frameReady, this, &MainWindow::onFrame);
    connect(&controller_, &SimulationController::snapshotSaved, this,
            [this](const QString& path, const QString& error) {
                if (!error.isEmpty())
                    showError(tr("Snapshot failed"), error, false);
                else
                    statusBar()->showMessage(
                        tr("Saved the wavefield to %1 (open %2 in ParaView)")
                            .arg(path, QString::fromStdString(snapshots_xdmf_path(path.toStdString()))),
                        8000);
            });
    // The receiver the scan views point at (under the cursor, else the selected one) is ringed
    // on the slice.
    auto highlight = [this] {
        const int r = traces_->hoveredReceiver() >= 0 ? traces_->hoveredReceiver() : traces_->selectedReceiver();
        painter_->setHighlightedReceiver(r >= 0 ? QString::fromStdString(traces_->receiverNames()[std::size_t(r)])
                                                : QString());
    };
    connect(traces_, &TracePanel::receiverHovered, this, highlight);
    connect(traces_, &TracePanel::receiverSelected, this, highlight);
    // Which way a CUDA run's slice reaches the view: said once per distinct message.
    connect(&controller_, &SimulationController::sliceTransport, this, [this](const QString& text) {
        if (slice_transport_said_.contains(text)) return;
        slice_transport_said_.insert(text);
        qInfo("voxwave: %s", qPrintable(text));
        statusBar()->showMessage(text, 8000);
    });
    connect(wavefield_, &WavefieldView::interopFailed, this, [this](const QString& m) {
        controller_.setDeviceSlices(false, tr("CUDA-OpenGL interop failed: %1").arg(m));
    });
    connect(replay_, &ReplayBar::frameSelected, this, [this](const ReplayFrame& f) { showStoredFrame(f, true); });
    connect(replay_, &ReplayBar::liveSelected, this, [this](const ReplayFrame* newest) {
        wavefield_->setFixedGain(0);
        if (newest) showStoredFrame(*newest, false);
    });
    // GPU slices come to the host for the store only while it keeps frames.
    connect(replay_, &ReplayBar::limitChanged, this,
            [this](int mib) { controller_.setHostCopyOfDeviceSlices(mib > 0); });
    connect(&controller_, &SimulationController::failed, this,
            [this](const QString& m) { showError(tr("Run failed"), m, false); });
    connect(&controller_, &SimulationController::finished, this, [this](bool completed) {
        traces_->flush();
        if (run_pending_ && !showing_result_) {
            run_pending_ = false;
            current_result_ = controller_.lastResult();
            current_result_->scene = doc_.displayName().toStdString();
            showRunEnd(completed);
        }
        statusBar()->showMessage(completed ? tr("Run finished") : tr("Run stopped"), 5000);
    });
    connect(&controller_, &SimulationController::stateChanged, this, [this] {
        const auto s = controller_.state();
        start_act_->setEnabled(s == SimulationController::State::Idle || s == SimulationController::State::Paused);
        pause_act_->setEnabled(s == SimulationController::State::Running);
        stop_act_->setEnabled(s != SimulationController::State::Idle);
        showRunState();
    });

    // The event loop's heartbeat: the longest gap between ticks while a run is going (the main
    // run or the compare page's). A precise timer (a coarse one may fire up to 5% late) and the
    // gap in fractions of a millisecond.
    auto* heartbeat = new QTimer(this);
    heartbeat->setTimerType(Qt::PreciseTimer);
    heartbeat->setInterval(QString(kStallTimerMs).toInt());
    stall_clock_.start();
    connect(heartbeat, &QTimer::timeout, this, [this] {
        const double gap = 1e-6 * double(stall_clock_.nsecsElapsed());
        stall_clock_.restart();
        if (controller_.busy() || compare_->controller()->busy()) longest_stall_ms_ = std::max(longest_stall_ms_, gap);
    });
    heartbeat->start();

    restoreLayout();
    updateRecentMenu();

    // The paper's model, ready to run; on a CPU the app picks a coarser spacing so it animates.
    const QString paper = QStringLiteral(VOXWAVE_ASSETS_DIR "/scenes/paper_rebar.json");
    if (openScene(paper, true)) {
        std::string why;
        if (resolve_backend(Backend::Auto, why) == Backend::Cpu) {
            Scene s = doc_.scene();
            s.grid.spacing = 0.004;
            s.run.dt = 0;  // auto: 0.9 of the 4 mm stable limit, 9x fewer steps than the paper's dt
            doc_.reset(s, paper);
            statusBar()->showMessage(tr("No CUDA device: the paper model is shown at 4 mm so the CPU animates it"),
                                     8000);
        }
    }
}

MainWindow::~MainWindow() {
    controller_.stop();
    controller_.waitForIdle();
}

void MainWindow::buildActions() {
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* newAct = file->addAction(tr("&New"), this, [this] {
        if (!maybeSave()) return;
        Scene s;
        s.grid.size = {0.1, 0.1, 0.05};
        s.grid.spacing = 0.002;
        s.materials = {{"concrete", 2400, 4000, 2450, "#9a9a9a", ""}, {"steel", 7850, 5900, 3200, "#4a6fa5", ""}};
        s.background = "concrete";
        s.run.duration = 1e-4;
        doc_.reset(s);
    });
    newAct->setShortcut(QKeySequence::New);
    file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
        if (!maybeSave()) return;
        const QString p = QFileDialog::getOpenFileName(
            this, tr("Open scene"), QSettings().value("dirs/scenes").toString(), tr("voxwave scenes (*.json)"));
        if (!p.isEmpty()) openScene(p);
    });
    recent_menu_ = file->addMenu(tr("Open &recent"));
    QAction* examples = file->addAction(tr("&Examples..."), this, &MainWindow::openExamplesDialog);
    examples->setToolTip(
        tr("Ready experiments for teaching: P and S waves, Rayleigh waves, mode conversion, "
           "head waves, diffraction, Lamb waves, absorbing boundaries..."));
    file->addAction(tr("Open res&ult..."), this, [this] {
        const QString p =
            QFileDialog::getOpenFileName(this, tr("Open result"), QSettings().value("dirs/results").toString(),
                                         tr("voxwave results (*.h5);;All files (*)"));
        if (!p.isEmpty()) openResult(p);
    });
    file->addAction(tr("Open &image..."), this, [this] {
        const QString p =
            QFileDialog::getOpenFileName(this, tr("Open image"), QSettings().value("dirs/results").toString(),
                                         tr("voxwave images (*.h5);;All files (*)"));
        if (!p.isEmpty()) openImage(p);
    });
    file->addAction(tr("&Make image..."), this, [this] { openMakeImageDialog(); })
        ->setToolTip(tr("A TFM or plane-wave image of an FMC or PWI acquisition file"));
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] {
        if (doc_.path().isEmpty() || doc_.path().startsWith(VOXWAVE_ASSETS_DIR)) {
            const QString p =
                QFileDialog::getSaveFileName(this, tr("Save scene"), QString(), tr("voxwave scenes (*.json)"));
            if (!p.isEmpty()) saveScene(p);
        } else {
            saveScene(doc_.path());
        }
    });
    file->addAction(tr("Save &as..."), QKeySequence::SaveAs, this, [this] {
        const QString p =
            QFileDialog::getSaveFileName(this, tr("Save scene"), doc_.path(), tr("voxwave scenes (*.json)"));
        if (!p.isEmpty()) saveScene(p);
    });
    file->addSeparator();
    auto* stl = file->addAction(tr("Import STL surface..."), this, [this] { shapes_->chooseStl(); });
    stl->setToolTip(tr("Paint the voxels a closed STL surface encloses with the material chosen in Shapes and import"));
    file->addAction(tr("Export model (VTK .vti)..."), this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Export model"), QString(), tr("VTK image (*.vti)"));
        if (!p.isEmpty()) exportModelVti(p.endsWith(".vti", Qt::CaseInsensitive) ? p : p + ".vti");
    });
    file->addAction(tr("Save wavefield snapshot (XDMF + HDF5)..."), this, [this] {
        if (!controller_.busy()) {
            saveWavefieldSnapshot({});
            return;
        }
        const QString p = QFileDialog::getSaveFileName(this, tr("Save wavefield snapshot"), QString(),
                                                       tr("HDF5 with an XDMF file beside it (*.h5)"));
        if (!p.isEmpty()) saveWavefieldSnapshot(p.endsWith(".h5", Qt::CaseInsensitive) ? p : p + ".h5");
    });
    file->addAction(tr("Export traces (HDF5)..."), this, [this] { exportTracesAs(tr("HDF5 (*.h5)")); });
    file->addAction(tr("Export traces (CSV)..."), this, [this] { exportTracesAs(tr("CSV (*.csv)")); });
    file->addAction(tr("Export snapshot (PNG)..."), this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Snapshot"), QString(), tr("PNG (*.png)"));
        if (!p.isEmpty() && !wavefield_->grabFramebuffer().save(p))
            showError(tr("Export failed"), p + tr(": cannot write the image"), false);
    });
    auto* record = file->addAction(tr("Record animation (PNG sequence)..."));
    record->setCheckable(true);
    connect(record, &QAction::toggled, this, [this, record](bool on) {
        if (!on) {
            statusBar()->showMessage(tr("Recorded %1 frames to %2").arg(recorded_frames_).arg(record_dir_), 6000);
            record_dir_.clear();
            return;
        }
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder for the animation frames"));
        if (dir.isEmpty()) {
            QSignalBlocker b(record);
            record->setChecked(false);
            return;
        }
        startRecording(dir);
    });
    QAction* video = file->addAction(tr("Export &video..."), this, [this] {
        if (replay_->buffer().empty()) {
            showError(tr("Nothing to export"),
                      tr("%1 has no frames yet: run it (%2); the video is made of the frames the replay keeps.")
                          .arg(doc_.displayName(), runKey()),
                      false);
            return;
        }
        const int fps = QSettings().value("video/fps", 25).toInt();
        if (!VideoExport::ffmpegPath().isEmpty()) {
            const QString p = QFileDialog::getSaveFileName(
                this, tr("Export video"), QSettings().value("dirs/video").toString(), tr("MP4 video (*.mp4)"));
            if (p.isEmpty()) return;
            QSettings().setValue("dirs/video", QFileInfo(p).absolutePath());
            exportVideo(p.endsWith(".mp4", Qt::CaseInsensitive) ? p : p + ".mp4", true, fps);
        } else {
            showInfo(tr("Export video"), tr("ffmpeg is not installed (Debian: apt install ffmpeg), so the video is "
                                            "written as a PNG sequence into a folder."));
            const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder for the video's frames"));
            if (!dir.isEmpty()) exportVideo(dir, false, fps);
        }
    });
    video->setToolTip(
        tr("The run's frames as the wavefield view shows them (with the wavefronts when shown): an MP4 "
           "through ffmpeg, or a PNG sequence without it"));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = doc_.undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = doc_.undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction* library = edit->addAction(tr("Material &library..."), this, &MainWindow::openMaterialLibrary);
    library->setToolTip(tr("Browse the materials (density, wave speeds), add them to the scene, define your own"));

    auto* sim = menuBar()->addMenu(tr("&Simulation"));
    start_act_ = sim->addAction(tr("&Start / resume"), this, &MainWindow::startRun);
    start_act_->setShortcut(Qt::Key_F5);
    pause_act_ = sim->addAction(tr("&Pause"), this, &MainWindow::pauseRun);
    pause_act_->setShortcut(Qt::Key_F6);
    step_act_ = sim->addAction(tr("S&tep"), this, &MainWindow::stepRun);
    step_act_->setShortcut(Qt::Key_F7);
    stop_act_ = sim->addAction(tr("St&op"), this, &MainWindow::stopRun);
    stop_act_->setShortcut(Qt::SHIFT | Qt::Key_F5);
    reset_act_ = sim->addAction(tr("&Reset"), this, &MainWindow::resetRun);
    sim->addSeparator();
    sim->addAction(tr("Run on a &cluster..."), this, &MainWindow::openClusterJobDialog);
    pause_act_->setEnabled(false);
    stop_act_->setEnabled(false);

    // Tool bar: simulation controls, then the painter's tools.
    auto* tb = addToolBar(tr("Simulation"));
    tb->setObjectName("simulation-toolbar");
    tb->addActions({start_act_, pause_act_, step_act_, stop_act_, reset_act_});
    auto* tools = addToolBar(tr("Model tools"));
    tools->setObjectName("tools-toolbar");
    toolbars_ = {tb, tools};
    plane_box_ = new QComboBox;
    plane_box_->addItems({"XY", "XZ", "YZ"});
    plane_box_->setCurrentIndex(1);
    plane_box_->setToolTip(tr("Plane of the slice you edit and watch: XY (horizontal), XZ or YZ (vertical)"));
    slice_slider_ = new QSlider(Qt::Horizontal);
    slice_slider_->setMinimumWidth(160);
    slice_slider_->setToolTip(tr("Slice position (node plane)"));
    tools->addWidget(plane_box_);
    tools->addWidget(slice_slider_);
    auto* tool_group = new QActionGroup(this);
    struct ToolEntry {
        QString name, tip;
        SliceTool tool;
    };
    const ToolEntry tool_list[] = {
        {tr("Brush"), tr("Paint the chosen material under the cursor (size: the brush box)"), SliceTool::Brush},
        {tr("Eraser"), tr("Paint void: no material, a free surface for the waves"), SliceTool::Eraser},
        {tr("Rectangle"), tr("Drag to fill a rectangle with the chosen material"), SliceTool::Rectangle},
        {tr("Ellipse"), tr("Drag to fill an ellipse with the chosen material"), SliceTool::Ellipse},
        {tr("Line"), tr("Drag to paint a line (brush-size wide)"), SliceTool::Line},
        {tr("Fill"), tr("Click to fill the connected region of one material"), SliceTool::Fill},
        {tr("Source"), tr("Click to place a source (a force pulse) here"), SliceTool::PlaceSource},
        {tr("Receiver"), tr("Click to place a receiver (records the displacement) here"), SliceTool::PlaceReceiver},
        {tr("Move"), tr("Drag a source or receiver to move it"), SliceTool::Move}};
    int key = 0;
    for (const auto& [name, tip, tool] : tool_list) {
        QAction* a = tools->addAction(name);
        a->setToolTip(tip);
        a->setCheckable(true);
        a->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + key++)));
        a->setChecked(tool == SliceTool::Brush);
        tool_group->addAction(a);
        const SliceTool t = tool;
        connect(a, &QAction::triggered, this, [this, t] {
            painter_->setTool(t);
            // The 3D view places what the slice tools place; otherwise its clicks turn the camera.
            model3d_->setPlaceMode(t == SliceTool::PlaceSource ? 1 : t == SliceTool::PlaceReceiver ? 2 : 0);
        });
    }
    brush_box_ = new QSpinBox;
    brush_box_->setRange(1, 99);
    brush_box_->setValue(3);
    brush_box_->setPrefix(tr("size "));
    brush_box_->setSuffix(tr(" vox"));
    brush_box_->setToolTip(tr("Brush and line width in voxels"));
    material_box_ = new QComboBox;
    material_box_->setToolTip(tr("Material to paint"));
    tools->addWidget(brush_box_);
    tools->addWidget(material_box_);
    tools->addAction(library);
    connect(brush_box_, &QSpinBox::valueChanged, painter_, &SlicePainter::setBrushSize);
    connect(material_box_, &QComboBox::currentIndexChanged, this, [this](int i) { painter_->setMaterial(i + 1); });
    connect(plane_box_, &QComboBox::currentIndexChanged, this, [this](int i) {
        painter_->setPlane(SlicePlane(std::array{SlicePlane::XY, SlicePlane::XZ, SlicePlane::YZ}[i]));
    });
    connect(slice_slider_, &QSlider::valueChanged, painter_, &SlicePainter::setNodePlane);

    auto* field = addToolBar(tr("Wavefield"));
    field->setObjectName("wavefield-toolbar");
    toolbars_.push_back(field);
    quantity_box_ = new QComboBox;
    quantity_box_->addItems({"u_x", "u_y", "u_z", "|u|", "|v|"});
    const char* quantity_tips[] = {"displacement along x", "displacement along y", "displacement along z",
                                   "displacement magnitude", "particle velocity magnitude"};
    for (int i = 0; i < quantity_box_->count(); ++i)
        quantity_box_->setItemData(i, tr(quantity_tips[i]), Qt::ToolTipRole);
    quantity_box_->setToolTip(tr("Quantity the wavefield pane shows"));
    quantity_box_->setCurrentIndex(2);
    field->addWidget(quantity_box_);
    auto* autogain = field->addAction(tr("Auto gain"));
    autogain->setObjectName("autogain-action");
    autogain->setToolTip(tr("Scale the colours to each frame's strongest values"));
    autogain->setCheckable(true);
    autogain->setChecked(true);
    connect(autogain, &QAction::toggled, wavefield_, &WavefieldView::setAutoGain);
    auto* gain = new QSlider(Qt::Horizontal);
    gain->setRange(-60, 20);
    gain->setMaximumWidth(140);
    gain->setToolTip(tr("Manual gain (dB relative to the current peak)"));
    field->addWidget(gain);
    connect(gain, &QSlider::valueChanged, this, [this, autogain](int db) {
        autogain->setChecked(false);
        wavefield_->setManualGain(std::max(1e-30, wavefield_->gain()) * std::pow(10.0, -db / 20.0));
    });
    auto* outlines = field->addAction(tr("Outlines"));
    outlines->setToolTip(tr("Draw the material boundaries over the wavefield"));
    outlines->setCheckable(true);
    outlines->setChecked(true);
    connect(outlines, &QAction::toggled, wavefield_, &WavefieldView::setShowMaterials);
    wavefronts_act_ = field->addAction(tr("Wavefronts"));
    wavefronts_act_->setObjectName("wavefronts-action");
    wavefronts_act_->setToolTip(
        tr("Draw where the P, S and Rayleigh waves from each source would be now in a "
           "homogeneous body of the source's material (radius = speed x time since the pulse "
           "peak)"));
    wavefronts_act_->setCheckable(true);
    wavefronts_act_->setShortcut(Qt::CTRL | Qt::Key_W);
    wavefronts_act_->setChecked(QSettings().value("view/wavefronts", false).toBool());
    wavefield_->setShowWavefronts(wavefronts_act_->isChecked());
    connect(wavefronts_act_, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue("view/wavefronts", on);
        wavefield_->setShowWavefronts(on);
    });
    connect(quantity_box_, &QComboBox::currentIndexChanged, this, &MainWindow::pushViewToController);
}

void MainWindow::buildDocks() {
    auto dock = [this](const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    sources_ = new SourcesPanel(&doc_);
    run_panel_ = new RunPanel(&doc_);
    traces_ = new TracePanel;
    dispersion_ = new DispersionPanel(&doc_);
    shapes_ = new ShapesPanel(&doc_);
    boundary_ = new BoundaryPanel(&doc_);
    connect(boundary_, &BoundaryPanel::failed, this,
            [this](const QString& m) { showError(tr("Invalid boundary"), m, false); });
    connect(sources_, &SourcesPanel::failed, this,
            [this](const QString& m) { showError(tr("Invalid value"), m, false); });
    connect(shapes_, &ShapesPanel::failed, this,
            [this](const QString& m) { showError(tr("Cannot add to the model"), m, false); });
    probes_ = new ProbesPanel(&doc_);
    scan_ = new ScanPanel(&doc_);
    connect(probes_, &ProbesPanel::failed, this,
            [this](const QString& m) { showError(tr("Invalid probe"), m, false); });
    connect(scan_, &ScanPanel::failed, this, [this](const QString& m) { showError(tr("Scan"), m, false); });
    // The receivers' plots shrink by themselves; the form panels scroll (see scrollable()).
    auto* d1 = dock(tr("Sources and receivers"), "sources-dock", scrollable(sources_), Qt::LeftDockWidgetArea);
    auto* d2 = dock(tr("Run"), "run-dock", scrollable(run_panel_), Qt::LeftDockWidgetArea);
    auto* d3 = dock(tr("Receivers"), "traces-dock", traces_, Qt::BottomDockWidgetArea);
    traces_dock_ = d3;
    connect(run_panel_, &RunPanel::clusterJobRequested, this, &MainWindow::openClusterJobDialog);
    auto* d4 = dock(tr("Dispersion"), "dispersion-dock", scrollable(dispersion_), Qt::BottomDockWidgetArea);
    auto* d5 = dock(tr("Shapes and import"), "shapes-dock", scrollable(shapes_), Qt::LeftDockWidgetArea);
    auto* d6 = dock(tr("Boundary"), "boundary-dock", scrollable(boundary_), Qt::LeftDockWidgetArea);
    auto* d7 = dock(tr("Probes"), "probes-dock", scrollable(probes_), Qt::LeftDockWidgetArea);
    auto* d8 = dock(tr("Scan"), "scan-dock", scrollable(scan_), Qt::LeftDockWidgetArea);
    auto* d9 = dock(tr("Probe scan"), "probe-scan-dock", scan_->resultsView(), Qt::BottomDockWidgetArea);
    connect(scan_, &ScanPanel::shotCompleted, d9, [d9](int filled) {
        if (filled == 1) d9->raise();  // the first shot's row: show where the scan fills in
    });
    docks_ = {d1, d2, d5, d3, d4, d6, d7, d8, d9};
    resetLayout();
    auto* view = menuBar()->addMenu(tr("&View"));
    for (auto* d : docks_) view->addAction(d->toggleViewAction());
    view->addSeparator();
    for (auto* t : toolbars_) view->addAction(t->toggleViewAction());
    view->addSeparator();
    view->addAction(wavefronts_act_);
    buildAppearanceMenu(view);
    view->addSeparator();
    view->addAction(tr("Reset &layout"), this, &MainWindow::resetLayout);
    // The explorer's docks have nothing to say on the Solvers tab: hide them there, bring back
    // the ones that were open when leaving it.
    connect(main_tabs_, &QTabWidget::currentChanged, this, [this](int i) {
        const bool solvers = main_tabs_->widget(i) == solvers_;
        if (solvers && hidden_docks_.empty()) {
            for (auto* d : docks_)
                if (!d->isHidden()) {
                    hidden_docks_.push_back(d);
                    d->hide();
                }
        } else if (!solvers) {
            for (auto* d : hidden_docks_) d->show();
            hidden_docks_.clear();
        }
    });
}

void MainWindow::buildAppearanceMenu(QMenu* view) {
    auto* menu = view->addMenu(tr("&Appearance"));
    const Appearance saved = saved_appearance();
    light_act_ = menu->addAction(tr("&Light theme"));
    light_act_->setToolTip(tr("Light backgrounds in the window and the views: reads better on a projector"));
    large_font_act_ = menu->addAction(tr("Lar&ge fonts"));
    large_font_act_->setToolTip(tr("Every text %1 times larger, for the back of a classroom").arg(kLargeFontScale));
    for (QAction* a : {light_act_, large_font_act_}) {
        a->setCheckable(true);
        connect(a, &QAction::toggled, this, [this] {
            const Appearance now{light_act_->isChecked(), large_font_act_->isChecked()};
            save_appearance(now);
            apply_appearance(now);
        });
    }
    {
        const QSignalBlocker b1(light_act_), b2(large_font_act_);
        light_act_->setChecked(saved.light);
        large_font_act_->setChecked(saved.large_font);
    }
    if (saved.light || saved.large_font) QTimer::singleShot(0, this, [saved] { apply_appearance(saved); });
    menu->addSeparator();
    presentation_act_ = menu->addAction(tr("&Presentation view"));
    presentation_act_->setObjectName("presentation-action");
    presentation_act_->setCheckable(true);
    presentation_act_->setShortcut(Qt::Key_F11);
    presentation_act_->setToolTip(
        tr("The wavefield and the receivers' plot filling the screen. %1").arg(presentationKeys()));
    connect(presentation_act_, &QAction::toggled, this, &MainWindow::setPresentationMode);
    // Its keys work only while it is shown (Space and the arrows belong to the widgets otherwise).
    auto key = [this](QKeySequence k, auto slot) {
        auto* sc = new QShortcut(k, this);
        sc->setEnabled(false);
        connect(sc, &QShortcut::activated, this, slot);
        presentation_keys_.push_back(sc);
    };
    key(Qt::Key_Space, [this] {
        if (controller_.state() == SimulationController::State::Running)
            pauseRun();
        else
            startRun();
    });
    key(Qt::Key_Right, [this] { stepRun(); });
    key(Qt::Key_R, [this] {
        if (replay_->buffer().empty()) return;
        replay_->showFrame(0);
        replay_->setPlaying(true);
    });
    key(Qt::Key_Escape, [this] { presentation_act_->setChecked(false); });
}

QString MainWindow::presentationKeys() {
    return tr("Keys: Space run / pause · Right step · R replay from the start · Esc leave");
}

void MainWindow::setPresentationMode(bool on) {
    if (on == presenting_) return;
    presenting_ = on;
    {
        const QSignalBlocker b(presentation_act_);
        presentation_act_->setChecked(on);
    }
    QSettings().setValue("appearance/presentation", on);
    // The actions the window's menus hold must keep their keys with the menu bar hidden.
    for (QAction* a : {start_act_, pause_act_, step_act_, stop_act_, reset_act_, presentation_act_, wavefronts_act_})
        if (on)
            addAction(a);
        else
            removeAction(a);
    for (QShortcut* k : presentation_keys_) k->setEnabled(on);
    if (on) {
        state_before_presenting_ = saveState(kLayoutVersion);
        maximized_before_presenting_ = isMaximized();
        main_tabs_->setCurrentIndex(0);
        main_tabs_->tabBar()->hide();
        tabs_->hide();  // the model's side of the splitter: the live wavefield takes it all
        for (auto* d : docks_) d->setVisible(d == traces_dock_);
        traces_->setBScanShown(false);
        traces_dock_->setFloating(false);
        for (auto* t : toolbars_) t->hide();
        menuBar()->hide();
        if (!presentation_label_) {
            presentation_label_ = new QLabel(presentationKeys());
            presentation_label_->setObjectName("presentation-keys");
            // Permanent: a run's status messages would hide a normal status bar widget.
            statusBar()->insertPermanentWidget(0, presentation_label_);
        }
        presentation_label_->show();
        showFullScreen();
    } else {
        main_tabs_->tabBar()->show();
        tabs_->show();
        traces_->setBScanShown(true);
        menuBar()->show();
        restoreState(state_before_presenting_, kLayoutVersion);
        if (presentation_label_) presentation_label_->hide();
        if (maximized_before_presenting_)
            showMaximized();
        else
            showNormal();
    }
}

void MainWindow::buildHelpMenu() {
    auto* help = menuBar()->addMenu(tr("&Help"));
    QAction* start = help->addAction(tr("&Getting started"), this, [this] { showHelp("getting-started"); });
    start->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&Keyboard shortcuts"), this, [this] { showHelp("shortcuts"); });
    help->addSeparator();
    help->addAction(tr("&About voxwave"), this, [this] { showHelp("about"); });
}

QString MainWindow::runKey() const { return start_act_->shortcut().toString(QKeySequence::NativeText); }

QString MainWindow::helpPage(const QString& name) const {
    if (name == "shortcuts") return shortcuts_html(findChildren<QAction*>());
    if (name == "about") return about_html(QCoreApplication::applicationVersion());
    return getting_started_html(runKey(), QDir::toNativeSeparators(userMaterialLibraryPath()));
}

void MainWindow::showHelp(const QString& name) {
    if (!help_dialog_) {
        help_dialog_ = new QDialog(this);
        help_dialog_->resize(640, 560);
        auto* lay = new QVBoxLayout(help_dialog_);
        help_browser_ = new QTextBrowser;
        help_browser_->setOpenExternalLinks(true);
        lay->addWidget(help_browser_);
        auto* close = new QDialogButtonBox(QDialogButtonBox::Close);
        connect(close, &QDialogButtonBox::rejected, help_dialog_, &QDialog::close);
        lay->addWidget(close);
    }
    help_dialog_->setWindowTitle(name == "shortcuts" ? tr("Keyboard shortcuts")
                                 : name == "about"   ? tr("About voxwave")
                                                     : tr("Getting started"));
    help_browser_->setHtml(helpPage(name));
    help_dialog_->show();
    help_dialog_->raise();
}

void MainWindow::resetLayout() {
    // Left: sources and receivers above the run settings (tabbed with shapes), the full height of
    // the window, so that on a 768 px screen each gets half of it rather than what the receivers'
    // plots leave. Bottom: the receivers' plots, tabbed with the dispersion plot, under the centre.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
    QDockWidget* sources = docks_[0];
    QDockWidget* run = docks_[1];
    QDockWidget* shapes = docks_[2];
    QDockWidget* traces = docks_[3];
    QDockWidget* dispersion = docks_[4];
    QDockWidget* boundary = docks_[5];
    QDockWidget* probes = docks_[6];
    QDockWidget* scan = docks_[7];
    QDockWidget* probe_scan = docks_[8];
    hidden_docks_.clear();
    for (auto* d : docks_) {
        d->setFloating(false);
        removeDockWidget(d);
    }
    addDockWidget(Qt::LeftDockWidgetArea, sources);
    addDockWidget(Qt::LeftDockWidgetArea, run);
    tabifyDockWidget(run, shapes);
    tabifyDockWidget(run, boundary);
    tabifyDockWidget(sources, probes);
    tabifyDockWidget(run, scan);
    addDockWidget(Qt::BottomDockWidgetArea, traces);
    tabifyDockWidget(traces, dispersion);
    tabifyDockWidget(traces, probe_scan);
    for (auto* d : docks_) d->show();
    if (main_tabs_->currentWidget() == solvers_) {  // shown again when the Explore tab is
        for (auto* d : docks_) d->hide();
        hidden_docks_ = docks_;
    }
    run->raise();
    sources->raise();
    traces->raise();
    // Toolbars in two rows: in one (about 1500 px) the model tools would fold away below 1600 px.
    for (auto* t : toolbars_) removeToolBar(t);
    addToolBar(Qt::TopToolBarArea, toolbars_[0]);
    addToolBar(Qt::TopToolBarArea, toolbars_[1]);
    addToolBarBreak(Qt::TopToolBarArea);
    addToolBar(Qt::TopToolBarArea, toolbars_[2]);
    for (auto* t : toolbars_) t->show();
    resizeDocks({sources}, {360}, Qt::Horizontal);
    resizeDocks({sources, run}, {1, 1}, Qt::Vertical);
    resizeDocks({traces}, {260}, Qt::Vertical);
}

bool MainWindow::restoreLayout() {
    QSettings s;
    const QByteArray geometry = s.value("window/geometry").toByteArray();
    const QByteArray state = s.value("window/state").toByteArray();
    if (state.isEmpty() || !restoreState(state, kLayoutVersion)) {
        resetLayout();
        return false;
    }
    if (!geometry.isEmpty()) restoreGeometry(geometry);
    // A saved state must not make docks vanish: none shown at all, or a floating one left on a
    // screen that is gone, is the default layout again.
    bool any_shown = false;
    for (auto* d : docks_) {
        any_shown = any_shown || !d->isHidden();
        if (d->isFloating() && !QGuiApplication::screenAt(d->geometry().center())) d->setFloating(false);
    }
    if (!any_shown) {
        resetLayout();
        return false;
    }
    return true;
}

void MainWindow::saveLayout() {
    // Saved as the Explore tab shows it: docks the Solvers tab hid count as shown.
    for (auto* d : hidden_docks_) d->show();
    QSettings s;
    // In the presentation view: the layout it came from (it is restored when the view is left).
    if (!presenting_) s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", presenting_ ? state_before_presenting_ : saveState(kLayoutVersion));
    for (auto* d : hidden_docks_) d->hide();
}

void MainWindow::showError(const QString& title, const QString& message, bool quiet) {
    last_error_ = message;
    if (!quiet && !non_interactive_) QMessageBox::critical(this, title, message);
}

void MainWindow::showInfo(const QString& title, const QString& message) {
    last_info_ = message;
    if (!non_interactive_) QMessageBox::information(this, title, message);
}

QWidget* MainWindow::openImage(const QString& path, bool quiet) {
    try {
        return show_image_window(read_image_h5(path.toStdString()), QFileInfo(path).fileName(), this);
    } catch (const std::exception& e) {
        showError(tr("Cannot open image"), QString::fromStdString(e.what()), quiet);
        return nullptr;
    }
}

QDialog* MainWindow::openMakeImageDialog(const QString& path) {
    auto* d = new MakeImageDialog(path, this);
    d->setScene(doc_.scene(), doc_.displayName());
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->show();
    return d;
}

bool MainWindow::openResult(const QString& path, bool quiet, OtherScene other) {
    // An image opens in its own window; an acquisition without traces goes to Make image....
    if (is_image_h5(path.toStdString())) return openImage(path, quiet) != nullptr;
    if (has_array_acquisition_h5(path.toStdString())) {
        try {
            (void)read_result_h5(path.toStdString());
        } catch (const std::exception&) {
            openMakeImageDialog(path);
            return true;
        }
    }
    Result r;
    try {
        r = read_result_h5(path.toStdString());
        if (r.sample_count() > 0 && !(r.dt > 0 && std::isfinite(r.dt)))
            throw InputError(path.toStdString(), "dt", "must be a positive number (got " + std::to_string(r.dt) + ")");
    } catch (const std::exception& e) {
        showError(tr("Cannot open result"), QString::fromStdString(e.what()), quiet);
        return false;
    }
    const QString name = QFileInfo(path).fileName();
    // The result belongs to the scene it names; one that names none (older files) is taken for
    // the open scene's, as before.
    const QString its_scene = QString::fromStdString(r.scene);
    bool own = its_scene.isEmpty() || its_scene == doc_.displayName();
    const QString beside = its_scene.isEmpty() ? QString() : QFileInfo(path).dir().filePath(its_scene);
    const bool found = !own && QFileInfo(beside).isFile();
    if (found && other == OtherScene::Ask && !quiet && !non_interactive_)
        other = QMessageBox::question(this, tr("Result of another scene"),
                                      tr("%1 comes from the scene %2, not from the open scene %3.\n\nOpen %2 (found "
                                         "beside the result) to see its receivers on their own model?")
                                          .arg(name, its_scene, doc_.displayName()),
                                      QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes) == QMessageBox::Yes
                    ? OtherScene::OpenIt
                    : OtherScene::KeepOpenScene;
    if (found && other == OtherScene::OpenIt && maybeSave() && openScene(beside, quiet))
        own = its_scene == doc_.displayName();
    resetRun();  // stops a run: its traces must not mix with the file's
    showing_result_ = true;
    result_of_open_scene_ = own;
    traces_->showResult(r);
    // Another scene's receivers are not drawn as markers on this one: they are not its.
    if (own)
        painter_->setResultReceivers(r.receiver_names, r.receiver_positions);
    else
        painter_->setResultReceivers({}, {});
    const QString what = tr("%1 %2 on %3, %4 steps")
                             .arg(QString::fromStdString(r.method), QString::fromStdString(r.precision),
                                  QString::fromStdString(r.backend))
                             .arg(r.steps);
    traces_dock_->setWindowTitle(own ? tr("Receivers — %1 (%2)").arg(name, what)
                                     : tr("Receivers — %1 (%2), of the scene %3").arg(name, what, its_scene));
    backend_label_->setText(tr("Result computed on: %1").arg(QString::fromStdString(r.backend)));
    backend_label_->setToolTip(path);
    if (r.sample_count() > 0) time_label_->setText(tr("t = %1 µs").arg(r.time.back() * 1e6, 0, 'f', 2));
    QString msg =
        tr("Result %1: %2, %3 receivers, dt %4 µs").arg(name, what).arg(r.receiver_count()).arg(r.dt * 1e6, 0, 'g', 4);
    if (!own)
        msg += found ? tr(" — its traces belong to the scene %1 (beside the result), not to the open scene %2; its "
                          "receivers are not drawn on it")
                           .arg(its_scene, doc_.displayName())
                     : tr(" — its traces belong to the scene %1 (not found beside the result), not to the open scene "
                          "%2; its receivers are not drawn on it")
                           .arg(its_scene, doc_.displayName());
    statusBar()->showMessage(msg);
    QSettings().setValue("dirs/results", QFileInfo(path).absolutePath());
    current_result_ = std::move(r);
    return true;
}

QString MainWindow::noResultMessage() const {
    if (controller_.busy())
        return tr("The run of %1 has not ended: its traces can be exported once it finishes or is stopped.")
            .arg(doc_.displayName());
    return tr("%1 has no result to export yet: run it (F5) or open a result file first.").arg(doc_.displayName());
}

void MainWindow::exportTracesAs(const QString& filter) {
    if (!current_result_) {
        showError(tr("Nothing to export"), noResultMessage(), false);
        return;
    }
    const QString p = QFileDialog::getSaveFileName(this, tr("Export traces"), QString(), filter);
    if (!p.isEmpty()) exportTraces(p);
}

bool MainWindow::exportTraces(const QString& path, bool quiet) {
    if (!current_result_) {
        showError(tr("Nothing to export"), noResultMessage(), quiet);
        return false;
    }
    try {
        // The traces panel shows the current result once a run has ended: its CSV is that result's.
        if (path.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive))
            traces_->exportCsv(path);
        else
            write_result_h5(path.toStdString(), *current_result_);
    } catch (const std::exception& e) {
        showError(tr("Export failed"), e.what(), quiet);
        return false;
    }
    statusBar()->showMessage(tr("Exported the traces to %1").arg(path), 5000);
    return true;
}

bool MainWindow::exportModelVti(const QString& path, bool quiet) {
    try {
        write_model_vti(path.toStdString(), doc_.model(), doc_.scene().materials);
    } catch (const std::exception& e) {
        showError(tr("Export failed"), e.what(), quiet);
        return false;
    }
    statusBar()->showMessage(tr("Exported the voxel model to %1").arg(path), 5000);
    return true;
}

bool MainWindow::saveWavefieldSnapshot(const QString& path, bool quiet) {
    if (!controller_.busy()) {
        showError(tr("No wavefield"),
                  tr("The wavefield lives in a running simulation: start a run (F5), pause it where you want "
                     "the snapshot, then save."),
                  quiet);
        return false;
    }
    controller_.requestSnapshot(path);
    return true;
}

void MainWindow::leaveResult() {
    if (!showing_result_) return;
    showing_result_ = false;
    result_of_open_scene_ = true;
    current_result_.reset();
    painter_->setResultReceivers({}, {});
    traces_dock_->setWindowTitle(tr("Receivers"));
}

QString MainWindow::userMaterialLibraryPath() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath("materials.json");
}

MaterialLibraryDialog* MainWindow::openMaterialLibrary() {
    if (!library_dialog_) {
        library_dialog_ = new MaterialLibraryDialog(&doc_, QStringLiteral(VOXWAVE_ASSETS_DIR "/materials/library.json"),
                                                    userMaterialLibraryPath(), this);
        connect(library_dialog_, &MaterialLibraryDialog::failed, this,
                [this](const QString& m) { showError(tr("Material library"), m, false); });
        connect(library_dialog_, &MaterialLibraryDialog::info, this, [this](const QString& m) {
            last_info_ = m;
            statusBar()->showMessage(m, 6000);
        });
    }
    library_dialog_->show();
    library_dialog_->raise();
    return library_dialog_;
}

ExamplesDialog* MainWindow::openExamplesDialog() {
    std::vector<ExampleEntry> list;
    try {
        list = load_examples(builtin_examples_index());
    } catch (const std::exception& e) {
        showError(tr("Examples"), QString::fromStdString(e.what()), false);
        return nullptr;
    }
    if (!examples_dialog_) {
        examples_dialog_ = new ExamplesDialog(std::move(list), this);
        connect(examples_dialog_, &ExamplesDialog::openRequested, this, [this](int i) {
            if (maybeSave()) openExample(examples_dialog_->examples()[std::size_t(i)]);
        });
    }
    examples_dialog_->open();
    return examples_dialog_;
}

bool MainWindow::openExample(const QString& id, bool quiet) {
    try {
        for (const ExampleEntry& e : load_examples(builtin_examples_index()))
            if (e.id == id) return openExample(e, quiet);
    } catch (const std::exception& e) {
        showError(tr("Examples"), QString::fromStdString(e.what()), quiet);
        return false;
    }
    showError(tr("Examples"), tr("%1: no example named '%2'").arg(builtin_examples_index(), id), quiet);
    return false;
}

bool MainWindow::openExample(const ExampleEntry& e, bool quiet) {
    if (!openScene(e.scene_path, quiet)) return false;
    const int plane = int(QStringList{"XY", "XZ", "YZ"}.indexOf(e.plane));
    plane_box_->setCurrentIndex(std::max(0, plane));
    const VoxelGrid& g = doc_.model();
    const int normal = plane_axes(SlicePlane(std::max(0, plane)))[2];
    slice_slider_->setValue(int(std::lround((e.position - g.origin[std::size_t(normal)]) / g.spacing)));
    quantity_box_->setCurrentIndex(std::max(0, example_quantity_index(e.quantity)));
    if (e.wavefronts) wavefronts_act_->setChecked(true);
    if (auto* autogain = findChild<QAction*>("autogain-action")) autogain->setChecked(!(e.gain > 0));
    if (e.gain > 0) wavefield_->setManualGain(e.gain);
    if (e.page == "compare") {
        // VFEM (A) against OVFEM (B) on the example's own grid, OVFEM the reference.
        compare_->configure(0, 0, 0, g.spacing);
        compare_->configure(1, 1, 0, g.spacing);
        compare_->setReference(1);
        main_tabs_->setCurrentIndex(1);
    } else {
        main_tabs_->setCurrentIndex(0);
    }
    statusBar()->showMessage(e.page == "compare"
                                 ? tr("Example: %1 — press Run both to compare the methods").arg(e.title)
                                 : tr("Example: %1 — press %2 to run it").arg(e.title, runKey()),
                             8000);
    return true;
}

bool MainWindow::comparePageShown() const { return main_tabs_->currentIndex() == 1; }

ClusterJobDialog* MainWindow::openClusterJobDialog() {
    auto* d = new ClusterJobDialog(&doc_, this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    connect(d, &QDialog::accepted, this, [this, d] {
        const QString dir = QDir::toNativeSeparators(d->folder());
        showInfo(
            tr("Cluster job written"),
            tr("Wrote\n  %1\n  %2\n\nCopy the folder to the cluster and submit the job there:\n  cd %3 && sbatch %4")
                .arg(d->scenePath(), d->scriptPath(), QString::fromStdString(shell_quote(dir.toStdString())),
                     kClusterJobScript));
    });
    d->open();
    return d;
}

bool MainWindow::openScene(const QString& path, bool quiet) {
    if (controller_.busy()) stopRun();
    try {
        doc_.open(path);
    } catch (const std::exception& e) {
        showError(tr("Cannot open scene"), QString::fromStdString(e.what()), quiet);
        return false;
    }
    if (!path.startsWith(VOXWAVE_ASSETS_DIR)) addRecent(path);
    QSettings().setValue("dirs/scenes", QFileInfo(path).absolutePath());
    return true;
}

bool MainWindow::saveScene(const QString& path, bool quiet) {
    try {
        doc_.save(path);
    } catch (const std::exception& e) {
        showError(tr("Cannot save scene"), QString::fromStdString(e.what()), quiet);
        return false;
    }
    addRecent(path);
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    return true;
}

void MainWindow::addRecent(const QString& path) {
    QSettings s;
    QStringList list = s.value("recent").toStringList();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaxRecent) list.removeLast();
    s.setValue("recent", list);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    if (!recent_menu_) return;
    recent_menu_->clear();
    for (const QString& p : QSettings().value("recent").toStringList())
        recent_menu_->addAction(p, this, [this, p] {
            if (maybeSave()) openScene(p);
        });
    recent_menu_->setEnabled(!recent_menu_->isEmpty());
}

void MainWindow::updateTitle() {
    setWindowTitle(QStringLiteral("%1%2 — voxwave").arg(doc_.displayName(), doc_.isModified() ? "*" : ""));
}

bool MainWindow::maybeSave() {
    if (!doc_.isModified() || !isVisible()) return true;
    const auto b = QMessageBox::question(this, tr("Unsaved changes"), tr("Save the changes to the scene first?"),
                                         QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (b == QMessageBox::Cancel) return false;
    if (b == QMessageBox::Save) {
        const QString p =
            doc_.path().isEmpty() || doc_.path().startsWith(VOXWAVE_ASSETS_DIR)
                ? QFileDialog::getSaveFileName(this, tr("Save scene"), QString(), tr("voxwave scenes (*.json)"))
                : doc_.path();
        return !p.isEmpty() && saveScene(p);
    }
    return true;
}

void MainWindow::closeEvent(QCloseEvent* ev) {
    if (!maybeSave()) {
        ev->ignore();
        return;
    }
    // Materials of the user's own library edited and not saved: they would be lost with the window.
    if (library_dialog_ && library_dialog_->userLibraryModified() && !non_interactive_) {
        const auto b =
            QMessageBox::question(this, tr("Material library"), tr("Save the changes to your material library first?"),
                                  QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
        if (b == QMessageBox::Cancel || (b == QMessageBox::Save && !library_dialog_->saveUserLibrary())) {
            ev->ignore();
            return;
        }
    }
    saveLayout();
    controller_.stop();
    ev->accept();
}

void MainWindow::pushViewToController() {
    const SliceQuantity q = SliceQuantity(quantity_box_ ? quantity_box_->currentIndex() : 2);
    wavefield_->setQuantity(q);
    model3d_->setWavefieldQuantity(q);
    controller_.setView(painter_->plane(), painter_->nodePlane(), q);
}

bool MainWindow::confirmRunWithoutSources() {
    if (!doc_.scene().sources.empty()) return true;
    const QString message = tr("%1 has no source: nothing sets the model in motion, so the wavefield and the "
                               "receivers stay at zero. Place one with the Source tool or in the Sources table.")
                                .arg(doc_.displayName());
    if (!non_interactive_) {
        QMessageBox box(QMessageBox::Warning, tr("No source"), message, QMessageBox::NoButton, this);
        QPushButton* run = box.addButton(tr("Run anyway"), QMessageBox::AcceptRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        if (box.clickedButton() != run) return false;
    }
    last_info_ = message + tr(" The run went ahead without one.");
    statusBar()->showMessage(tr("Running without a source"), 6000);
    return true;
}

void MainWindow::startRun() {
    leaveResult();
    if (controller_.state() == SimulationController::State::Paused) {
        controller_.resume();
        return;
    }
    if (controller_.busy()) return;
    if (!confirmRunWithoutSources()) return;
    wavefield_->setHint({});
    current_result_.reset();
    run_pending_ = true;
    pushViewToController();
    longest_stall_ms_ = 0;
    startReplay();
    controller_.setDeviceSlices(wavefield_->interopUsable(), wavefield_->interopStatus());
    controller_.start(doc_.scene(), doc_.model());
}

void MainWindow::startReplay() {
    replay_->clear();
    wavefield_->setFixedGain(0);
    controller_.setHostCopyOfDeviceSlices(replay_->enabled());
}

void MainWindow::pauseRun() { controller_.pause(); }

void MainWindow::stepRun() {
    leaveResult();
    if (!controller_.busy()) {
        if (!confirmRunWithoutSources()) return;
        wavefield_->setHint({});
        current_result_.reset();
        run_pending_ = true;
        pushViewToController();
        startReplay();
        controller_.setDeviceSlices(wavefield_->interopUsable(), wavefield_->interopStatus());
        controller_.start(doc_.scene(), doc_.model(), true);
    }
    controller_.stepOnce();
}

void MainWindow::stopRun() { controller_.stop(); }

void MainWindow::resetRun() {
    controller_.stop();
    controller_.waitForIdle();
    replay_->clear();
    wavefield_->setFixedGain(0);
    wavefield_->clearSlice();
    wavefield_->setWavefronts({}, {});
    wavefield_->setProbes({});
    wavefield_->setHint(tr("Press %1 (Start / resume) to run the simulation").arg(runKey()));
    traces_->reset({}, 0);
    leaveResult();
    current_result_.reset();
    run_pending_ = false;
    progress_->setValue(0);
    time_label_->setText(tr("t = 0 µs"));
    rate_label_->clear();
    eta_label_->clear();
}

VideoExport* MainWindow::exportVideo(const QString& path, bool mp4, int fps) {
    if (video_ && video_->busy()) {
        showError(tr("Export video"), tr("Another export is running"), non_interactive_);
        return nullptr;
    }
    if (!video_) video_ = new VideoExport(this);
    video_->disconnect(this);
    QProgressDialog* dialog = nullptr;
    if (!non_interactive_) {
        dialog = new QProgressDialog(tr("Exporting the video..."), tr("Cancel"), 0, 1, this);
        dialog->setWindowModality(Qt::WindowModal);
        dialog->setMinimumDuration(0);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QProgressDialog::canceled, video_, &VideoExport::cancel);
        connect(video_, &VideoExport::progress, dialog, [dialog](int done, int total) {
            dialog->setMaximum(total);
            dialog->setValue(done);
            if (done == total - 1) dialog->setLabelText(tr("Encoding with ffmpeg..."));
        });
    }
    connect(video_, &VideoExport::finished, this, [this, dialog](bool ok, const QString& message) {
        if (dialog) dialog->close();
        replay_->goLive();
        if (ok) {
            last_info_ = message;
            statusBar()->showMessage(message, 8000);
        } else {
            showError(tr("Export video"), message, false);
        }
    });
    // Each frame as the view draws it from the replay's store, on the run's fixed gain.
    auto render = [this](int i) {
        replay_->showFrame(i);
        return wavefield_->grabFramebuffer();
    };
    video_->start(path, mp4, int(replay_->buffer().size()), fps, render);
    return video_;
}

void MainWindow::startRecording(const QString& dir) {
    record_dir_ = dir;
    recorded_frames_ = 0;
}

std::shared_ptr<const std::vector<MaterialId>> MainWindow::elementIdsUnder(SlicePlane plane, int node_plane, int width,
                                                                           int height) const {
    const VoxelGrid& g = doc_.model();
    const auto e = slice_element_extent(g, plane);
    const SliceRef s{plane, std::clamp(node_plane, 0, e[2] - 1)};
    auto ids = std::make_shared<std::vector<MaterialId>>(std::size_t(e[0]) * e[1]);
    if (width == e[0] + 1 && height == e[1] + 1)
        for (int b = 0; b < e[1]; ++b)
            for (int a = 0; a < e[0]; ++a) (*ids)[std::size_t(b) * e[0] + a] = g.ids[slice_element_index(g, s, a, b)];
    return ids;
}

QString MainWindow::frameOverlay(int quantity, double time, std::int64_t step) const {
    return tr("%1  t = %2 µs  step %3").arg(quantity_box_->itemText(quantity)).arg(time * 1e6, 0, 'f', 2).arg(step);
}

void MainWindow::showStoredFrame(const ReplayFrame& f, bool replay) {
    if (showing_result_) return;
    if (replay) wavefield_->setFixedGain(replay_->buffer().peakLevel());
    static const std::vector<MaterialId> none;
    wavefield_->setSlice(f.slice, f.element_ids ? *f.element_ids : none, f.quantity < 3);
    wavefield_->setOverlayText(frameOverlay(f.quantity, f.time, f.step));
    updateWavefronts(f.plane, f.node_plane, f.time);
}

void MainWindow::updateWavefronts(SlicePlane plane, int node_plane, double time) {
    const Scene& s = doc_.scene();
    const VoxelGrid& g = doc_.model();
    wavefield_->setWavefronts(slice_wavefronts(s, g, plane, node_plane, time),
                              s.sources.empty() ? SourceWaveSpeeds{} : source_wave_speeds(s, g, s.sources.front()));
    // The probes' faces and beams: their footprints are made again only when the probes or the
    // model change, not every frame.
    if (s.probes != beams_of_probes_ || g.n != beams_of_grid_.n || g.spacing != beams_of_grid_.spacing ||
        g.origin != beams_of_grid_.origin || g.ids != beams_of_grid_.ids) {
        probe_beams_ = probe_beams(s, g);
        beams_of_probes_ = s.probes;
        beams_of_grid_ = g;
    }
    wavefield_->setProbes(slice_probes(probe_beams_, g, plane, node_plane));
}

void MainWindow::onFrame(const SimulationFrame& f) {
    if (f.runs.empty() || showing_result_) return;
    const RunFrame& run = f.runs.front();
    // Element ids under the slice's node plane, for the material overlay.
    const auto ids = elementIdsUnder(f.plane, run.node_plane, run.slice.width, run.slice.height);
    const int q = quantity_box_->currentIndex();
    // A GPU slice's values are on the host only while the store keeps frames (the controller
    // copies them then).
    if (replay_->enabled() && !run.slice.values.empty())
        replay_->store(ReplayFrame{run.slice, ids, f.plane, run.node_plane, q, f.step, f.time, 0});
    // While the replay shows a stored frame the run goes on behind it: its traces and figures
    // still follow, the view does not.
    if (replay_->isLive()) {
        if (run.staged)
            wavefield_->setStagedSlice(run.staged, run.slice.width, run.slice.height, *ids, q < 3);
        else
            wavefield_->setSlice(run.slice, *ids, q < 3);
        wavefield_->setOverlayText(frameOverlay(q, f.time, f.step));
        updateWavefronts(f.plane, run.node_plane, f.time);
        if (!record_dir_.isEmpty()) {
            const QString path =
                QDir(record_dir_).filePath(QStringLiteral("frame_%1.png").arg(recorded_frames_, 5, 10, QChar('0')));
            if (wavefield_->grabFramebuffer().save(path))
                ++recorded_frames_;
            else {
                showError(tr("Recording stopped"), path + tr(": cannot write the frame"), false);
                record_dir_.clear();
            }
        }
    }
    traces_->append(f.first_sample, run.samples);
    if (!f.volume_slices.empty()) model3d_->setWavefield(f.volume_slices, f.volume_nodes);
    time_label_->setText(tr("t = %1 µs").arg(f.time * 1e6, 0, 'f', 2));
    if (f.total_steps > 0) progress_->setValue(int(1000.0 * f.step / f.total_steps));
    // A rate and an ETA only while the run runs: a frame of a paused run (a single step, or one
    // sent before the pause) keeps the "paused" figures.
    if (controller_.state() == SimulationController::State::Running) {
        rate_label_->setText(tr("%1 steps/s").arg(f.steps_per_second, 0, 'f', 0));
        if (f.total_steps > 0) {
            const double left = f.steps_per_second > 0 ? (f.total_steps - f.step) / f.steps_per_second : 0;
            eta_label_->setText(tr("ETA %1").arg(format_duration(left)));
        }
    }
}

void MainWindow::showRunState() {
    if (showing_result_ || !run_pending_) return;
    if (controller_.state() == SimulationController::State::Paused) {
        rate_label_->setText(tr("paused"));
        rate_label_->setToolTip(tr("The run is paused: F5 resumes it, F7 advances one step"));
        eta_label_->clear();
    }
}

void MainWindow::showRunEnd(bool completed) {
    const Result& r = controller_.lastResult();
    const double loop = r.wall_seconds - r.setup_seconds;
    if (r.steps > 0 && loop > 0) {
        rate_label_->setText(tr("%1 steps/s average").arg(double(r.steps) / loop, 0, 'f', 0));
        rate_label_->setToolTip(tr("%1 steps in %2 of stepping (setup %3, pauses not counted)")
                                    .arg(r.steps)
                                    .arg(format_duration(loop), format_duration(r.setup_seconds)));
    } else {
        rate_label_->clear();
    }
    eta_label_->setText(completed ? tr("done in %1").arg(format_duration(r.wall_seconds)) : tr("stopped"));
}

QStringList MainWindow::pageNames() {
    return {"model",           "3d",      "3d-wavefield", "dispersion", "compare", "solvers", "solvers-iga",
            "solvers-poisson", "cluster", "materials",    "boundary",   "examples"};
}

void MainWindow::showPage(const QString& name) {
    main_tabs_->setCurrentIndex(name == "compare" ? 1 : name.startsWith("solvers") ? 2 : 0);
    if (name == "solvers") solvers_->setCurrentWidget(page_holding(solvers_, integration_));
    if (name == "solvers-iga") solvers_->setCurrentWidget(page_holding(solvers_, iga_));
    if (name == "solvers-poisson") solvers_->setCurrentWidget(page_holding(solvers_, poisson_));
    if (name == "3d" || name == "3d-wavefield") tabs_->setCurrentWidget(model3d_);
    if (name == "3d-wavefield") model3d_->setWavefieldEnabled(true);
    if (name == "model" || name == "boundary") tabs_->setCurrentWidget(painter_);
    if (name == "boundary")
        for (auto* d : docks_)
            if (d->isAncestorOf(boundary_)) d->raise();
    if (name == "materials") openMaterialLibrary();
    if (name == "examples") openExamplesDialog();
    if (name == "dispersion")
        for (auto* d : docks_)
            if (d->isAncestorOf(dispersion_)) d->raise();
}

}  // namespace voxwave::ui
