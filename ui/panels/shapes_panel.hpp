// Parametric shapes (box, cylinder / rebar, sphere / void, concrete aggregate) placed with a
// property form, and imports of a voxel volume (HDF5), an image stack or a closed STL surface. Each becomes one
// undoable paint of the voxel model. Shapes placed here stay editable: pick one in the list,
// change the form, apply (the old voxels come back, the new shape is painted, one undo step).
#pragma once

#include <QStringList>
#include <QWidget>
#include <array>

#include "document/edit_commands.hpp"
#include "document/scene_document.hpp"

class QComboBox;
class QListWidget;
class QPushButton;
class QDoubleSpinBox;
class QSpinBox;
class QStackedWidget;

namespace voxwave::ui {

class ShapesPanel : public QWidget {
    Q_OBJECT
public:
    explicit ShapesPanel(SceneDocument* doc, QWidget* parent = nullptr);

    // The shape the form describes (metres), and painting it (returns the voxels changed).
    Shape formShape() const;
    std::size_t addShape(const Shape& shape);
    // The shapes placed so far and still in the model (after undo/redo), oldest first; an edited
    // shape appears once, as edited.
    std::vector<const ShapePaintCommand*> placedShapes() const;
    // Re-paints placed shape `which` as `shape`: its voxels that still hold its material get their
    // earlier value back, then the new shape is painted; one undo step. Returns voxels changed.
    std::size_t editShape(const ShapePaintCommand* which, const Shape& shape);
    void setFormShape(const Shape& shape);
    // Why the form's shape would be refused, worded for the form (its labels, lengths in mm);
    // empty when it is fine.
    QString formError() const;
    // Imports; throw InputError (naming the file) on a bad file, leaving the model unchanged.
    std::size_t importVolume(const QString& path, const QString& dataset);
    // Images in the given order are slices along z from k = 0; each pixel takes the material
    // whose colour is nearest (black is void); images are resampled to nx x ny.
    std::size_t importImageStack(const QStringList& files);
    // A closed STL surface (coordinates times `scale`, then moved by `translate`, metres) placed
    // as an "stl" shape of the form's material; refuses a surface that encloses no element.
    std::size_t importStl(const QString& path, double scale, const Vec3& translate = {0, 0, 0});
    // Asks for the file and its units, then importStl; errors go to failed().
    void chooseStl();

signals:
    void failed(const QString& message);

private:
    void reloadMaterials();
    void refreshPlaced();
    // One undoable paint of voxels idx to values val (dropped when it changes nothing).
    void pushPaint(const std::vector<std::size_t>& idx, const std::vector<MaterialId>& val, const QString& what);

    SceneDocument* doc_;
    QComboBox* type_;
    QComboBox* material_;
    QStackedWidget* pages_;
    // Parameters in mm: box min/max; cylinder centre, axis, radius, length; sphere centre, radius;
    // aggregate min/max, fraction, radius min/max, seed.
    std::array<QDoubleSpinBox*, 6> box_{};
    std::array<QDoubleSpinBox*, 8> cyl_{};
    std::array<QDoubleSpinBox*, 4> sph_{};
    std::array<QDoubleSpinBox*, 9> agg_{};
    QSpinBox* seed_;
    QListWidget* placed_;
    QPushButton* apply_;
    std::vector<const ShapePaintCommand*> placed_cmds_;  // rows of placed_
};

}  // namespace voxwave::ui
