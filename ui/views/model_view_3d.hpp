// The 3D view of the voxel model: one surface per material (discrete flying edges on the
// material ids), the background material see-through, a clipping plane, sources and
// receivers as glyphs.
#pragma once

#include <QWidget>

#include "document/scene_document.hpp"
#include "views/gl_view.hpp"
#include "wave/slice.hpp"

class QSlider;
class QComboBox;
class QCheckBox;

namespace voxwave::ui {

class VtkWidget;
class ColorBarWidget;

class ModelView3D : public QWidget {
    Q_OBJECT
public:
    explicit ModelView3D(SceneDocument* doc, QWidget* parent = nullptr);
    ~ModelView3D() override;
    // Number of material surfaces drawn (tests, status).
    int surfaceCount() const;
    int glyphCount() const;
    // The absorbing layers drawn: one translucent box per absorbing face (PML blue, sponge
    // orange, edges outlined), and each box's bounds (xmin, xmax, ymin, ymax, zmin, zmax) as the
    // renderer has it (tests).
    int layerActorCount() const;
    // The probes' outlines drawn (one actor a probe: face, elements and beam as lines).
    int probeActorCount() const;
    std::vector<std::array<double, 6>> layerActorBounds() const;
    // Wavefield planes shown now (0 or 3) and the largest |value| on them (tests).
    int wavefieldPlaneCount() const;
    double wavefieldPeak() const;
    bool wavefieldEnabled() const;

public slots:
    void rebuildModel();
    void rebuildGlyphs();
    void rebuildLayers();
    void setLayersShown(bool on);
    void setBackgroundOpacity(double opacity);
    void setClip(int axis, double fraction);  // axis -1: no clipping
    // The live field on three planes (XY, XZ, YZ at node planes z, y, x), in the 2D view's colours.
    void setWavefield(const std::vector<voxwave::SliceImage>& slices, const std::array<int, 3>& nodes);
    void setWavefieldEnabled(bool on);
    // What the field's values are (colour map and colour bar); u_z unless told.
    void setWavefieldQuantity(voxwave::SliceQuantity q) { field_quantity_ = q; }
    // 0: clicks turn the camera; 1 / 2: a click on the model places a source / receiver there
    // (the surface point under the cursor, snapped to the nearest node).
    void setPlaceMode(int mode) { place_mode_ = mode; }
    // What a click at `pixel` would place: false when no model surface is under it.
    bool pickModelPoint(QPointF pixel, voxwave::Vec3& node_position) const;

signals:
    void placeSourceRequested(const voxwave::Vec3& position);
    void placeReceiverRequested(const voxwave::Vec3& position);
    void wavefieldToggled(bool on);

private:
    struct Pipeline;
    SceneDocument* doc_;
    VtkWidget* view_;
    QSlider* opacity_;
    QComboBox* clip_axis_;
    QSlider* clip_pos_;
    QCheckBox* wavefield_;
    QCheckBox* layers_;
    ColorBarWidget* field_bar_;
    voxwave::SliceQuantity field_quantity_ = voxwave::SliceQuantity::Uz;
    std::unique_ptr<Pipeline> p_;

public:
    // The render widget (tests click on it; VTK itself stays out of callers' includes).
    GlView* vtkView() const;
    // Frames the VTK view has painted (tests: an idle view must not repaint by itself).
    int vtkPaintCount() const;

private:
    bool reset_camera_ = true;
    int place_mode_ = 0;
};

}  // namespace voxwave::ui
