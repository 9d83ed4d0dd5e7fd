// The undoable edits of a SceneDocument (QUndoStack commands).
#pragma once

#include <QUndoCommand>
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

private:
    SceneDocument* doc_;
    std::vector<std::size_t> indices_;
    std::vector<MaterialId> before_, after_;
    bool was_painted_;
};

class SetSourcesCommand : public QUndoCommand {
public:
    SetSourcesCommand(SceneDocument* doc, std::vector<Source> after, const QString& text);
    void undo() override { doc_->setSources(before_); }
    void redo() override { doc_->setSources(after_); }

private:
    SceneDocument* doc_;
    std::vector<Source> before_, after_;
};

class SetReceiversCommand : public QUndoCommand {
public:
    SetReceiversCommand(SceneDocument* doc, std::vector<Receiver> after, const QString& text);
    void undo() override { doc_->setReceivers(before_); }
    void redo() override { doc_->setReceivers(after_); }

private:
    SceneDocument* doc_;
    std::vector<Receiver> before_, after_;
};

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

}  // namespace voxwave::ui
