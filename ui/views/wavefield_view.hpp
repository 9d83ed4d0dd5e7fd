// The live wavefield: one slice drawn by our shaders (shaders/wavefield_slice.*) with a
// diverging colormap and auto or manual gain, over the material layout, and a colour bar of
// that map and gain in the slice's unit beside it (views/color_bar.*: the shader gets its map's
// stops from there). A GlView: its own
// native window, so its frames do not make Qt compose the whole main window through GL.
//
// The slice reaches its texture through a pixel-unpack buffer (PBO) in both paths: the host
// writes a host slice into it (glBufferSubData), or, with CUDA-OpenGL interop, the GPU copies a
// DeviceSliceStaging snapshot into it (the buffer registered with CUDA); the texture is then
// updated from the PBO. An interop failure falls back to the host path (interopFailed()).
#pragma once

#include <QOpenGLBuffer>
#include <QOpenGLExtraFunctions>
#include <QOpenGLShaderProgram>
#include <QOpenGLTextureBlitter>
#include <QOpenGLVertexArrayObject>
#include <memory>

#include "model/voxel_grid.hpp"
#include "views/color_bar.hpp"
#include "views/gl_view.hpp"
#include "wave/analytic_wavefronts.hpp"
#include "wave/probe_overlay.hpp"
#include "wave/slice_staging.hpp"
#include "wave/wave_session.hpp"

namespace voxwave {
class GlSliceBuffer;
}

namespace voxwave::ui {

class WavefieldView : public GlView, protected QOpenGLExtraFunctions {
    Q_OBJECT
public:
    explicit WavefieldView(QWidget* parent = nullptr);
    ~WavefieldView() override;

    // Values per node of the plane (width x height) and the element ids under it
    // ((width-1) x (height-1)); `signed_field` picks the diverging colormap.
    void setSlice(const SliceImage& slice, const std::vector<MaterialId>& element_ids, bool signed_field);
    // The same for a slice held on the GPU (width x height, no values on the host): copied into
    // the PBO by CUDA when the view next draws; the auto gain comes with it (reduced on the GPU).
    void setStagedSlice(std::shared_ptr<DeviceSliceStaging> staging, int width, int height,
                        const std::vector<MaterialId>& element_ids, bool signed_field);
    void clearSlice();
    double gain() const { return gain_; }
    const SliceImage& slice() const { return slice_; }
    bool autoGain() const { return auto_gain_; }
    // While above 0 the auto gain holds this value instead of following the frames (a replay is
    // drawn on the gain of the whole run); 0 lets it follow them again. A manual gain wins.
    void setFixedGain(double gain);
    double fixedGain() const { return fixed_gain_; }
    void setOverlayText(const QString& text);
    // A line drawn in the middle of the view while it shows no slice (what to do to get one);
    // empty: none.
    void setHint(const QString& text);
    const QString& hint() const { return hint_; }
    // What the slice's values are (the colour bar's title and unit); u_z unless told.
    void setQuantity(SliceQuantity q);
    SliceQuantity quantity() const { return quantity_; }
    // The colour bar beside the slice as last drawn (range -gain..gain, or 0..gain for a
    // magnitude; its strip and ticks in the view's coordinates), and where the slice was drawn.
    const ColorBar& colorBar() const { return bar_; }
    QRect sliceRect() const { return slice_rect_; }
    // The analytic wavefronts over the slice (wave/analytic_wavefronts.hpp), in the slice's node
    // coordinates, with the speeds the legend names (the first source's material); drawn while
    // showWavefronts is on: P solid, S dashed, Rayleigh marks where its front crosses a free face.
    void setWavefronts(SliceWavefronts fronts, SourceWaveSpeeds legend);
    void setShowWavefronts(bool on);
    bool showWavefronts() const { return show_wavefronts_; }
    // The curves as last drawn, in the view's logical pixels (tests): circles with their kind,
    // centre and radius, and the Rayleigh marks' points.
    struct DrawnCircle {
        WavefrontKind kind;
        QPointF centre;
        double radius;
    };
    const std::vector<DrawnCircle>& drawnCircles() const { return drawn_circles_; }
    const std::vector<QPointF>& drawnMarks() const { return drawn_marks_; }
    static QColor wavefrontColor(WavefrontKind kind);
    // The scene's probes over the slice (wave/probe_overlay.hpp): each face outline (solid where
    // the slice cuts it, dashed where it is a projection), the beam as an arrow (to a cross at a
    // focus) and the name; always drawn.
    void setProbes(std::vector<SliceProbe> probes);
    // The beams as last drawn, in the view's logical pixels (tests): one polyline per probe.
    const std::vector<QPolygonF>& drawnProbeBeams() const { return drawn_beams_; }
    int drawnProbeFaces() const { return drawn_probe_faces_; }
    // GL errors seen so far (each checked call adds its name when it failed); empty is healthy.
    const QStringList& glErrors() const { return gl_errors_; }
    // Whether this view's GL context renders on a CUDA device that can fill its PBO (known once
    // the view was first shown), and if not why.
    bool interopUsable() const { return interop_usable_; }
    const QString& interopStatus() const { return interop_status_; }
    // Slices drawn through the PBO: filled by the host, and copied by CUDA.
    int hostPboUploads() const { return host_pbo_uploads_; }
    int devicePboUploads() const { return device_pbo_uploads_; }
    // false: host slices go straight from client memory into the texture, as before the PBO
    // (kept as the reference the PBO path is tested against).
    void setPixelBufferUpload(bool on) { pbo_upload_ = on; }

public slots:
    void setAutoGain(bool on);
    void setManualGain(double gain);  // value drawn at full colour
    void setShowMaterials(bool on);

signals:
    void gainChanged(double gain);
    // The CUDA-OpenGL path failed (the message says how); the view takes host slices from now on.
    void interopFailed(const QString& message);

protected:
    void initializeGL() override;
    void paintGL() override;

private:
    void checkGl(const char* what);
    void uploadIfNeeded();
    void applyAutoGain(double level);
    void ensurePbo(std::size_t bytes);
    bool fillPboFromHost();
    bool fillPboFromDevice();
    void interopFailure(const QString& message);
    void drawOverlay();
    void drawHint();
    // Draws `image` (premultiplied RGBA, logical pixels at the image's device pixel ratio) through
    // `texture` with its top left at `top_left` (logical pixels).
    void blitImage(const QImage& image, GLuint texture, QPoint top_left);
    // A transparent image of `logical` size (logical pixels) at the view's device pixel ratio, in
    // the premultiplied format blitImage uploads: what each overlay is painted into.
    QImage overlayImage(QSize logical) const;
    // Whether the slice overlays (wavefronts, probes) can be drawn: the blitter is up and the
    // slice has at least 2 x 2 nodes to map onto the view.
    bool sliceOverlayReady() const;
    // Where the slice's node (a, b) lies in the view (logical pixels; b counts upwards).
    QPointF sliceToView(double a, double b) const;
    void drawColorBar();
    void drawWavefronts();
    void drawProbes();

    QOpenGLShaderProgram program_;
    QOpenGLVertexArrayObject vao_;
    QOpenGLBuffer quad_{QOpenGLBuffer::VertexBuffer};
    QOpenGLTextureBlitter blitter_;
    GLuint field_tex_ = 0, material_tex_ = 0, overlay_tex_ = 0, bar_tex_ = 0;
    GLuint pbo_ = 0;
    std::size_t pbo_bytes_ = 0;
    int tex_w_ = 0, tex_h_ = 0;
    bool pbo_upload_ = true;
    std::unique_ptr<GlSliceBuffer> interop_;  // pbo_ registered with CUDA
    std::shared_ptr<DeviceSliceStaging> staged_;
    std::vector<int> gl_devices_;  // CUDA devices of this view's GL context
    bool interop_usable_ = false;
    bool interop_failed_ = false;  // once failed, GPU slices are ignored (host ones follow)
    QString interop_status_;
    int host_pbo_uploads_ = 0, device_pbo_uploads_ = 0;
    float staged_max_ = 0;
    bool gl_ready_ = false;
    bool dirty_ = false;
    SliceImage slice_;
    std::vector<unsigned char> ids_;
    bool signed_ = true;
    bool show_materials_ = true;
    bool auto_gain_ = true;
    double gain_ = 1e-12;
    double fixed_gain_ = 0;
    QString overlay_;
    QString hint_;
    SliceQuantity quantity_ = SliceQuantity::Uz;
    ColorBar bar_;
    QRect bar_rect_, slice_rect_;
    QRectF slice_rectf_;  // slice_rect_ before rounding: node (a, b) maps into it exactly
    GLuint fronts_tex_ = 0;
    SliceWavefronts fronts_;
    SourceWaveSpeeds legend_;
    bool show_wavefronts_ = false;
    std::vector<DrawnCircle> drawn_circles_;
    std::vector<QPointF> drawn_marks_;
    GLuint probes_tex_ = 0;
    std::vector<SliceProbe> probes_;
    std::vector<QPolygonF> drawn_beams_;
    int drawn_probe_faces_ = 0;
    QStringList gl_errors_;
};

}  // namespace voxwave::ui
