// Axes that read well, for every plot of the explorer: tick steps of 1, 2 or 5 times a power of
// ten, values shown under an SI prefix chosen for the axis' range (0.02 ms reads "20 µs"), and no
// more ticks than the axis' length holds with room between the labels.
#pragma once

#include <QString>

class QValueAxis;

namespace voxwave::ui {

// An engineering prefix: value_shown = value * factor, written with `prefix` before the unit.
struct SiScale {
    double factor = 1;
    QString prefix;  // "p", "n", "µ", "m", "", "k", "M", "G"
};

// The prefix (powers of 1000 from pico to giga) under which max_abs shows as 1 <= x < 1000;
// none for 0 or a non-finite value.
SiScale si_scale(double max_abs);

// The smallest step of 1, 2 or 5 x 10^k that cuts `span` into at most `max_intervals`
// intervals (at least one). 0 for a span that is not a positive finite number.
double nice_step(double span, int max_intervals);

// Decimals that labels of multiples of `step` need (0 for steps of 1 and up).
int step_decimals(double step);

// `value` (in base units) with the prefix chosen for it and `significant` digits: "20.0 µs".
QString format_si(double value, const QString& unit, int significant = 3);

// How many tick intervals an axis of `axis_pixels` holds when each label is `label_pixels` wide
// (or high) and labels keep half a label of space between them; at least 1.
int intervals_that_fit(int axis_pixels, int label_pixels);

// Sets `axis` to show [lo, hi] (base units, e.g. seconds) in the prefix chosen for the larger of
// |lo| and |hi|: range in shown units, dynamic ticks on multiples of a 1-2-5 step (at most
// max_intervals intervals), labels with the decimals the step needs, and the title
// "quantity (prefix unit)" (just "quantity" for an empty unit without prefix). Returns the factor
// by which the caller multiplies its data (base units to shown units).
double set_nice_axis(QValueAxis* axis, double lo, double hi, const QString& quantity, const QString& unit,
                     int max_intervals);

}  // namespace voxwave::ui
