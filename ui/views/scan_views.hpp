// The receivers' scan views, drawn from one ScanState that the trace panel fills: the B-scan
// (rows are receivers in their order along the line they lie on, columns time, a colour bar) and
// the stacked A-scans (one row per receiver with its name and amplitude axis, scrolled when they
// do not all fit, optional envelope and gate). Any set of channels with positions fits: the rows
// come from the positions, not from the receivers being points of a scene.
#pragma once

#include <QImage>
#include <QPolygonF>
#include <QWidget>
#include <vector>

#include "views/color_bar.hpp"
#include "wave/receiver_scans.hpp"

class QScrollBar;

namespace voxwave::ui {

struct ScanState {
    std::vector<QString> names;     // table order
    ReceiverLine line;              // order and coordinates along the receivers' line
    std::vector<std::size_t> rank;  // table index -> row (spatial order)
    QString position_quantity;      // "x", "position along (0.71, 0.71, 0.00)", or "receiver" (no line)
    double t_end = 0;               // time of the last sample, s
    QString quantity;               // "u_z", "|u|"
    double full_scale = 1;          // value drawn at full swing and full colour, m (peak / gain)
    bool log_scale = false;         // B-scan: |value| in dB below full scale
    double range_db = 40;           // the dB scale's dynamic range
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

}  // namespace voxwave::ui
