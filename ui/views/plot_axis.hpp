// Axes that read well, for every plot of the explorer: tick steps of 1, 2 or 5 times a power of
// ten, values shown under an SI prefix chosen for the axis' range (0.02 ms reads "20 µs"), and no
// more ticks than the axis' length holds with room between the labels.
#pragma once

#include <QString>
#include <utility>

class QCategoryAxis;
class QChart;
class QValueAxis;

namespace voxwave::ui {

// An engineering prefix: value_shown = value * factor, written with `prefix` before the unit.
struct SiScale {
    double factor = 1;
    QString prefix;  // "a", "f", "p", "n", "µ", "m", "", "k", "M", "G"
};

// The prefix (powers of 1000 from atto to giga) under which max_abs shows as 1 <= x < 1000;
// none for 0 or a non-finite value.
SiScale si_scale(double max_abs);

// The smallest step of 1, 2 or 5 x 10^k that cuts `span` into at most `max_intervals`
// intervals (at least one). 0 for a span that is not a positive finite number.
double nice_step(double span, int max_intervals);

// The tick step of an axis from a to b: nice_step for max_intervals, at least min_step (itself
// 1, 2 or 5 x 10^k), and smaller where needed for two ticks inside [a, b] (one alone gives no
// scale).
double tick_step(double a, double b, int max_intervals, double min_step = 0);

// Decimals that labels of multiples of `step` need (0 for steps of 1 and up).
int step_decimals(double step);

// `value` (in base units) with the prefix chosen for it and `significant` digits: "20.0 µs".
QString format_si(double value, const QString& unit, int significant = 3);

// How many tick intervals an axis of `axis_pixels` holds when each label is `label_pixels` wide
// (or high) and labels keep half a label of space between them; at least 1.
int intervals_that_fit(int axis_pixels, int label_pixels);

// Sets `axis` to show [lo, hi] (base units, e.g. seconds) in the prefix chosen for the larger of
// |lo| and |hi| (none for an empty unit: a lone prefix would read as a unit): range in shown units, dynamic ticks on
// multiples of a 1-2-5 step (at most max_intervals intervals), labels with the decimals the step needs, and the title
// "quantity (prefix unit)" (just "quantity" for an empty unit without prefix). Returns the factor
// by which the caller multiplies its data (base units to shown units). A `min_step` (shown units,
// itself 1, 2 or 5 x 10^k) keeps ticks of counts on whole numbers.
double set_nice_axis(QValueAxis* axis, double lo, double hi, const QString& quantity, const QString& unit,
                     int max_intervals, double min_step = 0);

// Keeps `axis` (attached to `chart`) set as set_nice_axis sets it, with as many intervals as its
// length in the chart's plot area holds for its labels (intervals_that_fit), recomputed whenever
// the plot area changes size: a chart made larger gets more ticks, a small one never has labels
// that run together. Returns the factor by which the caller multiplies its data.
double fit_nice_axis(QChart* chart, QValueAxis* axis, double lo, double hi, const QString& quantity,
                     const QString& unit, double min_step = 0);

// The label of the decade 10^k on a log axis: "10 µs" / "1 ms" with a unit (the SI prefix
// chosen for the value), "0.01" / "1000" without one for -2 <= k <= 3 when `powers` is false,
// else "10⁻⁵" (superscript exponent).
QString decade_label(int k, const QString& unit, bool powers);

// A log axis: the axis shows log10 of the data (the caller plots log10(value)), from the decade at
// or below lo to the one at or above hi, at least one decade, so that even a single point has
// labelled ticks above and below it. Labels sit on every 1st, 2nd, 5th, ... decade (a 1-2-5 step
// of decades, at most max_intervals of them); all in powers of ten when any one needs it. Title as
// set_nice_axis's, without a prefix ("time (s)"). Returns the decades shown, [first, last].
std::pair<int, int> set_log_axis(QCategoryAxis* axis, double lo, double hi, const QString& quantity,
                                 const QString& unit, int max_intervals);

// set_log_axis kept fitted to the plot area, as fit_nice_axis does.
std::pair<int, int> fit_log_axis(QChart* chart, QCategoryAxis* axis, double lo, double hi, const QString& quantity,
                                 const QString& unit);

// Empties `chart` for a redraw: removes its series and removes and deletes its axes (removeAxis
// hands an axis back to the caller, who owns it then).
void clear_chart(QChart* chart);

// The points of `chart`'s series (all XY series) whose names start with `name_prefix`; every
// series' for an empty prefix.
int chart_point_count(const QChart* chart, const QString& name_prefix = {});

}  // namespace voxwave::ui
