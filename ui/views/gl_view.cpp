#include "views/gl_view.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>
#include <QOpenGLWindow>
#include <QPainter>
#include <QPixmap>
#include <QVBoxLayout>
#include <memory>

namespace voxwave::ui {

// The native window: GL calls go to the host's virtuals, input goes to the host widget, so the
// views keep their QWidget event handlers (and tests that send events to the widget reach them).
class GlView::Window : public QOpenGLWindow {
public:
    // NoPartialUpdate: frames go straight to the window's back buffer, no extra FBO and blit.
    explicit Window(GlView* host) : QOpenGLWindow(QOpenGLWindow::NoPartialUpdate), host_(host) {}
    ~Window() override {
        if (last_frame_window_ == this) last_frame_window_ = nullptr;
    }

protected:
    void initializeGL() override { host_->initializeGL(); }
    void resizeGL(int w, int h) override { host_->resizeGL(w, h); }
    void paintGL() override {
        ++host_->paint_count_;
        host_->paintGL();
    }
    bool event(QEvent* e) override {
        switch (e->type()) {
            case QEvent::UpdateRequest: {
                // One GL view's frame per pass of the event loop: the update timers of two views
                // (the slice and the 3D view) often expire together, and their software-GL frames
                // back to back made the longest stalls. A frame asked for right after another
                // view's comes one update interval later, once (so that none waits for ever).
                if (last_frame_window_ && last_frame_window_ != this && last_frame_end_.isValid() &&
                    last_frame_end_.elapsed() < kFrameSpacingMs && !postponed_) {
                    postponed_ = true;
                    requestUpdate();
                    return true;
                }
                postponed_ = false;
                const int painted = host_->paint_count_;
                const bool handled = QOpenGLWindow::event(e);
                if (host_->paint_count_ != painted) {
                    last_frame_window_ = this;
                    last_frame_end_.start();
                }
                return handled;
            }
            case QEvent::MouseMove:
                // A QWindow always sees hover moves; a widget only when it tracks the mouse. A
                // hover must not cost a (software-GL) frame of a view that ignores it.
                if (static_cast<QMouseEvent*>(e)->buttons() == Qt::NoButton && !host_->hasMouseTracking()) return true;
                [[fallthrough]];
            case QEvent::MouseButtonPress:
            case QEvent::MouseButtonRelease:
            case QEvent::MouseButtonDblClick:
            case QEvent::Wheel: {
                // The window fills its host at (0, 0): local positions are the same.
                std::unique_ptr<QEvent> copy(e->clone());
                QCoreApplication::sendEvent(host_, copy.get());
                e->setAccepted(copy->isAccepted());
                return true;
            }
            default:
                return QOpenGLWindow::event(e);
        }
    }

private:
    static constexpr qint64 kFrameSpacingMs = 8;
    static inline const Window* last_frame_window_ = nullptr;
    static inline QElapsedTimer last_frame_end_;
    GlView* host_;
    bool postponed_ = false;
};

GlView::GlView(QWidget* parent) : QWidget(parent), window_(new Window(this)) {
    // The container owns the window from here on.
    QWidget* container = QWidget::createWindowContainer(window_, this);
    container->setFocusPolicy(Qt::StrongFocus);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(container);
}

GlView::~GlView() = default;

void GlView::update() { window_->update(); }

bool GlView::isValid() const { return window_->isValid(); }

QOpenGLContext* GlView::context() const { return window_->context(); }

void GlView::makeCurrent() { window_->makeCurrent(); }

void GlView::doneCurrent() { window_->doneCurrent(); }

QWindow* GlView::glWindow() const { return window_; }

GLuint GlView::framebuffer() const { return grab_fbo_ ? grab_fbo_ : window_->defaultFramebufferObject(); }

QImage GlView::grabFramebuffer() {
    if (!window_->isValid()) return {};
    window_->makeCurrent();
    const qreal dpr = window_->devicePixelRatio();
    const QSize size(std::max(1, int(width() * dpr)), std::max(1, int(height() * dpr)));
    QOpenGLFramebufferObjectFormat format;
    format.setAttachment(QOpenGLFramebufferObject::CombinedDepthStencil);
    QOpenGLFramebufferObject fbo(size, format);
    fbo.bind();
    context()->functions()->glViewport(0, 0, size.width(), size.height());
    grab_fbo_ = fbo.handle();
    paintGL();
    grab_fbo_ = 0;
    QImage image = fbo.toImage();
    QOpenGLFramebufferObject::bindDefault();
    image.setDevicePixelRatio(dpr);
    return image;
}

QPixmap grab_with_gl_views(QWidget* widget) {
    QPixmap shot = widget->grab();
    QPainter p(&shot);
    for (GlView* v : widget->findChildren<GlView*>()) {
        if (!v->isVisible()) continue;
        const QImage frame = v->grabFramebuffer();
        if (!frame.isNull()) p.drawImage(QRect(v->mapTo(widget, QPoint(0, 0)), v->size()), frame);
    }
    return shot;
}

}  // namespace voxwave::ui
