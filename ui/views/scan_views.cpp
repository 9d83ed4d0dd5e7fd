#include "views/scan_views.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <algorithm>
#include <cmath>

#include "views/color_bar.hpp"
#include "views/painted_axis.hpp"
#include "views/plot_axis.hpp"
#include "views/view_theme.hpp"

namespace voxwave::ui {

namespace {

const QColor kGate(80, 210, 130);
const QColor kHover(255, 255, 255);
const QColor kSelected(255, 160, 0);

// The widest tick label the axes expect, for the margins.
int label_room(const QFontMetrics& fm) { return fm.horizontalAdvance(QStringLiteral("-888.8")); }

// The time axis both views share: 0 .. t_end along the bottom of `plot`, its title below.
AxisTicks time_ticks(double t_end, const QRect& plot, const QFontMetrics& fm) {
    return fit_ticks(0, t_end, QObject::tr("time"), "s", plot.width(), true, fm);
}
void draw_time_axis(QPainter& p, const QRect& plot, double t_end, const QRect& bounds, std::vector<QRect>& labels) {
    const QFontMetrics fm = p.fontMetrics();
    const AxisTicks time = time_ticks(t_end, plot, fm);
    draw_axis(p, time, plot, 0, t_end, Qt::BottomEdge, false, bounds, labels);
    labels.push_back(draw_axis_title(
        p, time.title, QRect(plot.left(), plot.bottom() + fm.height() + 8, plot.width(), fm.height()), false));
}

}  // namespace

double scan_level(double value, double full_scale, bool log_scale, double range_db) {
    if (!(full_scale > 0)) return 0;
    if (!log_scale) return std::clamp(value / full_scale, -1.0, 1.0);
    const double a = std::abs(value) / full_scale;
    if (!(a > 0)) return 0;
    return std::clamp(1 + 20 * std::log10(a) / range_db, 0.0, 1.0);
}

QRgb scan_colour(double level, bool log_scale) {
    return log_scale ? qcolor_at(sequential_color_map(), level).rgb()
                     : qcolor_at(diverging_color_map(), 0.5 + 0.5 * level).rgb();
}

void fill_bscan_row(QImage& image, int row, const std::vector<double>& x, const ScanState& state) {
    const std::size_t nt = x.size(), cols = std::size_t(image.width());
    if (nt == 0) return;
    for (std::size_t c = 0; c < cols; ++c) {
        const std::size_t n0 = c * nt / cols;
        const std::size_t n1 = std::max(n0 + 1, (c + 1) * nt / cols);
        std::size_t at = n0;
        for (std::size_t n = n0; n < n1 && n < nt; ++n)
            if (std::abs(x[n]) > std::abs(x[at])) at = n;
        image.setPixel(
            int(c), row,
            scan_colour(scan_level(x[at], state.full_scale, state.log_scale, state.range_db), state.log_scale));
    }
}

// ---------------------------------------------------------------- B-scan

BScanView::BScanView(const ScanState* state, QWidget* parent) : QWidget(parent), state_(state) {
    setMouseTracking(true);
    setMinimumHeight(90);
    setToolTip(
        tr("B-scan: one row per receiver, in their order along the line they lie on; click a row to "
           "show that receiver's A-scan alone"));
}

QRect BScanView::plotRect() const {
    const QFontMetrics fm = fontMetrics();
    const int left = fm.height() + 4 + label_room(fm) + 8;
    const int right = 8 + colourBar().widthNeeded(fm);
    const int top = fm.height() / 2 + 4;
    const int bottom = 2 * fm.height() + 10;
    return QRect(left, top, std::max(10, width() - left - right), std::max(10, height() - top - bottom));
}

std::vector<std::pair<double, double>> BScanView::bands() const {
    const std::size_t n = state_->count();
    std::vector<std::pair<double, double>> b(n);
    if (n == 0) return b;
    std::vector<double> c(n);
    for (std::size_t k = 0; k < n; ++k) c[k] = state_->line.coordinate[state_->line.order[k]];
    // Groups of equal coordinates share the span between the midpoints to their neighbours.
    std::size_t k = 0;
    while (k < n) {
        std::size_t e = k;
        while (e + 1 < n && c[e + 1] == c[k]) ++e;
        const double below = k > 0 ? c[k] - c[k - 1] : (e + 1 < n ? c[e + 1] - c[k] : 1.0);
        const double above = e + 1 < n ? c[e + 1] - c[k] : below;
        const double lo = c[k] - 0.5 * below, hi = c[k] + 0.5 * above;
        const std::size_t m = e - k + 1;
        for (std::size_t j = 0; j < m; ++j)
            b[k + j] = {lo + (hi - lo) * double(j) / double(m), lo + (hi - lo) * double(j + 1) / double(m)};
        k = e + 1;
    }
    return b;
}

double BScanView::positionTop() const {
    const auto b = bands();
    return b.empty() ? 0 : b.front().first;
}

double BScanView::positionBottom() const {
    const auto b = bands();
    return b.empty() ? 1 : b.back().second;
}

int BScanView::yOf(double position) const {
    const QRect plot = plotRect();
    const double lo = positionTop(), hi = positionBottom();
    return plot.top() + int(std::lround((position - lo) / (hi - lo) * plot.height()));
}

int BScanView::receiverAt(const QPoint& pixel) const {
    const QRect plot = plotRect();
    if (state_->count() == 0 || !plot.contains(pixel)) return -1;
    const auto b = bands();
    const double s =
        positionTop() + (pixel.y() - plot.top() + 0.5) / plot.height() * (positionBottom() - positionTop());
    for (std::size_t k = 0; k < b.size(); ++k)
        if (s >= b[k].first && s < b[k].second) return int(state_->line.order[k]);
    return int(state_->line.order[s < b.front().first ? 0 : b.size() - 1]);
}

QRect BScanView::rowRect(std::size_t receiver) const {
    if (receiver >= state_->count()) return {};
    const auto b = bands();
    const auto& band = b[state_->rank[receiver]];
    const QRect plot = plotRect();
    const int y0 = yOf(band.first), y1 = yOf(band.second);
    return QRect(plot.left(), y0, plot.width(), std::max(1, y1 - y0));
}

QString BScanView::positionTitle() const {
    const bool line = state_->line.valid;
    return fit_ticks(positionTop(), positionBottom(), state_->position_quantity, line ? "m" : "", plotRect().height(),
                     false, fontMetrics())
        .title;
}

QString BScanView::timeTitle() const { return time_ticks(state_->t_end, plotRect(), fontMetrics()).title; }

ColorBar BScanView::colourBar() const {
    // The dB scale's bar runs from the range below full scale to full scale; its ticks are dB.
    ColorBar bar;
    if (state_->log_scale)
        bar.set(&sequential_color_map(), -state_->range_db, 0,
                tr("|%1| (dB re %2)").arg(state_->quantity, format_si(state_->full_scale, state_->unit)), QString());
    else
        bar.set(&diverging_color_map(), -state_->full_scale, state_->full_scale, state_->quantity, state_->unit);
    return bar;
}

QString BScanView::colourTitle() const { return colourBar().title(); }

void BScanView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), view_colors().background);
    labels_.clear();
    const QRect plot = plotRect();
    p.fillRect(plot, view_colors().plot);
    p.setPen(view_colors().text);
    const std::size_t n = state_->count();
    if (n == 0 || image_.isNull() || image_.height() != int(n)) {
        p.drawText(plot, Qt::AlignCenter, tr("B-scan: receivers along their line x time"));
        return;
    }
    const auto b = bands();
    for (std::size_t k = 0; k < n; ++k) {
        const int y0 = yOf(b[k].first), y1 = yOf(b[k].second);
        p.drawImage(QRect(plot.left(), y0, plot.width(), std::max(1, y1 - y0)), image_,
                    QRect(0, int(k), image_.width(), 1));
    }
    if (state_->gate && state_->t_end > 0) {  // the A-scans' gate, on the same time axis
        p.setPen(QPen(kGate, 1.5, Qt::DashLine));
        for (double t : {state_->gate_t0, state_->gate_t1}) {
            const int x = plot.left() + int(std::lround(t / state_->t_end * plot.width()));
            p.drawLine(x, plot.top(), x, plot.bottom());
        }
    }
    const QFontMetrics fm = fontMetrics();
    const QRect bounds = rect();
    // Position axis (down the left), time axis (along the bottom).
    const double lo = positionTop(), hi = positionBottom();
    AxisTicks pos =
        fit_ticks(lo, hi, state_->position_quantity, state_->line.valid ? "m" : "", plot.height(), false, fm);
    if (!state_->line.valid) {  // receiver numbers: whole ones only
        std::erase_if(pos.values, [](double v) { return v != std::round(v); });
        pos.decimals = 0;
    }
    p.setPen(view_colors().text);
    draw_axis(p, pos, plot, lo, hi, Qt::LeftEdge, true, bounds, labels_);
    labels_.push_back(draw_axis_title(p, pos.title, QRect(0, plot.top(), fm.height() + 4, plot.height()), true));
    draw_time_axis(p, plot, state_->t_end, bounds, labels_);
    // Colour bar: its own scale beside the plot, its strip level with the plot's bottom.
    ColorBar bar = colourBar();
    bar.layout(QRect(plot.right() + 8, 0, bar.widthNeeded(fm), plot.bottom() + fm.height() / 2 + 2), fm);
    bar.paint(p);
    for (const QRect& r : bar.labelRects(fm)) labels_.push_back(r);
    // The receiver under the cursor and the selected one.
    p.setBrush(Qt::NoBrush);
    if (state_->hovered >= 0 && std::size_t(state_->hovered) < n) {
        // White on the dB scale's dark ground, black on the linear scale's light one.
        p.setPen(QPen(state_->log_scale ? kHover : QColor(0, 0, 0), 1));
        p.drawRect(rowRect(std::size_t(state_->hovered)).adjusted(0, 0, -1, -1));
    }
    if (state_->selected >= 0 && std::size_t(state_->selected) < n) {
        p.setPen(QPen(kSelected, 2));
        p.drawRect(rowRect(std::size_t(state_->selected)).adjusted(1, 0, -1, -1));
    }
}

void BScanView::mouseMoveEvent(QMouseEvent* e) {
    const int r = receiverAt(e->position().toPoint());
    if (r != state_->hovered) emit hovered(r);
}

void BScanView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    const int r = receiverAt(e->position().toPoint());
    if (r >= 0) emit clicked(r);
}

void BScanView::leaveEvent(QEvent*) {
    if (state_->hovered >= 0) emit hovered(-1);
}

// ---------------------------------------------------------------- A-scans

AScanView::AScanView(const ScanState* state, QWidget* parent) : QWidget(parent), state_(state) {
    setMouseTracking(true);
    setMinimumHeight(90);
    scroll_ = new QScrollBar(Qt::Vertical, this);
    scroll_->setObjectName("ascan-scroll");
    scroll_->setToolTip(tr("Scroll through the receivers (or use the mouse wheel over the traces)"));
    connect(scroll_, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    setToolTip(
        tr("A-scans in the receivers' order along their line; click one to show it alone (click again for "
           "all); drag the gate's edges or its middle"));
}

int AScanView::leftMargin() const {
    const QFontMetrics fm = fontMetrics();
    int names = 0;
    for (const QString& s : state_->names) names = std::max(names, fm.horizontalAdvance(s));
    return fm.height() + 4 + std::min(names, fm.horizontalAdvance(QStringLiteral("MMMMMMM"))) + 8 + label_room(fm) + 6;
}

int AScanView::rightMargin() const {
    const QFontMetrics fm = fontMetrics();
    int m = 6 + scroll_->sizeHint().width();
    if (state_->gate) m += fm.horizontalAdvance(QStringLiteral("88.8 nm @ 88.8 µs")) + 8;
    return m;
}

QRect AScanView::plotRect() const {
    const QFontMetrics fm = fontMetrics();
    const int left = leftMargin(), top = fm.height() / 2 + 2, bottom = 2 * fm.height() + 10;
    return QRect(left, top, std::max(10, width() - left - rightMargin()), std::max(10, height() - top - bottom));
}

int AScanView::rowsShown() const {
    const int n = int(state_->count());
    if (n == 0) return 0;
    if (state_->selected >= 0) return 1;
    return std::clamp(plotRect().height() / kMinRowHeight, 1, n);
}

int AScanView::firstRow() const {
    return state_->selected >= 0 ? int(state_->rank[std::size_t(state_->selected)]) : scroll_->value();
}

void AScanView::scrollToRow(int row) { scroll_->setValue(row); }

std::vector<std::size_t> AScanView::visibleReceivers() const {
    std::vector<std::size_t> v;
    if (state_->count() == 0) return v;
    if (state_->selected >= 0) return {std::size_t(state_->selected)};
    const int rows = rowsShown(), first = std::clamp(scroll_->value(), 0, int(state_->count()) - rows);
    for (int k = first; k < first + rows; ++k) v.push_back(state_->line.order[std::size_t(k)]);
    return v;
}

QRect AScanView::rowRect(std::size_t receiver) const {
    const auto vis = visibleReceivers();
    const auto it = std::find(vis.begin(), vis.end(), receiver);
    if (it == vis.end()) return {};
    const QRect plot = plotRect();
    const double h = double(plot.height()) / double(vis.size());
    const int i = int(it - vis.begin());
    const int y0 = plot.top() + int(std::lround(i * h)), y1 = plot.top() + int(std::lround((i + 1) * h));
    return QRect(plot.left(), y0, plot.width(), y1 - y0);
}

int AScanView::receiverAt(const QPoint& pixel) const {
    const QRect plot = plotRect();
    if (pixel.y() < plot.top() || pixel.y() > plot.bottom() || pixel.x() > plot.right()) return -1;
    for (std::size_t r : visibleReceivers()) {
        const QRect row = rowRect(r);
        if (pixel.y() >= row.top() && pixel.y() <= row.bottom()) return int(r);
    }
    return -1;
}

int AScanView::timeToX(double t) const {
    const QRect plot = plotRect();
    const double end = state_->t_end > 0 ? state_->t_end : 1;
    return plot.left() + int(std::lround(t / end * plot.width()));
}

double AScanView::xToTime(int x) const {
    const QRect plot = plotRect();
    const double end = state_->t_end > 0 ? state_->t_end : 1;
    return std::clamp(double(x - plot.left()) / plot.width() * end, 0.0, end);
}

QString AScanView::amplitudeTitle() const {
    const double range = state_->full_scale / 0.9;
    return fit_ticks(-range, range, state_->quantity, state_->unit, plotRect().height(), false, fontMetrics()).title;
}

QString AScanView::timeTitle() const { return time_ticks(state_->t_end, plotRect(), fontMetrics()).title; }

void AScanView::placeScrollBar() {
    const int n = int(state_->count()), rows = rowsShown();
    const QRect plot = plotRect();
    scroll_->setGeometry(width() - scroll_->sizeHint().width() - 2, plot.top(), scroll_->sizeHint().width(),
                         plot.height());
    scroll_->setRange(0, std::max(0, n - rows));
    scroll_->setPageStep(std::max(1, rows));
    scroll_->setVisible(state_->selected < 0 && n > rows);
}

void AScanView::refresh() {
    placeScrollBar();
    update();
}

void AScanView::resizeEvent(QResizeEvent*) { placeScrollBar(); }

void AScanView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), view_colors().background);
    labels_.clear();
    const QRect plot = plotRect();
    p.fillRect(plot, view_colors().plot);
    const QFontMetrics fm = fontMetrics();
    const auto vis = visibleReceivers();
    if (vis.empty() || state_->traces.size() != state_->count()) {
        p.setPen(view_colors().text);
        p.drawText(plot, Qt::AlignCenter, tr("A-scans: one trace per receiver"));
        return;
    }
    const double range = state_->full_scale / 0.9;  // full scale reaches 90% of a row's half height
    const double end = state_->t_end > 0 ? state_->t_end : 1;
    const int gx0 = timeToX(state_->gate_t0), gx1 = timeToX(state_->gate_t1);
    const int name_x = fm.height() + 4, name_w = leftMargin() - name_x - label_room(fm) - 8;
    for (std::size_t r : vis) {
        const QRect row = rowRect(r);
        if (int(r) == state_->hovered) p.fillRect(row, view_colors().hover);
        const double cy = row.top() + 0.5 * row.height(), half = 0.5 * row.height();
        auto map = [&](const QPointF& q) {
            return QPointF(plot.left() + q.x() / end * plot.width(), cy - q.y() / range * half);
        };
        if (state_->gate) {
            QColor band = kGate;
            band.setAlpha(40);
            p.fillRect(QRect(QPoint(gx0, row.top()), QPoint(gx1, row.bottom())), band);
        }
        p.setPen(QPen(view_colors().grid, 1));
        p.drawLine(QPointF(plot.left(), cy), QPointF(plot.right(), cy));
        p.save();
        p.setClipRect(row);
        p.setRenderHint(QPainter::Antialiasing, true);
        QPolygonF line;
        line.reserve(state_->traces[r].size());
        for (const QPointF& q : state_->traces[r]) line << map(q);
        p.setPen(QPen(view_colors().trace, 1.2));
        p.drawPolyline(line);
        if (state_->envelope && r < state_->envelopes.size()) {
            QPolygonF up, down;
            for (const QPointF& q : state_->envelopes[r]) {
                up << map(q);
                down << map(QPointF(q.x(), -q.y()));
            }
            p.setPen(QPen(view_colors().envelope, 1.3));  // over the trace: it outlines it
            p.drawPolyline(up);
            p.drawPolyline(down);
        }
        if (state_->gate && r < state_->peaks.size() && state_->peaks[r].found) {
            const GatedPeak& g = state_->peaks[r];
            const QPointF at = map(QPointF(g.time, state_->peak_sign[r] * g.amplitude));
            p.setPen(QPen(kGate, 1.5));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(at, 3.5, 3.5);
        }
        p.restore();
        // Name, amplitude ticks (only those whose labels stay inside the row), gate readout.
        p.setPen(int(r) == state_->selected ? kSelected : view_colors().text);
        const QString name = fm.elidedText(state_->names[r], Qt::ElideRight, name_w);
        const QRect name_rect(name_x, int(cy) - fm.height() / 2, fm.horizontalAdvance(name), fm.height());
        p.drawText(name_rect, Qt::AlignCenter, name);
        labels_.push_back(name_rect);
        p.setPen(view_colors().text);
        const AxisTicks amp = row_ticks(range, state_->quantity, state_->unit, row.height(), fm);
        draw_axis(p, amp, row, -range, range, Qt::LeftEdge, false, QRect(0, row.top(), width(), row.height()), labels_);
        if (state_->gate && r < state_->peaks.size()) {
            const GatedPeak& g = state_->peaks[r];
            const QString text = g.found
                                     ? tr("%1 @ %2").arg(format_si(g.amplitude, state_->unit), format_si(g.time, "s"))
                                     : tr("no samples");
            const QRect t(plot.right() + 6, int(cy) - fm.height() / 2, fm.horizontalAdvance(text), fm.height());
            p.setPen(kGate);
            p.drawText(t, Qt::AlignCenter, text);
            labels_.push_back(t);
        }
        p.setPen(QPen(view_colors().grid, 1));
        p.drawLine(row.left(), row.bottom(), row.right(), row.bottom());
        if (int(r) == state_->selected && vis.size() > 1) {
            p.setPen(QPen(kSelected, 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(row.adjusted(1, 1, -1, -1));
        }
    }
    if (state_->gate) {
        p.setPen(QPen(kGate, 1.5));
        p.drawLine(gx0, plot.top(), gx0, plot.bottom());
        p.drawLine(gx1, plot.top(), gx1, plot.bottom());
    }
    p.setPen(view_colors().text);
    const QRect bounds = rect();
    draw_time_axis(p, plot, state_->t_end, bounds, labels_);
    labels_.push_back(draw_axis_title(p, amplitudeTitle(), QRect(0, plot.top(), fm.height() + 4, plot.height()), true));
}

void AScanView::mouseMoveEvent(QMouseEvent* e) {
    const QPoint at = e->position().toPoint();
    if ((drag_ == Drag::Click || drag_ == Drag::Move) && (at - press_).manhattanLength() > 3) moved_ = true;
    if (drag_ == Drag::Start || drag_ == Drag::End || (drag_ == Drag::Move && moved_)) {
        const double t = xToTime(at.x());
        double t0 = press_t0_, t1 = press_t1_;
        if (drag_ == Drag::Start) t0 = std::min(t, t1);
        if (drag_ == Drag::End) t1 = std::max(t, t0);
        if (drag_ == Drag::Move) {
            const double shift = std::clamp(t - xToTime(press_.x()), -t0, std::max(0.0, state_->t_end - t1));
            t0 += shift;
            t1 += shift;
        }
        emit gateMoved(t0, t1);
        return;
    }
    if (state_->gate) {
        const bool edge =
            std::abs(at.x() - timeToX(state_->gate_t0)) <= 4 || std::abs(at.x() - timeToX(state_->gate_t1)) <= 4;
        setCursor(edge ? Qt::SizeHorCursor : Qt::ArrowCursor);
    }
    const int r = receiverAt(at);
    if (r != state_->hovered) emit hovered(r);
}

void AScanView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    press_ = e->position().toPoint();
    press_t0_ = state_->gate_t0;
    press_t1_ = state_->gate_t1;
    drag_ = Drag::Click;
    moved_ = false;
    if (!state_->gate || receiverAt(press_) < 0) return;
    const int x0 = timeToX(state_->gate_t0), x1 = timeToX(state_->gate_t1);
    if (std::abs(press_.x() - x0) <= 4)
        drag_ = Drag::Start;
    else if (std::abs(press_.x() - x1) <= 4)
        drag_ = Drag::End;
    else if (press_.x() > x0 && press_.x() < x1)
        drag_ = Drag::Move;  // a click if the mouse does not move
}

void AScanView::mouseReleaseEvent(QMouseEvent* e) {
    const QPoint at = e->position().toPoint();
    if ((drag_ == Drag::Click || drag_ == Drag::Move) && !moved_ && (at - press_).manhattanLength() <= 3) {
        const int r = receiverAt(at);
        if (r >= 0) emit clicked(r);
    }
    drag_ = Drag::None;
}

void AScanView::wheelEvent(QWheelEvent* e) {
    if (!scroll_->isVisible()) return;
    const int steps = e->angleDelta().y() / 120;
    scroll_->setValue(scroll_->value() - (steps == 0 ? (e->angleDelta().y() > 0 ? 1 : -1) : steps));
}

void AScanView::leaveEvent(QEvent*) {
    if (state_->hovered >= 0) emit hovered(-1);
}

}  // namespace voxwave::ui

// ---------------------------------------------------------------- C-scan

namespace voxwave::ui {

CScanView::CScanView(QWidget* parent) : QWidget(parent) {
    setObjectName("cscan-view");
    setToolTip(
        tr("C-scan: each shot's peak amplitude in the gate (an array's delay-and-sum), at the probe's place; "
           "click a cell to see that shot's A-scan"));
}

void CScanView::set(int positions, int positions2, double step, double step2, const std::vector<double>& values,
                    bool log_scale, double range_db, const QString& unit) {
    nx_ = positions;
    ny_ = positions2;
    step_ = step;
    step2_ = step2;
    values_ = values;
    log_scale_ = log_scale;
    range_db_ = range_db;
    unit_ = unit;
    update();
}

int CScanView::filledCells() const {
    return int(std::count_if(values_.begin(), values_.end(), [](double v) { return !std::isnan(v); }));
}

void CScanView::setSelected(int shot) {
    selected_ = shot;
    update();
}

void CScanView::setLine(int line) {
    line_ = line;
    update();
}

ColorBar CScanView::colourBar() const {
    double peak = 0;
    for (double v : values_)
        if (!std::isnan(v)) peak = std::max(peak, std::abs(v));
    // A short title: the bar sits beside a narrow plot; the reference is in the plot's title.
    ColorBar bar;
    if (log_scale_)
        bar.set(&sequential_color_map(), -range_db_, 0, tr("dB"), QString());
    else
        bar.set(&sequential_color_map(), 0, peak > 0 ? peak : 1, tr("peak"), unit_);
    return bar;
}

QRect CScanView::plotRect() const {
    const QFontMetrics fm = fontMetrics();
    const int left = fm.height() + 4 + label_room(fm) + 8;
    const int right = 8 + colourBar().widthNeeded(fm);
    const int top = fm.height() + 8;  // the title
    const int bottom = 2 * fm.height() + 10;
    return QRect(left, top, std::max(10, width() - left - right), std::max(10, height() - top - bottom));
}

QString CScanView::title() const {
    double peak = 0;
    for (double v : values_)
        if (!std::isnan(v)) peak = std::max(peak, std::abs(v));
    return log_scale_ ? tr("C-scan: gated peak, 0 dB = %1").arg(format_si(peak, unit_)) : tr("C-scan: gated peak");
}

int CScanView::shotAt(const QPoint& pixel) const {
    const QRect plot = plotRect();
    if (nx_ <= 0 || ny_ <= 0 || !plot.contains(pixel)) return -1;
    const int i = std::clamp(int(double(pixel.x() - plot.left()) / plot.width() * nx_), 0, nx_ - 1);
    // Row 0 (the first line) at the bottom: step2 grows upwards.
    const int j = std::clamp(int(double(plot.bottom() - pixel.y()) / plot.height() * ny_), 0, ny_ - 1);
    return j * nx_ + i;
}

void CScanView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), view_colors().background);
    const QRect plot = plotRect();
    p.fillRect(plot, view_colors().plot);
    p.setPen(view_colors().text);
    if (nx_ <= 0 || ny_ <= 0 || values_.size() != std::size_t(nx_) * std::size_t(ny_)) {
        p.drawText(plot, Qt::AlignCenter | Qt::TextWordWrap,
                   tr("C-scan: gated peak over the scan (run a scan with a gate)"));
        return;
    }
    double peak = 0;
    for (double v : values_)
        if (!std::isnan(v)) peak = std::max(peak, std::abs(v));
    const double w = double(plot.width()) / nx_, h = double(plot.height()) / ny_;
    for (int j = 0; j < ny_; ++j)
        for (int i = 0; i < nx_; ++i) {
            const double v = values_[std::size_t(j * nx_ + i)];
            if (std::isnan(v)) continue;
            const double level =
                log_scale_ ? scan_level(v, peak, true, range_db_) : (peak > 0 ? std::abs(v) / peak : 0);
            const QRectF cell(plot.left() + i * w, plot.bottom() + 1 - (j + 1) * h, w, h);
            p.fillRect(cell, QColor::fromRgb(scan_colour(level, true)));
        }
    if (line_ >= 0 && line_ < ny_ && ny_ > 1) {  // the B-scan's line
        p.setPen(QPen(view_colors().text, 1, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(
            QRectF(plot.left(), plot.bottom() + 1 - (line_ + 1) * h, plot.width(), h).adjusted(0.5, 0.5, -0.5, -0.5));
    }
    if (selected_ >= 0 && selected_ < nx_ * ny_) {
        const int i = selected_ % nx_, j = selected_ / nx_;
        p.setPen(QPen(kSelected, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(plot.left() + i * w, plot.bottom() + 1 - (j + 1) * h, w, h).adjusted(1, 1, -1, -1));
    }
    const QFontMetrics fm = fontMetrics();
    std::vector<QRect> labels;
    p.setPen(view_colors().text);
    // Left of the colour bar's own title.
    p.drawText(QRect(4, 2, plot.right() - 4, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(title(), Qt::ElideRight, plot.right() - 4));
    // Cell centres sit at 0, step, ...: the axes run half a step beyond them.
    const double x0 = -0.5 * step_, x1 = (nx_ - 0.5) * step_;
    const double y0 = -0.5 * step2_, y1 = (ny_ - 0.5) * step2_;
    const AxisTicks xt = fit_ticks(std::min(x0, x1), std::max(x0, x1), tr("along step"), "m", plot.width(), true, fm);
    draw_axis(p, xt, plot, x0, x1, Qt::BottomEdge, false, rect(), labels);
    draw_axis_title(p, xt.title, QRect(plot.left(), plot.bottom() + fm.height() + 8, plot.width(), fm.height()), false);
    if (ny_ > 1 && step2_ != 0) {
        const AxisTicks yt =
            fit_ticks(std::min(y0, y1), std::max(y0, y1), tr("along step 2"), "m", plot.height(), false, fm);
        draw_axis(p, yt, plot, y0, y1, Qt::LeftEdge, false, rect(), labels);
        draw_axis_title(p, yt.title, QRect(0, plot.top(), fm.height() + 4, plot.height()), true);
    }
    ColorBar bar = colourBar();
    bar.layout(QRect(plot.right() + 8, 0, bar.widthNeeded(fm), plot.bottom() + fm.height() / 2 + 2), fm);
    bar.paint(p);
}

void CScanView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    const int s = shotAt(e->position().toPoint());
    if (s >= 0) emit clicked(s);
}

}  // namespace voxwave::ui
