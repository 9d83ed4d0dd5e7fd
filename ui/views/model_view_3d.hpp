// The 3D view of the voxel model: one surface per material (discrete flying edges on the
// material ids), the background material see-through, a clipping plane, sources and
// receivers as glyphs.
#pragma once

#include <QWidget>

#include "document/scene_document.hpp"

class QSlider;
class QComboBox;

namespace voxwave::ui {

class VtkWidget;

class ModelView3D : public QWidget {
    Q_OBJECT
public:
    explicit ModelView3D(SceneDocument* doc, QWidget* parent = nullptr);
    ~ModelView3D() override;
    // Number of material surfaces drawn (tests, status).
    int surfaceCount() const;
    int glyphCount() const;

public slots:
    void rebuildModel();
    void rebuildGlyphs();
    void setBackgroundOpacity(double opacity);
    void setClip(int axis, double fraction);  // axis -1: no clipping

private:
    struct Pipeline;
    SceneDocument* doc_;
    VtkWidget* view_;
    QSlider* opacity_;
    QComboBox* clip_axis_;
    QSlider* clip_pos_;
    std::unique_ptr<Pipeline> p_;
    bool reset_camera_ = true;
};

}  // namespace voxwave::ui
