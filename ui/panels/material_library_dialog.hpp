// The material library: the built-in materials (assets/materials/library.json, read-only) and
// the user's own (saved in the user's application data folder, read with the built-in ones), in
// one table with derived values (Poisson's ratio, Young's modulus, acoustic impedance). Materials
// are added to the scene from here (one undo step) and the user's are edited in the table: every
// edit is checked by the engine's validate_material, the one home of the material rules.
#pragma once

#include <QDialog>
#include <vector>

#include "document/scene_document.hpp"
#include "model/material.hpp"

class QTableWidget;
class QPushButton;
class QLabel;

namespace voxwave::ui {

class MaterialLibraryDialog : public QDialog {
    Q_OBJECT
public:
    enum Column { kName, kDensity, kVp, kVs, kPoisson, kYoung, kImpedance, kColor, kOrigin, kSource, kColumns };

    // Reads both libraries; a missing user library is an empty one, a broken one is reported
    // through failed() (once the dialog is connected: see loadUserLibrary) and left untouched.
    MaterialLibraryDialog(SceneDocument* doc, QString builtin_path, QString user_path, QWidget* parent = nullptr);

    QTableWidget* table() const { return table_; }
    const std::vector<Material>& builtIn() const { return builtin_; }
    const std::vector<Material>& user() const { return user_; }
    // The table row of a material name, -1 when there is none.
    int rowOf(const QString& name) const;
    bool isUserRow(int row) const { return row >= int(builtin_.size()) && row < int(builtin_.size() + user_.size()); }
    bool userLibraryModified() const { return modified_; }

    // Reads the user library again (drops unsaved edits); false and failed() when it is broken.
    bool loadUserLibrary();
    // Adds the materials of `rows` to the scene (one undo step); false and failed() when the
    // scene already has one of that name or would have more than 255.
    bool addToScene(const std::vector<int>& rows);
    // A new user material: a copy of `from_row` (or of the first one) under a free name; its row.
    int newUserMaterial(int from_row);
    // Removes a user material (built-in ones stay); false when `row` is not a user row.
    bool removeUserMaterial(int row);
    // Writes the user library atomically; false and failed() when it cannot be written.
    bool saveUserLibrary();

signals:
    // A refused edit or a failed load or save: one line naming the row and the value as shown.
    void failed(const QString& message);
    void info(const QString& message);

private:
    void refresh();
    void cellEdited(int row, int column);
    const Material& materialAt(int row) const;

    SceneDocument* doc_;
    QString builtin_path_, user_path_;
    std::vector<Material> builtin_, user_;
    QTableWidget* table_ = nullptr;
    QLabel* where_ = nullptr;
    QPushButton* save_ = nullptr;
    QString load_problem_;  // a library that could not be read, said under the table
    bool refreshing_ = false;
    bool modified_ = false;
};

}  // namespace voxwave::ui
