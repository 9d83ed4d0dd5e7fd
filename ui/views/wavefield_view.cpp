#include "views/wavefield_view.hpp"

#include <QPainter>
#include <QVector3D>
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

#include "views/plot_axis.hpp"
#include "views/view_theme.hpp"
#include "wave/slice_gl_interop.hpp"

// The shaders live in a static library's resources, which the linker drops unless registered.
static void register_shader_resources() { Q_INIT_RESOURCE(shaders); }

namespace voxwave::ui {

namespace {
constexpr int kMaxStops = 8;  // the shader's `stops` array

// Draws with `under` (a dark pen wider than `over`) and then `over`, unfilled: a curve that reads
// on the light and the dark parts of the field alike.
void strokeOverDark(QPainter& p, const QPen& under, const QPen& over, const std::function<void()>& draw) {
    p.setBrush(Qt::NoBrush);
    for (const QPen& pen : {under, over}) {
        p.setPen(pen);
        draw();
    }
}
}  // namespace

WavefieldView::WavefieldView(QWidget* parent) : GlView(parent) {
    register_shader_resources();
    setMinimumSize(240, 180);
}

WavefieldView::~WavefieldView() {
    if (!gl_ready_) return;
    makeCurrent();
    interop_.reset();  // unregistered from CUDA before GL deletes the buffer
    glDeleteBuffers(1, &pbo_);
    glDeleteTextures(1, &field_tex_);
    glDeleteTextures(1, &material_tex_);
    glDeleteTextures(1, &overlay_tex_);
    glDeleteTextures(1, &bar_tex_);
    glDeleteTextures(1, &fronts_tex_);
    glDeleteTextures(1, &probes_tex_);
    blitter_.destroy();
    quad_.destroy();
    vao_.destroy();
    doneCurrent();
}

void WavefieldView::checkGl(const char* what) {
    for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError())
        gl_errors_ << QStringLiteral("%1: GL error 0x%2").arg(what).arg(e, 0, 16);
}

void WavefieldView::initializeGL() {
    initializeOpenGLFunctions();
    if (!program_.addShaderFromSourceFile(QOpenGLShader::Vertex, ":/shaders/wavefield_slice.vert") ||
        !program_.addShaderFromSourceFile(QOpenGLShader::Fragment, ":/shaders/wavefield_slice.frag") ||
        !program_.link()) {
        gl_errors_ << QStringLiteral("shader: ") + program_.log();
        return;
    }
    vao_.create();
    vao_.bind();
    const GLfloat corners[] = {0, 0, 1, 0, 0, 1, 1, 1};
    quad_.create();
    quad_.bind();
    quad_.allocate(corners, sizeof(corners));
    program_.bind();
    const int loc = program_.attributeLocation("corner");
    program_.enableAttributeArray(loc);
    program_.setAttributeBuffer(loc, GL_FLOAT, 0, 2);
    vao_.release();
    glGenTextures(1, &field_tex_);
    glGenTextures(1, &material_tex_);
    glGenTextures(1, &overlay_tex_);
    glGenTextures(1, &bar_tex_);
    glGenTextures(1, &fronts_tex_);
    glGenTextures(1, &probes_tex_);
    for (GLuint t : {field_tex_, material_tex_, overlay_tex_, bar_tex_, fronts_tex_, probes_tex_}) {
        glBindTexture(GL_TEXTURE_2D, t);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
    // Node values interpolate linearly.
    glBindTexture(GL_TEXTURE_2D, field_tex_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    // Material ids must not blend; the overlay's text is drawn 1:1.
    for (GLuint t : {material_tex_, overlay_tex_, bar_tex_, fronts_tex_, probes_tex_}) {
        glBindTexture(GL_TEXTURE_2D, t);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    if (!blitter_.create()) gl_errors_ << QStringLiteral("overlay: cannot create the texture blitter");
    // The slice's pixel-unpack buffer; its storage is made when the first slice's size is known.
    glGenBuffers(1, &pbo_);
    checkGl("initializeGL");
    // Whether CUDA can fill that buffer: only when this context renders on a CUDA device (not,
    // e.g., in Mesa's software GL under a virtual X server).
    std::string why;
    gl_devices_ = gl_interop_built() ? gl_interop_devices(&why) : std::vector<int>{};
    if (!gl_interop_built()) why = "this build has no CUDA-OpenGL interop";
    interop_usable_ = !gl_devices_.empty();
    interop_status_ = interop_usable_ ? QStringLiteral("CUDA-OpenGL interop") : QString::fromStdString(why);
    gl_ready_ = true;
    dirty_ = true;
}

void WavefieldView::setSlice(const SliceImage& slice, const std::vector<MaterialId>& ids, bool signed_field) {
    staged_.reset();
    slice_ = slice;
    ids_.assign(ids.begin(), ids.end());
    signed_ = signed_field;
    // The 99th percentile of |value|, not the peak: the field at the source point is far larger
    // than anywhere else and would leave the rest of the picture white.
    if (auto_gain_ && fixed_gain_ <= 0) applyAutoGain(abs_quantile({&slice_}, kColourScaleQuantile));
    dirty_ = true;
    update();
}

void WavefieldView::setStagedSlice(std::shared_ptr<DeviceSliceStaging> staging, int width, int height,
                                   const std::vector<MaterialId>& ids, bool signed_field) {
    if (interop_failed_) return;  // frames queued before the controller heard of the failure
    staged_ = std::move(staging);
    slice_ = SliceImage{width, height, {}};
    ids_.assign(ids.begin(), ids.end());
    signed_ = signed_field;
    dirty_ = true;
    update();
}

void WavefieldView::applyAutoGain(double level) {
    // Peak hold with a slow decay: the colours follow the wave without flickering frame to frame.
    gain_ = std::max(level, gain_ * 0.97);
    if (gain_ <= 0) gain_ = 1e-30;
    emit gainChanged(gain_);
}

void WavefieldView::clearSlice() {
    staged_.reset();
    slice_ = {};
    ids_.clear();
    if (auto_gain_) gain_ = 1e-30;
    dirty_ = true;
    update();
}

void WavefieldView::setOverlayText(const QString& text) {
    overlay_ = text;
    update();
}

void WavefieldView::setHint(const QString& text) {
    hint_ = text;
    update();
}

void WavefieldView::setQuantity(SliceQuantity q) {
    quantity_ = q;
    update();
}

void WavefieldView::setAutoGain(bool on) {
    auto_gain_ = on;
    if (on) gain_ = fixed_gain_ > 0 ? fixed_gain_ : std::max(1e-30, double(staged_ ? staged_max_ : slice_.max_abs()));
    update();
}

void WavefieldView::setFixedGain(double gain) {
    fixed_gain_ = std::max(0.0, gain);
    if (auto_gain_ && fixed_gain_ > 0) {
        gain_ = fixed_gain_;
        emit gainChanged(gain_);
    }
    update();
}

void WavefieldView::setManualGain(double gain) {
    auto_gain_ = false;
    gain_ = std::max(gain, 1e-30);
    update();
}

void WavefieldView::setShowMaterials(bool on) {
    show_materials_ = on;
    update();
}

// Grows the PBO (never shrinks it: a plane switched back and forth keeps one buffer). Its storage
// is re-specified, so a CUDA registration of the old one is dropped first.
void WavefieldView::ensurePbo(std::size_t bytes) {
    if (bytes <= pbo_bytes_) return;
    interop_.reset();
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_);
    glBufferData(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(bytes), nullptr, GL_STREAM_DRAW);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    checkGl("slice PBO storage");
    pbo_bytes_ = bytes;
}

bool WavefieldView::fillPboFromHost() {
    const std::size_t bytes = slice_.values.size() * sizeof(float);
    ensurePbo(bytes);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_);
    glBufferSubData(GL_PIXEL_UNPACK_BUFFER, 0, GLsizeiptr(bytes), slice_.values.data());
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    checkGl("slice PBO from the host");
    ++host_pbo_uploads_;
    return true;
}

// CUDA copies the latest snapshot into the PBO (registered once, again after it grew).
bool WavefieldView::fillPboFromDevice() {
    try {
        StagedSliceInfo info;
        if (!staged_->has_new(&info)) return false;
        if (std::find(gl_devices_.begin(), gl_devices_.end(), staged_->device()) == gl_devices_.end())
            throw std::runtime_error("the engine runs on CUDA device " + std::to_string(staged_->device()) +
                                     ", which does not render this view's OpenGL context");
        for (int attempt = 0; attempt < 2 && info.width > 0; ++attempt) {
            ensurePbo(std::size_t(info.width) * info.height * sizeof(float));
            if (!interop_) interop_ = std::make_unique<GlSliceBuffer>(pbo_, staged_->device());
            if (interop_->copy_from(*staged_, &info)) {
                // The snapshot drawn is the latest one, possibly newer than the frame that announced it.
                slice_.width = info.width;
                slice_.height = info.height;
                staged_max_ = info.max_abs;
                if (auto_gain_ && fixed_gain_ <= 0) applyAutoGain(info.level);
                ++device_pbo_uploads_;
                return true;
            }
        }
    } catch (const std::exception& e) {
        interopFailure(QString::fromUtf8(e.what()));
    }
    return false;
}

void WavefieldView::interopFailure(const QString& message) {
    interop_.reset();
    staged_.reset();
    interop_usable_ = false;
    interop_failed_ = true;
    interop_status_ = message;
    // Queued: this runs inside paintGL.
    QMetaObject::invokeMethod(
        this, [this, message] { emit interopFailed(message); }, Qt::QueuedConnection);
}

void WavefieldView::uploadIfNeeded() {
    if (!dirty_ || slice_.width < 2 || slice_.height < 2) return;
    dirty_ = false;
    bool filled = false;
    if (staged_) {
        filled = fillPboFromDevice();
    } else if (slice_.values.size() == std::size_t(slice_.width) * slice_.height) {
        if (pbo_upload_) {
            filled = fillPboFromHost();
        } else {
            glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
            glBindTexture(GL_TEXTURE_2D, field_tex_);
            glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, slice_.width, slice_.height, 0, GL_RED, GL_FLOAT,
                         slice_.values.data());
            checkGl("upload slice");
            tex_w_ = slice_.width;
            tex_h_ = slice_.height;
        }
    }
    if (filled) {
        // The one GL upload of both paths: texture <- PBO (the data pointer is an offset into it).
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glBindTexture(GL_TEXTURE_2D, field_tex_);
        if (slice_.width != tex_w_ || slice_.height != tex_h_)
            glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, slice_.width, slice_.height, 0, GL_RED, GL_FLOAT, nullptr);
        else
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, slice_.width, slice_.height, GL_RED, GL_FLOAT, nullptr);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        checkGl("slice texture from the PBO");
        tex_w_ = slice_.width;
        tex_h_ = slice_.height;
    }
    if (tex_w_ < 2 || tex_h_ < 2) return;
    const int ew = tex_w_ - 1, eh = tex_h_ - 1;
    if (ids_.size() != std::size_t(ew) * eh) ids_.assign(std::size_t(ew) * eh, 1);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glBindTexture(GL_TEXTURE_2D, material_tex_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, ew, eh, 0, GL_RED, GL_UNSIGNED_BYTE, ids_.data());
    checkGl("upload materials");
}

void WavefieldView::paintGL() {
    const QColor bg = view_colors().background;
    glClearColor(bg.redF(), bg.greenF(), bg.blueF(), 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (!gl_ready_) return;
    if (slice_.width < 2 || slice_.height < 2) {
        drawHint();
        return;
    }
    uploadIfNeeded();
    if (tex_w_ < 2 || tex_h_ < 2) return;  // a GPU slice not copied yet
    // The colour bar at the right (its width follows its labels); the slice, aspect ratio kept,
    // centred in the rest.
    const QFontMetrics fm(font());
    const ColorMap& map = signed_ ? diverging_color_map() : sequential_color_map();
    bar_.set(&map, signed_ ? -gain_ : 0.0, gain_, slice_quantity_symbol(quantity_), slice_quantity_unit(quantity_));
    const int bar_w = std::min(bar_.widthNeeded(fm), width() / 3);
    const int top = fm.height() + 8;  // under the overlay's text line
    bar_rect_ = QRect(width() - bar_w, top, bar_w, std::max(0, height() - top - 4));
    bar_.layout(bar_rect_, fm);
    const double avail = std::max(1, width() - bar_w);
    const double w = tex_w_ - 1, h = tex_h_ - 1;
    // Below the text line too: white text over a white (quiet) field could not be read.
    const double avail_h = std::max(1, height() - top);
    const double s = std::min(0.95 * avail / w, 0.95 * avail_h / h);
    const double hx = s * w / width(), hy = s * h / height();
    const double cx = -double(bar_w) / width();  // NDC centre of the space left of the bar
    const double cy = -double(top) / height();   // and under the text line
    slice_rectf_ = QRectF(QPointF((cx - hx + 1) * 0.5 * width(), (1 - cy - hy) * 0.5 * height()),
                          QPointF((cx + hx + 1) * 0.5 * width(), (1 - cy + hy) * 0.5 * height()));
    slice_rect_ = slice_rectf_.toAlignedRect();
    program_.bind();
    program_.setUniformValue("rect", QVector4D(cx - hx, cy - hy, cx + hx, cy + hy));
    // The colour map's stops, from its one definition (views/color_bar.cpp).
    QVector3D stops[kMaxStops];
    const int n = std::min(int(map.stops.size()), kMaxStops);
    for (int i = 0; i < n; ++i) stops[i] = QVector3D(map.stops[i][0], map.stops[i][1], map.stops[i][2]);
    program_.setUniformValueArray("stops", stops, kMaxStops);
    program_.setUniformValue("stop_count", n);
    program_.setUniformValue("nodes", QVector2D(tex_w_, tex_h_));
    program_.setUniformValue("gain", float(gain_));
    program_.setUniformValue("signed_field", signed_ ? 1 : 0);
    program_.setUniformValue("show_materials", show_materials_ ? 1 : 0);
    program_.setUniformValue("field", 0);
    program_.setUniformValue("materials", 1);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, field_tex_);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, material_tex_);
    glActiveTexture(GL_TEXTURE0);
    vao_.bind();
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    vao_.release();
    program_.release();
    checkGl("draw slice");
    drawWavefronts();
    drawProbes();
    drawOverlay();
    drawColorBar();
}

void WavefieldView::setWavefronts(SliceWavefronts fronts, SourceWaveSpeeds legend) {
    fronts_ = std::move(fronts);
    legend_ = legend;
    if (show_wavefronts_) update();
}

void WavefieldView::setShowWavefronts(bool on) {
    show_wavefronts_ = on;
    if (!on) {
        drawn_circles_.clear();
        drawn_marks_.clear();
    }
    update();
}

QColor WavefieldView::wavefrontColor(WavefrontKind kind) {
    switch (kind) {
        case WavefrontKind::P:
            return QColor(0, 200, 255);
        case WavefrontKind::S:
            return QColor(60, 230, 60);
        case WavefrontKind::Rayleigh:
            return QColor(255, 60, 255);
    }
    return Qt::white;
}

// The wavefronts and their legend, painted like the overlay's text: into an image of the view,
// blitted as a texture. Each curve is drawn over a dark, wider copy of itself, so it reads on the
// white middle of the diverging map and on the dark end of the sequential one alike.
void WavefieldView::drawWavefronts() {
    drawn_circles_.clear();
    drawn_marks_.clear();
    if (!show_wavefronts_ || !sliceOverlayReady()) return;
    const double sx = slice_rectf_.width() / (tex_w_ - 1);
    QImage img = overlayImage(size());
    {
        QPainter p(&img);
        p.setRenderHint(QPainter::Antialiasing);
        p.setFont(font());
        p.save();
        p.setClipRect(slice_rectf_);
        auto stroke = [&](WavefrontKind kind, const std::function<void()>& draw) {
            QPen under(QColor(0, 0, 0, 150), 4.5);
            QPen over(wavefrontColor(kind), 2.0);
            if (kind == WavefrontKind::S) {
                under.setStyle(Qt::DashLine);
                over.setStyle(Qt::DashLine);
                under.setDashPattern({4, 2});
                over.setDashPattern({9, 4.5});  // 18 px on, 9 px off in both pens
            }
            strokeOverDark(p, under, over, draw);
        };
        for (const WavefrontCircle& c : fronts_.circles) {
            const QPointF centre = sliceToView(c.a, c.b);
            // A node spacing is square on screen (the slice keeps its aspect ratio): one radius.
            const double r = c.radius * sx;
            stroke(c.kind, [&] { p.drawEllipse(centre, r, r); });
            drawn_circles_.push_back({c.kind, centre, r});
        }
        // Rayleigh marks: a short bar from the face into the body, a wavelength-independent size.
        const double mark = std::max(10.0, 0.04 * std::min(slice_rectf_.width(), slice_rectf_.height()));
        for (const WavefrontMark& m : fronts_.marks) {
            const QPointF on = sliceToView(m.a, m.b);
            const QPointF in = on + QPointF(m.na, -m.nb) * mark;
            QPen under(QColor(0, 0, 0, 150), 7), over(wavefrontColor(WavefrontKind::Rayleigh), 4);
            under.setCapStyle(Qt::FlatCap);
            over.setCapStyle(Qt::FlatCap);
            strokeOverDark(p, under, over, [&] { p.drawLine(on, in); });
            drawn_marks_.push_back(on);
        }
        p.restore();
        // The legend: a sample of each curve and its speed.
        const QFontMetrics fm(font());
        // Short labels where the full ones would reach the colour bar.
        const int line = fm.height() + 2, sample = 2 * fm.height();
        QStringList labels;
        int text_w = 0;
        for (const QString& r : {tr("Rayleigh  %1 m/s (free faces)"), tr("R  %1 m/s")}) {
            labels = {tr("P  %1 m/s").arg(legend_.vp, 0, 'f', 0), tr("S  %1 m/s").arg(legend_.vs, 0, 'f', 0),
                      r.arg(legend_.vr, 0, 'f', 0)};
            text_w = 0;
            for (const QString& l : labels) text_w = std::max(text_w, fm.horizontalAdvance(l));
            if (slice_rectf_.left() + sample + text_w + 28 <= bar_rect_.left()) break;
        }
        // Under the slice where the view has room for it there (it then hides none of the
        // field), else inside its lower left corner.
        const double box_h = 3 * line + 8;
        const bool below = height() - slice_rectf_.bottom() >= box_h + 4;
        const QRectF box(slice_rectf_.left() + (below ? 0 : 6),
                         below ? slice_rectf_.bottom() + 4 : slice_rectf_.bottom() - 6 - box_h, sample + text_w + 22,
                         box_h);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0, 0, 0, 170));
        p.drawRoundedRect(box, 4, 4);
        const WavefrontKind kinds[] = {WavefrontKind::P, WavefrontKind::S, WavefrontKind::Rayleigh};
        for (int i = 0; i < 3; ++i) {
            const double y = box.top() + 4 + i * line + line / 2.0;
            QPen pen(wavefrontColor(kinds[i]), kinds[i] == WavefrontKind::Rayleigh ? 4 : 2);
            if (kinds[i] == WavefrontKind::S) pen.setStyle(Qt::DashLine);
            p.setPen(pen);
            p.drawLine(QPointF(box.left() + 6, y), QPointF(box.left() + 6 + sample, y));
            p.setPen(Qt::white);
            p.drawText(QRectF(box.left() + 12 + sample, y - line / 2.0, text_w + 4, line), Qt::AlignVCenter, labels[i]);
        }
    }
    blitImage(img, fronts_tex_, QPoint(0, 0));
    checkGl("draw wavefronts");
}

void WavefieldView::setProbes(std::vector<SliceProbe> probes) {
    probes_ = std::move(probes);
    update();
}

// The probes, painted like the wavefronts: into an image of the view, blitted as a texture. The
// faces in yellow and the beams in white, each over a dark, wider copy of itself.
void WavefieldView::drawProbes() {
    drawn_beams_.clear();
    drawn_probe_faces_ = 0;
    if (probes_.empty() || !sliceOverlayReady()) return;
    auto at = [&](const std::array<double, 2>& q) { return sliceToView(q[0], q[1]); };
    QImage img = overlayImage(size());
    {
        QPainter p(&img);
        p.setRenderHint(QPainter::Antialiasing);
        p.setFont(font());
        const QColor face_colour(255, 205, 40), beam_colour(255, 255, 255);
        auto stroke = [&](const QColor& colour, double width, bool dashed, const std::function<void()>& draw) {
            QPen under(QColor(0, 0, 0, 160), width + 2.5), over(colour, width);
            if (dashed) {  // the patterns are in pen widths: the same lengths on screen
                over.setDashPattern({6, 3});
                under.setDashPattern({6 * width / under.widthF(), 3 * width / under.widthF()});
            }
            strokeOverDark(p, under, over, draw);
        };
        for (const SliceProbe& probe : probes_) {
            for (const auto& face : probe.faces) {
                QPolygonF poly;
                for (const auto& q : face) poly << at(q);
                stroke(face_colour, probe.cut ? 2.5 : 1.5, !probe.cut, [&] { p.drawPolygon(poly); });
                ++drawn_probe_faces_;
            }
            QPolygonF beam;
            for (const auto& q : probe.beam) beam << at(q);
            drawn_beams_.push_back(beam);
            if (beam.size() < 2) continue;
            const QPointF end = beam.back(), from = beam[beam.size() - 2];
            const QPointF d = end - from;
            const double len = std::hypot(d.x(), d.y());
            // A beam across the slice projects to (almost) a point: only the faces show.
            if (len > 4) {
                stroke(beam_colour, 2, false, [&] { p.drawPolyline(beam); });
                const QPointF u = d / len, n(-u.y(), u.x());
                const double head = std::min(14.0, 0.4 * len);
                if (probe.focused) {
                    const double r = 0.5 * head;
                    stroke(beam_colour, 2, false, [&] {
                        p.drawLine(end - QPointF(r, r), end + QPointF(r, r));
                        p.drawLine(end - QPointF(r, -r), end + QPointF(r, -r));
                    });
                } else {
                    const QPolygonF arrow{end, end - head * u + 0.45 * head * n, end - head * u - 0.45 * head * n};
                    stroke(beam_colour, 2, false, [&] { p.drawPolyline(QPolygonF(arrow) << end); });
                }
            }
            // The name beside the face, on the side away from the beam.
            if (!probe.faces.empty()) {
                QRectF box;
                for (const auto& face : probe.faces)
                    for (const auto& q : face) box |= QRectF(at(q), QSizeF(0.01, 0.01));
                const QString name = QString::fromStdString(probe.name);
                const QFontMetrics fm(font());
                const QPointF away = len > 4 ? -(d / len) : QPointF(0, -1);
                QPointF c = box.center() +
                            away * (0.5 * std::max(box.width(), box.height()) * std::abs(away.x()) + fm.height() + 2);
                const QRectF text(c.x() - fm.horizontalAdvance(name) / 2.0 - 3, c.y() - fm.height() / 2.0,
                                  fm.horizontalAdvance(name) + 6, fm.height());
                p.setPen(Qt::NoPen);
                p.setBrush(QColor(0, 0, 0, 150));
                p.drawRoundedRect(text, 3, 3);
                p.setPen(face_colour);
                p.drawText(text, Qt::AlignCenter, name);
            }
        }
    }
    blitImage(img, probes_tex_, QPoint(0, 0));
    checkGl("draw probes");
}

// The colour bar, painted like the overlay's text: into an image, blitted as a texture.
void WavefieldView::drawColorBar() {
    if (!blitter_.isCreated() || bar_rect_.width() < 1 || bar_rect_.height() < 1) return;
    QImage img = overlayImage(bar_rect_.size());
    {
        QPainter p(&img);
        p.setFont(font());
        p.translate(-bar_rect_.topLeft());
        bar_.paint(p);
    }
    blitImage(img, bar_tex_, bar_rect_.topLeft());
    checkGl("draw colour bar");
}

// The text line over the view, drawn by the raster QPainter into an image and blitted as a
// texture: QPainter's own GL engine drew each glyph upside down into this view's native window.
void WavefieldView::drawOverlay() {
    if (overlay_.isEmpty() || !blitter_.isCreated()) return;
    const QFontMetrics fm(font());
    const QSize logical(width(), fm.height() + 8);
    QImage text = overlayImage(logical);
    {
        QPainter p(&text);
        p.setFont(font());
        p.setPen(view_colors().text);
        const QRect r = QRect(QPoint(0, 0), logical).adjusted(8, 4, -8, -4);
        p.drawText(r, Qt::AlignTop | Qt::AlignLeft, overlay_);
        // The gain in the field's unit, shorter where the line is short (the colour bar shows the
        // range in any case), never over the text at the left.
        const QString mode = !auto_gain_ ? tr("manual") : fixed_gain_ > 0 ? tr("peak of the run") : tr("auto");
        const int room = r.width() - fm.horizontalAdvance(overlay_) - fm.horizontalAdvance(QStringLiteral("  "));
        for (const QString& g :
             {tr("gain %1 (%2)").arg(format_si(gain_, slice_quantity_unit(quantity_)), mode), tr("%1 gain").arg(mode)})
            if (fm.horizontalAdvance(g) <= room) {
                p.drawText(r, Qt::AlignTop | Qt::AlignRight, g);
                break;
            }
    }
    blitImage(text, overlay_tex_, QPoint(0, 0));
    checkGl("draw overlay");
}

// The hint over the empty view, centred, in the same raster-then-blit way as the overlay.
void WavefieldView::drawHint() {
    if (hint_.isEmpty() || !blitter_.isCreated()) return;
    QImage text = overlayImage(size());
    {
        QPainter p(&text);
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 1.3);
        p.setFont(f);
        p.setPen(view_colors().text);
        p.drawText(QRect(QPoint(0, 0), size()).adjusted(16, 16, -16, -16), Qt::AlignCenter | Qt::TextWordWrap, hint_);
    }
    blitImage(text, overlay_tex_, QPoint(0, 0));
    checkGl("draw hint");
}

QImage WavefieldView::overlayImage(QSize logical) const {
    const qreal dpr = devicePixelRatioF();
    QImage image(logical * dpr, QImage::Format_RGBA8888_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(Qt::transparent);
    return image;
}

bool WavefieldView::sliceOverlayReady() const { return blitter_.isCreated() && tex_w_ >= 2 && tex_h_ >= 2; }

QPointF WavefieldView::sliceToView(double a, double b) const {
    return QPointF(slice_rectf_.left() + a * slice_rectf_.width() / (tex_w_ - 1),
                   slice_rectf_.bottom() - b * slice_rectf_.height() / (tex_h_ - 1));
}

void WavefieldView::blitImage(const QImage& image, GLuint texture, QPoint top_left) {
    const qreal dpr = devicePixelRatioF();
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, image.width(), image.height(), 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 image.constBits());
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);  // premultiplied alpha
    const QSize viewport(int(width() * dpr), int(height() * dpr));
    blitter_.bind();
    blitter_.blit(texture,
                  QOpenGLTextureBlitter::targetTransform(QRectF(QPointF(top_left) * dpr, QSizeF(image.size())),
                                                         QRect(QPoint(0, 0), viewport)),
                  QOpenGLTextureBlitter::OriginTopLeft);
    blitter_.release();
    glDisable(GL_BLEND);
}

}  // namespace voxwave::ui
