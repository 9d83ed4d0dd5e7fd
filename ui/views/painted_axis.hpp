// Axes drawn with QPainter (the scan views): ticks and labels by plot_axis' rules (1-2-5 steps,
// SI prefixes, no more ticks than the axis' length holds), with the rectangles of the drawn
// labels handed back so that callers and tests can check that none overlap.
#pragma once

#include <QRect>
#include <QString>
#include <vector>

class QFontMetrics;
class QPainter;

namespace voxwave::ui {

struct AxisTicks {
    double factor = 1;           // base units to shown units
    QString title;               // "quantity (prefix unit)"
    std::vector<double> values;  // tick positions, base units
    int decimals = 0;
    QString label(double value) const;
};

// Ticks for [lo, hi] (base units) on an axis `axis_pixels` long: as many 1-2-5 intervals as
// labels of this font fit with half a label of room between them (their widths on a horizontal
// axis, their height on a vertical one), by plot_axis' tick_step. No prefix without a unit.
AxisTicks fit_ticks(double lo, double hi, const QString& quantity, const QString& unit, int axis_pixels,
                    bool horizontal, const QFontMetrics& fm);

// Ticks for a row of stacked traces spanning [-range, range] over `row_pixels`, every label
// inside the row (at least two ticks, e.g. -s and s, when 0 alone would fit), labelled in the
// prefix of `range`. Zero comes last, so that draw_axis drops it rather than a signed tick when
// labels collide.
AxisTicks row_ticks(double range, const QString& quantity, const QString& unit, int row_pixels, const QFontMetrics& fm);

// Draws tick marks and labels along one edge of `plot` (Qt::BottomEdge, Qt::LeftEdge or
// Qt::RightEdge, labels outside it) for values lo..hi: left to right, or bottom to top (top to
// bottom when `downwards`). A label that would leave `bounds`, or overlap one drawn before it in this call, is not
// drawn. Appends the drawn labels' rectangles to `labels`.
void draw_axis(QPainter& p, const AxisTicks& ticks, const QRect& plot, double lo, double hi, Qt::Edge edge,
               bool downwards, const QRect& bounds, std::vector<QRect>& labels);

// An axis title centred in `area`, turned a quarter left when `vertical`, cut with an ellipsis
// where longer than the area; returns its rectangle.
QRect draw_axis_title(QPainter& p, const QString& text, const QRect& area, bool vertical);

}  // namespace voxwave::ui
