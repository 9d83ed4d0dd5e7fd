#include "views/plot_axis.hpp"

#include <QCategoryAxis>
#include <QChart>
#include <QFontMetrics>
#include <QPolarChart>
#include <QValueAxis>
#include <QXYSeries>
#include <algorithm>
#include <cmath>
#include <functional>

namespace voxwave::ui {

namespace {

QString axis_title(const QString& quantity, const QString& shown_unit) {
    return shown_unit.isEmpty() ? quantity : QStringLiteral("%1 (%2)").arg(quantity, shown_unit);
}

}  // namespace

SiScale si_scale(double max_abs) {
    // Down to atto: an early wavefield's displacements are femtometres.
    static const char* const kPrefixes[] = {"a", "f", "p", "n", "µ", "m", "", "k", "M", "G"};
    constexpr int kNone = 6;  // index of the empty prefix
    if (!(max_abs > 0) || !std::isfinite(max_abs)) return {};
    // floor(log10) can land one below for exact powers of ten; the loop below settles it.
    int group = int(std::floor(std::log10(max_abs) / 3.0));
    group = std::clamp(group, -kNone, 3);
    while (group < 3 && max_abs * std::pow(1000.0, -group) >= 1000.0 * (1 - 1e-12)) ++group;
    while (group > -kNone && max_abs * std::pow(1000.0, -group) < 1.0 * (1 - 1e-12)) --group;
    return {std::pow(1000.0, -group), QString::fromUtf8(kPrefixes[group + kNone])};
}

double nice_step(double span, int max_intervals) {
    if (!(span > 0) || !std::isfinite(span)) return 0;
    max_intervals = std::max(1, max_intervals);
    const double raw = span / max_intervals;
    double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (;;) {
        for (double m : {1.0, 2.0, 5.0}) {
            const double step = m * decade;
            // A step hit exactly (1 / 0.2 = 5 intervals) must count as fitting despite rounding.
            if (span / step <= max_intervals * (1 + 1e-9)) return step;
        }
        decade *= 10;
    }
}

int step_decimals(double step) {
    if (!(step > 0) || !std::isfinite(step)) return 0;
    return std::max(0, -int(std::floor(std::log10(step) + 1e-9)));
}

double tick_step(double a, double b, int max_intervals, double min_step) {
    double step = std::max(nice_step(b - a, max_intervals), min_step);
    const auto ticks = [&](double s) { return std::floor(b / s + 1e-9) - std::ceil(a / s - 1e-9) + 1; };
    // The next smaller 1-2-5 step each time (5 -> 2 -> 1 -> 0.5): two ticks within a few.
    for (int i = 0; i < 60 && step > min_step && ticks(step) < 2; ++i) {
        const double decade = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
        const double m = std::round(step / decade);
        step = std::max(m >= 5 ? 2 * decade : m >= 2 ? decade : 0.5 * decade, min_step);
    }
    return step;
}

QString format_si(double value, const QString& unit, int significant) {
    // Rounded to its significant digits before the prefix is chosen: 0.99999 nm is "1.00 nm",
    // not "1.000 nm" (one digit too many) or "1000 pm".
    if (value != 0 && std::isfinite(value) && significant > 0) {
        const double magnitude = std::pow(10.0, std::floor(std::log10(std::abs(value))) - (significant - 1));
        value = std::round(value / magnitude) * magnitude;
    }
    const SiScale s = si_scale(std::abs(value));
    const double shown = value * s.factor;
    const int int_digits = shown == 0 ? 1 : int(std::floor(std::log10(std::abs(shown)))) + 1;
    const int decimals = std::max(0, significant - int_digits);
    const QString suffix = s.prefix + unit;
    return QString::number(shown, 'f', decimals) + (suffix.isEmpty() ? QString() : " " + suffix);
}

int intervals_that_fit(int axis_pixels, int label_pixels) {
    return std::max(1, int(axis_pixels / (1.5 * std::max(1, label_pixels))));
}

double set_nice_axis(QValueAxis* axis, double lo, double hi, const QString& quantity, const QString& unit,
                     int max_intervals, double min_step) {
    if (!(hi > lo)) hi = lo + (lo == 0 ? 1 : std::abs(lo));
    // A prefix without a unit would read as one ("u (m)"): plain numbers for dimensionless values.
    const SiScale s = unit.isEmpty() ? SiScale{} : si_scale(std::max(std::abs(lo), std::abs(hi)));
    const double a = lo * s.factor, b = hi * s.factor;
    const double step = tick_step(a, b, max_intervals, min_step);
    axis->setRange(a, b);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(step);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(step_decimals(step)));
    axis->setTitleText(axis_title(quantity, s.prefix + unit));
    return s.factor;
}

namespace {

// The axis' length in the plot area and whether its labels stack (vertical axes, a polar
// chart's radius) rather than stand side by side. 0 before the chart was first laid out.
int axis_pixels(const QChart* chart, const QAbstractAxis* axis, bool* stacked) {
    const QRectF area = chart->plotArea();
    if (const auto* polar = qobject_cast<const QPolarChart*>(chart)) {
        *stacked = true;
        const bool radial =
            polar->axisPolarOrientation(const_cast<QAbstractAxis*>(axis)) == QPolarChart::PolarOrientationRadial;
        return int((radial ? 0.5 : M_PI) * std::min(area.width(), area.height()));
    }
    *stacked = axis->orientation() == Qt::Vertical;
    return int(*stacked ? area.height() : area.width());
}

// Intervals that fit for labels whose width depends on the intervals (more ticks, more decimals):
// from the most that one-character labels allow down to where the widest label fits.
int intervals_for(int pixels, bool stacked, const QFontMetrics& fm, const std::function<int(int)>& widest) {
    if (pixels <= 0) return 5;  // not laid out yet: a guess, refitted once the chart has its size
    if (stacked) return intervals_that_fit(pixels, fm.height());
    int n = intervals_that_fit(pixels, 2 * fm.horizontalAdvance('0'));
    for (;;) {
        const int fits = intervals_that_fit(pixels, widest(n));
        if (fits >= n || n == 1) return n;
        n = fits;
    }
}

// Refits an axis when its chart's plot area changes: a child of the axis (gone with it), one
// per axis. `apply` sets the axis for a number of intervals; `widest` measures the widest label
// that number of intervals gives.
class AxisFitter : public QObject {
public:
    AxisFitter(QChart* chart, QAbstractAxis* axis) : QObject(axis), chart_(chart), axis_(axis) {
        connect(chart, &QChart::plotAreaChanged, this, &AxisFitter::fit);
    }
    static AxisFitter* of(QChart* chart, QAbstractAxis* axis) {
        for (QObject* c : axis->children())
            if (auto* f = dynamic_cast<AxisFitter*>(c); f && f->chart_ == chart) return f;
        return new AxisFitter(chart, axis);
    }
    std::function<void(int)> apply;
    std::function<int(int)> widest;
    // After new apply / widest: applied again whatever it was before.
    void refit() {
        applied_ = 0;
        fit();
    }
    void fit() {
        // An axis taken off its chart keeps no connection to it; a change of labels relayouts the
        // chart and comes back here: settled once the interval count stays.
        if (busy_ || !chart_->axes().contains(axis_)) return;
        bool stacked = false;
        const int n =
            intervals_for(axis_pixels(chart_, axis_, &stacked), stacked, QFontMetrics(axis_->labelsFont()), widest);
        if (n == applied_) return;
        busy_ = true;
        applied_ = n;
        apply(n);
        busy_ = false;
    }

private:
    QChart* chart_;
    QAbstractAxis* axis_;
    int applied_ = 0;
    bool busy_ = false;
};

}  // namespace

double fit_nice_axis(QChart* chart, QValueAxis* axis, double lo, double hi, const QString& quantity,
                     const QString& unit, double min_step) {
    AxisFitter* f = AxisFitter::of(chart, axis);
    const bool polar = qobject_cast<QPolarChart*>(chart) != nullptr;
    f->apply = [=](int n) {
        set_nice_axis(axis, lo, hi, quantity, unit, n, min_step);
        if (polar) {
            // A polar chart's axes draw a fixed number of ticks from end to end (no dynamic
            // ticks): the range widened to whole steps, a tick on each.
            const double step = axis->tickInterval();
            const double a = std::floor(axis->min() / step + 1e-9) * step;
            const double b = std::ceil(axis->max() / step - 1e-9) * step;
            axis->setRange(a, b);
            axis->setTickType(QValueAxis::TicksFixed);
            axis->setTickCount(int(std::lround((b - a) / step)) + 1);
        }
    };
    f->widest = [=](int n) {
        // The labels QValueAxis writes for the step n intervals give: the ends are the widest.
        const QFontMetrics fm(axis->labelsFont());
        double a = lo, b = hi;
        if (!(b > a)) b = a + (a == 0 ? 1 : std::abs(a));
        const double factor = unit.isEmpty() ? 1.0 : si_scale(std::max(std::abs(a), std::abs(b))).factor;
        a *= factor, b *= factor;
        const double step = tick_step(a, b, n, min_step);
        const int decimals = step_decimals(step);
        int w = 0;
        for (double v : {std::ceil(a / step - 1e-9) * step, std::floor(b / step + 1e-9) * step})
            w = std::max(w, fm.horizontalAdvance(QString::number(v, 'f', decimals)));
        return w;
    };
    const double factor = set_nice_axis(axis, lo, hi, quantity, unit, 5, min_step);
    f->refit();  // applies the count that fits (a guess of 5 before the chart's first layout)
    return factor;
}

QString decade_label(int k, const QString& unit, bool powers) {
    if (!unit.isEmpty()) return format_si(std::pow(10.0, k), unit, 1);
    if (!powers) return QString::number(std::pow(10.0, k), 'f', std::max(0, -k));
    static const char16_t kSuperscript[] = u"⁰¹²³⁴⁵⁶⁷⁸⁹";
    QString e;
    for (QChar c : QString::number(std::abs(k))) e += QChar(kSuperscript[c.digitValue()]);
    return QStringLiteral("10") + (k < 0 ? QStringLiteral("⁻") : QString()) + e;
}

namespace {

struct Decades {
    int first = 0, last = 1, step = 1;
    bool powers = false;
};

Decades log_decades(double lo, double hi, int max_intervals) {
    if (!(hi > 0) || !std::isfinite(hi)) hi = 1;
    if (!(lo > 0) || !std::isfinite(lo) || lo > hi) lo = hi;
    // A point on a decade is not drawn on the axis' end: a twentieth of a decade of room.
    Decades d;
    d.first = int(std::floor(std::log10(lo) - 0.05));
    d.last = int(std::ceil(std::log10(hi) + 0.05));
    d.step = std::max(1, int(std::lround(nice_step(d.last - d.first, max_intervals))));
    // Both ends on a labelled decade.
    d.first = int(std::floor(double(d.first) / d.step)) * d.step;
    d.last = int(std::ceil(double(d.last) / d.step)) * d.step;
    for (int k = d.first; k <= d.last; k += d.step) d.powers |= k < -2 || k > 3;
    return d;
}

}  // namespace

std::pair<int, int> set_log_axis(QCategoryAxis* axis, double lo, double hi, const QString& quantity,
                                 const QString& unit, int max_intervals) {
    const Decades d = log_decades(lo, hi, max_intervals);
    for (const QString& label : axis->categoriesLabels()) axis->remove(label);
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    axis->setStartValue(d.first - 1);  // off the axis: the first label is the first category's end
    for (int k = d.first; k <= d.last; k += d.step) axis->append(decade_label(k, unit, d.powers), k);
    axis->setRange(d.first, d.last);
    axis->setTitleText(axis_title(quantity, unit));
    return {d.first, d.last};
}

std::pair<int, int> fit_log_axis(QChart* chart, QCategoryAxis* axis, double lo, double hi, const QString& quantity,
                                 const QString& unit) {
    AxisFitter* f = AxisFitter::of(chart, axis);
    f->apply = [=](int n) { set_log_axis(axis, lo, hi, quantity, unit, n); };
    f->widest = [=](int n) {
        const Decades d = log_decades(lo, hi, n);
        const QFontMetrics fm(axis->labelsFont());
        int w = 0;
        for (int k = d.first; k <= d.last; k += d.step)
            w = std::max(w, fm.horizontalAdvance(decade_label(k, unit, d.powers)));
        return w;
    };
    f->refit();
    return {int(std::lround(axis->min())), int(std::lround(axis->max()))};
}

void clear_chart(QChart* chart) {
    chart->removeAllSeries();
    for (auto* a : chart->axes()) {
        chart->removeAxis(a);
        delete a;
    }
}

int chart_point_count(const QChart* chart, const QString& name_prefix) {
    int n = 0;
    for (auto* s : chart->series())
        if (s->name().startsWith(name_prefix)) n += static_cast<QXYSeries*>(s)->count();
    return n;
}

}  // namespace voxwave::ui
