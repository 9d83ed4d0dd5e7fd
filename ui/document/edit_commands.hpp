// The undoable edits of a SceneDocument (QUndoStack commands).
#pragma once

#include <QUndoCommand>
#include <optional>
#include <string>
#include <vector>

#include "document/scene_document.hpp"

namespace voxwave::ui {

// Sets voxels to one material; remembers what each was. Voxels already of that material are
// dropped, so an empty command means "nothing changed" (the caller does not push it).
class PaintVoxelsCommand : public QUndoCommand {
public:
    PaintVoxelsCommand(SceneDocument* doc, const std::vector<std::size_t>& indices, MaterialId value,
                       const QString& text);
    // One value per voxel (imports).
    PaintVoxelsCommand(SceneDocument* doc, const std::vector<std::size_t>& indices,
                       const std::vector<MaterialId>& values, const QString& text);
    bool empty() const { return indices_.empty(); }
    void undo() override;
    void redo() override;
    // The voxels this command changes and what they were before it.
    const std::vector<std::size_t>& indices() const { return indices_; }
    const std::vector<MaterialId>& before() const { return before_; }

private:
    SceneDocument* doc_;
    std::vector<std::size_t> indices_;
    std::vector<MaterialId> before_, after_;
    bool was_painted_;
};

// A parametric shape painted into the model: the paint remembers its shape, so the shape can be
// edited later. An edit is itself one of these, painting the edited shape and giving the voxels
// of the old one back; `replaces` names the placement it edits. The list of placed shapes is
// read off the undo stack (ShapesPanel::placedShapes), so it follows undo and redo by itself.
class ShapePaintCommand : public PaintVoxelsCommand {
public:
    ShapePaintCommand(SceneDocument* doc, const std::vector<std::size_t>& indices,
                      const std::vector<MaterialId>& values, const QString& text, Shape shape,
                      const ShapePaintCommand* replaces)
        : PaintVoxelsCommand(doc, indices, values, text), shape_(std::move(shape)), replaces_(replaces) {}
    const Shape& shape() const { return shape_; }
    const ShapePaintCommand* replaces() const { return replaces_; }

private:
    Shape shape_;
    const ShapePaintCommand* replaces_;
};

// Replaces one list of the scene (sources, receivers, materials) with another; undo puts the
// old list back. Materials are only ever appended here, so their ids stay as they were.
template <class T, std::vector<T> Scene::*List, void (SceneDocument::*Set)(const std::vector<T>&)>
class SetSceneListCommand : public QUndoCommand {
public:
    SetSceneListCommand(SceneDocument* doc, std::vector<T> after, const QString& text)
        : QUndoCommand(text), doc_(doc), before_(doc->scene().*List), after_(std::move(after)) {}
    void undo() override { (doc_->*Set)(before_); }
    void redo() override { (doc_->*Set)(after_); }

private:
    SceneDocument* doc_;
    std::vector<T> before_, after_;
};

using SetSourcesCommand = SetSceneListCommand<Source, &Scene::sources, &SceneDocument::setSources>;
using SetReceiversCommand = SetSceneListCommand<Receiver, &Scene::receivers, &SceneDocument::setReceivers>;
using SetMaterialsCommand = SetSceneListCommand<Material, &Scene::materials, &SceneDocument::setMaterials>;

// Run settings and spacing (a new spacing re-voxelises; undo restores the exact old grid).
class SetRunCommand : public QUndoCommand {
public:
    SetRunCommand(SceneDocument* doc, const RunSpec& run, double spacing);
    void undo() override { doc_->restoreRun(before_, model_before_); }
    void redo() override { doc_->setRun(after_, spacing_after_); }

private:
    SceneDocument* doc_;
    RunSpec before_, after_;
    double spacing_after_;
    VoxelGrid model_before_;
};

// The probes and the scan (the Probes and Scan panels). A change of the probes' wedges changes
// the painted model too (SceneDocument::modelWithProbes); undo puts the exact old grid back.
class SetProbesCommand : public QUndoCommand {
public:
    SetProbesCommand(SceneDocument* doc, std::vector<ProbeSpec> probes, std::optional<ScanSpec> scan,
                     const QString& text);
    void undo() override;
    void redo() override;

private:
    SceneDocument* doc_;
    std::vector<ProbeSpec> probes_before_, probes_after_;
    std::optional<ScanSpec> scan_before_, scan_after_;
    bool wedges_changed_ = false;
    VoxelGrid model_before_, model_after_;
};

// The document's probes and scan replaced by `probes` and `scan` as one undo step, after the
// checks a run makes: validate_scene (the one home of the keys' rules), then every probe placed
// on the model with the new wedges (add_probe: the face on a surface, the footprint in the grid,
// the law's speed). Returns the refusal's one line (InputError::what(), as `voxwave-cli run`
// prints it for a file named like the document), empty when the edit went in.
QString push_probes_edit(SceneDocument* doc, const std::vector<ProbeSpec>& probes, const std::optional<ScanSpec>& scan,
                         const QString& what);

// The name the engine's messages give the document's file (its file name, or "untitled").
std::string document_label(const SceneDocument& doc);

// The boundary block (face conditions, the absorbing layer's type, thickness and PML keys).
class SetBoundaryCommand : public QUndoCommand {
public:
    SetBoundaryCommand(SceneDocument* doc, BoundarySpec after, const QString& text)
        : QUndoCommand(text), doc_(doc), before_(doc->scene().boundary), after_(std::move(after)) {}
    void undo() override { doc_->setBoundary(before_); }
    void redo() override { doc_->setBoundary(after_); }

private:
    SceneDocument* doc_;
    BoundarySpec before_, after_;
};

}  // namespace voxwave::ui
