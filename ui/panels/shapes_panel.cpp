#include "panels/shapes_panel.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QImage>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>
#include <filesystem>
#include <map>

#include "core/errors.hpp"
#include "document/edit_commands.hpp"
#include "model/stl_surface.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"

namespace voxwave::ui {

namespace {

QDoubleSpinBox* mm_box(double value, double lo = -1e5, double hi = 1e5) {
    auto* b = new QDoubleSpinBox;
    b->setRange(lo, hi);
    b->setDecimals(3);
    b->setValue(value);
    return b;
}

// Three spin boxes in a row (x, y, z).
QWidget* row(QDoubleSpinBox* a, QDoubleSpinBox* b, QDoubleSpinBox* c) {
    auto* w = new QWidget;
    auto* h = new QHBoxLayout(w);
    h->setContentsMargins(0, 0, 0, 0);
    for (auto* s : {a, b, c}) h->addWidget(s);
    return w;
}

Vec3 vec(const QDoubleSpinBox* const* s, double scale = 1e-3) {
    return {s[0]->value() * scale, s[1]->value() * scale, s[2]->value() * scale};
}

Vec3 times(const Vec3& v, double k) { return {v[0] * k, v[1] * k, v[2] * k}; }

// The shape with every length multiplied by k (directions, fractions and seeds as they are):
// validate_shape's rules compare lengths with lengths only, so the shape in mm passes or fails
// them as in metres, and its message then quotes the form's own numbers.
Shape scaled(Shape s, double k) {
    std::visit(
        [k](auto& g) {
            using T = std::decay_t<decltype(g)>;
            if constexpr (std::is_same_v<T, BoxShape>) {
                g.min = times(g.min, k), g.max = times(g.max, k);
            } else if constexpr (std::is_same_v<T, CylinderShape>) {
                g.center = times(g.center, k), g.radius *= k, g.length *= k;
            } else if constexpr (std::is_same_v<T, SphereShape>) {
                g.center = times(g.center, k), g.radius *= k;
            } else if constexpr (std::is_same_v<T, StlShape>) {
                g.scale *= k, g.translate = times(g.translate, k);
            } else {
                g.min = times(g.min, k), g.max = times(g.max, k), g.radius_min *= k, g.radius_max *= k;
            }
        },
        s.geometry);
    return s;
}

}  // namespace

ShapesPanel::ShapesPanel(SceneDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    type_ = new QComboBox;
    type_->addItems({tr("box"), tr("cylinder / rebar"), tr("sphere / void"), tr("concrete aggregate")});
    material_ = new QComboBox;
    pages_ = new QStackedWidget;
    // Box.
    auto* bp = new QWidget;
    auto* bf = new QFormLayout(bp);
    for (int i = 0; i < 6; ++i) box_[std::size_t(i)] = mm_box(i < 3 ? 10 : 30);
    bf->addRow(tr("min (mm)"), row(box_[0], box_[1], box_[2]));
    bf->addRow(tr("max (mm)"), row(box_[3], box_[4], box_[5]));
    // Cylinder.
    auto* cp = new QWidget;
    auto* cf = new QFormLayout(cp);
    const double cyl_defaults[8] = {50, 50, 50, 0, 1, 0, 8, 100};
    for (int i = 0; i < 8; ++i) cyl_[std::size_t(i)] = mm_box(cyl_defaults[i]);
    cf->addRow(tr("centre (mm)"), row(cyl_[0], cyl_[1], cyl_[2]));
    cf->addRow(tr("axis"), row(cyl_[3], cyl_[4], cyl_[5]));
    cf->addRow(tr("radius (mm)"), cyl_[6]);
    cf->addRow(tr("length (mm)"), cyl_[7]);
    // Sphere.
    auto* sp = new QWidget;
    auto* sf = new QFormLayout(sp);
    const double sph_defaults[4] = {50, 50, 25, 5};
    for (int i = 0; i < 4; ++i) sph_[std::size_t(i)] = mm_box(sph_defaults[i]);
    sf->addRow(tr("centre (mm)"), row(sph_[0], sph_[1], sph_[2]));
    sf->addRow(tr("radius (mm)"), sph_[3]);
    // Aggregate.
    auto* ap = new QWidget;
    auto* af = new QFormLayout(ap);
    const double agg_defaults[9] = {0, 0, 0, 100, 100, 50, 0.35, 2, 6};
    for (int i = 0; i < 9; ++i) agg_[std::size_t(i)] = mm_box(agg_defaults[i]);
    agg_[6]->setRange(0.01, 0.74);
    agg_[6]->setSingleStep(0.05);
    seed_ = new QSpinBox;
    seed_->setRange(1, 1 << 30);
    af->addRow(tr("min (mm)"), row(agg_[0], agg_[1], agg_[2]));
    af->addRow(tr("max (mm)"), row(agg_[3], agg_[4], agg_[5]));
    af->addRow(tr("fill fraction"), agg_[6]);
    af->addRow(tr("radius min / max (mm)"), [&] {
        auto* w = new QWidget;
        auto* h = new QHBoxLayout(w);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(agg_[7]);
        h->addWidget(agg_[8]);
        return w;
    }());
    af->addRow(tr("seed"), seed_);
    for (QWidget* p : {bp, cp, sp, ap}) pages_->addWidget(p);
    connect(type_, &QComboBox::currentIndexChanged, pages_, &QStackedWidget::setCurrentIndex);

    auto* add = new QPushButton(tr("Add to model"));
    auto* vol = new QPushButton(tr("Import HDF5 volume..."));
    auto* stack = new QPushButton(tr("Import image stack..."));
    auto* stl = new QPushButton(tr("Import STL surface..."));
    stl->setToolTip(
        tr("A closed triangulated surface (ASCII or binary STL): the voxels it encloses take the "
           "material chosen above"));
    auto* top = new QFormLayout;
    top->addRow(tr("Shape"), type_);
    top->addRow(tr("Material"), material_);
    auto* lay = new QVBoxLayout(this);
    lay->addLayout(top);
    lay->addWidget(pages_);
    lay->addWidget(add);
    // Placed shapes: pick one to load it into the form, change it, apply (one undo step).
    placed_ = new QListWidget;
    placed_->setMaximumHeight(110);
    apply_ = new QPushButton(tr("Apply form to selected shape"));
    apply_->setEnabled(false);
    lay->addWidget(new QLabel(tr("Placed shapes")));
    lay->addWidget(placed_);
    lay->addWidget(apply_);
    connect(placed_, &QListWidget::currentRowChanged, this, [this](int row) {
        const bool ok = row >= 0 && std::size_t(row) < placed_cmds_.size();
        // An imported surface has no form: it is moved or replaced by importing it again.
        const bool imported = ok && std::holds_alternative<StlShape>(placed_cmds_[std::size_t(row)]->shape().geometry);
        apply_->setEnabled(ok && !imported);
        apply_->setToolTip(
            imported ? tr("An imported STL surface has no form: undo it and import it again to change it") : QString());
        if (ok && !imported) setFormShape(placed_cmds_[std::size_t(row)]->shape());
    });
    connect(apply_, &QPushButton::clicked, this, [this] {
        const int row = placed_->currentRow();
        if (row < 0 || std::size_t(row) >= placed_cmds_.size()) return;
        if (const QString e = formError(); !e.isEmpty()) {
            emit failed(e);
            return;
        }
        try {
            editShape(placed_cmds_[std::size_t(row)], formShape());
        } catch (const std::exception& e) {
            emit failed(QString::fromStdString(e.what()));
        }
    });
    connect(doc_->undoStack(), &QUndoStack::indexChanged, this, &ShapesPanel::refreshPlaced);
    lay->addSpacing(8);
    lay->addWidget(vol);
    lay->addWidget(stack);
    lay->addWidget(stl);
    lay->addStretch();
    connect(stl, &QPushButton::clicked, this, &ShapesPanel::chooseStl);
    connect(add, &QPushButton::clicked, this, [this] {
        if (const QString e = formError(); !e.isEmpty()) {
            emit failed(e);
            return;
        }
        try {
            addShape(formShape());
        } catch (const std::exception& e) {
            emit failed(QString::fromStdString(e.what()));
        }
    });
    connect(vol, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Import voxel volume"), {}, tr("HDF5 (*.h5 *.hdf5)"));
        if (p.isEmpty()) return;
        bool ok = false;
        const QString ds = QInputDialog::getText(this, tr("Dataset"), tr("uint8 dataset (nz, ny, nx):"),
                                                 QLineEdit::Normal, "/model/material_ids", &ok);
        if (!ok) return;
        try {
            importVolume(p, ds);
        } catch (const std::exception& e) {
            emit failed(QString::fromStdString(e.what()));
        }
    });
    connect(stack, &QPushButton::clicked, this, [this] {
        QStringList files = QFileDialog::getOpenFileNames(this, tr("Import image stack (slices along z)"), {},
                                                          tr("Images (*.png *.tif *.tiff *.bmp)"));
        if (files.isEmpty()) return;
        files.sort();
        try {
            importImageStack(files);
        } catch (const std::exception& e) {
            emit failed(QString::fromStdString(e.what()));
        }
    });
    connect(doc_, &SceneDocument::documentReset, this, &ShapesPanel::reloadMaterials);
    connect(doc_, &SceneDocument::materialsChanged, this, &ShapesPanel::reloadMaterials);
    reloadMaterials();
}

void ShapesPanel::reloadMaterials() {
    material_->clear();
    material_->addItem("void");
    for (const auto& m : doc_->scene().materials) material_->addItem(QString::fromStdString(m.name));
    material_->setCurrentIndex(std::min(2, material_->count() - 1));
}

Shape ShapesPanel::formShape() const {
    Shape s;
    s.material = material_->currentText().toStdString();
    switch (type_->currentIndex()) {
        case 0:
            s.geometry = BoxShape{vec(&box_[0]), vec(&box_[3])};
            break;
        case 1:
            s.geometry =
                CylinderShape{vec(&cyl_[0]), vec(&cyl_[3], 1.0), cyl_[6]->value() * 1e-3, cyl_[7]->value() * 1e-3};
            break;
        case 2:
            s.geometry = SphereShape{vec(&sph_[0]), sph_[3]->value() * 1e-3};
            break;
        default: {
            AggregateShape a;
            a.min = vec(&agg_[0]);
            a.max = vec(&agg_[3]);
            a.fraction = agg_[6]->value();
            a.radius_min = agg_[7]->value() * 1e-3;
            a.radius_max = agg_[8]->value() * 1e-3;
            a.seed = std::uint64_t(seed_->value());
            s.geometry = a;
        }
    }
    return s;
}

void ShapesPanel::setFormShape(const Shape& s) {
    material_->setCurrentIndex(std::max(0, material_->findText(QString::fromStdString(s.material))));
    const auto set3 = [](QDoubleSpinBox* const* b, const Vec3& v, double scale = 1e3) {
        for (int i = 0; i < 3; ++i) b[i]->setValue(v[std::size_t(i)] * scale);
    };
    if (const auto* b = std::get_if<BoxShape>(&s.geometry)) {
        type_->setCurrentIndex(0);
        set3(&box_[0], b->min);
        set3(&box_[3], b->max);
    } else if (const auto* c = std::get_if<CylinderShape>(&s.geometry)) {
        type_->setCurrentIndex(1);
        set3(&cyl_[0], c->center);
        set3(&cyl_[3], c->axis, 1.0);
        cyl_[6]->setValue(c->radius * 1e3);
        cyl_[7]->setValue(c->length * 1e3);
    } else if (const auto* p = std::get_if<SphereShape>(&s.geometry)) {
        type_->setCurrentIndex(2);
        set3(&sph_[0], p->center);
        sph_[3]->setValue(p->radius * 1e3);
    } else if (const auto* a = std::get_if<AggregateShape>(&s.geometry)) {
        type_->setCurrentIndex(3);
        set3(&agg_[0], a->min);
        set3(&agg_[3], a->max);
        agg_[6]->setValue(a->fraction);
        agg_[7]->setValue(a->radius_min * 1e3);
        agg_[8]->setValue(a->radius_max * 1e3);
        seed_->setValue(int(a->seed));
    }
}

namespace {
QString shape_label(const Shape& s) {
    static const char* kinds[] = {"box", "cylinder", "sphere", "aggregate", "stl"};
    if (const auto* stl = std::get_if<StlShape>(&s.geometry))
        return QString("stl %1 (%2)")
            .arg(QString::fromStdString(stl->file).section('/', -1), QString::fromStdString(s.material));
    return QString("%1 (%2)").arg(kinds[s.geometry.index()], QString::fromStdString(s.material));
}
}  // namespace

QString ShapesPanel::formError() const {
    const Shape mm = scaled(formShape(), 1e3);
    try {
        validate_shape(mm, "", "");
    } catch (const InputError& e) {
        static const std::pair<const char*, const char*> labels[] = {{"min", "min (mm)"},
                                                                     {"max", "max (mm)"},
                                                                     {"center", "centre (mm)"},
                                                                     {"axis", "axis"},
                                                                     {"radius", "radius (mm)"},
                                                                     {"length", "length (mm)"},
                                                                     {"fraction", "fill fraction"},
                                                                     {"radius_min", "radius min / max (mm)"},
                                                                     {"radius_max", "radius min / max (mm)"}};
        QString label = QString::fromStdString(e.field());
        for (const auto& [key, text] : labels)
            if (e.field() == key) label = tr(text);
        return tr("Shape form (%1), %2: %3 (lengths in mm)")
            .arg(type_->currentText(), label, QString::fromStdString(e.reason()));
    }
    return {};
}

std::size_t ShapesPanel::addShape(const Shape& shape) {
    validate_shape(shape, "", "shape");
    const int id = doc_->materialId(shape.material);
    const auto cells = shape_elements(doc_->model(), shape);
    auto* cmd = new ShapePaintCommand(doc_, cells, std::vector<MaterialId>(cells.size(), MaterialId(id)),
                                      tr("Add %1").arg(shape_label(shape)), shape, nullptr);
    const std::size_t changed = cmd->indices().size();
    if (cmd->empty())
        delete cmd;  // nothing changes: no undo step
    else
        doc_->undoStack()->push(cmd);
    return changed;
}

std::vector<const ShapePaintCommand*> ShapesPanel::placedShapes() const {
    const QUndoStack* stack = doc_->undoStack();
    std::vector<const ShapePaintCommand*> applied;
    for (int i = 0; i < stack->index(); ++i)
        if (const auto* c = dynamic_cast<const ShapePaintCommand*>(stack->command(i))) applied.push_back(c);
    // An applied edit hides the placement it replaces (the edit shows the shape as it is now).
    std::vector<const ShapePaintCommand*> out;
    for (const ShapePaintCommand* c : applied) {
        const bool replaced =
            std::any_of(applied.begin(), applied.end(), [c](const ShapePaintCommand* d) { return d->replaces() == c; });
        if (!replaced) out.push_back(c);
    }
    return out;
}

std::size_t ShapesPanel::editShape(const ShapePaintCommand* which, const Shape& shape) {
    validate_shape(shape, "", "shape");
    const std::vector<const ShapePaintCommand*> now = placedShapes();
    if (std::find(now.begin(), now.end(), which) == now.end())
        throw InputError("", "shape", "that shape is no longer in the model");
    const auto& ids = doc_->model().ids;
    const int old_id = doc_->materialId(which->shape().material);
    // Voxel -> value: the old shape's voxels that still hold its material go back to what they
    // were (the chain of earlier edits included: `before` is what each edit found), then the new
    // shape paints over.
    std::map<std::size_t, MaterialId> change;
    for (const ShapePaintCommand* c = which; c; c = c->replaces())
        for (std::size_t n = 0; n < c->indices().size(); ++n) {
            const std::size_t i = c->indices()[n];
            if (ids[i] == MaterialId(old_id)) change[i] = c->before()[n];  // the oldest value wins
        }
    const MaterialId new_id = MaterialId(doc_->materialId(shape.material));
    for (std::size_t i : shape_elements(doc_->model(), shape)) change[i] = new_id;
    std::vector<std::size_t> idx;
    std::vector<MaterialId> val;
    for (const auto& [i, v] : change) {
        idx.push_back(i);
        val.push_back(v);
    }
    auto* cmd = new ShapePaintCommand(doc_, idx, val, tr("Edit %1").arg(shape_label(shape)), shape, which);
    const std::size_t changed = cmd->indices().size();
    doc_->undoStack()->push(cmd);  // even an edit that changes no voxel records the new parameters
    return changed;
}

void ShapesPanel::refreshPlaced() {
    placed_cmds_ = placedShapes();
    const QSignalBlocker block(placed_);
    placed_->clear();
    for (const ShapePaintCommand* c : placed_cmds_) placed_->addItem(shape_label(c->shape()));
    apply_->setEnabled(false);
}

void ShapesPanel::pushPaint(const std::vector<std::size_t>& idx, const std::vector<MaterialId>& val,
                            const QString& what) {
    auto* cmd = new PaintVoxelsCommand(doc_, idx, val, what);
    if (cmd->empty())
        delete cmd;  // nothing changes: no undo step
    else
        doc_->undoStack()->push(cmd);
}

std::size_t ShapesPanel::importVolume(const QString& path, const QString& dataset) {
    const VoxelGrid vol = read_voxels_h5(path.toStdString(), dataset.toStdString());
    const VoxelGrid& g = doc_->model();
    const int nmat = int(doc_->scene().materials.size());
    std::vector<std::size_t> idx;
    std::vector<MaterialId> val;
    // Nearest-neighbour: each element takes the volume's voxel under its centre (outside: unchanged).
    for (int k = 0; k < g.n[2]; ++k)
        for (int j = 0; j < g.n[1]; ++j)
            for (int i = 0; i < g.n[0]; ++i) {
                std::array<int, 3> v{};
                bool inside = true;
                const int ijk[3] = {i, j, k};
                for (int a = 0; a < 3; ++a) {
                    const double c = g.origin[a] + (ijk[a] + 0.5) * g.spacing;
                    v[a] = int(std::floor((c - vol.origin[a]) / vol.spacing));
                    inside = inside && v[a] >= 0 && v[a] < vol.n[a];
                }
                if (!inside) continue;
                const MaterialId id = vol.at(v[0], v[1], v[2]);
                if (id > nmat)
                    throw InputError(path.toStdString(), dataset.toStdString(),
                                     "material id " + std::to_string(id) + " but the scene has " +
                                         std::to_string(nmat) + " materials");
                idx.push_back(g.element_index(i, j, k));
                val.push_back(id);
            }
    pushPaint(idx, val, tr("Import %1").arg(path.section('/', -1)));
    return idx.size();
}

std::size_t ShapesPanel::importImageStack(const QStringList& files) {
    const VoxelGrid& g = doc_->model();
    // Palette: void (black) and every material colour.
    std::vector<QColor> palette{QColor(0, 0, 0)};
    for (const auto& m : doc_->scene().materials) palette.push_back(QColor(QString::fromStdString(m.color)));
    std::vector<std::size_t> idx;
    std::vector<MaterialId> val;
    for (int k = 0; k < std::min<int>(int(files.size()), g.n[2]); ++k) {
        QImage img(files[k]);
        if (img.isNull()) throw InputError(files[k].toStdString(), "", "not an image Qt can read");
        img = img.convertToFormat(QImage::Format_RGB32)
                  .scaled(g.n[0], g.n[1], Qt::IgnoreAspectRatio, Qt::FastTransformation);
        for (int j = 0; j < g.n[1]; ++j)
            for (int i = 0; i < g.n[0]; ++i) {
                const QColor c = img.pixelColor(i, g.n[1] - 1 - j);  // image rows run down, y runs up
                int best = 0, best_d = 1 << 30;
                for (int p = 0; p < int(palette.size()); ++p) {
                    const int dr = c.red() - palette[p].red(), dg = c.green() - palette[p].green(),
                              db = c.blue() - palette[p].blue();
                    const int d = dr * dr + dg * dg + db * db;
                    if (d < best_d) best = p, best_d = d;
                }
                idx.push_back(g.element_index(i, j, k));
                val.push_back(MaterialId(best));
            }
    }
    pushPaint(idx, val, tr("Import %1 images").arg(files.size()));
    return idx.size();
}

void ShapesPanel::chooseStl() {
    QSettings settings;
    const QString p =
        QFileDialog::getOpenFileName(this, tr("Import STL surface"), settings.value("dirs/stl").toString(),
                                     tr("STL surfaces (*.stl *.STL);;All files (*)"));
    if (p.isEmpty()) return;
    settings.setValue("dirs/stl", QFileInfo(p).absolutePath());
    // STL files carry no unit; CAD exports are mostly in millimetres.
    const QStringList units{tr("millimetres"), tr("metres"), tr("inches")};
    bool ok = false;
    const QString unit = QInputDialog::getItem(this, tr("STL units"), tr("The file's coordinates are in:"), units,
                                               units.indexOf(settings.value("stl/unit", units[0]).toString()) < 0
                                                   ? 0
                                                   : int(units.indexOf(settings.value("stl/unit").toString())),
                                               false, &ok);
    if (!ok) return;
    settings.setValue("stl/unit", unit);
    const double scale = unit == units[1] ? 1.0 : unit == units[2] ? 0.0254 : 1e-3;
    try {
        importStl(p, scale);
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what()));
    }
}

std::size_t ShapesPanel::importStl(const QString& path, double scale, const Vec3& translate) {
    StlShape stl{path.toStdString(), scale, translate, nullptr};
    stl.mesh = load_stl_surface(stl.file, scale, translate);
    // Stored relative to the scene's folder when it has one, as scene files write it.
    const std::string& base = doc_->scene().base_dir;
    if (!base.empty()) {
        const std::filesystem::path rel =
            std::filesystem::path(stl.file).lexically_normal().lexically_relative(std::filesystem::path(base));
        if (!rel.empty() && rel.string().rfind("..", 0) != 0) stl.file = rel.string();
    }
    const std::size_t changed = addShape(Shape{material_->currentText().toStdString(), stl});
    if (changed == 0)
        throw InputError(path.toStdString(), "",
                         "the surface encloses no element centre of the model (check its units and position)");
    return changed;
}

}  // namespace voxwave::ui
