#include "views/view_theme.hpp"

namespace voxwave::ui {

namespace {
// Dark: light text on near-black (the default look). Light: dark text on white, lines and traces
// darkened to keep their contrast on a washed-out projector image.
const ViewColors kDark{QColor(24, 24, 28), QColor(14, 14, 18),    QColor(205, 205, 210), QColor(70, 70, 80),
                       QColor(40, 40, 52), QColor(110, 185, 255), QColor(255, 200, 60)};
const ViewColors kLight{QColor(250, 250, 250), QColor(255, 255, 255), QColor(20, 20, 24), QColor(170, 170, 180),
                        QColor(220, 228, 245), QColor(10, 80, 200),   QColor(190, 110, 0)};
bool light = false;
}  // namespace

const ViewColors& view_colors() { return light ? kLight : kDark; }
bool light_views() { return light; }
void set_light_views(bool on) { light = on; }

}  // namespace voxwave::ui
