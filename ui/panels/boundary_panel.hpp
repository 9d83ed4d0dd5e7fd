// The Boundary panel: what each face of the box does (free, fixed, absorbing PML, absorbing
// sponge, or fixed behind a sponge) and the absorbing layer they share (the scene has one
// absorbing block: one type and one thickness for all its faces): the thickness in mm and in
// cells of the grid, kept in step with the spacing, and the PML's options. Every change is one
// undo command; a value the engine's validation refuses is reported through failed() with the
// field as the panel shows it, and the scene stays as it was.
#pragma once

#include <QWidget>
#include <array>

#include "document/scene_document.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QGroupBox;

namespace voxwave::ui {

class BoundaryPanel : public QWidget {
    Q_OBJECT
public:
    // What a face does, in the order of the face combo boxes' items.
    enum FaceChoice { Free, Fixed, AbsorbingPml, AbsorbingSponge, FixedBehindSponge };

    explicit BoundaryPanel(SceneDocument* doc, QWidget* parent = nullptr);

    // The widgets, for tests (they edit them as a user would).
    QComboBox* faceBox(int face) const { return faces_[std::size_t(face)]; }
    QDoubleSpinBox* thicknessMm() const { return thickness_mm_; }
    QDoubleSpinBox* thicknessCells() const { return thickness_cells_; }
    QLineEdit* reflectionEdit() const { return reflection_; }
    QLineEdit* kappaMaxEdit() const { return kappa_max_; }
    QLineEdit* alphaMaxEdit() const { return alpha_max_; }
    QLineEdit* frequencyEdit() const { return frequency_; }
    // The last refusal's message (empty when the last edit went in).
    const QString& lastError() const { return last_error_; }

    // What the scene's boundary says face f does.
    static FaceChoice faceChoice(const BoundarySpec& b, int face);
    // The boundary with face f set to `choice`; a choice of the other absorbing type turns every
    // absorbing face to it (they share one block), and a new layer gets 10 cells of `spacing`.
    static BoundarySpec withFace(const BoundarySpec& b, int face, FaceChoice choice, double spacing);

signals:
    void failed(const QString& message);

public slots:
    void refresh();

private:
    void faceChosen(int face);
    void thicknessEdited(bool from_cells);
    void pmlKeyEdited(QLineEdit* edit);
    // Validates the scene with `after` as its boundary (validate_scene, the one home of the
    // rules) and pushes it; a refusal is worded for the panel (`field`: the label as shown,
    // `value`: the value as shown) and the widgets go back to the scene.
    bool apply(const BoundarySpec& after, const QString& what, const QString& field, const QString& value);
    bool refuse(const QString& message);

    SceneDocument* doc_;
    std::array<QComboBox*, 6> faces_{};
    QDoubleSpinBox* thickness_mm_;
    QDoubleSpinBox* thickness_cells_;
    QGroupBox* pml_box_;
    QLineEdit* reflection_;
    QLineEdit* kappa_max_;
    QLineEdit* alpha_max_;
    QLineEdit* frequency_;
    QLabel* summary_;
    QString last_error_;
    bool refreshing_ = false;
};

}  // namespace voxwave::ui
