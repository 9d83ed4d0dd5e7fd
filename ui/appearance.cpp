#include "appearance.hpp"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QFont>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QWidget>

#include "views/gl_view.hpp"
#include "views/view_theme.hpp"

namespace voxwave::ui {

namespace {
struct Start {
    QPalette palette;
    QFont font;
};
// What the application had before the first change.
const Start& start() {
    static const Start s{QApplication::palette(), QApplication::font()};
    return s;
}

QPalette light_palette() {
    QPalette p = QApplication::style()->standardPalette();
    p.setColor(QPalette::Window, QColor(246, 246, 246));
    p.setColor(QPalette::WindowText, QColor(15, 15, 15));
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::AlternateBase, QColor(236, 240, 246));
    p.setColor(QPalette::Text, QColor(15, 15, 15));
    p.setColor(QPalette::Button, QColor(238, 238, 238));
    p.setColor(QPalette::ButtonText, QColor(15, 15, 15));
    p.setColor(QPalette::ToolTipBase, QColor(255, 255, 225));
    p.setColor(QPalette::ToolTipText, Qt::black);
    return p;
}
}  // namespace

Appearance saved_appearance() {
    QSettings s;
    return {s.value("appearance/light", false).toBool(), s.value("appearance/large_font", false).toBool()};
}

void save_appearance(const Appearance& a) {
    QSettings s;
    s.setValue("appearance/light", a.light);
    s.setValue("appearance/large_font", a.large_font);
}

double base_font_point_size() { return start().font.pointSizeF(); }

void apply_appearance(const Appearance& a) {
    const Start& s = start();
    QApplication::setPalette(a.light ? light_palette() : s.palette);
    QFont f = s.font;
    if (a.large_font) f.setPointSizeF(s.font.pointSizeF() * kLargeFontScale);
    QApplication::setFont(f);
    set_light_views(a.light);
    for (QWidget* top : QApplication::topLevelWidgets()) {
        // Charts take their colours from a theme of their own; a theme resets the series'
        // colours to the theme's, which is what every chart here draws with. Their fonts stay:
        // the small previews have no room for larger labels.
        for (QChartView* v : top->findChildren<QChartView*>())
            v->chart()->setTheme(a.light ? QChart::ChartThemeLight : QChart::ChartThemeDark);
        for (GlView* g : top->findChildren<GlView*>()) g->update();
        top->update();
        for (QWidget* w : top->findChildren<QWidget*>()) w->update();
    }
}

}  // namespace voxwave::ui
