#include "views/vtk_widget.hpp"

#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkLookupTable.h>
#include <vtkOpenGLState.h>
#include <vtkRenderStepsPass.h>
#include <vtkRenderer.h>
#include <vtkTranslucentPass.h>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QWheelEvent>

#include "views/color_bar.hpp"

namespace voxwave::ui {

vtkSmartPointer<vtkLookupTable> lookup_table(const ColorMap& map) {
    auto lut = vtkSmartPointer<vtkLookupTable>::New();
    lut->SetNumberOfTableValues(256);
    for (int i = 0; i < 256; ++i) {
        const auto c = color_at(map, i / 255.0);
        lut->SetTableValue(i, c[0], c[1], c[2], 1.0);
    }
    return lut;
}

VtkWidget::VtkWidget(QWidget* parent) : GlView(parent) {
    window_ = vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New();
    renderer_ = vtkSmartPointer<vtkRenderer>::New();
    interactor_ = vtkSmartPointer<vtkGenericRenderWindowInteractor>::New();
    window_->AddRenderer(renderer_);
    window_->SetInteractor(interactor_);
    interactor_->SetRenderWindow(window_);
    interactor_->SetInteractorStyle(vtkSmartPointer<vtkInteractorStyleTrackballCamera>::New());
    interactor_->EnableRenderOff();  // Qt decides when to paint
    renderer_->SetBackground(0.10, 0.10, 0.12);
    renderer_->SetBackground2(0.22, 0.23, 0.27);
    renderer_->GradientBackgroundOn();
    // No multisampling (VTK asks for 8 samples by default): in software GL (2-core VM,
    // llvmpipe) a frame of the 3D view with 8 samples cost about 10 ms more of the GUI thread,
    // the event loop's longest stalls during a run. FXAA cost as much again, so edges stay aliased.
    window_->SetMultiSamples(0);
    // See-through surfaces with plain alpha blending instead of VTK's default order-independent
    // translucency, whose float buffers and extra screen passes slow a software-GL frame (longest
    // stalls of the 3D view during a run, two runs each: 33 and 47 ms with it, 28 and 34 ms
    // without). The model's see-through material has one colour and opacity, so the unsorted
    // blending looks the same (checked on screenshots).
    auto steps = vtkSmartPointer<vtkRenderStepsPass>::New();
    steps->SetTranslucentPass(vtkSmartPointer<vtkTranslucentPass>::New());
    renderer_->SetPass(steps);

    // VTK asks the host to make the context current, to say whether it is, and to present a
    // frame. makeCurrent() only when not current: calling it always gives a blank view
    // (docs/architecture.md#building).
    auto* make_current = vtkCallbackCommand::New();
    make_current->SetClientData(this);
    make_current->SetCallback([](vtkObject*, unsigned long, void* self, void*) {
        auto* w = static_cast<VtkWidget*>(self);
        if (QOpenGLContext::currentContext() != w->context()) w->makeCurrent();
    });
    window_->AddObserver(vtkCommand::WindowMakeCurrentEvent, make_current);
    make_current->Delete();
    auto* is_current = vtkCallbackCommand::New();
    is_current->SetClientData(this);
    is_current->SetCallback([](vtkObject*, unsigned long, void* self, void* call) {
        auto* w = static_cast<VtkWidget*>(self);
        *static_cast<bool*>(call) = QOpenGLContext::currentContext() == w->context() && w->context() != nullptr;
    });
    window_->AddObserver(vtkCommand::WindowIsCurrentEvent, is_current);
    is_current->Delete();
    auto* frame = vtkCallbackCommand::New();
    frame->SetClientData(this);
    // A frame VTK rendered on its own (an interactor render) needs a Qt repaint to be shown; the
    // frames of our own paintGL must not ask for another one, or the widget repaints forever
    // (measured: ~100 ms software-GL renders back to back, the event loop's longest stalls).
    frame->SetCallback([](vtkObject*, unsigned long, void* self, void*) {
        auto* w = static_cast<VtkWidget*>(self);
        if (!w->painting_) w->update();
    });
    window_->AddObserver(vtkCommand::WindowFrameEvent, frame);
    frame->Delete();
    setMinimumSize(200, 160);
}

VtkWidget::~VtkWidget() {
    makeCurrent();
    window_->Finalize();
    doneCurrent();
}

void VtkWidget::initializeGL() {
    window_->SetOwnContext(false);
    window_->SetReadyForRendering(true);
    window_->SetMapped(1);
    window_->SetIsDirect(true);
    window_->SetSupportsOpenGL(true);
    window_->SetFrameBlitModeToNoBlit();  // we blit ourselves into the view's framebuffer in paintGL
    window_->OpenGLInitContext();
    syncSize();
}

void VtkWidget::syncSize() {
    const double dpr = devicePixelRatioF();
    const int w = std::max(1, int(width() * dpr)), h = std::max(1, int(height() * dpr));
    window_->SetSize(w, h);
    interactor_->SetSize(w, h);
    interactor_->ConfigureEvent();
}

void VtkWidget::resizeGL(int, int) { syncSize(); }

void VtkWidget::paintGL() {
    syncSize();
    window_->SetReadyForRendering(true);
    if (before_render_) {
        auto fn = std::move(before_render_);
        before_render_ = nullptr;
        fn();
    }
    painting_ = true;
    window_->Render();
    painting_ = false;
    vtkOpenGLState* state = window_->GetState();
    state->Reset();
    state->Push();
    state->vtkglBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer());
    window_->BlitDisplayFramebuffer();
    state->Pop();
}

void VtkWidget::forwardMouse(QMouseEvent* ev, unsigned long vtk_event) {
    syncSize();  // hidden widgets get no resize (docs/architecture.md#building): size the interactor before forwarding
    const double dpr = devicePixelRatioF();
    interactor_->SetEventInformationFlipY(int(ev->position().x() * dpr), int(ev->position().y() * dpr),
                                          (ev->modifiers() & Qt::ControlModifier) ? 1 : 0,
                                          (ev->modifiers() & Qt::ShiftModifier) ? 1 : 0);
    interactor_->InvokeEvent(vtk_event, ev);
    update();
}

void VtkWidget::mousePressEvent(QMouseEvent* ev) {
    if (ev->button() == Qt::LeftButton && click_handler_) {
        syncSize();
        if (click_handler_(ev->position())) return;
    }
    switch (ev->button()) {
        case Qt::LeftButton:
            forwardMouse(ev, vtkCommand::LeftButtonPressEvent);
            break;
        case Qt::RightButton:
            forwardMouse(ev, vtkCommand::RightButtonPressEvent);
            break;
        case Qt::MiddleButton:
            forwardMouse(ev, vtkCommand::MiddleButtonPressEvent);
            break;
        default:
            break;
    }
}

void VtkWidget::mouseReleaseEvent(QMouseEvent* ev) {
    switch (ev->button()) {
        case Qt::LeftButton:
            forwardMouse(ev, vtkCommand::LeftButtonReleaseEvent);
            break;
        case Qt::RightButton:
            forwardMouse(ev, vtkCommand::RightButtonReleaseEvent);
            break;
        case Qt::MiddleButton:
            forwardMouse(ev, vtkCommand::MiddleButtonReleaseEvent);
            break;
        default:
            break;
    }
}

void VtkWidget::mouseMoveEvent(QMouseEvent* ev) { forwardMouse(ev, vtkCommand::MouseMoveEvent); }

void VtkWidget::wheelEvent(QWheelEvent* ev) {
    syncSize();
    interactor_->InvokeEvent(
        ev->angleDelta().y() > 0 ? vtkCommand::MouseWheelForwardEvent : vtkCommand::MouseWheelBackwardEvent, ev);
    update();
}

}  // namespace voxwave::ui
