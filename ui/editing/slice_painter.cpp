#include "editing/slice_painter.hpp"

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "boundary/absorbing_layer_boxes.hpp"
#include "core/errors.hpp"
#include "document/edit_commands.hpp"
#include "views/probe_drawing.hpp"
#include "views/view_theme.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::ui {

namespace {

// The layers' colours: PML blue, sponge orange (the sponge also hatched, so the two differ
// without colour too).
QColor layer_color(AbsorbingType t) {
    return t == AbsorbingType::Pml ? QColor(70, 170, 255, 80) : QColor(255, 150, 40, 80);
}

QString layer_name(AbsorbingType t) { return t == AbsorbingType::Pml ? QObject::tr("PML") : QObject::tr("sponge"); }

QColor material_color(const Scene& s, MaterialId id) {
    if (id == kVoidId || id > s.materials.size()) return QColor(40, 40, 46);
    return QColor(QString::fromStdString(s.materials[id - 1].color));
}

}  // namespace

SlicePainter::SlicePainter(SceneDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    setMouseTracking(true);
    setMinimumSize(240, 180);
    setFocusPolicy(Qt::StrongFocus);
    connect(doc_, &SceneDocument::modelChanged, this, [this] {
        const VoxelGrid& g = doc_->model();
        if (g.spacing != placed_spacing_ || g.n != placed_n_) {
            // Re-voxelised (a new spacing, or its undo): same physical slice, and the view
            // refitted, since the old zoom was in pixels per cell of the old grid.
            showSliceAtFocus();
            return;
        }
        rebuildImage();
        update();
    });
    connect(doc_, &SceneDocument::sceneChanged, this, [this] {
        moving_.reset();  // a drag in progress may point at a source or receiver that went
        rebuildImage();
        update();
    });
    connect(doc_, &SceneDocument::documentReset, this, [this] {
        moving_.reset();
        // Start on the plane of the first source (where the wave is), else in the middle.
        const VoxelGrid& g = doc_->model();
        for (int a = 0; a < 3; ++a) focus_[a] = g.origin[a] + 0.5 * g.n[a] * g.spacing;
        if (!doc_->scene().sources.empty()) focus_ = doc_->scene().sources.front().position;
        showSliceAtFocus();
    });
    rebuildImage();
}

int SlicePainter::nodePlaneCount() const { return slice_element_extent(doc_->model(), plane_)[2] + 1; }

SliceRef SlicePainter::sliceRef() const {
    const int layers = slice_element_extent(doc_->model(), plane_)[2];
    return {plane_, std::clamp(node_plane_, 0, std::max(0, layers - 1))};
}

void SlicePainter::showSliceAtFocus() {
    const VoxelGrid& g = doc_->model();
    node_plane_ = std::clamp(nearest_node(g, focus_)[std::size_t(plane_axes(plane_)[2])], 0, nodePlaneCount() - 1);
    placed_spacing_ = g.spacing;
    placed_n_ = g.n;
    rebuildImage();
    fitted_ = false;  // fitted now, or at the first paint if the widget has no size yet
    fitToWindow();
    emit sliceChanged();
}

void SlicePainter::setPlane(SlicePlane plane) {
    if (plane == plane_) return;
    plane_ = plane;
    showSliceAtFocus();
}

void SlicePainter::setNodePlane(int index) {
    index = std::clamp(index, 0, nodePlaneCount() - 1);
    if (index == node_plane_) return;
    node_plane_ = index;
    const VoxelGrid& g = doc_->model();
    const int normal = plane_axes(plane_)[2];
    focus_[std::size_t(normal)] = g.origin[std::size_t(normal)] + index * g.spacing;
    rebuildImage();
    update();
    emit sliceChanged();
}

void SlicePainter::rebuildImage() {
    const VoxelGrid& g = doc_->model();
    const auto e = slice_element_extent(g, plane_);
    if (e[0] <= 0 || e[1] <= 0) {
        image_ = QImage();
        return;
    }
    const SliceRef s = sliceRef();
    image_ = QImage(e[0], e[1], QImage::Format_RGB32);
    std::array<QRgb, 256> lut{};
    for (int id = 0; id < 256; ++id) lut[id] = material_color(doc_->scene(), MaterialId(id)).rgb();
    for (int b = 0; b < e[1]; ++b) {
        auto* line = reinterpret_cast<QRgb*>(image_.scanLine(e[1] - 1 - b));  // b (z or y) points up
        for (int a = 0; a < e[0]; ++a) line[a] = lut[g.ids[slice_element_index(g, s, a, b)]];
    }
}

void SlicePainter::fitToWindow() {
    if (image_.isNull() || width() <= 0 || height() <= 0) return;
    // A border of one text line plus the marker around the slice: names of markers on its edges
    // are drawn outside it and would be cut where the view is short (a 768 px screen).
    const double border = fontMetrics().height() + 8;
    scale_ = std::min(std::max(1.0, width() - 2 * border) / image_.width(),
                      std::max(1.0, height() - 2 * border) / image_.height());
    offset_ = QPointF((width() - scale_ * image_.width()) / 2, (height() - scale_ * image_.height()) / 2);
    fitted_ = true;
    update();
}

void SlicePainter::resizeEvent(QResizeEvent*) { fitToWindow(); }

QPoint SlicePainter::cellAt(QPointF px) const {
    const int a = int(std::floor((px.x() - offset_.x()) / scale_));
    const int b = image_.height() - 1 - int(std::floor((px.y() - offset_.y()) / scale_));
    return {a, b};
}

QPointF SlicePainter::pixelOfCellCentre(QPoint c) const {
    return {offset_.x() + (c.x() + 0.5) * scale_, offset_.y() + (image_.height() - 1 - c.y() + 0.5) * scale_};
}

Vec3 SlicePainter::physicalAt(QPointF px) const {
    const VoxelGrid& g = doc_->model();
    const auto ax = plane_axes(plane_);
    const auto e = slice_element_extent(g, plane_);
    // Continuous cell coordinates, rounded to the nearest node and kept inside the grid.
    const double ca = (px.x() - offset_.x()) / scale_;
    const double cb = image_.height() - (px.y() - offset_.y()) / scale_;
    const int na = std::clamp(int(std::lround(ca)), 0, e[0]);
    const int nb = std::clamp(int(std::lround(cb)), 0, e[1]);
    Vec3 p{};
    p[ax[0]] = g.origin[ax[0]] + na * g.spacing;
    p[ax[1]] = g.origin[ax[1]] + nb * g.spacing;
    p[ax[2]] = g.origin[ax[2]] + node_plane_ * g.spacing;
    return p;
}

QPointF SlicePainter::pixelOf(const Vec3& p) const {
    const VoxelGrid& g = doc_->model();
    const auto ax = plane_axes(plane_);
    const double ca = (p[ax[0]] - g.origin[ax[0]]) / g.spacing;
    const double cb = (p[ax[1]] - g.origin[ax[1]]) / g.spacing;
    return {offset_.x() + ca * scale_, offset_.y() + (image_.height() - cb) * scale_};
}

QRectF SlicePainter::sliceRect() const { return {offset_, QSizeF(scale_ * image_.width(), scale_ * image_.height())}; }

namespace {
bool inside_model_box(const VoxelGrid& g, const Vec3& p) {
    for (int a = 0; a < 3; ++a) {
        const double tol = 1e-9 * g.spacing;
        if (p[a] < g.origin[a] - tol || p[a] > g.origin[a] + g.n[a] * g.spacing + tol) return false;
    }
    return true;
}
}  // namespace

void SlicePainter::setResultReceivers(const std::vector<std::string>& names, const std::vector<Vec3>& positions) {
    result_receivers_.clear();
    for (std::size_t i = 0; i < std::min(names.size(), positions.size()); ++i)
        result_receivers_.emplace_back(names[i], positions[i]);
    update();
}

void SlicePainter::setHighlightedReceiver(const QString& name) {
    if (name == highlighted_) return;
    highlighted_ = name;
    update();
}

int SlicePainter::resultReceiversDrawn() const {
    return int(std::count_if(result_receivers_.begin(), result_receivers_.end(),
                             [this](const auto& r) { return inside_model_box(doc_->model(), r.second); }));
}

MaterialId SlicePainter::paintValue() const {
    if (tool_ == SliceTool::Eraser) return MaterialId(doc_->materialId(doc_->scene().background));
    return material_;
}

void SlicePainter::applyStroke(const std::vector<std::size_t>& cells, const QString& what) {
    auto* cmd = new PaintVoxelsCommand(doc_, cells, paintValue(), what);
    if (cmd->empty()) {
        delete cmd;
        return;
    }
    doc_->undoStack()->push(cmd);
}

std::optional<std::pair<int, int>> SlicePainter::pickPoint(QPointF px) const {
    const double radius = 8;
    std::optional<std::pair<int, int>> best;
    double best_d = radius;
    const auto consider = [&](const Vec3& p, int kind, int i) {
        const double d = std::hypot(pixelOf(p).x() - px.x(), pixelOf(p).y() - px.y());
        if (d <= best_d) {
            best_d = d;
            best = std::make_pair(kind, i);
        }
    };
    const auto& s = doc_->scene();
    for (std::size_t i = 0; i < s.sources.size(); ++i) consider(s.sources[i].position, 0, int(i));
    for (std::size_t i = 0; i < s.receivers.size(); ++i) consider(s.receivers[i].position, 1, int(i));
    for (std::size_t i = 0; i < s.probes.size(); ++i) consider(probe_drawing(s.probes[i]).face_center, 2, int(i));
    return best;
}

Vec3 SlicePainter::dragTarget(QPointF px) const {
    const auto& s = doc_->scene();
    const auto [kind, i] = *moving_;
    if (kind == 2) {
        const ProbeSpec& probe = s.probes[std::size_t(i)];
        const Vec3 face = probe_drawing(probe).face_center;
        Vec3 to = physicalAt(px);
        const int normal = plane_axes(plane_)[2];
        to[std::size_t(normal)] = face[std::size_t(normal)];
        for (int a = 0; a < 3; ++a)
            if (probe.normal[std::size_t(a)] != 0) to[std::size_t(a)] = probe.center[std::size_t(a)];
        return to;
    }
    const Vec3 from = kind == 0 ? s.sources[std::size_t(i)].position : s.receivers[std::size_t(i)].position;
    Vec3 to = physicalAt(px);
    const int normal = plane_axes(plane_)[2];
    to[std::size_t(normal)] = from[std::size_t(normal)];
    return to;
}

void SlicePainter::mousePressEvent(QMouseEvent* ev) {
    if (ev->button() == Qt::RightButton || ev->button() == Qt::MiddleButton) {
        pan_from_ = ev->position();
        return;
    }
    if (ev->button() != Qt::LeftButton) return;
    const QPoint c = cellAt(ev->position());
    const SliceRef s = sliceRef();
    const VoxelGrid& g = doc_->model();
    switch (tool_) {
        case SliceTool::Brush:
        case SliceTool::Eraser:
            drag_start_cell_ = c;
            drag_cell_ = c;
            stroke_ = brush_cells(g, s, c, brush_size_);
            break;
        case SliceTool::Rectangle:
        case SliceTool::Ellipse:
        case SliceTool::Line:
            drag_start_cell_ = c;
            drag_cell_ = c;
            break;
        case SliceTool::Fill:
            applyStroke(fill_cells(g, s, c), tr("Fill"));
            break;
        case SliceTool::PlaceSource:
            emit placeSourceRequested(physicalAt(ev->position()));
            break;
        case SliceTool::PlaceReceiver:
            emit placeReceiverRequested(physicalAt(ev->position()));
            break;
        case SliceTool::Move:
            moving_ = pickPoint(ev->position());
            moving_to_ = ev->position();
            break;
    }
    update();
}

void SlicePainter::mouseMoveEvent(QMouseEvent* ev) {
    if (pan_from_) {
        offset_ += ev->position() - *pan_from_;
        pan_from_ = ev->position();
        update();
        return;
    }
    const QPoint c = cellAt(ev->position());
    const Vec3 p = physicalAt(ev->position());
    const auto e = slice_element_extent(doc_->model(), plane_);
    if (c.x() >= 0 && c.y() >= 0 && c.x() < e[0] && c.y() < e[1]) {
        const MaterialId id = doc_->model().ids[slice_element_index(doc_->model(), sliceRef(), c.x(), c.y())];
        const QString name =
            id == kVoidId ? QStringLiteral("void") : QString::fromStdString(doc_->scene().materials[id - 1].name);
        emit hoverInfo(QStringLiteral("(%1, %2, %3) mm  %4")
                           .arg(p[0] * 1e3, 0, 'f', 1)
                           .arg(p[1] * 1e3, 0, 'f', 1)
                           .arg(p[2] * 1e3, 0, 'f', 1)
                           .arg(name));
    }
    if (moving_) {
        // The marker follows the cursor; the document changes once, on release (one undo step).
        moving_to_ = ev->position();
        update();
        return;
    }
    if (!drag_start_cell_ || !(ev->buttons() & Qt::LeftButton)) return;
    if (tool_ == SliceTool::Brush || tool_ == SliceTool::Eraser) {
        const auto seg = line_cells(doc_->model(), sliceRef(), drag_cell_, c, brush_size_);
        stroke_.insert(stroke_.end(), seg.begin(), seg.end());
    }
    drag_cell_ = c;
    update();
}

void SlicePainter::mouseReleaseEvent(QMouseEvent* ev) {
    if (pan_from_ && (ev->button() == Qt::RightButton || ev->button() == Qt::MiddleButton)) {
        pan_from_.reset();
        return;
    }
    if (ev->button() != Qt::LeftButton) return;
    if (moving_) {
        const Vec3 p = dragTarget(ev->position());
        const auto [kind, i] = *moving_;
        moving_.reset();
        update();
        const auto& scene = doc_->scene();
        if (kind == 2) {
            auto probes = scene.probes;
            ProbeSpec& moved = probes[std::size_t(i)];
            if (p == moved.center) return;
            moved.center = p;
            const QString err =
                push_probes_edit(doc_, probes, scene.scan, tr("Move probe %1").arg(QString::fromStdString(moved.name)));
            if (!err.isEmpty()) emit probeMoveRefused(err);
            return;
        }
        if (p == (kind == 0 ? scene.sources[std::size_t(i)].position : scene.receivers[std::size_t(i)].position))
            return;  // a click, or a drag back to where it was: nothing to undo
        if (kind == 0) {
            auto v = doc_->scene().sources;
            v[i].position = p;
            doc_->undoStack()->push(new SetSourcesCommand(doc_, v, tr("Move source %1").arg(i + 1)));
        } else {
            auto v = doc_->scene().receivers;
            v[i].position = p;
            doc_->undoStack()->push(new SetReceiversCommand(doc_, v, tr("Move receiver %1").arg(i + 1)));
        }
        return;
    }
    if (!drag_start_cell_) return;
    const QPoint a = *drag_start_cell_, b = cellAt(ev->position());
    drag_start_cell_.reset();
    const VoxelGrid& g = doc_->model();
    const SliceRef s = sliceRef();
    switch (tool_) {
        case SliceTool::Brush:
            applyStroke(stroke_, tr("Brush"));
            break;
        case SliceTool::Eraser:
            applyStroke(stroke_, tr("Erase"));
            break;
        case SliceTool::Rectangle:
            applyStroke(rectangle_cells(g, s, a, b), tr("Rectangle"));
            break;
        case SliceTool::Ellipse:
            applyStroke(ellipse_cells(g, s, a, b), tr("Ellipse"));
            break;
        case SliceTool::Line:
            applyStroke(line_cells(g, s, a, b, brush_size_), tr("Line"));
            break;
        default:
            break;
    }
    stroke_.clear();
    update();
}

std::vector<SlicePainter::LayerBand> SlicePainter::layerBands() const {
    std::vector<LayerBand> out;
    const VoxelGrid& g = doc_->model();
    if (image_.isNull()) return out;
    BoundaryConditions bc;
    try {
        bc = boundary_conditions(doc_->scene().boundary);
    } catch (const InputError&) {
        return out;  // the document's scene is validated; nothing to draw for one that is not
    }
    const auto ax = plane_axes(plane_);
    const double centre = g.origin[ax[2]] + (sliceRef().layer + 0.5) * g.spacing;  // the painted element layer
    for (const AbsorbingLayerBox& box : absorbing_layer_boxes(bc, g)) {
        if (centre < box.lo[ax[2]] || centre > box.hi[ax[2]]) continue;
        const auto cells = [&](int axis, const std::array<double, 3>& p) {
            return (p[std::size_t(axis)] - g.origin[std::size_t(axis)]) / g.spacing;
        };
        const double a0 = cells(ax[0], box.lo), a1 = cells(ax[0], box.hi);
        const double b0 = cells(ax[1], box.lo), b1 = cells(ax[1], box.hi);
        out.push_back({box.face, box.type, QRectF(QPointF(a0, b0), QPointF(a1, b1))});
    }
    return out;
}

bool SlicePainter::event(QEvent* ev) {
    if (ev->type() != QEvent::ToolTip) return QWidget::event(ev);
    const QPoint at = static_cast<QHelpEvent*>(ev)->pos();
    const double a = (at.x() - offset_.x()) / scale_, b = image_.height() - (at.y() - offset_.y()) / scale_;
    QStringList lines;
    const double ds = doc_->model().spacing;
    for (const LayerBand& band : layerBands())
        if (band.cells.contains(QPointF(a, b)))
            lines << tr("Face %1: absorbing %2 layer, %3 mm = %4 cells")
                         .arg(QString::fromLatin1(kBoundaryFaceNames[std::size_t(band.face)]), layer_name(band.type))
                         .arg(doc_->scene().boundary.absorbing.thickness * 1e3, 0, 'g', 6)
                         .arg(absorbing_layer_cells(doc_->scene().boundary.absorbing.thickness, ds), 0, 'g', 4);
    if (lines.isEmpty()) return QWidget::event(ev);  // the widget's own tooltip, if any
    QToolTip::showText(static_cast<QHelpEvent*>(ev)->globalPos(), lines.join('\n'), this);
    return true;
}

void SlicePainter::wheelEvent(QWheelEvent* ev) {
    const double factor = std::pow(1.0015, ev->angleDelta().y());
    const QPointF at = ev->position();
    offset_ = at - (at - offset_) * factor;  // zoom about the cursor
    scale_ *= factor;
    update();
}

void SlicePainter::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), view_colors().background);
    if (image_.isNull()) return;
    if (!fitted_) fitToWindow();
    const QRectF target(offset_, QSizeF(scale_ * image_.width(), scale_ * image_.height()));
    p.drawImage(target, image_);
    // Preview of the stroke or shape in progress, in the paint colour, half transparent.
    std::vector<std::size_t> preview;
    const VoxelGrid& g = doc_->model();
    const SliceRef s = sliceRef();
    if (drag_start_cell_) {
        if (tool_ == SliceTool::Brush || tool_ == SliceTool::Eraser) preview = stroke_;
        if (tool_ == SliceTool::Rectangle) preview = rectangle_cells(g, s, *drag_start_cell_, drag_cell_);
        if (tool_ == SliceTool::Ellipse) preview = ellipse_cells(g, s, *drag_start_cell_, drag_cell_);
        if (tool_ == SliceTool::Line) preview = line_cells(g, s, *drag_start_cell_, drag_cell_, brush_size_);
    }
    if (!preview.empty()) {
        QColor c = material_color(doc_->scene(), paintValue());
        c.setAlpha(170);
        const auto e = slice_element_extent(g, plane_);
        const auto ax = plane_axes(plane_);
        for (std::size_t idx : preview) {
            std::array<int, 3> ijk{int(idx % g.n[0]), int((idx / g.n[0]) % g.n[1]),
                                   int(idx / (std::size_t(g.n[0]) * g.n[1]))};
            const QPoint cell(ijk[ax[0]], ijk[ax[1]]);
            if (cell.x() < e[0] && cell.y() < e[1])
                p.fillRect(QRectF(pixelOfCellCentre(cell) - QPointF(scale_ / 2, scale_ / 2), QSizeF(scale_, scale_)),
                           c);
        }
    }
    // The absorbing layers: translucent bands (where two faces' layers meet, the corner is darker).
    const std::vector<LayerBand> bands = layerBands();
    bool shown_type[3] = {false, false, false};
    for (const LayerBand& band : bands) {
        const QRectF r(QPointF(offset_.x() + band.cells.left() * scale_,
                               offset_.y() + (image_.height() - band.cells.bottom()) * scale_),
                       QSizeF(band.cells.width() * scale_, band.cells.height() * scale_));
        p.fillRect(r, layer_color(band.type));
        if (band.type == AbsorbingType::Sponge) p.fillRect(r, QBrush(QColor(255, 150, 40, 110), Qt::BDiagPattern));
        shown_type[int(band.type)] = true;
    }
    p.setPen(QPen(QColor(200, 200, 200, 120), 1));
    p.drawRect(target);
    // The legend of the bands, top left.
    {
        double y = 4;
        for (AbsorbingType t : {AbsorbingType::Pml, AbsorbingType::Sponge}) {
            if (!shown_type[int(t)]) continue;
            const QString text = tr("%1 layer").arg(layer_name(t));
            const QRectF swatch(6, y + 2, 12, 12);
            QColor opaque = layer_color(t);
            opaque.setAlpha(255);
            p.fillRect(swatch, opaque);
            if (t == AbsorbingType::Sponge) p.fillRect(swatch, QBrush(QColor(255, 150, 40, 200), Qt::BDiagPattern));
            p.setPen(view_colors().text);
            p.drawText(QPointF(22, y + 13), text);
            y += 16;
        }
    }
    // Sources (red triangles) and receivers (green squares); dimmed when off this plane.
    p.setRenderHint(QPainter::Antialiasing);
    const auto ax = plane_axes(plane_);
    const double here = g.origin[ax[2]] + node_plane_ * g.spacing;
    // Labels that would overlap one drawn before are left out (a dense line of receivers);
    // the highlighted receiver's is drawn last, always, over a ring around its marker.
    std::vector<QRectF> label_rects;
    struct Highlight {
        QPointF marker, label;
    };
    std::optional<Highlight> highlight;
    const QFontMetricsF fm(font());
    const auto draw_label = [&](const QPointF& marker, const QPointF& at, const std::string& text, bool is_receiver) {
        const QString name = QString::fromStdString(text);
        if (is_receiver && !highlighted_.isEmpty() && name == highlighted_) {
            highlight = Highlight{marker, at};
            return;
        }
        const QRectF r = fm.boundingRect(name).translated(at);
        if (std::any_of(label_rects.begin(), label_rects.end(), [&](const QRectF& o) { return o.intersects(r); }))
            return;
        label_rects.push_back(r);
        p.drawText(at, name);
    };
    const auto draw_marker = [&](const Vec3& pos, bool source, const std::string& name) {
        const bool on_plane = std::abs(pos[ax[2]] - here) <= 0.5 * g.spacing;
        const QPointF c = pixelOf(pos);
        QColor col = source ? QColor(235, 70, 60) : QColor(70, 210, 110);
        if (!on_plane) col.setAlpha(90);
        p.setPen(QPen(Qt::black, 1));
        p.setBrush(col);
        if (source) {
            QPainterPath tri;
            tri.moveTo(c + QPointF(0, -7));
            tri.lineTo(c + QPointF(6, 5));
            tri.lineTo(c + QPointF(-6, 5));
            tri.closeSubpath();
            p.drawPath(tri);
        } else {
            p.drawRect(QRectF(c - QPointF(4, 4), QSizeF(8, 8)));
        }
        p.setPen(on_plane ? Qt::white : QColor(255, 255, 255, 90));
        draw_label(c, c + QPointF(8, -6), name, !source);
    };
    // The marker being dragged is drawn where it would land.
    const auto shown = [&](const Vec3& pos, int kind, std::size_t i) {
        return moving_ && moving_->first == kind && std::size_t(moving_->second) == i ? dragTarget(moving_to_) : pos;
    };
    const auto& sources = doc_->scene().sources;
    const auto& receivers = doc_->scene().receivers;
    for (std::size_t i = 0; i < sources.size(); ++i)
        draw_marker(shown(sources[i].position, 0, i), true, sources[i].name);
    for (std::size_t i = 0; i < receivers.size(); ++i)
        draw_marker(shown(receivers[i].position, 1, i), false, receivers[i].name);
    drawProbes(p);
    // A result file's receivers: cyan rings (its model may differ from the one shown).
    for (const auto& [name, pos] : result_receivers_) {
        if (!inside_model_box(g, pos)) continue;
        const bool on_plane = std::abs(pos[ax[2]] - here) <= 0.5 * g.spacing;
        QColor col(80, 220, 240);
        if (!on_plane) col.setAlpha(90);
        const QPointF c = pixelOf(pos);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(col, 2));
        p.drawEllipse(c, 7, 7);
        p.setPen(col);
        draw_label(c, c + QPointF(9, 12), name, true);
    }
    if (highlight) {
        const QColor gold(255, 200, 40);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(gold, 2));
        p.drawEllipse(highlight->marker, 11, 11);
        const QRectF r = fm.boundingRect(highlighted_).translated(highlight->label);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0, 0, 0, 170));
        p.drawRect(r.adjusted(-2, -1, 2, 1));
        p.setPen(gold);
        p.drawText(highlight->label, highlighted_);
    }
}

void SlicePainter::drawProbes(QPainter& p) {
    // Each probe's face (projected onto the slice: edge-on it is a line), its elements and the
    // beam's direction; the one being dragged where it would land.
    const auto& probes = doc_->scene().probes;
    const VoxelGrid& g = doc_->model();
    const double arrow = 0.15 * std::max({g.extent()[0], g.extent()[1], g.extent()[2]});
    for (std::size_t i = 0; i < probes.size(); ++i) {
        ProbeSpec probe = probes[i];
        if (moving_ && moving_->first == 2 && std::size_t(moving_->second) == i) probe.center = dragTarget(moving_to_);
        const ProbeDrawing d = probe_drawing(probe);
        const QColor col(255, 150, 40);
        p.setBrush(QColor(255, 150, 40, 90));
        p.setPen(QPen(col.darker(130), 1));
        for (const auto& e : d.elements) {
            if (!probe.is_array() && probe.shape != "rect") break;  // a disk: its outline below
            QPolygonF poly;
            for (const Vec3& c : e) poly << pixelOf(c);
            p.drawPolygon(poly);
        }
        QPolygonF outline;
        for (const Vec3& c : d.outline) outline << pixelOf(c);
        p.setBrush(probe.is_array() || probe.shape == "rect" ? QBrush(Qt::NoBrush) : QBrush(QColor(255, 150, 40, 90)));
        p.setPen(QPen(col, 2));
        p.drawPolygon(outline);
        const QPointF c = pixelOf(d.face_center);
        Vec3 tip = d.face_center;
        for (int a = 0; a < 3; ++a) tip[std::size_t(a)] += arrow * d.beam[std::size_t(a)];
        const QPointF t = pixelOf(tip);
        const QPointF v = t - c;
        const double len = std::hypot(v.x(), v.y());
        if (len > 4) {
            p.setPen(QPen(col, 2));
            p.drawLine(c, t);
            const QPointF back = -v / len * 9, side(-back.y() * 0.5, back.x() * 0.5);
            p.setBrush(col);
            p.drawPolygon(QPolygonF({t, t + back + side, t + back - side}));
        }
        p.setPen(col);
        p.drawText(c + QPointF(8, -8), QString::fromStdString(probe.name));
    }
}

}  // namespace voxwave::ui
