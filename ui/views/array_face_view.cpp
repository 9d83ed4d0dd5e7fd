#include "views/array_face_view.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>

#include "views/probe_drawing.hpp"
#include "views/view_theme.hpp"

namespace voxwave::ui {

namespace {

constexpr int kMarginX = 4, kMarginY = 3;
constexpr double kMostPixelsPerElement = 40;
const QColor kElement(255, 150, 40);
const QColor kPicked(255, 210, 60);

double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

}  // namespace

ArrayFaceView::ArrayFaceView(QWidget* parent) : QWidget(parent) {
    setObjectName("scan-array-face");
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setFixedHeight(sizeHint().height());
    setToolTip(
        tr("The array's face, its elements along the array axis (element 1 on the left): click an element for "
           "its own A-scan, click it again (or beside the elements) for the delay-and-sum"));
}

void ArrayFaceView::setProbe(const ProbeSpec& probe) {
    const ProbeDrawing d = probe_drawing(probe);
    elements_.clear();
    array_ = probe.is_array();
    // In the face's own axes, so that this view and the slice editor agree on which end is element 1.
    const Vec3& u = d.along;
    const Vec3& v = d.across;
    u_lo_ = v_lo_ = 1e300;
    u_hi_ = v_hi_ = -1e300;
    for (const auto& corners : d.elements) {
        Extent e{1e300, -1e300, 1e300, -1e300};
        for (const Vec3& c : corners) {
            const Vec3 r{c[0] - d.face_center[0], c[1] - d.face_center[1], c[2] - d.face_center[2]};
            e.u0 = std::min(e.u0, dot(r, u));
            e.u1 = std::max(e.u1, dot(r, u));
            e.v0 = std::min(e.v0, dot(r, v));
            e.v1 = std::max(e.v1, dot(r, v));
        }
        u_lo_ = std::min(u_lo_, e.u0);
        u_hi_ = std::max(u_hi_, e.u1);
        v_lo_ = std::min(v_lo_, e.v0);
        v_hi_ = std::max(v_hi_, e.v1);
        elements_.push_back(e);
    }
    if (elements_.empty()) u_lo_ = u_hi_ = v_lo_ = v_hi_ = 0;
    if (selected_ >= elementCount() || !array_) selected_ = -1;
    update();
}

void ArrayFaceView::setSelected(int element) {
    const int s = array_ && element >= 0 && element < elementCount() ? element : -1;
    if (s == selected_) return;
    selected_ = s;
    update();
}

QRectF ArrayFaceView::faceRect() const {
    const QRectF room = QRectF(rect()).adjusted(kMarginX, kMarginY, -kMarginX, -kMarginY);
    const double along = u_hi_ - u_lo_, across = v_hi_ - v_lo_;
    if (!(along > 0) || room.width() <= 0 || room.height() <= 0) return {};
    // The aperture fills the width (a few elements no wider than a button each), from the left;
    // the elevation keeps that scale unless it would not fit.
    const double w = std::min(room.width(), kMostPixelsPerElement * double(std::max<std::size_t>(1, elements_.size())));
    const double h = across > 0 ? std::min(room.height(), across * w / along) : room.height();
    return QRectF(room.left(), room.center().y() - 0.5 * h, w, h);
}

QRectF ArrayFaceView::elementRect(std::size_t e) const {
    const QRectF f = faceRect();
    if (f.isEmpty() || e >= elements_.size()) return {};
    const Extent& x = elements_[e];
    const double su = f.width() / (u_hi_ - u_lo_);
    const double sv = v_hi_ > v_lo_ ? f.height() / (v_hi_ - v_lo_) : 0;
    const double top = v_hi_ > v_lo_ ? f.top() + (x.v0 - v_lo_) * sv : f.top();
    const double bottom = v_hi_ > v_lo_ ? f.top() + (x.v1 - v_lo_) * sv : f.bottom();
    return QRectF(QPointF(f.left() + (x.u0 - u_lo_) * su, top), QPointF(f.left() + (x.u1 - u_lo_) * su, bottom));
}

int ArrayFaceView::elementAt(const QPointF& pixel) const {
    if (!array_) return -1;
    for (std::size_t e = 0; e < elements_.size(); ++e)
        if (elementRect(e).contains(pixel)) return int(e);
    return -1;
}

void ArrayFaceView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const ViewColors& theme = view_colors();
    const QRectF f = faceRect();
    if (f.isEmpty()) return;
    p.fillRect(f.adjusted(-kMarginX, -kMarginY, kMarginX, kMarginY), theme.background);
    p.setPen(QPen(theme.grid, 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(f.adjusted(-1.5, -1.5, 1.5, 1.5));
    for (std::size_t e = 0; e < elements_.size(); ++e) {
        const bool picked = int(e) == selected_;
        QColor fill = picked ? kPicked : kElement;
        if (selected_ >= 0 && !picked) fill.setAlpha(110);  // the others dimmed: one element is shown
        p.setPen(picked ? QPen(theme.text, 2) : QPen(kElement.darker(140), 1));
        p.setBrush(fill);
        p.drawRect(elementRect(e));
    }
    // The elements' numbers (1 first, as in the Channel box) where each has room for the widest.
    const QFontMetrics fm = p.fontMetrics();
    const QString widest = QString::number(elements_.size());
    if (array_ && !elements_.empty() && elementRect(0).width() >= fm.horizontalAdvance(widest) + 4 &&
        elementRect(0).height() >= fm.ascent()) {
        for (std::size_t e = 0; e < elements_.size(); ++e) {
            p.setPen(int(e) == selected_ ? QColor(0, 0, 0) : QColor(40, 25, 10));
            p.drawText(elementRect(e), Qt::AlignCenter, QString::number(e + 1));
        }
    }
}

void ArrayFaceView::mouseMoveEvent(QMouseEvent* event) {
    // A hand over what a click picks.
    if (elementAt(event->position()) >= 0)
        setCursor(Qt::PointingHandCursor);
    else
        unsetCursor();
}

void ArrayFaceView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !array_) return;
    const int e = elementAt(event->position());
    emit elementClicked(e == selected_ ? -1 : e);
}

}  // namespace voxwave::ui
