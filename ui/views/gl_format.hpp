// The OpenGL format every GL widget of the app needs: 3.2 core, depth and stencil for VTK, shared
// contexts. Set before the QApplication exists, by the app and by the GUI tests alike.
#pragma once

namespace voxwave::ui {

void set_default_gl_format();

}  // namespace voxwave::ui
