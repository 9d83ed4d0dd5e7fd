// Live receiver traces: the stacked A-scans of every receiver (one component; scrolled, or one
// receiver alone when selected) and the B-scan (receivers along their line x time), with gain, a
// linear or dB scale, an optional Hilbert envelope and a time gate (views/scan_views.hpp).
#pragma once

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <array>
#include <vector>

#include "scene/result.hpp"
#include "views/scan_views.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QSplitter;

namespace voxwave::ui {

class TracePanel : public QWidget {
    Q_OBJECT
public:
    explicit TracePanel(QWidget* parent = nullptr);

    // positions (one per receiver, m) order the B-scan's rows and the A-scans along the line the
    // receivers lie on; without them (or with all at one point) the table's order is kept.
    void reset(const std::vector<std::string>& names, double dt,
               const std::vector<std::array<double, 3>>& positions = {});
    // samples: [(n * receivers + r) * 3 + c] for n = first .. first + count - 1.
    void append(std::int64_t first, const std::vector<double>& samples);
    // Draws what has arrived now. append redraws at most every 150 ms (drawing is the slow part
    // of a frame, and the eye needs no more); samples it held back are drawn by a timer at the
    // end of those 150 ms, so the views never lag the data by more than that.
    void flush();
    // A finished run's traces (a result file): the path a live run takes, reset + append + flush.
    void showResult(const voxwave::Result& result);
    std::size_t sampleCount() const { return t_.size(); }
    std::size_t receiverCount() const { return names_.size(); }
    const std::vector<std::string>& receiverNames() const { return names_; }
    double dt() const { return dt_; }
    double time(std::size_t n) const { return t_[n]; }
    // The displacement held for receiver r, sample n, component c (0..2 = x, y, z).
    double sample(std::size_t r, std::size_t n, int c) const { return u_[r][n * 3 + std::size_t(c)]; }
    // The value plotted for receiver r, sample n (component chosen in the panel).
    double value(std::size_t r, std::size_t n) const;
    // How many points the A-scans hold now (tests: the plots did update). Beyond 1200 samples
    // per receiver the count stays near 2 x 600 per receiver (min/max decimation).
    int plottedPoints() const;
    // The latest time the A-scans show (µs; 0 when empty): grows with every redraw of new samples.
    double plottedEndTime() const;
    const BScanView* bscan() const { return bscan_; }
    const AScanView* ascan() const { return ascan_; }
    // What both views draw from: order along the line, full scale, gate peaks, selection.
    const ScanState& scan() const { return state_; }
    // The Hilbert envelope of receiver r's plotted value, every sample (empty while not shown).
    std::vector<double> envelope(std::size_t r) const;
    int selectedReceiver() const { return state_.selected; }
    int hoveredReceiver() const { return state_.hovered; }
    double gainDb() const;
    // The B-scan beside the A-scans, or the A-scans alone (the presentation view's one plot).
    void setBScanShown(bool on);
    // CSV: time then one column per receiver and component. Atomic. Throws InputError.
    void exportCsv(const QString& path) const;

public slots:
    void setComponent(int c);                          // 0..2 = x, y, z; 3 = magnitude
    void setGainDb(double db);                         // -20 .. +60 dB: full scale is the largest |value| over the gain
    void setLogScale(bool log, double range_db = 40);  // range: 20, 40 or 60 dB
    void setEnvelopeShown(bool on);
    void setGate(bool on, double t0, double t1);  // s
    void selectReceiver(int r);                   // table index; -1: all receivers
    void hoverReceiver(int r);

signals:
    void receiverHovered(int receiver);
    void receiverSelected(int receiver);

protected:
    void resizeEvent(QResizeEvent*) override;
    // Up / Down: the neighbour along the line becomes the selected receiver; Escape: all again.
    void keyPressEvent(QKeyEvent*) override;

private:
    void redraw();
    void refreshViews();
    void updateInfo();

    std::vector<std::string> names_;
    double dt_ = 0;
    std::vector<double> t_;
    std::vector<std::vector<double>> u_;  // per receiver: n x 3
    int component_ = 2;
    // The envelope of each receiver's plotted value, for this component and sample count.
    std::vector<std::vector<double>> envelope_;
    int envelope_component_ = -1;
    std::size_t envelope_samples_ = 0;
    QElapsedTimer envelope_age_;
    bool force_envelope_ = false;
    ScanState state_;
    AScanView* ascan_;
    BScanView* bscan_;
    QSplitter* split_;
    QComboBox* component_box_;
    QComboBox* receiver_box_;
    QComboBox* scale_box_;
    QSlider* gain_slider_;
    QLabel* gain_label_;
    QCheckBox* envelope_box_;
    QCheckBox* gate_box_;
    QLabel* info_;
    QElapsedTimer since_redraw_;
    QTimer pending_redraw_;
};

}  // namespace voxwave::ui
