// The Scan panel (docs/architecture.md#probes-and-scans): the scene's scan of one probe (single,
// linear, raster; steps, positions, gate), each edit one undo command checked by the engine's
// rules; Run scan runs the shots on a worker thread (run_probe_scan, the CLI's path) with progress
// and cancel, and the results view beside it fills as shots complete: the B-scan (a row per shot
// of one line of the scan at its position along the line, time across, dB or linear colour; a
// raster's line picked in the Line box or by a click on the C-scan), the C-scan (each shot's gated
// peak at its place) and the A-scan of a clicked shot, of the delay-and-sum or one element (picked
// in the Channel box or by a click on the element in the array's face). Save writes the CLI's HDF5
// layout (write_result_h5, atomic).
#pragma once

#include <QPointer>
#include <QWidget>
#include <memory>
#include <vector>

#include "document/scene_document.hpp"
#include "scene/result.hpp"
#include "sim/background_job.hpp"
#include "views/scan_views.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace voxwave::ui {

class ArrayFaceView;

class ScanPanel : public QWidget {
    Q_OBJECT
public:
    explicit ScanPanel(SceneDocument* doc, QWidget* parent = nullptr);
    // Stops a scan in progress first; the results view goes with the panel (its views read the
    // panel's state), wherever it was docked.
    ~ScanPanel() override;

    // The B-scan, C-scan and A-scan views, for a dock of their own.
    QWidget* resultsView() const { return results_; }
    BScanView* bscan() const { return bscan_; }
    CScanView* cscan() const { return cscan_; }
    AScanView* ascan() const { return ascan_; }
    // The scanned array's face above the views: a click on an element shows its channel.
    ArrayFaceView* arrayFace() const { return face_; }
    // The channel shown: -1 the delay-and-sum (a piston: its signal), else the element.
    int channel() const { return channel_index_; }
    // The line of shots (0 the first, along step2) the B-scan and A-scans show: the state's row k
    // is shot lineFirstShot() + k. A line scan has one line, all its shots.
    int shownLine() const { return line_index_; }
    std::size_t lineFirstShot() const;
    // The selected shot (index in the scan), -1 for none.
    int selectedShot() const;
    const ScanState& state() const { return state_; }
    BackgroundJob& job() { return job_; }
    // Shots whose samples arrived (of every line).
    int filledRows() const { return filled_; }
    int shotCount() const { return int(positions_.size()); }
    // The finished scan's result (null before a scan finished, or after the scene changed).
    const Result* result() const { return result_.get(); }
    const QString& lastError() const { return last_error_; }
    // Shot `shot`'s signal of the channel shown (the delay-and-sum or one element), for the views.
    std::vector<double> shotChannel(int shot) const;

public slots:
    void refresh();
    void runScan();
    void cancelScan();
    // Writes the result (the CLI's layout, atomically); false and failed() when it cannot.
    bool saveResult(const QString& path);
    // Selects shot `shot` of the scan (-1: none), showing its line.
    void selectShot(int shot);
    // Shows line `line` (0-based) of a raster in the B-scan and A-scans.
    void showLine(int line);
    // Which channel the views show: -1 the delay-and-sum (a piston: its signal), else element e.
    void setChannel(int element);

signals:
    void failed(const QString& message);
    // A shot's samples reached the views: `filled` of the scan's shots are in the B-scan.
    void shotCompleted(int filled);
    void scanFinished();

private:
    void edited();
    void showError(const QString& message);
    void shotArrived(int shot, std::vector<double> samples, double cscan_value, std::vector<double> time,
                     std::vector<double> delays);
    void redrawViews();
    // The state's rows, names and positions for the shots of the line shown.
    void setupLine();
    std::size_t lineShotCount() const;

    SceneDocument* doc_;
    QComboBox *probe_, *type_, *channel_, *scale_;
    std::array<QDoubleSpinBox*, 3> step_{}, step2_{};
    QSpinBox *positions_box_, *positions2_box_, *line_;
    QLabel* line_label_;
    QCheckBox* gate_;
    QDoubleSpinBox *gate_start_, *gate_end_;
    QPushButton *run_, *cancel_, *save_;
    QProgressBar* progress_;
    QLabel *status_, *error_;
    QPointer<QWidget> results_;
    ScanState state_;
    BScanView* bscan_;
    CScanView* cscan_;
    AScanView* ascan_;
    ArrayFaceView* face_;
    BackgroundJob job_;
    // The scan being filled: shot centres, sample times, the law and each finished shot's samples.
    std::vector<Vec3> positions_;
    int positions_count_ = 1, positions2_count_ = 1;
    double step_len_ = 0, step2_len_ = 0;
    std::size_t elements_ = 1;
    bool array_ = false;
    std::vector<double> time_, delays_;
    std::vector<std::vector<double>> shots_;  // per shot: elements x nt (empty until it ran)
    std::vector<double> cscan_values_;        // per shot, NaN until it ran (gated scans)
    int filled_ = 0;
    int channel_index_ = -1;
    int line_index_ = 0;
    bool follow_line_ = true;  // the line shown follows the shots as they arrive until one is picked
    std::shared_ptr<Result> result_;
    QString last_error_;
    bool refreshing_ = false;
};

}  // namespace voxwave::ui
