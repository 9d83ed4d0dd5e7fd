#include "panels/material_library_dialog.hpp"

#include <QBrush>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>
#include <set>

#include "core/errors.hpp"
#include "document/edit_commands.hpp"
#include "panels/table_errors.hpp"

namespace voxwave::ui {

namespace {

// The table's column of a validate_material field ("vs", "density"...).
int column_of(const std::string& field) {
    const std::string key = field.substr(field.rfind('.') == std::string::npos ? 0 : field.rfind('.') + 1);
    if (key == "density") return MaterialLibraryDialog::kDensity;
    if (key == "vp") return MaterialLibraryDialog::kVp;
    if (key == "vs") return MaterialLibraryDialog::kVs;
    if (key == "color") return MaterialLibraryDialog::kColor;
    if (key == "source") return MaterialLibraryDialog::kSource;
    return MaterialLibraryDialog::kName;
}

QTableWidgetItem* item(const QString& text, bool editable) {
    auto* it = new QTableWidgetItem(text);
    if (!editable) it->setFlags(it->flags() & ~Qt::ItemIsEditable);
    return it;
}

QString number(double v, int digits = 6) { return QString::number(v, 'g', digits); }

}  // namespace

MaterialLibraryDialog::MaterialLibraryDialog(SceneDocument* doc, QString builtin_path, QString user_path,
                                             QWidget* parent)
    : QDialog(parent), doc_(doc), builtin_path_(std::move(builtin_path)), user_path_(std::move(user_path)) {
    setWindowTitle(tr("Material library"));
    table_ = new QTableWidget(0, kColumns);
    table_->setHorizontalHeaderLabels({tr("name"), tr("density kg/m³"), tr("vp m/s"), tr("vs m/s"),
                                       tr("Poisson's ratio"), tr("Young's modulus GPa"), tr("impedance MRayl"),
                                       tr("colour"), tr("library"), tr("source of the values")});
    const char* tips[kColumns] = {
        "Name used in the scene",
        "Mass density",
        "P-wave (longitudinal) speed",
        "S-wave (shear) speed; 0 for a fluid-like medium. Must stay below sqrt(3)/2 vp",
        "Derived: (vp² - 2 vs²) / (2 (vp² - vs²))",
        "Derived: E = 2 rho vs² (1 + Poisson's ratio)",
        "Derived: acoustic impedance Z = rho vp (the reflection at an interface grows with the impedance step)",
        "Colour in the model views (#rrggbb)",
        "built-in (read-only) or yours (editable, saved with Save my library)",
        "Where the values come from"};
    for (int c = 0; c < kColumns; ++c) table_->horizontalHeaderItem(c)->setToolTip(tr(tips[c]));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(kSource, QHeaderView::Stretch);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(table_, &QTableWidget::cellChanged, this, &MaterialLibraryDialog::cellEdited);

    auto* add = new QPushButton(tr("Add to scene"));
    add->setToolTip(tr("Add the selected materials to the scene, ready to paint with"));
    auto* copy = new QPushButton(tr("New from selected"));
    copy->setToolTip(tr("A material of your own, starting from the selected one's values: edit it in the table"));
    auto* remove = new QPushButton(tr("Remove mine"));
    remove->setToolTip(tr("Remove the selected materials of your own library (built-in ones stay)"));
    save_ = new QPushButton(tr("Save my library"));
    save_->setToolTip(tr("Write your materials to %1").arg(QDir::toNativeSeparators(user_path_)));
    const auto selected_rows = [this] {
        std::set<int> rows;
        for (const auto* it : table_->selectedItems()) rows.insert(it->row());
        if (rows.empty() && table_->currentRow() >= 0) rows.insert(table_->currentRow());
        return std::vector<int>(rows.begin(), rows.end());
    };
    connect(add, &QPushButton::clicked, this, [this, selected_rows] { addToScene(selected_rows()); });
    connect(copy, &QPushButton::clicked, this, [this] {
        const int row = newUserMaterial(table_->currentRow());
        table_->setCurrentCell(row, kName);
        table_->editItem(table_->item(row, kName));
    });
    connect(remove, &QPushButton::clicked, this, [this, selected_rows] {
        const auto rows = selected_rows();
        for (auto r = rows.rbegin(); r != rows.rend(); ++r) removeUserMaterial(*r);
    });
    connect(save_, &QPushButton::clicked, this, &MaterialLibraryDialog::saveUserLibrary);
    auto* buttons = new QHBoxLayout;
    for (auto* b : {add, copy, remove, save_}) buttons->addWidget(b);
    buttons->addStretch();
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::close);
    buttons->addWidget(close);
    where_ = new QLabel;
    where_->setWordWrap(true);
    auto* lay = new QVBoxLayout(this);
    lay->addWidget(table_);
    lay->addWidget(where_);
    lay->addLayout(buttons);
    resize(1100, 520);

    try {
        builtin_ = load_material_library(builtin_path_.toStdString());
    } catch (const std::exception& e) {
        load_problem_ = QString::fromStdString(e.what());
    }
    if (QFileInfo::exists(user_path_)) {
        try {
            user_ = load_material_library(user_path_.toStdString());
        } catch (const std::exception& e) {
            load_problem_ = tr("Your material library was not read: %1").arg(e.what());
        }
    }
    refresh();
}

const Material& MaterialLibraryDialog::materialAt(int row) const {
    return row < int(builtin_.size()) ? builtin_[std::size_t(row)] : user_[std::size_t(row) - builtin_.size()];
}

int MaterialLibraryDialog::rowOf(const QString& name) const {
    for (int r = 0; r < int(builtin_.size() + user_.size()); ++r)
        if (QString::fromStdString(materialAt(r).name) == name) return r;
    return -1;
}

void MaterialLibraryDialog::refresh() {
    refreshing_ = true;
    const int rows = int(builtin_.size() + user_.size());
    table_->setRowCount(rows);
    for (int r = 0; r < rows; ++r) {
        const Material& m = materialAt(r);
        const bool mine = isUserRow(r);
        table_->setItem(r, kName, item(QString::fromStdString(m.name), mine));
        table_->setItem(r, kDensity, item(number(m.density), mine));
        table_->setItem(r, kVp, item(number(m.vp), mine));
        table_->setItem(r, kVs, item(number(m.vs), mine));
        table_->setItem(r, kPoisson, item(number(m.poisson_ratio(), 3), false));
        const double young = 2.0 * m.shear_modulus() * (1.0 + m.poisson_ratio());
        table_->setItem(r, kYoung, item(number(young * 1e-9, 4), false));
        table_->setItem(r, kImpedance, item(number(m.density * m.vp * 1e-6, 4), false));
        auto* colour = item(QString::fromStdString(m.color), mine);
        const QColor swatch(QString::fromStdString(m.color));
        colour->setBackground(swatch);
        colour->setForeground(swatch.lightness() < 128 ? Qt::white : Qt::black);  // readable on the swatch
        table_->setItem(r, kColor, colour);
        table_->setItem(r, kOrigin, item(mine ? tr("mine") : tr("built-in"), false));
        auto* source = item(QString::fromStdString(m.source), mine);
        source->setToolTip(QString::fromStdString(m.source));
        table_->setItem(r, kSource, source);
    }
    refreshing_ = false;
    save_->setEnabled(modified_);
    QString where = tr("%1 built-in materials; %2 of yours, saved in %3%4")
                        .arg(builtin_.size())
                        .arg(user_.size())
                        .arg(QDir::toNativeSeparators(user_path_))
                        .arg(modified_ ? tr(" (changed, not saved yet)") : QString());
    where_->setText(load_problem_.isEmpty() ? where : load_problem_ + "\n" + where);
}

void MaterialLibraryDialog::cellEdited(int row, int column) {
    if (refreshing_ || !isUserRow(row)) return;
    Material m = materialAt(row);
    const QString text = table_->item(row, column)->text().trimmed();
    bool ok = true;
    switch (column) {
        case kName:
            m.name = text.toStdString();
            break;
        case kDensity:
            m.density = text.toDouble(&ok);
            break;
        case kVp:
            m.vp = text.toDouble(&ok);
            break;
        case kVs:
            m.vs = text.toDouble(&ok);
            break;
        case kColor:
            m.color = text.toStdString();
            break;
        case kSource:
            m.source = text.toStdString();
            break;
        default:
            return;
    }
    QString reason;
    int at = column;
    if (!ok) {
        reason = tr("is not a number");
    } else {
        try {
            // The library's rules: the engine's (validate_material), a named source, unique names.
            validate_material(m, "", "");
            if (m.source.empty()) throw InputError("", "source", "must name where the values come from");
            const int other = rowOf(QString::fromStdString(m.name));
            if (other >= 0 && other != row)
                throw InputError("", "name", "is the name of row " + std::to_string(other + 1));
        } catch (const InputError& e) {
            at = column_of(e.field());
            // The engine's numbers are in SI units, the table's too (kg/m³, m/s).
            reason = at == column
                         ? QString::fromStdString(e.reason())
                         : tr("makes %1 invalid: it %2")
                               .arg(table_->horizontalHeaderItem(at)->text(), QString::fromStdString(e.reason()));
        }
    }
    if (!reason.isEmpty()) {
        const QString message = table_cell_error(table_, tr("Material library"), row, column, kName, reason);
        refresh();  // back to the values it had
        emit failed(message);
        return;
    }
    user_[std::size_t(row) - builtin_.size()] = m;
    modified_ = true;
    refresh();
}

bool MaterialLibraryDialog::loadUserLibrary() {
    try {
        user_ =
            QFileInfo::exists(user_path_) ? load_material_library(user_path_.toStdString()) : std::vector<Material>{};
    } catch (const std::exception& e) {
        emit failed(tr("Your material library was not read: %1").arg(e.what()));
        return false;
    }
    modified_ = false;
    load_problem_.clear();
    refresh();
    return true;
}

bool MaterialLibraryDialog::addToScene(const std::vector<int>& rows) {
    std::vector<Material> materials = doc_->scene().materials;
    QStringList names;
    for (int r : rows) {
        if (r < 0 || r >= table_->rowCount()) continue;
        const Material& m = materialAt(r);
        for (const Material& have : materials)
            if (have.name == m.name) {
                emit failed(tr("Material library, row %1 (%2): the scene already has a material of that name")
                                .arg(r + 1)
                                .arg(QString::fromStdString(m.name)));
                return false;
            }
        materials.push_back(m);
        names << QString::fromStdString(m.name);
    }
    if (names.isEmpty()) return false;
    if (materials.size() > 255) {
        emit failed(tr("A scene holds at most 255 materials (voxel ids are 8-bit)"));
        return false;
    }
    doc_->undoStack()->push(new SetMaterialsCommand(doc_, materials, tr("Add material %1").arg(names.join(", "))));
    emit info(
        tr("Added %1 to the scene: pick it in the toolbar's material box to paint with it").arg(names.join(", ")));
    return true;
}

int MaterialLibraryDialog::newUserMaterial(int from_row) {
    Material m = from_row >= 0 && from_row < table_->rowCount() ? materialAt(from_row)
                 : builtin_.empty()                             ? Material{"material", 1000, 1500, 0, "#808080", ""}
                                                                : builtin_.front();
    const std::string base = m.name;
    for (int i = 1; rowOf(QString::fromStdString(m.name)) >= 0; ++i) m.name = base + "_" + std::to_string(i);
    m.source = m.source.empty() ? tr("my own values").toStdString() : tr("my own values, from: ").toStdString() + base;
    user_.push_back(m);
    modified_ = true;
    refresh();
    return int(builtin_.size() + user_.size()) - 1;
}

bool MaterialLibraryDialog::removeUserMaterial(int row) {
    if (!isUserRow(row)) return false;
    user_.erase(user_.begin() + (row - int(builtin_.size())));
    modified_ = true;
    refresh();
    return true;
}

bool MaterialLibraryDialog::saveUserLibrary() {
    try {
        const QString dir = QFileInfo(user_path_).absolutePath();
        if (!QDir().mkpath(dir)) throw InputError(dir.toStdString(), "", "cannot create the folder");
        write_material_library(user_path_.toStdString(), user_);
    } catch (const std::exception& e) {
        emit failed(tr("Your material library was not saved: %1").arg(e.what()));
        return false;
    }
    modified_ = false;
    refresh();
    emit info(tr("Saved %1 materials to %2").arg(user_.size()).arg(QDir::toNativeSeparators(user_path_)));
    return true;
}

}  // namespace voxwave::ui
