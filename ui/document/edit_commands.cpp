#include "document/edit_commands.hpp"

#include <utility>

#include "core/errors.hpp"
#include "scene/scene_io.hpp"
#include "wave/wave_problem.hpp"

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

SetProbesCommand::SetProbesCommand(SceneDocument* doc, std::vector<ProbeSpec> probes, std::optional<ScanSpec> scan,
                                   const QString& text)
    : QUndoCommand(text),
      doc_(doc),
      probes_before_(doc->scene().probes),
      probes_after_(std::move(probes)),
      scan_before_(doc->scene().scan),
      scan_after_(std::move(scan)) {
    const auto wedges = [](const std::vector<ProbeSpec>& list) {
        std::vector<std::pair<WedgeSpec, BoxShape>> out;
        for (const ProbeSpec& p : list)
            if (p.wedge) out.emplace_back(*p.wedge, probe_wedge_block(p));
        return out;
    };
    const auto before = wedges(probes_before_), after = wedges(probes_after_);
    wedges_changed_ = before != after;
    if (wedges_changed_) {
        model_before_ = doc->model();
        model_after_ = doc->modelWithProbes(probes_after_);
    }
}

void SetProbesCommand::undo() {
    doc_->setProbes(probes_before_, scan_before_, wedges_changed_ ? &model_before_ : nullptr);
}

void SetProbesCommand::redo() {
    doc_->setProbes(probes_after_, scan_after_, wedges_changed_ ? &model_after_ : nullptr);
}

std::string document_label(const SceneDocument& doc) { return doc.displayName().toStdString(); }

QString push_probes_edit(SceneDocument* doc, const std::vector<ProbeSpec>& probes, const std::optional<ScanSpec>& scan,
                         const QString& what) {
    const std::string label = document_label(*doc);
    Scene after = doc->scene();
    after.probes = probes;
    after.scan = scan;
    try {
        validate_scene(after, label);
        WaveProblem p;
        p.grid = doc->modelWithProbes(probes);
        p.materials = after.materials;
        for (std::size_t i = 0; i < probes.size(); ++i) add_probe(p, probes[i], probes[i].center, i, label);
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    doc->undoStack()->push(new SetProbesCommand(doc, probes, scan, what));
    return {};
}

}  // namespace voxwave::ui
