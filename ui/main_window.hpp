// The main window: wires the document, the views, the panels and the simulation controller.
// It computes nothing itself (docs/architecture.md#layers).
#pragma once

#include <QElapsedTimer>
#include <QMainWindow>
#include <QSet>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

#include "document/scene_document.hpp"
#include "sim/simulation_controller.hpp"
#include "wave/probe_overlay.hpp"

class QAction;
class QComboBox;
class QLabel;
class QProgressBar;
class QSlider;
class QSpinBox;
class QTabWidget;
class QMenu;
class QDockWidget;
class QDialog;
class QTextBrowser;
class QToolBar;
class QShortcut;

namespace voxwave::ui {

class SlicePainter;
class WavefieldView;
class TracePanel;
class ModelView3D;
class SourcesPanel;
class RunPanel;
class DispersionPanel;
class ComparePanel;
class ShapesPanel;
class BoundaryPanel;
class ProbesPanel;
class ScanPanel;
class IntegrationPanel;
class IgaPanel;
class PoissonPanel;
class ClusterJobDialog;
class ReplayBar;
struct ReplayFrame;
class MaterialLibraryDialog;
class ExamplesDialog;
class VideoExport;
struct ExampleEntry;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    SceneDocument* document() { return &doc_; }
    SimulationController* controller() { return &controller_; }
    SlicePainter* painter() { return painter_; }
    WavefieldView* wavefield() { return wavefield_; }
    TracePanel* traces() { return traces_; }
    SourcesPanel* sources() { return sources_; }
    DispersionPanel* dispersion() { return dispersion_; }
    ModelView3D* model3d() { return model3d_; }
    QTabWidget* tabs() { return tabs_; }
    ComparePanel* compare() { return compare_; }
    ShapesPanel* shapes() { return shapes_; }
    BoundaryPanel* boundary() { return boundary_; }
    ProbesPanel* probes() { return probes_; }
    ScanPanel* scan() { return scan_; }
    IntegrationPanel* integration() { return integration_; }
    IgaPanel* iga() { return iga_; }
    PoissonPanel* poisson() { return poisson_; }
    QTabWidget* solvers() { return solvers_; }
    ReplayBar* replay() { return replay_; }
    // View > Wavefronts (also on the wavefield toolbar): the analytic P, S and Rayleigh fronts
    // over the wavefield, live and in replay; the choice is kept in the settings.
    QAction* wavefrontsAction() { return wavefronts_act_; }
    // View > Appearance (ui/appearance.hpp): a light theme and large fonts for a projector, and
    // the presentation view: the wavefield and the receivers' plot filling the screen, keys
    // Space (run / pause), Right (step), R (replay from the start), Esc (leave). All three are
    // kept in the settings.
    QAction* lightThemeAction() { return light_act_; }
    QAction* largeFontAction() { return large_font_act_; }
    QAction* presentationAction() { return presentation_act_; }
    void setPresentationMode(bool on);
    bool presentationMode() const { return presenting_; }
    // The keys of the presentation view as one line (its status bar shows it).
    static QString presentationKeys();

    // Opens a scene; on error shows a message (unless quiet) and keeps the current document.
    bool openScene(const QString& path, bool quiet = false);
    bool saveScene(const QString& path, bool quiet = false);
    // What Open result does with a result whose `scene` names another scene than the open one.
    enum class OtherScene {
        Ask,            // offer to open that scene when its file lies beside the result (quiet: keep)
        OpenIt,         // open that scene when its file lies beside the result
        KeepOpenScene,  // show the traces without drawing their receivers on the open scene
    };
    // Shows a result file's traces (File > Open result...) as a finished local run would: on
    // error shows the one-line message (unless quiet) and changes nothing. A run in progress is
    // stopped first. The result is attached to its own scene: its receivers are drawn on the
    // model only when it names the open scene (or names none); for another scene the document
    // stays as it is, unless `other` opens that scene (found beside the result) first.
    bool openResult(const QString& path, bool quiet = false, OtherScene other = OtherScene::Ask);
    // An array image file in its own window (File > Open image..., or an image given to
    // openResult); nullptr after an error (shown unless quiet).
    QWidget* openImage(const QString& path, bool quiet = false);
    // File > Make image...: the dialog for an FMC / PWI acquisition file (prefilled with `path`).
    QDialog* openMakeImageDialog(const QString& path = QString());
    // Whether the result shown (a file opened) came from the open scene, as far as it says.
    bool resultOfOpenScene() const { return result_of_open_scene_; }
    // What File > Export traces writes: the result file shown, else the open scene's last
    // finished or stopped run; null when there is none (a new or other scene opened, Reset, a
    // run started and not ended yet).
    const Result* currentResult() const { return current_result_ ? &*current_result_ : nullptr; }
    // Writes currentResult() to `path` (CSV when it ends in .csv, else HDF5). Without one, says
    // why (unless quiet), writes nothing and returns false; so does a failed write.
    bool exportTraces(const QString& path, bool quiet = false);
    // The document's voxel model as VTK ImageData (.vti); an error dialog (unless quiet) on failure.
    bool exportModelVti(const QString& path, bool quiet = false);
    // Asks the running (or paused) simulation to save its whole wavefield now as a result file
    // with one snapshot and the XDMF file beside it; false (and an error dialog unless quiet)
    // when no run holds a field. The file is written on the worker thread (snapshotSaved).
    bool saveWavefieldSnapshot(const QString& path, bool quiet = false);
    // Simulation > Run on a cluster...: opens the dialog (window-modal, returns at once); when
    // it has written the job, a message gives the two paths and the sbatch command.
    ClusterJobDialog* openClusterJobDialog();
    // Edit > Material library...: the library dialog (non-modal, one per window, kept with its
    // unsaved edits when closed); its refusals go to showError, so lastError() has them.
    MaterialLibraryDialog* openMaterialLibrary();
    // File > Examples...: the gallery (window-modal, returns at once); Open loads the example
    // chosen through openExample. A broken examples index is an error message, no dialog.
    ExamplesDialog* openExamplesDialog();
    // Opens an example of the built-in gallery by its id (its scene file's name without .json)
    // and shows it as its entry says: the page (the Compare methods page runs VFEM against
    // OVFEM), slice plane and position, quantity and wavefront overlay. On error shows a message
    // (unless quiet) and keeps the current document.
    bool openExample(const QString& id, bool quiet = false);
    bool openExample(const ExampleEntry& e, bool quiet = false);
    // Whether the Compare methods page is the one shown.
    bool comparePageShown() const;
    // Longest gap between two event-loop iterations seen during runs (ms): the "never freezes" check.
    double longestStallMs() const { return longest_stall_ms_; }
    // The names --page accepts: the tabs and sub-pages showPage() selects, "cluster",
    // "materials" (the Material library dialog over the Explore tab) and "examples" (the
    // examples gallery).
    static QStringList pageNames();
    QString lastError() const { return last_error_; }
    // The last information message (cluster job written...), shown or not.
    QString lastInfo() const { return last_info_; }
    // The Help menu's pages as rich text: "getting-started", "shortcuts" (made from the window's
    // actions as they are now) and "about"; showHelp shows one in a non-modal dialog.
    QString helpPage(const QString& name) const;
    void showHelp(const QString& name);
    // Where the user's own material library is saved (and read from at start).
    static QString userMaterialLibraryPath();
    // Non-interactive use (--screenshot, tests): errors are recorded, not shown in dialogs; a
    // question (run without a source?) takes the answer that goes on, and lastInfo() says so.
    void setNonInteractive(bool on) { non_interactive_ = on; }
    // Each frame of the wavefield view is saved as DIR/frame_NNNNN.png while recording.
    void startRecording(const QString& dir);
    void stopRecording() { record_dir_.clear(); }
    // File > Export video...: the frames the replay keeps, drawn by the wavefield view as it shows
    // them (ui/video_export.hpp), to an MP4 when `mp4` (ffmpeg), else a PNG sequence in the folder
    // `path`; `fps` frames per second of the MP4. Returns at once: the exporter reports progress
    // and its end (a failure also through showError); null when another export is running. The
    // view goes back to the live frame at the end.
    VideoExport* exportVideo(const QString& path, bool mp4, int fps = 25);
    int recordedFrames() const { return recorded_frames_; }

public slots:
    void startRun();
    void pauseRun();
    void stepRun();
    void stopRun();
    void resetRun();
    void showPage(const QString& name);  // one of pageNames() but "cluster" (a dialog): used by --page
    // View > Reset layout: every dock and toolbar back in its default place, shown and docked,
    // whatever a saved or dragged layout did to them.
    void resetLayout();

public:
    // The layout (geometry, docks, toolbars) in the user's settings: written on close, read at
    // start. A state from another layout version, or one that leaves no dock on screen, is
    // dropped for the default layout. Returns whether the saved state was used.
    bool restoreLayout();
    void saveLayout();
    const std::vector<QDockWidget*>& docks() const { return docks_; }

protected:
    void closeEvent(QCloseEvent*) override;

private:
    void buildActions();
    void buildDocks();
    void buildHelpMenu();
    void buildAppearanceMenu(QMenu* view);
    // The Run action's shortcut as the menus show it.
    QString runKey() const;
    // A scene without sources: asks whether to run anyway (Run anyway / Cancel); true to run.
    bool confirmRunWithoutSources();
    void updateTitle();
    void updateRecentMenu();
    void addRecent(const QString& path);
    bool maybeSave();
    void onFrame(const SimulationFrame& f);
    // The element ids under a slice of the document's model, for the material overlay.
    std::shared_ptr<const std::vector<MaterialId>> elementIdsUnder(SlicePlane plane, int node_plane, int width,
                                                                   int height) const;
    // The wavefield's overlay line for a frame (the same for a live and a replayed one).
    QString frameOverlay(int quantity, double time, std::int64_t step) const;
    // Draws a frame of the replay's store; `replay`: on the replay's fixed gain.
    void showStoredFrame(const ReplayFrame& f, bool replay);
    // The analytic wavefronts of the open scene for a frame's slice and time, to the view.
    void updateWavefronts(SlicePlane plane, int node_plane, double time);
    // The steps/s and ETA figures when a run pauses or ends (they stayed at the last running
    // frame's before).
    void showRunState();
    void showRunEnd(bool completed);
    // A new run: the replay's store starts empty and live.
    void startReplay();
    void pushViewToController();
    void showError(const QString& title, const QString& message, bool quiet);
    void showInfo(const QString& title, const QString& message);
    // Back from showing a result file (a run starts, Reset): its markers and title go.
    void leaveResult();
    // Why there is nothing to export (no current result).
    QString noResultMessage() const;
    // The Export traces menu items: say there is nothing before asking for a file name.
    void exportTracesAs(const QString& filter);

    SceneDocument doc_;
    SimulationController controller_;
    SlicePainter* painter_ = nullptr;
    WavefieldView* wavefield_ = nullptr;
    ReplayBar* replay_ = nullptr;
    QSet<QString> slice_transport_said_;
    TracePanel* traces_ = nullptr;
    ModelView3D* model3d_ = nullptr;
    SourcesPanel* sources_ = nullptr;
    RunPanel* run_panel_ = nullptr;
    DispersionPanel* dispersion_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QTabWidget* main_tabs_ = nullptr;
    ComparePanel* compare_ = nullptr;
    BoundaryPanel* boundary_ = nullptr;
    ProbesPanel* probes_ = nullptr;
    ScanPanel* scan_ = nullptr;
    ShapesPanel* shapes_ = nullptr;
    QTabWidget* solvers_ = nullptr;
    IntegrationPanel* integration_ = nullptr;
    IgaPanel* iga_ = nullptr;
    PoissonPanel* poisson_ = nullptr;
    QComboBox* plane_box_ = nullptr;
    QSlider* slice_slider_ = nullptr;
    QComboBox* quantity_box_ = nullptr;
    QComboBox* material_box_ = nullptr;
    QSpinBox* brush_box_ = nullptr;
    QLabel* time_label_ = nullptr;
    QLabel* rate_label_ = nullptr;
    QLabel* eta_label_ = nullptr;
    QLabel* backend_label_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QMenu* recent_menu_ = nullptr;
    QAction* start_act_ = nullptr;
    QAction* pause_act_ = nullptr;
    QAction* step_act_ = nullptr;
    QAction* stop_act_ = nullptr;
    QAction* reset_act_ = nullptr;
    QAction* wavefronts_act_ = nullptr;
    QAction* light_act_ = nullptr;
    QAction* large_font_act_ = nullptr;
    QAction* presentation_act_ = nullptr;
    bool presenting_ = false;
    QByteArray state_before_presenting_;
    bool maximized_before_presenting_ = false;
    std::vector<QShortcut*> presentation_keys_;
    QLabel* presentation_label_ = nullptr;  // the keys, in the status bar while presenting
    QElapsedTimer stall_clock_;
    double longest_stall_ms_ = 0;
    QString last_error_;
    QString last_info_;
    QDockWidget* traces_dock_ = nullptr;
    QDialog* help_dialog_ = nullptr;
    MaterialLibraryDialog* library_dialog_ = nullptr;
    ExamplesDialog* examples_dialog_ = nullptr;
    VideoExport* video_ = nullptr;
    QTextBrowser* help_browser_ = nullptr;
    // The traces panel shows a result file: frames of a stopped run arriving late are dropped.
    bool showing_result_ = false;
    bool result_of_open_scene_ = true;
    std::optional<Result> current_result_;  // see currentResult()
    // A run of the open scene was started and has not ended: its result becomes current when it
    // does. Cleared when the scene goes (New, Open), on Reset and on opening a result file, so
    // a stopped run's late end does not count.
    bool run_pending_ = false;
    bool non_interactive_ = false;
    QString record_dir_;
    std::vector<QDockWidget*> hidden_docks_;
    std::vector<QDockWidget*> docks_;  // every dock, in View-menu order
    std::vector<QToolBar*> toolbars_;  // every toolbar, in default order
    int recorded_frames_ = 0;
    // The probes drawn over the wavefield (wave/probe_overlay.hpp), for these probes on this grid.
    std::vector<ProbeBeam> probe_beams_;
    std::vector<ProbeSpec> beams_of_probes_;
    VoxelGrid beams_of_grid_;
};

}  // namespace voxwave::ui
