#include "document/edit_commands.hpp"

namespace voxwave::ui {

PaintVoxelsCommand::PaintVoxelsCommand(SceneDocument* doc, const std::vector<std::size_t>& indices, MaterialId value,
                                       const QString& text)
    : PaintVoxelsCommand(doc, indices, std::vector<MaterialId>(indices.size(), value), text) {}

PaintVoxelsCommand::PaintVoxelsCommand(SceneDocument* doc, const std::vector<std::size_t>& indices,
                                       const std::vector<MaterialId>& values, const QString& text)
    : QUndoCommand(text), doc_(doc), was_painted_(doc->painted()) {
    const auto& ids = doc->model().ids;
    for (std::size_t n = 0; n < indices.size() && n < values.size(); ++n) {
        const std::size_t i = indices[n];
        if (i < ids.size() && ids[i] != values[n]) {
            indices_.push_back(i);
            before_.push_back(ids[i]);
            after_.push_back(values[n]);
        }
    }
}

void PaintVoxelsCommand::undo() {
    doc_->setPainted(was_painted_);
    doc_->setVoxels(indices_, before_);
}

void PaintVoxelsCommand::redo() {
    doc_->setPainted(true);
    doc_->setVoxels(indices_, after_);
}

SetRunCommand::SetRunCommand(SceneDocument* doc, const RunSpec& run, double spacing)
    : QUndoCommand(QObject::tr("Change run settings")),
      doc_(doc),
      before_(doc->scene().run),
      after_(run),
      spacing_after_(spacing),
      model_before_(doc->model()) {}

}  // namespace voxwave::ui
