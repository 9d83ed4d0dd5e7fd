#include "views/painted_axis.hpp"

#include <QFontMetrics>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "views/plot_axis.hpp"

namespace voxwave::ui {

QString AxisTicks::label(double value) const {
    const double shown = value * factor;
    // -0.0 and rounding noise around zero read "0", not "-0.0".
    const double tiny = 0.5 * std::pow(10.0, -decimals);
    return QString::number(std::abs(shown) < tiny ? 0.0 : shown, 'f', decimals);
}

namespace {

// Ticks on [lo, hi] in the prefix chosen for `prefix_for` (|lo| and |hi| when 0): the step
// tick_step gives (two ticks inside at least), the title as set_nice_axis writes it.
AxisTicks ticks_with(double lo, double hi, const QString& quantity, const QString& unit, int max_intervals,
                     double prefix_for = 0) {
    AxisTicks t;
    if (!(hi > lo)) hi = lo + (lo == 0 ? 1 : std::abs(lo));
    if (!(prefix_for > 0)) prefix_for = std::max(std::abs(lo), std::abs(hi));
    // A prefix without a unit would read as one: plain numbers for dimensionless values.
    const SiScale s = unit.isEmpty() ? SiScale{} : si_scale(prefix_for);
    t.factor = s.factor;
    const QString shown_unit = s.prefix + unit;
    t.title = shown_unit.isEmpty() ? quantity : QStringLiteral("%1 (%2)").arg(quantity, shown_unit);
    const double a = lo * s.factor, b = hi * s.factor;
    const double step = tick_step(a, b, max_intervals);
    t.decimals = step_decimals(step);
    if (!(step > 0)) return t;
    for (double k = std::ceil(a / step - 1e-9); k * step <= b + 1e-9 * step; k += 1)
        t.values.push_back(k * step / s.factor);
    return t;
}

}  // namespace

AxisTicks fit_ticks(double lo, double hi, const QString& quantity, const QString& unit, int axis_pixels,
                    bool horizontal, const QFontMetrics& fm) {
    // A first guess from a typical label, then the widest label actually written, until the
    // count stops falling (it only falls: fewer ticks never need wider labels).
    int label = horizontal ? fm.horizontalAdvance(QStringLiteral("-888.8")) : fm.height();
    int intervals = intervals_that_fit(axis_pixels, label);
    AxisTicks t = ticks_with(lo, hi, quantity, unit, intervals);
    for (int pass = 0; pass < 4 && horizontal; ++pass) {
        int widest = 1;
        for (double v : t.values) widest = std::max(widest, fm.horizontalAdvance(t.label(v)));
        const int fit = intervals_that_fit(axis_pixels, widest);
        if (fit >= intervals) break;
        intervals = fit;
        t = ticks_with(lo, hi, quantity, unit, intervals);
    }
    return t;
}

AxisTicks row_ticks(double range, const QString& quantity, const QString& unit, int row_pixels,
                    const QFontMetrics& fm) {
    // Labels sit at their ticks: the outermost ones must keep half a label inside the row, so the
    // ticks come from the inner part of the range (tick_step keeps two of them there), in the
    // prefix of the whole range (the title the rows share).
    const double inner = range * std::max(0.0, 1 - double(fm.height()) / std::max(1, row_pixels));
    AxisTicks t = ticks_with(-inner, inner, quantity, unit, intervals_that_fit(row_pixels, fm.height()), range);
    std::stable_partition(t.values.begin(), t.values.end(), [](double v) { return v != 0; });
    return t;
}

void draw_axis(QPainter& p, const AxisTicks& ticks, const QRect& plot, double lo, double hi, Qt::Edge edge,
               bool downwards, const QRect& bounds, std::vector<QRect>& labels) {
    if (!(hi > lo)) return;
    const QFontMetrics fm = p.fontMetrics();
    constexpr int kTick = 4;
    const std::size_t first = labels.size();
    for (double v : ticks.values) {
        const double f = (v - lo) / (hi - lo);
        const QString text = ticks.label(v);
        const int w = fm.horizontalAdvance(text), h = fm.height();
        QRect r;
        if (edge == Qt::BottomEdge) {
            const int x = plot.left() + int(std::lround(f * plot.width()));
            p.drawLine(x, plot.bottom() + 1, x, plot.bottom() + kTick);
            r = QRect(x - w / 2, plot.bottom() + kTick + 1, w, h);
        } else {
            const int y = downwards ? plot.top() + int(std::lround(f * plot.height()))
                                    : plot.bottom() - int(std::lround(f * plot.height()));
            if (edge == Qt::RightEdge) {
                p.drawLine(plot.right() + 1, y, plot.right() + kTick, y);
                r = QRect(plot.right() + kTick + 2, y - h / 2, w, h);
            } else {
                p.drawLine(plot.left() - kTick, y, plot.left() - 1, y);
                r = QRect(plot.left() - kTick - 2 - w, y - h / 2, w, h);
            }
        }
        if (!bounds.contains(r)) continue;
        if (std::any_of(labels.begin() + std::ptrdiff_t(first), labels.end(),
                        [&](const QRect& o) { return o.intersects(r); }))
            continue;
        p.drawText(r, Qt::AlignCenter, text);
        labels.push_back(r);
    }
}

QRect draw_axis_title(QPainter& p, const QString& full, const QRect& area, bool vertical) {
    const QFontMetrics fm = p.fontMetrics();
    // A title longer than its axis is cut with an ellipsis rather than run into other labels.
    const QString text = fm.elidedText(full, Qt::ElideRight, vertical ? area.height() : area.width());
    const int w = fm.horizontalAdvance(text), h = fm.height();
    if (!vertical) {
        const QRect r(area.center().x() - w / 2, area.center().y() - h / 2, w, h);
        p.drawText(r, Qt::AlignCenter, text);
        return r;
    }
    p.save();
    p.translate(area.center());
    p.rotate(-90);
    p.drawText(QRect(-w / 2, -h / 2, w, h), Qt::AlignCenter, text);
    p.restore();
    return QRect(area.center().x() - h / 2, area.center().y() - w / 2, h, w);
}

}  // namespace voxwave::ui
