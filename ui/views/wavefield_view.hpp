// The live wavefield: one slice drawn by our shaders (shaders/wavefield_slice.*) with a
// diverging colormap and auto or manual gain, over the material layout. A GlView: its own
// native window, so its frames do not make Qt compose the whole main window through GL.
#pragma once

#include <QOpenGLBuffer>
#include <QOpenGLExtraFunctions>
#include <QOpenGLShaderProgram>
#include <QOpenGLTextureBlitter>
#include <QOpenGLVertexArrayObject>
#include <memory>

#include "model/voxel_grid.hpp"
#include "views/gl_view.hpp"
#include "wave/wave_session.hpp"

namespace voxwave::ui {

class WavefieldView : public GlView, protected QOpenGLExtraFunctions {
    Q_OBJECT
public:
    explicit WavefieldView(QWidget* parent = nullptr);
    ~WavefieldView() override;

    // Values per node of the plane (width x height) and the element ids under it
    // ((width-1) x (height-1)); `signed_field` picks the diverging colormap.
    void setSlice(const SliceImage& slice, const std::vector<MaterialId>& element_ids, bool signed_field);
    void clearSlice();
    double gain() const { return gain_; }
    const SliceImage& slice() const { return slice_; }
    bool autoGain() const { return auto_gain_; }
    void setOverlayText(const QString& text);
    // GL errors seen so far (each checked call adds its name when it failed); empty is healthy.
    const QStringList& glErrors() const { return gl_errors_; }

public slots:
    void setAutoGain(bool on);
    void setManualGain(double gain);  // value drawn at full colour
    void setShowMaterials(bool on);

signals:
    void gainChanged(double gain);

protected:
    void initializeGL() override;
    void paintGL() override;

private:
    void checkGl(const char* what);
    void uploadIfNeeded();
    void drawOverlay();

    QOpenGLShaderProgram program_;
    QOpenGLVertexArrayObject vao_;
    QOpenGLBuffer quad_{QOpenGLBuffer::VertexBuffer};
    QOpenGLTextureBlitter blitter_;
    GLuint field_tex_ = 0, material_tex_ = 0, overlay_tex_ = 0;
    bool gl_ready_ = false;
    bool dirty_ = false;
    SliceImage slice_;
    std::vector<unsigned char> ids_;
    bool signed_ = true;
    bool show_materials_ = true;
    bool auto_gain_ = true;
    double gain_ = 1e-12;
    QString overlay_;
    QStringList gl_errors_;
};

}  // namespace voxwave::ui
