#include "views/plot_axis.hpp"

#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace voxwave::ui {

SiScale si_scale(double max_abs) {
    static const char* const kPrefixes[] = {"p", "n", "µ", "m", "", "k", "M", "G"};
    constexpr int kNone = 4;  // index of the empty prefix
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

QString format_si(double value, const QString& unit, int significant) {
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
                     int max_intervals) {
    if (!(hi > lo)) hi = lo + (lo == 0 ? 1 : std::abs(lo));
    const SiScale s = si_scale(std::max(std::abs(lo), std::abs(hi)));
    const double a = lo * s.factor, b = hi * s.factor;
    const double step = nice_step(b - a, max_intervals);
    axis->setRange(a, b);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(step);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(step_decimals(step)));
    const QString shown_unit = s.prefix + unit;
    axis->setTitleText(shown_unit.isEmpty() ? quantity : QStringLiteral("%1 (%2)").arg(quantity, shown_unit));
    return s.factor;
}

}  // namespace voxwave::ui
