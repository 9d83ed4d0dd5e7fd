// The document the window edits: a scene (materials, sources, receivers, run settings...) and
// its voxel model at the scene's spacing. Every edit goes through the undo stack.
//
// Painting bakes: the model grid is the truth once the user paints. Saving writes the grid to
// "<scene>.voxels.h5" and the scene with that voxel layer and no parametric shapes (they are
// already in the grid). A scene that was never painted is saved as it was read, shapes kept.
#pragma once

#include <QDir>
#include <QObject>
#include <QString>
#include <QUndoStack>
#include <cstddef>
#include <optional>
#include <vector>

#include "model/voxel_grid.hpp"
#include "scene/scene.hpp"

namespace voxwave::ui {

class SceneDocument : public QObject {
    Q_OBJECT
public:
    explicit SceneDocument(QObject* parent = nullptr);

    const Scene& scene() const { return scene_; }
    const VoxelGrid& model() const { return model_; }
    const QString& path() const { return path_; }
    // The name the window shows for the document: its file's name, or "untitled".
    QString displayName() const;
    bool painted() const { return painted_; }
    QUndoStack* undoStack() { return &undo_; }
    bool isModified() const { return !undo_.isClean(); }

    // Replaces the document (clears undo). Throws InputError (the current document is kept).
    void open(const QString& path);
    void reset(const Scene& scene, const QString& path = {});
    // Atomic: the voxel file is written first, then the scene file; a failure leaves the
    // previous files untouched and the document unchanged. Throws InputError.
    void save(const QString& path);

    // The model voxelised at another spacing (painted grids are resampled nearest-neighbour).
    VoxelGrid modelAtSpacing(double spacing) const;

    // The scene as it would be saved (voxels reference when painted, shapes baked away).
    Scene sceneForSaving(const QString& path) const;
    // For a copy of the document written elsewhere (a cluster job folder): the scene as save()
    // would write it at `path`, the painted voxels (if any) written beside it already and
    // referred to by absolute path; other file references stay relative to scene().base_dir.
    // The document itself is unchanged (path, undo state). Throws InputError.
    Scene sceneForCopy(const QString& path) const;

    // --- edits, used by the undo commands only (they emit the change signals) ---
    void setVoxels(const std::vector<std::size_t>& indices, const std::vector<MaterialId>& values);
    void setSources(const std::vector<Source>& sources);
    void setReceivers(const std::vector<Receiver>& receivers);
    // Materials keep their ids (only ones appended or the last ones removed change the list), so
    // the voxel model stays as it is.
    void setMaterials(const std::vector<Material>& materials);
    void setRun(const RunSpec& run, double spacing);
    // The faces' conditions and absorbing layer (the voxel model is unchanged).
    void setBoundary(const BoundarySpec& boundary);
    // The probes and the scan. The probes' wedges are painted blocks (rasterise): `model`, when
    // given, replaces the voxel model (modelWithProbes of these probes, or the one an undo keeps).
    void setProbes(const std::vector<ProbeSpec>& probes, const std::optional<ScanSpec>& scan,
                   const VoxelGrid* model = nullptr);
    // The model with `probes`' wedges in place of the scene's: re-rasterised when never painted;
    // painted, the old blocks' voxels go back to void (a wedge sits on the specimen's surface,
    // where the model is void) and the new blocks are painted. Throws InputError (an unknown
    // wedge material: validate_scene says so first).
    VoxelGrid modelWithProbes(const std::vector<ProbeSpec>& probes) const;
    // Puts back a model saved before a change of spacing (undo of setRun).
    void restoreRun(const RunSpec& run, const VoxelGrid& model);
    void setPainted(bool painted) { painted_ = painted; }
    // Material id (1-based) for a material name, 0 for void.
    int materialId(const std::string& name) const { return scene_.material_id(name); }

signals:
    void modelChanged();      // voxels changed
    void sceneChanged();      // anything else (sources, receivers, run settings, whole document)
    void materialsChanged();  // the scene's material list (sceneChanged comes too)
    void documentReset();     // open / new: views re-read everything
    void pathChanged(const QString& path);

private:
    Scene scene_;
    VoxelGrid model_;
    QString path_;
    bool painted_ = false;
    QUndoStack undo_;
};

// Where the painted voxels of a scene saved at `scene_path` go.
QString voxelsPathFor(const QString& scene_path);

}  // namespace voxwave::ui
