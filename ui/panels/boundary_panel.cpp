#include "panels/boundary_panel.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "boundary/absorbing_layer_boxes.hpp"
#include "core/errors.hpp"
#include "document/edit_commands.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene_io.hpp"

namespace voxwave::ui {

namespace {

// A new layer's thickness in cells: the usual PML (issue measurements: -40 dB and better).
constexpr double kNewLayerCells = 10;

bool has_face(const std::vector<std::string>& list, const std::string& face) {
    return std::find(list.begin(), list.end(), face) != list.end();
}

// `list` with `face` in or out, in the order of kBoundaryFaceNames.
std::vector<std::string> with_face_in(const std::vector<std::string>& list, const std::string& face, bool in) {
    std::vector<std::string> out;
    for (const char* name : kBoundaryFaceNames)
        if (name == face ? in : has_face(list, name)) out.push_back(name);
    return out;
}

QString mm_text(double metres) { return QString::number(metres * 1e3, 'g', 6) + " mm"; }

// The engine's reason in the panel's units: "(0.05 m)" becomes "(50 mm)"; the "(got ...)" part
// goes, since the message leads with the value as shown.
QString reason_for_panel(const std::string& reason) {
    QString r = QString::fromStdString(reason);
    r.remove(QRegularExpression(QStringLiteral(" \\(got [^)]*\\)")));
    static const QRegularExpression metres(QStringLiteral("(-?[0-9.]+(?:e[-+]?[0-9]+)?) m\\b"));
    QString out;
    qsizetype at = 0;
    for (auto it = metres.globalMatch(r); it.hasNext();) {
        const auto m = it.next();
        out += r.mid(at, m.capturedStart() - at) + mm_text(m.captured(1).toDouble());
        at = m.capturedEnd();
    }
    return out + r.mid(at);
}

// The panel's name for a field of the scene's boundary block.
QString panel_field(const std::string& field, const BoundarySpec& b) {
    static const std::pair<const char*, const char*> names[] = {
        {"boundary.absorbing.thickness", QT_TRANSLATE_NOOP("BoundaryPanel", "Layer thickness")},
        {"boundary.absorbing.type", QT_TRANSLATE_NOOP("BoundaryPanel", "Layer type")},
        {"boundary.absorbing.reflection", QT_TRANSLATE_NOOP("BoundaryPanel", "PML target reflection")},
        {"boundary.absorbing.kappa_max", QT_TRANSLATE_NOOP("BoundaryPanel", "PML kappa max")},
        {"boundary.absorbing.alpha_max", QT_TRANSLATE_NOOP("BoundaryPanel", "PML alpha max")},
        {"boundary.absorbing.frequency", QT_TRANSLATE_NOOP("BoundaryPanel", "PML frequency")}};
    for (const auto& [key, name] : names)
        if (field == key) return BoundaryPanel::tr(name);
    for (const auto* list : {"boundary.absorbing.faces[", "boundary.fixed_faces["}) {
        const std::string head = list;
        if (field.compare(0, head.size(), head) == 0) {
            const std::size_t i = std::size_t(std::atoi(field.c_str() + head.size()));
            const auto& faces = head.find("absorbing") != std::string::npos ? b.absorbing.faces : b.fixed_faces;
            if (i < faces.size()) return BoundaryPanel::tr("Face %1").arg(QString::fromStdString(faces[i]));
        }
    }
    return QString::fromStdString(field);
}

// The face boxes' items (in FaceChoice order), each with what it does in plain words.
const std::pair<const char*, const char*> kFaceItems[] = {
    {QT_TRANSLATE_NOOP("BoundaryPanel", "free"),
     QT_TRANSLATE_NOOP("BoundaryPanel", "A free surface (as against air): waves reflect from it fully.")},
    {QT_TRANSLATE_NOOP("BoundaryPanel", "fixed"),
     QT_TRANSLATE_NOOP("BoundaryPanel", "Every node on the face held still: waves reflect from it fully.")},
    {QT_TRANSLATE_NOOP("BoundaryPanel", "absorbing PML"),
     QT_TRANSLATE_NOOP("BoundaryPanel",
                       "A perfectly matched layer: waves leave the model with very little echo (-40 dB or "
                       "better at 10 cells). For faces where the model is cut out of a larger structure.")},
    {QT_TRANSLATE_NOOP("BoundaryPanel", "absorbing sponge"),
     QT_TRANSLATE_NOOP("BoundaryPanel",
                       "Damping that grows towards the face: simpler, but its echoes are 20 dB or more stronger "
                       "than a PML's of the same thickness.")},
    {QT_TRANSLATE_NOOP("BoundaryPanel", "fixed behind a sponge"),
     QT_TRANSLATE_NOOP("BoundaryPanel", "A sponge layer whose outer face is held still.")}};

}  // namespace

BoundaryPanel::BoundaryPanel(SceneDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    auto* lay = new QVBoxLayout(this);
    auto* faces_box = new QGroupBox(tr("Faces"));
    auto* faces_form = new QFormLayout(faces_box);
    static const char* const where[6] = {
        QT_TRANSLATE_NOOP("BoundaryPanel", "the face at the smallest x (left in the slice editor)"),
        QT_TRANSLATE_NOOP("BoundaryPanel", "the face at the largest x (right in the slice editor)"),
        QT_TRANSLATE_NOOP("BoundaryPanel", "the face at the smallest y (front in the 3D view)"),
        QT_TRANSLATE_NOOP("BoundaryPanel", "the face at the largest y (back in the 3D view)"),
        QT_TRANSLATE_NOOP("BoundaryPanel", "the face at the smallest z (bottom)"),
        QT_TRANSLATE_NOOP("BoundaryPanel", "the face at the largest z (top, where the paper's source sits)")};
    for (int f = 0; f < 6; ++f) {
        auto* box = new QComboBox;
        const QString name = QString::fromLatin1(kBoundaryFaceNames[std::size_t(f)]);
        QString tip = name + ": " + tr(where[f]) + "\n";
        for (const auto& [item, what] : kFaceItems) {
            box->addItem(tr(item));
            box->setItemData(box->count() - 1, tr(what), Qt::ToolTipRole);
            tip += "\n" + tr(item) + ": " + tr(what);
        }
        tip += "\n\n" + tr("All absorbing faces share one layer type and thickness.");
        box->setObjectName("boundary-face-" + name);
        // Narrow enough for the left docks at 1366 x 768 (the popup still shows whole items).
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
        box->setToolTip(tip);
        connect(box, &QComboBox::activated, this, [this, f] { faceChosen(f); });
        faces_[std::size_t(f)] = box;
        faces_form->addRow(name, box);
    }
    lay->addWidget(faces_box);

    auto* layer_box = new QGroupBox(tr("Absorbing layer (all absorbing faces)"));
    auto* layer_form = new QFormLayout(layer_box);
    thickness_mm_ = new QDoubleSpinBox;
    thickness_mm_->setObjectName("boundary-thickness-mm");
    thickness_mm_->setRange(0, 1e4);
    thickness_mm_->setDecimals(2);
    thickness_mm_->setSuffix(" mm");
    thickness_mm_->setToolTip(
        tr("How deep the absorbing layer reaches into the model from each absorbing face. A thicker layer "
           "absorbs better but its cells show no useful field. 10 cells is usual for a PML; a sponge needs 20 "
           "or more. At most half the box along the face's axis."));
    thickness_cells_ = new QDoubleSpinBox;
    thickness_cells_->setObjectName("boundary-thickness-cells");
    thickness_cells_->setRange(0, 1e4);
    thickness_cells_->setDecimals(2);
    thickness_cells_->setSuffix(tr(" cells"));
    thickness_cells_->setToolTip(
        tr("The same thickness counted in cells of the grid (thickness / spacing). A new spacing keeps the "
           "millimetres and changes the cells."));
    layer_form->addRow(tr("Thickness"), thickness_mm_);
    layer_form->addRow(tr("In cells"), thickness_cells_);
    lay->addWidget(layer_box);

    pml_box_ = new QGroupBox(tr("PML options (empty: the default shown)"));
    auto* pml_form = new QFormLayout(pml_box_);
    const auto line = [this, pml_form](const QString& label, const QString& name, const QString& tip) {
        auto* e = new QLineEdit;
        e->setObjectName(name);
        e->setToolTip(tip);
        connect(e, &QLineEdit::editingFinished, this, [this, e] { pmlKeyEdited(e); });
        pml_form->addRow(label, e);
        return e;
    };
    reflection_ = line(tr("Target reflection"), "boundary-pml-reflection",
                       tr("How much of a wave that meets the layer head-on may come back, as a fraction "
                          "(1e-3 = 0.1 %, -60 dB). Smaller asks for stronger damping inside the layer, which a thin "
                          "layer cannot grade smoothly enough. Between 0 and 1; empty: 1e-3."));
    kappa_max_ = line(tr("kappa max"), "boundary-pml-kappa",
                      tr("Stretches distances in the layer by up to this factor at the face. Above 1 it also damps "
                         "waves that creep along the layer without entering it (grazing, evanescent). 1 = no "
                         "stretch; at least 1; empty: 1."));
    alpha_max_ = line(tr("alpha max (1/s)"), "boundary-pml-alpha",
                      tr("The frequency shift at the layer's inner edge, in 1/s: it keeps the layer from "
                         "soaking up (and growing) very low frequencies and slow waves. 0 or more; empty: "
                         "2 pi times the PML frequency."));
    frequency_ = line(
        tr("Frequency (kHz)"), "boundary-pml-frequency",
        tr("The frequency the layer is tuned to (alpha max = 2 pi x frequency). Empty: auto, from "
           "the sources' wavelets (the highest centre frequency); where none has one (sampled wavelets), the layer "
           "takes vp / (4 x thickness)."));
    lay->addWidget(pml_box_);
    summary_ = new QLabel;
    summary_->setWordWrap(true);
    lay->addWidget(summary_);
    lay->addStretch(1);

    connect(thickness_mm_, &QDoubleSpinBox::editingFinished, this, [this] { thicknessEdited(false); });
    connect(thickness_cells_, &QDoubleSpinBox::editingFinished, this, [this] { thicknessEdited(true); });
    connect(doc_, &SceneDocument::sceneChanged, this, &BoundaryPanel::refresh);
    connect(doc_, &SceneDocument::documentReset, this, &BoundaryPanel::refresh);
    refresh();
}

BoundaryPanel::FaceChoice BoundaryPanel::faceChoice(const BoundarySpec& b, int face) {
    const std::string name = kBoundaryFaceNames[std::size_t(face)];
    const bool fixed = has_face(b.fixed_faces, name), absorbing = has_face(b.absorbing.faces, name);
    if (!absorbing) return fixed ? Fixed : Free;
    if (b.absorbing.pml()) return AbsorbingPml;  // fixed too: the engine refuses it, shown as what it absorbs with
    return fixed ? FixedBehindSponge : AbsorbingSponge;
}

BoundarySpec BoundaryPanel::withFace(const BoundarySpec& b, int face, FaceChoice choice, double spacing) {
    BoundarySpec out = b;
    const std::string name = kBoundaryFaceNames[std::size_t(face)];
    const bool absorbing = choice == AbsorbingPml || choice == AbsorbingSponge || choice == FixedBehindSponge;
    out.fixed_faces = with_face_in(b.fixed_faces, name, choice == Fixed || choice == FixedBehindSponge);
    out.absorbing.faces = with_face_in(b.absorbing.faces, name, absorbing);
    if (absorbing) {
        const std::string type = choice == AbsorbingPml ? "pml" : "sponge";
        if (type != out.absorbing.type) {
            out.absorbing.type = type;
            // A sponge takes no PML keys (the engine refuses them); undo brings them back.
            out.absorbing.reflection.reset();
            out.absorbing.kappa_max.reset();
            out.absorbing.alpha_max.reset();
            out.absorbing.frequency.reset();
        }
        if (!(out.absorbing.thickness > 0)) out.absorbing.thickness = kNewLayerCells * spacing;
    }
    return out;
}

void BoundaryPanel::refresh() {
    refreshing_ = true;
    const Scene& s = doc_->scene();
    const AbsorbingSpec& a = s.boundary.absorbing;
    for (int f = 0; f < 6; ++f) faces_[std::size_t(f)]->setCurrentIndex(faceChoice(s.boundary, f));
    const double ds = s.grid.spacing;
    thickness_mm_->setValue(a.thickness * 1e3);
    thickness_cells_->setValue(absorbing_layer_cells(a.thickness, ds));
    pml_box_->setEnabled(a.pml());
    const auto show = [](QLineEdit* e, const std::optional<double>& v, double scale) {
        e->setText(v ? QString::number(*v / scale, 'g', 8) : QString());
    };
    show(reflection_, a.reflection, 1);
    show(kappa_max_, a.kappa_max, 1);
    show(alpha_max_, a.alpha_max, 1);
    show(frequency_, a.frequency, 1e3);
    const double f_auto = pml_default_frequency(s.sources);
    const double f = a.frequency.value_or(f_auto);
    reflection_->setPlaceholderText(tr("%1 (default)").arg(kPmlDefaultReflection));
    kappa_max_->setPlaceholderText(tr("%1 (default)").arg(kPmlDefaultKappaMax));
    alpha_max_->setPlaceholderText(f > 0 ? tr("2 pi x f = %1").arg(kPmlDefaultAlphaPerHz * f, 0, 'g', 4)
                                         : tr("2 pi x vp / (4 x thickness)"));
    frequency_->setPlaceholderText(f_auto > 0 ? tr("auto: %1 kHz (sources)").arg(f_auto / 1e3, 0, 'g', 6)
                                              : tr("auto: vp / (4 x thickness)"));
    const int absorbing = int(a.faces.size());
    summary_->setText(absorbing == 0 ? tr("No absorbing face: every wave that reaches a face comes back.")
                                     : tr("%1 on %2 face(s), %3 = %4 cells at %5 spacing.")
                                           .arg(a.pml() ? tr("PML") : tr("Sponge"))
                                           .arg(absorbing)
                                           .arg(mm_text(a.thickness))
                                           .arg(absorbing_layer_cells(a.thickness, ds), 0, 'g', 4)
                                           .arg(mm_text(ds)));
    refreshing_ = false;
}

bool BoundaryPanel::refuse(const QString& message) {
    last_error_ = message;
    refresh();  // the widgets show the scene again
    emit failed(message);
    return false;
}

bool BoundaryPanel::apply(const BoundarySpec& after, const QString& what, const QString& field, const QString& value) {
    last_error_.clear();
    if (after == doc_->scene().boundary) {
        refresh();
        return true;
    }
    Scene s = doc_->scene();
    s.boundary = after;
    try {
        validate_scene(s, "");
    } catch (const InputError& e) {
        const QString name = panel_field(e.field(), after);
        const QString shown = name == field && !value.isEmpty() ? name + " " + value : name;
        return refuse(QStringLiteral("%1: %2").arg(shown, reason_for_panel(e.reason())));
    }
    doc_->undoStack()->push(new SetBoundaryCommand(doc_, after, what));
    return true;
}

void BoundaryPanel::faceChosen(int face) {
    if (refreshing_) return;
    const FaceChoice choice = FaceChoice(faces_[std::size_t(face)]->currentIndex());
    const QString name = QString::fromLatin1(kBoundaryFaceNames[std::size_t(face)]);
    const QString text = faces_[std::size_t(face)]->currentText();
    apply(withFace(doc_->scene().boundary, face, choice, doc_->scene().grid.spacing), tr("Face %1: %2").arg(name, text),
          tr("Face %1").arg(name), text);
}

void BoundaryPanel::thicknessEdited(bool from_cells) {
    if (refreshing_) return;
    const double ds = doc_->scene().grid.spacing;
    BoundarySpec b = doc_->scene().boundary;
    const double thickness = from_cells ? thickness_cells_->value() * ds : thickness_mm_->value() * 1e-3;
    // The spin boxes round to their decimals: an untouched box must not move the layer.
    const double shown = from_cells ? std::round(absorbing_layer_cells(b.absorbing.thickness, ds) * 100) / 100
                                    : std::round(b.absorbing.thickness * 1e5) / 1e2;
    if ((from_cells ? thickness_cells_->value() : thickness_mm_->value()) == shown) return;
    b.absorbing.thickness = thickness;
    apply(b, tr("Absorbing layer %1").arg(mm_text(thickness)), tr("Layer thickness"),
          from_cells ? tr("%1 cells (%2)").arg(thickness_cells_->value()).arg(mm_text(thickness)) : mm_text(thickness));
}

void BoundaryPanel::pmlKeyEdited(QLineEdit* edit) {
    if (refreshing_) return;
    BoundarySpec b = doc_->scene().boundary;
    AbsorbingSpec& a = b.absorbing;
    struct Key {
        QLineEdit* edit;
        std::optional<double>* value;
        double scale;
        QString label;
    };
    const Key keys[] = {{reflection_, &a.reflection, 1, tr("PML target reflection")},
                        {kappa_max_, &a.kappa_max, 1, tr("PML kappa max")},
                        {alpha_max_, &a.alpha_max, 1, tr("PML alpha max")},
                        {frequency_, &a.frequency, 1e3, tr("PML frequency")}};
    for (const Key& k : keys) {
        if (k.edit != edit) continue;
        const QString text = edit->text().trimmed();
        if (text.isEmpty()) {
            k.value->reset();
        } else {
            bool ok = false;
            const double v = QLocale::c().toDouble(text, &ok);
            if (!ok) return void(refuse(tr("%1 %2: is not a number").arg(k.label, text)));
            *k.value = v * k.scale;
        }
        apply(b, tr("%1 %2").arg(k.label, text.isEmpty() ? tr("default") : text), k.label, text);
    }
}

}  // namespace voxwave::ui
