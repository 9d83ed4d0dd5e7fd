// The 2D slice painter: one plane of the voxel model drawn with the material colours, painted
// with the tools of paint_tools.hpp; sources and receivers placed by clicking and moved by
// dragging. Zoom with the wheel, pan with the right or middle button.
#pragma once

#include <QImage>
#include <QPointF>
#include <QWidget>
#include <optional>

#include "boundary/boundary_conditions.hpp"
#include "document/scene_document.hpp"
#include "editing/paint_tools.hpp"

namespace voxwave::ui {

enum class SliceTool { Brush, Eraser, Rectangle, Ellipse, Line, Fill, PlaceSource, PlaceReceiver, Move };

class SlicePainter : public QWidget {
    Q_OBJECT
public:
    explicit SlicePainter(SceneDocument* doc, QWidget* parent = nullptr);

    SlicePlane plane() const { return plane_; }
    int nodePlane() const { return node_plane_; }  // 0 .. elements along the normal
    int nodePlaneCount() const;                    // elements along the normal + 1
    SliceRef sliceRef() const;                     // element layer painted (node plane clamped)
    SliceTool tool() const { return tool_; }
    int brushSize() const { return brush_size_; }
    MaterialId material() const { return material_; }

    // Widget pixel <-> slice cell / physical position (metres) on the current plane.
    QPoint cellAt(QPointF pixel) const;
    QPointF pixelOfCellCentre(QPoint cell) const;
    Vec3 physicalAt(QPointF pixel) const;  // snapped to the nearest node of the plane
    QPointF pixelOf(const Vec3& p) const;  // projection of a 3D point onto the widget
    QRectF sliceRect() const;              // where the slice is drawn (its lower-left is the origin)

    // Receivers of an opened result file, drawn as rings beside the scene's own markers (those
    // inside the model's box); empty lists clear them.
    void setResultReceivers(const std::vector<std::string>& names, const std::vector<Vec3>& positions);
    // How many of them are drawn (inside the model's box).
    int resultReceiversDrawn() const;
    // The receiver the scan views point at (under the cursor there, or selected): its marker is
    // ringed and its label always drawn. Empty: none.
    void setHighlightedReceiver(const QString& name);
    const QString& highlightedReceiver() const { return highlighted_; }

    // The absorbing layers this slice crosses, drawn as translucent bands (PML and sponge in
    // their own colours, a legend in the corner): one per absorbing face, in slice cell
    // coordinates (x along the slice's first axis, y up its second, a cell [a, a + 1] x [b, b + 1]).
    // A face across the slice's normal gives a band over the whole slice when the painted element
    // layer lies in its layer.
    struct LayerBand {
        int face = 0;  // index into kBoundaryFaceNames
        AbsorbingType type = AbsorbingType::None;
        QRectF cells;
    };
    std::vector<LayerBand> layerBands() const;

public slots:
    void setPlane(voxwave::SlicePlane plane);
    void setNodePlane(int index);
    void setTool(voxwave::ui::SliceTool tool) { tool_ = tool; }
    void setBrushSize(int size) { brush_size_ = std::max(1, size); }
    void setMaterial(int id) { material_ = MaterialId(id); }
    void fitToWindow();

signals:
    void placeSourceRequested(const voxwave::Vec3& position);
    void placeReceiverRequested(const voxwave::Vec3& position);
    void sliceChanged();
    void hoverInfo(const QString& text);
    // A probe dragged where the engine refuses it (off the surface, out of the grid): its line.
    void probeMoveRefused(const QString& message);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    bool event(QEvent*) override;  // tooltips: the layer under the cursor

private:
    void rebuildImage();
    void applyStroke(const std::vector<std::size_t>& cells, const QString& what);
    MaterialId paintValue() const;
    // Nearest source (kind 0), receiver (kind 1) or probe face centre (kind 2) within a few pixels of `pixel`.
    std::optional<std::pair<int, int>> pickPoint(QPointF pixel) const;
    // Where the point being dragged would go for the cursor at `pixel`: the nearest node in the
    // plane, keeping its own coordinate along the normal (a marker of another plane stays there);
    // a probe's centre also keeps its coordinate along the probe's normal (it slides along the surface).
    Vec3 dragTarget(QPointF pixel) const;
    // Shows the slice on the node plane nearest focus_, fitted to the widget (a new document,
    // grid or orientation).
    void showSliceAtFocus();
    void drawProbes(QPainter& p);

    SceneDocument* doc_;
    SlicePlane plane_ = SlicePlane::XZ;
    int node_plane_ = 0;
    // The physical point (metres) the slice goes through: its coordinate along the normal places
    // the slice, so a new spacing or orientation keeps the slice where it was in the model rather
    // than at the same index. Updated when the user moves the slice.
    Vec3 focus_{};
    // The grid the slice was placed on: a model with another spacing or size re-places it.
    double placed_spacing_ = 0;
    std::array<int, 3> placed_n_{};
    SliceTool tool_ = SliceTool::Brush;
    int brush_size_ = 3;
    MaterialId material_ = 1;
    QImage image_;
    double scale_ = 4;  // pixels per cell
    QPointF offset_;    // pixel of the slice's top-left corner
    bool fitted_ = false;
    // Mouse state.
    std::optional<QPoint> drag_start_cell_;
    QPoint drag_cell_;
    std::vector<std::size_t> stroke_;  // brush / eraser cells of the stroke in progress
    std::optional<QPointF> pan_from_;
    std::optional<std::pair<int, int>> moving_;  // (kind, index) being dragged
    QPointF moving_to_;                          // the cursor during that drag
    std::vector<std::pair<std::string, Vec3>> result_receivers_;
    QString highlighted_;
};

}  // namespace voxwave::ui
