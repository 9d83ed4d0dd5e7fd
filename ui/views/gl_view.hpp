// A GL view in its own native child window: a QOpenGLWindow inside a window container. The
// rest of the main window then stays raster-painted. With QOpenGLWidgets in a window Qt composes
// the whole top-level window through OpenGL on every update of any widget in it (charts, tables,
// the status bar): 60-130 ms per update in software GL on the 2-core VM, the event loop's longest
// stalls (bench/results/gui-live.md). Subclasses draw as they would in a QOpenGLWidget:
// initializeGL / resizeGL / paintGL, into framebuffer().
#pragma once

#include <QImage>
#include <QOpenGLContext>
#include <QWidget>

namespace voxwave::ui {

class GlView : public QWidget {
    Q_OBJECT
public:
    explicit GlView(QWidget* parent = nullptr);
    ~GlView() override;

    // Schedules a frame of the GL window. Hides QWidget::update on purpose: that would repaint
    // only the raster host underneath the window. Call it through a GlView (or subclass) pointer.
    void update();
    // A fresh frame rendered into an offscreen framebuffer: what the window shows (the window's
    // own back buffer is undefined after a swap). Null before the window was first shown.
    QImage grabFramebuffer();
    bool isValid() const;
    QOpenGLContext* context() const;
    void makeCurrent();
    void doneCurrent();
    // The framebuffer paintGL draws into: the window's, or the offscreen one of grabFramebuffer().
    GLuint framebuffer() const;
    // Frames painted so far (tests: an idle view must not repaint by itself).
    int paintCount() const { return paint_count_; }
    QWindow* glWindow() const;
    // No preference, as a QOpenGLWidget has: the window container inside would otherwise ask for
    // its window's size and take the splitters' space from the raster views beside it.
    QSize sizeHint() const override { return {}; }

protected:
    virtual void initializeGL() {}
    virtual void resizeGL(int, int) {}
    virtual void paintGL() = 0;

private:
    class Window;
    Window* window_;
    GLuint grab_fbo_ = 0;
    int paint_count_ = 0;
};

// widget->grab() with the GL views inside it drawn in: a window container's native window is not
// part of the widget's own rendering, so each visible GlView's frame is painted over its place.
QPixmap grab_with_gl_views(QWidget* widget);

}  // namespace voxwave::ui
