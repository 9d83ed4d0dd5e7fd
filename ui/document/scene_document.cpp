#include "document/scene_document.hpp"

#include <QFileInfo>
#include <algorithm>

#include "core/errors.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"

namespace voxwave::ui {

namespace {
const char* const kVoxelsDataset = "/model/material_ids";
}  // namespace

QString voxelsPathFor(const QString& scene_path) {
    QFileInfo fi(scene_path);
    return fi.dir().filePath(fi.completeBaseName() + ".voxels.h5");
}

SceneDocument::SceneDocument(QObject* parent) : QObject(parent) {}

QString SceneDocument::displayName() const { return path_.isEmpty() ? tr("untitled") : QFileInfo(path_).fileName(); }

void SceneDocument::reset(const Scene& scene, const QString& path) {
    VoxelGrid model = rasterise(scene);  // may throw: nothing is changed before it succeeds
    scene_ = scene;
    model_ = std::move(model);
    painted_ = false;
    path_ = path;
    undo_.clear();
    emit documentReset();
    emit pathChanged(path_);
}

void SceneDocument::open(const QString& path) {
    Scene s = read_scene_json(path.toStdString());
    reset(s, path);
}

Scene SceneDocument::sceneForSaving(const QString& path) const {
    Scene s = scene_;
    // References read relative to the old file must still reach their files from the new one.
    rebase_file_references(s, QFileInfo(path).absolutePath().toStdString());
    if (painted_) {
        s.shapes.clear();
        s.voxels = VoxelsRef{QFileInfo(voxelsPathFor(path)).fileName().toStdString(), kVoxelsDataset};
    }
    return s;
}

Scene SceneDocument::sceneForCopy(const QString& path) const {
    Scene s = scene_;  // base_dir: where the scene's relative references were read from
    if (painted_) {
        const QString voxels = QFileInfo(voxelsPathFor(path)).absoluteFilePath();
        write_voxels_h5(voxels.toStdString(), kVoxelsDataset, model_);
        s.shapes.clear();
        s.voxels = VoxelsRef{voxels.toStdString(), kVoxelsDataset};
    }
    return s;
}

void SceneDocument::save(const QString& path) {
    const Scene s = sceneForSaving(path);
    if (painted_) write_voxels_h5(voxelsPathFor(path).toStdString(), kVoxelsDataset, model_);
    write_scene_json(path.toStdString(), s);
    // The document now lives where it was saved: its references are the rebased ones.
    scene_.voxels = s.voxels;
    scene_.shapes = s.shapes;
    scene_.sources = s.sources;
    scene_.base_dir = s.base_dir;
    if (path_ != path) {
        path_ = path;
        emit pathChanged(path_);
    }
    undo_.setClean();
}

void SceneDocument::setVoxels(const std::vector<std::size_t>& indices, const std::vector<MaterialId>& values) {
    for (std::size_t i = 0; i < indices.size(); ++i) model_.ids[indices[i]] = values[i];
    emit modelChanged();
}

void SceneDocument::setSources(const std::vector<Source>& sources) {
    scene_.sources = sources;
    emit sceneChanged();
}

void SceneDocument::setReceivers(const std::vector<Receiver>& receivers) {
    scene_.receivers = receivers;
    emit sceneChanged();
}

void SceneDocument::setMaterials(const std::vector<Material>& materials) {
    scene_.materials = materials;
    emit materialsChanged();
    emit sceneChanged();
}

void SceneDocument::setBoundary(const BoundarySpec& boundary) {
    scene_.boundary = boundary;
    emit sceneChanged();
}

void SceneDocument::setProbes(const std::vector<ProbeSpec>& probes, const std::optional<ScanSpec>& scan,
                              const VoxelGrid* model) {
    scene_.probes = probes;
    scene_.scan = scan;
    if (model) {
        model_ = *model;
        emit modelChanged();
    }
    emit sceneChanged();
}

VoxelGrid SceneDocument::modelWithProbes(const std::vector<ProbeSpec>& probes) const {
    if (!painted_) {
        Scene s = scene_;
        s.probes = probes;
        return rasterise(s);
    }
    VoxelGrid g = model_;
    for (const ProbeSpec& p : scene_.probes)
        if (p.wedge)
            for (std::size_t e : shape_elements(g, Shape{p.wedge->material, probe_wedge_block(p)})) g.ids[e] = kVoidId;
    for (const ProbeSpec& p : probes)
        if (p.wedge) {
            const auto& m = scene_.materials;
            const auto it =
                std::find_if(m.begin(), m.end(), [&](const Material& x) { return x.name == p.wedge->material; });
            if (it == m.end()) continue;  // validate_scene names the unknown material
            const int id = int(it - m.begin()) + 1;
            for (std::size_t e : shape_elements(g, Shape{p.wedge->material, probe_wedge_block(p)}))
                g.ids[e] = MaterialId(id);
        }
    return g;
}

VoxelGrid SceneDocument::modelAtSpacing(double spacing) const {
    if (spacing == scene_.grid.spacing) return model_;
    Scene s = scene_;
    s.grid.spacing = spacing;
    if (!painted_) return rasterise(s);
    // Painted: nearest-neighbour resampling of the painted grid (the geometry no longer says it all).
    s.shapes.clear();
    s.voxels.reset();
    VoxelGrid g = rasterise(s);
    const auto& old = model_;
    for (int k = 0; k < g.n[2]; ++k)
        for (int j = 0; j < g.n[1]; ++j)
            for (int i = 0; i < g.n[0]; ++i) {
                const auto src = [&](int a, int axis) {
                    const double c = g.origin[axis] + (a + 0.5) * g.spacing;
                    return std::clamp(int((c - old.origin[axis]) / old.spacing), 0, old.n[axis] - 1);
                };
                g.ids[g.element_index(i, j, k)] = old.at(src(i, 0), src(j, 1), src(k, 2));
            }
    return g;
}

void SceneDocument::setRun(const RunSpec& run, double spacing) {
    const bool respace = spacing != scene_.grid.spacing;
    if (respace) {
        // A new spacing re-voxelises: from the painted grid when painted, from the geometry otherwise.
        VoxelGrid g = modelAtSpacing(spacing);
        scene_.grid.spacing = spacing;
        model_ = std::move(g);
    }
    scene_.run = run;
    if (respace) emit modelChanged();
    emit sceneChanged();
}

void SceneDocument::restoreRun(const RunSpec& run, const VoxelGrid& model) {
    const bool respace = model.spacing != model_.spacing;
    scene_.run = run;
    scene_.grid.spacing = model.spacing;
    model_ = model;
    if (respace) emit modelChanged();
    emit sceneChanged();
}

}  // namespace voxwave::ui
