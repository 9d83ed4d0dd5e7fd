// VTK 9.1 hosted in a Qt 6 GL view through vtkGenericOpenGLRenderWindow (docs/architecture.md#building).
// Debian's VTK Qt module is built against Qt 5, so we never link it; this bridge is ours. A
// GlView (a native child window), so its frames do not make Qt compose the main window through GL.
#pragma once

#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <QPointF>
#include <functional>

#include "views/gl_view.hpp"

class vtkLookupTable;

namespace voxwave::ui {

struct ColorMap;

// A VTK lookup table of `map` (256 entries sampled from it): VTK views colour their fields with
// the same maps, defined once in views/color_bar.*, as the colour bars beside them.
vtkSmartPointer<vtkLookupTable> lookup_table(const ColorMap& map);

class VtkWidget : public GlView {
    Q_OBJECT
public:
    explicit VtkWidget(QWidget* parent = nullptr);
    ~VtkWidget() override;
    vtkRenderer* renderer() const { return renderer_; }
    vtkGenericOpenGLRenderWindow* renderWindow() const { return window_; }
    vtkGenericRenderWindowInteractor* interactor() const { return interactor_; }
    // Runs once before the next render, when the window has its real size (camera resets need
    // the aspect ratio, which hidden or not-yet-shown widgets do not know).
    // Called on a left click before the camera gets it (pixel in widget coordinates); returning
    // true consumes the click (placing things in the scene instead of rotating).
    void setClickHandler(std::function<bool(QPointF)> fn) { click_handler_ = std::move(fn); }
    // Sizes the render window to the widget now (pickers need the real size).
    void syncSizeNow() { syncSize(); }

    void beforeNextRender(std::function<void()> fn) {
        before_render_ = std::move(fn);
        update();
    }

protected:
    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void wheelEvent(QWheelEvent*) override;

private:
    void forwardMouse(QMouseEvent* ev, unsigned long vtk_event);
    void syncSize();

    vtkSmartPointer<vtkGenericOpenGLRenderWindow> window_;
    vtkSmartPointer<vtkRenderer> renderer_;
    vtkSmartPointer<vtkGenericRenderWindowInteractor> interactor_;
    std::function<void()> before_render_;
    bool painting_ = false;  // inside paintGL: VTK's frame event is our own frame
    std::function<bool(QPointF)> click_handler_;
};

}  // namespace voxwave::ui
