#include "views/color_bar.hpp"

#include <QFontMetrics>
#include <QHBoxLayout>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "views/plot_axis.hpp"
#include "views/view_theme.hpp"

namespace voxwave::ui {

const ColorMap& diverging_color_map() {
    static const ColorMap map{{{0.23f, 0.30f, 0.75f}, {0.95f, 0.95f, 0.95f}, {0.71f, 0.02f, 0.15f}}};
    return map;
}

const ColorMap& sequential_color_map() {
    static const ColorMap map{{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}}};
    return map;
}

const ColorMap& rainbow_color_map() {
    static const ColorMap map{{{0, 0, 1}, {0, 1, 1}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0}}};
    return map;
}

std::array<float, 3> color_at(const ColorMap& map, double t) {
    const int n = int(map.stops.size());
    if (n == 0) return {0, 0, 0};
    if (n == 1) return map.stops[0];
    // As the shader does it: x in [0, n-1], linear between the two stops around it.
    const double x = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * (n - 1);
    const int i = std::min(int(std::floor(x)), n - 2);
    const double f = x - i;
    std::array<float, 3> c{};
    for (int k = 0; k < 3; ++k)
        c[std::size_t(k)] = float(map.stops[std::size_t(i)][std::size_t(k)] * (1 - f) +
                                  map.stops[std::size_t(i) + 1][std::size_t(k)] * f);
    return c;
}

QColor qcolor_at(const ColorMap& map, double t) {
    const auto c = color_at(map, t);
    return QColor::fromRgbF(c[0], c[1], c[2]);
}

QString slice_quantity_symbol(SliceQuantity q) {
    switch (q) {
        case SliceQuantity::Ux:
            return QStringLiteral("u_x");
        case SliceQuantity::Uy:
            return QStringLiteral("u_y");
        case SliceQuantity::Uz:
            return QStringLiteral("u_z");
        case SliceQuantity::DisplacementMagnitude:
            return QStringLiteral("|u|");
        case SliceQuantity::VelocityMagnitude:
            return QStringLiteral("|v|");
    }
    return {};
}

QString slice_quantity_unit(SliceQuantity q) {
    return q == SliceQuantity::VelocityMagnitude ? QStringLiteral("m/s") : QStringLiteral("m");
}

namespace {
constexpr int kStripWidth = 12, kGap = 4, kTickLength = 4, kMargin = 4;
}

void ColorBar::set(const ColorMap* map, double lo, double hi, const QString& quantity, const QString& unit) {
    map_ = map;
    lo_ = lo;
    hi_ = hi > lo ? hi : lo + (lo == 0 ? 1 : std::abs(lo));
    // A prefix without a unit would read as one ("u (m)"): plain numbers for dimensionless values.
    const SiScale s = unit.isEmpty() ? SiScale{} : si_scale(std::max(std::abs(lo_), std::abs(hi_)));
    factor_ = s.factor;
    const QString shown = s.prefix + unit;
    title_ = shown.isEmpty() ? quantity : QStringLiteral("%1 (%2)").arg(quantity, shown);
}

QString ColorBar::label(double value, int decimals) const {
    const double v = value * factor_;
    return QString::number(std::abs(v) < 1e-12 ? 0.0 : v, 'f', decimals);  // no "-0"
}

int ColorBar::widthNeeded(const QFontMetrics& fm) const {
    // The widest labels are those of the ends at the finest step a bar of any height shows.
    const double step = nice_step((hi_ - lo_) * factor_, 10);
    const int decimals = step_decimals(step);
    const int labels = std::max(fm.horizontalAdvance(label(lo_, decimals)), fm.horizontalAdvance(label(hi_, decimals)));
    // (a digit's width to spare: a label of the same digits can be wider, "-0.25" than "-0.20")
    return std::max(fm.horizontalAdvance(title_), kStripWidth + kGap + kTickLength + labels) + 2 * kMargin +
           fm.horizontalAdvance('0');
}

void ColorBar::layout(const QRect& area, const QFontMetrics& fm) {
    const int half = fm.height() / 2 + 1;  // the end labels are centred on the strip's ends
    title_rect_ = QRect(area.left() + kMargin, area.top(), area.width() - 2 * kMargin, fm.height());
    strip_ = QRect(area.left() + kMargin, title_rect_.bottom() + 1 + half + kGap, kStripWidth, 0);
    strip_.setBottom(area.bottom() - half);
    ticks_.clear();
    if (strip_.height() < 2) return;
    const double span = (hi_ - lo_) * factor_;
    const double a = lo_ * factor_, b = hi_ * factor_;
    // Labels two lines apart: a bar needs a scale, not a ruler.
    const double step = tick_step(a, b, intervals_that_fit(strip_.height(), 2 * fm.height()));
    const int decimals = step_decimals(step);
    for (double v = std::ceil(a / step - 1e-9) * step; v <= b + 1e-9 * step; v += step) {
        const double frac = (v - a) / span;
        const int y = strip_.bottom() - int(std::lround(frac * (strip_.height() - 1)));
        ticks_.push_back({v / factor_, label(v / factor_, decimals), y});
    }
}

void ColorBar::paint(QPainter& p) const {
    if (!map_ || strip_.height() < 2) return;
    // One line per pixel row: row y shows the value at its centre.
    for (int y = strip_.top(); y <= strip_.bottom(); ++y) {
        const double t = double(strip_.bottom() - y) / std::max(1, strip_.height() - 1);
        p.fillRect(QRect(strip_.left(), y, strip_.width(), 1), qcolor_at(*map_, t));
    }
    p.setPen(view_colors().grid);
    p.drawRect(strip_.adjusted(-1, -1, 0, 0));
    p.setPen(view_colors().text);
    p.drawText(title_rect_, Qt::AlignLeft | Qt::AlignVCenter, title_);
    const QFontMetrics fm = p.fontMetrics();
    const int x = strip_.right() + 1;
    for (const Tick& t : ticks_) {
        p.drawLine(x, t.y, x + kTickLength, t.y);
        p.drawText(QRect(x + kTickLength + kGap, t.y - fm.height() / 2, 200, fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, t.text);
    }
}

std::vector<QRect> ColorBar::labelRects(const QFontMetrics& fm) const {
    std::vector<QRect> r{QRect(title_rect_.topLeft(), QSize(std::min(title_rect_.width(), fm.horizontalAdvance(title_)),
                                                            title_rect_.height()))};
    const int x = strip_.right() + 1 + kTickLength + kGap;
    for (const Tick& t : ticks_) r.emplace_back(x, t.y - fm.height() / 2, fm.horizontalAdvance(t.text), fm.height());
    return r;
}

ColorBarWidget::ColorBarWidget(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
}

void ColorBarWidget::set(const ColorMap* map, double lo, double hi, const QString& quantity, const QString& unit) {
    const int before = bar_.widthNeeded(fontMetrics());
    bar_.set(map, lo, hi, quantity, unit);
    bar_.layout(rect(), fontMetrics());
    if (bar_.widthNeeded(fontMetrics()) != before) updateGeometry();
    update();
}

QSize ColorBarWidget::sizeHint() const { return {bar_.widthNeeded(fontMetrics()), 120}; }

void ColorBarWidget::resizeEvent(QResizeEvent*) { bar_.layout(rect(), fontMetrics()); }

void ColorBarWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), view_colors().background);
    bar_.paint(p);
}

QWidget* with_color_bar(QWidget* view, ColorBarWidget* bar) {
    auto* w = new QWidget;
    auto* lay = new QHBoxLayout(w);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->setSpacing(0);
    lay->addWidget(view, 1);
    lay->addWidget(bar);
    return w;
}

}  // namespace voxwave::ui
