// The colour maps of the field views and the colour bars that explain them.
//
// One definition of each map: its stops here, evenly spaced over [0, 1] and linear between. The
// wavefield shader (shaders/wavefield_slice.frag) gets these stops as uniforms and interpolates
// them the same way, the 3D view's lookup table and the matrix heatmap are built from them, and
// the bars sample them: a bar shows the colours its view draws.
#pragma once

#include <QRect>
#include <QString>
#include <QWidget>
#include <array>
#include <vector>

#include "wave/slice.hpp"

class QFontMetrics;
class QPainter;

namespace voxwave::ui {

struct ColorMap {
    std::vector<std::array<float, 3>> stops;  // RGB in [0, 1], at t = i / (stops - 1)
};

// Blue - white - red (cool-warm, Moreland) for signed values: t = 0 is -gain, 0.5 is zero.
const ColorMap& diverging_color_map();
// Black - red - yellow - white for magnitudes: t = 0 is zero, 1 is the gain.
const ColorMap& sequential_color_map();
// Blue - cyan - green - yellow - red (VTK's default hue ramp) for the solver labs' solutions.
const ColorMap& rainbow_color_map();

// The map's colour at t (clamped to [0, 1]).
std::array<float, 3> color_at(const ColorMap& map, double t);
QColor qcolor_at(const ColorMap& map, double t);

// What a slice shows, as a symbol and its SI unit: "u_z", "m"; "|v|", "m/s".
QString slice_quantity_symbol(SliceQuantity q);
QString slice_quantity_unit(SliceQuantity q);

// A vertical colour bar: the map from `lo` (bottom) to `hi` (top), ticks on a 1-2-5 step of the
// unit shown with the SI prefix chosen for the range, as many as the bar's height holds, and the
// title "quantity (prefix unit)" above it.
class ColorBar {
public:
    struct Tick {
        double value;  // base units
        QString text;  // in the shown unit
        int y;         // centre of the label, in the painter's coordinates
    };

    void set(const ColorMap* map, double lo, double hi, const QString& quantity, const QString& unit);
    // Width the bar with its labels and title needs.
    int widthNeeded(const QFontMetrics& fm) const;
    // Places the title, strip and ticks inside `area`.
    void layout(const QRect& area, const QFontMetrics& fm);
    void paint(QPainter& p) const;

    const ColorMap* map() const { return map_; }
    double lo() const { return lo_; }
    double hi() const { return hi_; }
    const QString& title() const { return title_; }
    QRect strip() const { return strip_; }  // the coloured part
    const std::vector<Tick>& ticks() const { return ticks_; }
    // Where paint writes the title and each tick label (views that report their labels' boxes).
    std::vector<QRect> labelRects(const QFontMetrics& fm) const;

private:
    QString label(double value, int decimals) const;

    const ColorMap* map_ = nullptr;
    double lo_ = 0, hi_ = 1;
    double factor_ = 1;  // base units to shown units
    QString title_;
    QRect title_rect_, strip_;
    std::vector<Tick> ticks_;
};

// A ColorBar as a widget, for views drawn by the raster painter or by VTK (beside them).
class ColorBarWidget : public QWidget {
    Q_OBJECT
public:
    explicit ColorBarWidget(QWidget* parent = nullptr);
    void set(const ColorMap* map, double lo, double hi, const QString& quantity, const QString& unit);
    const ColorBar& bar() const { return bar_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;

private:
    ColorBar bar_;
};

// `view` with `bar` at its right, in one widget (for splitters and layouts that hold the view).
QWidget* with_color_bar(QWidget* view, ColorBarWidget* bar);

}  // namespace voxwave::ui
