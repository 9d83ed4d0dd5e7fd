// The receivers' scan views, drawn from one ScanState that the trace panel fills: the B-scan
// (rows are receivers in their order along the line they lie on, columns time, a colour bar) and
// the stacked A-scans (one row per receiver with its name and amplitude axis, scrolled when they
// do not all fit, optional envelope and gate). Any set of channels with positions fits: the rows
// come from the positions, not from the receivers being points of a scene.
#pragma once

#include <QImage>
#include <QPolygonF>
#include <QWidget>
#include <algorithm>
#include <vector>

#include "views/color_bar.hpp"
#include "wave/receiver_scans.hpp"

class QScrollBar;

namespace voxwave::ui {

struct ScanState {
    std::vector<QString> names;          // table order
    ReceiverLine line;                   // order and coordinates along the receivers' line
    std::vector<std::size_t> rank;       // table index -> row (spatial order)
    QString position_quantity;           // "x", "position along (0.71, 0.71, 0.00)", or "receiver" (no line)
    double t_end = 0;                    // time of the last sample, s
    QString quantity;                    // "u_z", "|u|"
    QString unit = QStringLiteral("m");  // of the values: "m", or "m/s" for a probe's velocity signals
    double full_scale = 1;               // value drawn at full swing and full colour, m (peak / gain)
    bool log_scale = false;              // B-scan: |value| in dB below full scale
    double range_db = 40;                // the dB scale's dynamic range
    bool envelope = false;
    bool gate = false;
    double gate_t0 = 0, gate_t1 = 0;   // s
    std::vector<GatedPeak> peaks;      // per receiver, with the gate
    std::vector<double> peak_sign;     // +1 / -1: the side of the zero line the peak is on
    std::vector<QPolygonF> traces;     // per receiver: (t s, value m), decimated
    std::vector<QPolygonF> envelopes;  // per receiver, with the envelope
    int selected = -1, hovered = -1;   // table indices; -1: none
    std::size_t count() const { return names.size(); }
};

// B-scan colour level of `value`: linear, value / full_scale clamped to [-1, 1]; dB, |value| as
// 1 + 20 log10(|value| / full_scale) / range_db clamped to [0, 1] (0: range_db or more below).
double scan_level(double value, double full_scale, bool log_scale, double range_db);
// The colour of a level: linear, the diverging map of the field views (-1 blue, 0 white, +1
// red); dB, their sequential map (0 black through red and yellow to 1 white).
QRgb scan_colour(double level, bool log_scale);

inline constexpr std::size_t kAScanBuckets = 600;  // A-scan points per trace beyond 2 x this many samples
inline constexpr std::size_t kBScanColumns = 1200;

// A trace decimated for drawing: every sample (t[n], at(n)) up to 2 x kAScanBuckets, else each of
// kAScanBuckets gives its minimum and maximum in time order (no peak lost).
template <class At>
QPolygonF decimated_trace(std::size_t nt, const std::vector<double>& t, At at) {
    QPolygonF pts;
    if (nt <= 2 * kAScanBuckets) {
        pts.reserve(qsizetype(nt));
        for (std::size_t n = 0; n < nt; ++n) pts << QPointF(t[n], at(n));
        return pts;
    }
    pts.reserve(qsizetype(2 * kAScanBuckets));
    for (std::size_t b = 0; b < kAScanBuckets; ++b) {
        const std::size_t n0 = b * nt / kAScanBuckets, n1 = (b + 1) * nt / kAScanBuckets;
        std::size_t lo = n0, hi = n0;
        for (std::size_t n = n0; n < n1; ++n) {
            if (at(n) < at(lo)) lo = n;
            if (at(n) > at(hi)) hi = n;
        }
        pts << QPointF(t[std::min(lo, hi)], at(std::min(lo, hi))) << QPointF(t[std::max(lo, hi)], at(std::max(lo, hi)));
    }
    return pts;
}

// Columns of a B-scan image of nt samples: one a sample, at most kBScanColumns.
inline int bscan_columns(std::size_t nt) { return int(std::min(nt, kBScanColumns)); }
// Row `row` of a B-scan image from the samples x: each column the sample of largest |value| in its
// bucket, coloured by scan_level and scan_colour at the state's full scale and scale.
void fill_bscan_row(QImage& image, int row, const std::vector<double>& x, const ScanState& state);

class BScanView : public QWidget {
    Q_OBJECT
public:
    explicit BScanView(const ScanState* state, QWidget* parent = nullptr);
    // One row per receiver in spatial order (row k: the receiver state.line.order[k]), columns time 0 .. t_end.
    void setImage(const QImage& image) {
        image_ = image;
        update();
    }
    const QImage& image() const { return image_; }
    QRect plotRect() const;
    // The position (along the line, m; the row index without a line) at the plot's top and bottom edges.
    double positionTop() const;
    double positionBottom() const;
    int receiverAt(const QPoint& pixel) const;  // table index, -1 outside the plot
    QRect rowRect(std::size_t receiver) const;
    QString positionTitle() const;
    QString timeTitle() const;
    QString colourTitle() const;
    // The colour bar beside the plot: the map and range of the image's colours.
    ColorBar colourBar() const;
    // The tick labels and titles drawn by the last paint (tests: none overlap).
    const std::vector<QRect>& labelRects() const { return labels_; }
    QSize sizeHint() const override { return {480, 220}; }
    QSize minimumSizeHint() const override { return {200, 90}; }

signals:
    void hovered(int receiver);
    void clicked(int receiver);

protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void leaveEvent(QEvent*) override;

private:
    // Row edges along the line: receiver state_->line.order[k] spans [bands_[k], bands_[k + 1]]
    // when ties are split, midway between neighbours otherwise.
    std::vector<std::pair<double, double>> bands() const;
    int yOf(double position) const;

    const ScanState* state_;
    QImage image_;
    std::vector<QRect> labels_;
};

class AScanView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMinRowHeight = 44;
    explicit AScanView(const ScanState* state, QWidget* parent = nullptr);
    // The state changed (receivers, samples, selection, gate): scroll range and picture.
    void refresh();
    // The receivers drawn, top to bottom (table indices): the selected one alone, else a page of
    // rows in spatial order from the scroll position.
    std::vector<std::size_t> visibleReceivers() const;
    int firstRow() const;
    void scrollToRow(int row);
    QScrollBar* scrollBar() const { return scroll_; }
    QRect plotRect() const;
    QRect rowRect(std::size_t receiver) const;  // empty when not drawn
    int receiverAt(const QPoint& pixel) const;
    int timeToX(double t) const;
    QString amplitudeTitle() const;
    QString timeTitle() const;
    const std::vector<QRect>& labelRects() const { return labels_; }
    QSize sizeHint() const override { return {480, 220}; }
    QSize minimumSizeHint() const override { return {240, 90}; }

signals:
    void hovered(int receiver);
    void clicked(int receiver);
    void gateMoved(double t0, double t1);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void leaveEvent(QEvent*) override;

private:
    int rowsShown() const;
    int rightMargin() const;
    int leftMargin() const;
    double xToTime(int x) const;
    void placeScrollBar();

    const ScanState* state_;
    QScrollBar* scroll_;
    std::vector<QRect> labels_;
    enum class Drag { None, Start, End, Move, Click };
    Drag drag_ = Drag::None;
    QPoint press_;
    bool moved_ = false;
    double press_t0_ = 0, press_t1_ = 0;
};

// The C-scan of a raster (or linear) probe scan: each shot's gated peak amplitude at its place,
// `positions` columns along the scan's step by `positions2` rows along step2, in dB below the
// largest or linear; shots not yet run stay empty (the view fills as shots complete). Axes in
// millimetres along each step's direction from the first shot, a colour bar beside it.
class CScanView : public QWidget {
    Q_OBJECT
public:
    explicit CScanView(QWidget* parent = nullptr);
    // `values`: positions2 x positions, NaN where the shot has not run; steps in metres.
    void set(int positions, int positions2, double step, double step2, const std::vector<double>& values,
             bool log_scale, double range_db, const QString& unit);
    int filledCells() const;
    int selected() const { return selected_; }
    void setSelected(int shot);
    // The line of shots (row along step2, 0 the first) the B-scan shows, outlined; -1: none.
    int line() const { return line_; }
    void setLine(int line);
    QRect plotRect() const;
    int shotAt(const QPoint& pixel) const;  // -1 outside the plot
    ColorBar colourBar() const;
    QString title() const;  // above the plot: what it shows and the dB scale's reference
    QSize sizeHint() const override { return {360, 220}; }
    QSize minimumSizeHint() const override { return {200, 120}; }

signals:
    void clicked(int shot);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;

private:
    int nx_ = 0, ny_ = 0;
    double step_ = 0, step2_ = 0;
    std::vector<double> values_;
    bool log_scale_ = true;
    double range_db_ = 40;
    QString unit_;
    int selected_ = -1;
    int line_ = -1;
};

}  // namespace voxwave::ui
