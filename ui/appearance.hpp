// View > Appearance, for a projector: a light theme (a light palette and light views: a dark
// picture washes out on a projector) and large fonts, both kept in the user's settings
// (appearance/light, appearance/large_font) and applied to the whole application at once.
#pragma once

namespace voxwave::ui {

struct Appearance {
    bool light = false;
    bool large_font = false;
};

// Large fonts scale the application's font (and every font that follows it) by this much.
inline constexpr double kLargeFontScale = 1.5;

Appearance saved_appearance();
void save_appearance(const Appearance& a);
// The palette, the application font, the painted views' colours (views/view_theme.hpp) and the
// charts' theme; every window repaints. The palette and font the application started with are
// what "off" returns to.
void apply_appearance(const Appearance& a);
// The application font's point size without the large-font scale.
double base_font_point_size();

}  // namespace voxwave::ui
