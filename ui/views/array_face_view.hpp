// The face of a scan's array probe seen along its normal: the elements side by side along the
// array axis (first on the left), each drawn where probe_drawing puts it, the channel the scan
// views show highlighted. A click on an element picks that element's signal; a click on the one
// already picked, or beside the elements, goes back to the array's delay-and-sum.
#pragma once

#include <QRectF>
#include <QWidget>
#include <vector>

#include "scene/scene.hpp"

namespace voxwave::ui {

class ArrayFaceView : public QWidget {
    Q_OBJECT
public:
    explicit ArrayFaceView(QWidget* parent = nullptr);
    // The probe whose face is drawn (a piston: one element, nothing to pick).
    void setProbe(const ProbeSpec& probe);
    int elementCount() const { return int(elements_.size()); }
    // The element shown (0-based), -1 for the delay-and-sum (or a piston's signal).
    int selected() const { return selected_; }
    void setSelected(int element);
    // Where the face is drawn: its extent along the array axis (outermost element edges) across the
    // rectangle's width (the view's, or 40 px an element when that is less), its elevation centred
    // in its height, one scale on both axes where room allows.
    QRectF faceRect() const;
    // The element under `pixel`, -1 for none.
    int elementAt(const QPointF& pixel) const;
    QSize sizeHint() const override { return {240, 44}; }
    QSize minimumSizeHint() const override { return {80, 32}; }

signals:
    // A click: the element to show, -1 for the delay-and-sum.
    void elementClicked(int element);

protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mousePressEvent(QMouseEvent*) override;

private:
    QRectF elementRect(std::size_t e) const;

    // Each element's extent in the face: along the array axis (u0, u1) and across it (v0, v1),
    // metres from the face's centre.
    struct Extent {
        double u0, u1, v0, v1;
    };
    std::vector<Extent> elements_;
    double u_lo_ = 0, u_hi_ = 0, v_lo_ = 0, v_hi_ = 0;
    bool array_ = false;
    int selected_ = -1;
};

}  // namespace voxwave::ui
