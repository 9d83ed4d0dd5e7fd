// The colours of the views the app paints itself (the wavefield, the receivers' scans, colour
// bars, the slice editor): dark, the default, or light for a projector, where a dark picture
// washes out (View > Appearance > Light theme, ui/appearance.*). One set for the whole app, read
// at paint time, so a switch shows at the next repaint. The field's colour maps stay as they are.
#pragma once

#include <QColor>

namespace voxwave::ui {

struct ViewColors {
    QColor background;  // around the plot or picture
    QColor plot;        // a plot's area
    QColor text;        // labels, ticks, overlay text
    QColor grid;        // grid and separator lines
    QColor hover;       // the row under the cursor
    QColor trace;       // an A-scan's line
    QColor envelope;    // its envelope
};

const ViewColors& view_colors();
bool light_views();
void set_light_views(bool on);

}  // namespace voxwave::ui
