// Dispersion of VFEM, OVFEM and SEM p = 2..4 (at equal node counts) for the current material and spacing: the
// phase-velocity ratio against points per wavelength along a direction, and a polar plot of the ratio over directions
// (in the plane through the x axis and the (0, 1, 1) face diagonal, which holds the axis, the face diagonal and the
// cube diagonal) at a chosen points-per-wavelength. A 2D (plane-strain) scene shows its square element (VFEM and
// OVFEM): the axis, the diagonal and the x-y plane.
#pragma once

#include <QWidget>

#include "document/scene_document.hpp"

class QChart;
class QComboBox;
class QSpinBox;
class QPolarChart;

namespace voxwave::ui {

class DispersionPanel : public QWidget {
    Q_OBJECT
public:
    explicit DispersionPanel(SceneDocument* doc, QWidget* parent = nullptr);
    // The curves drawn (tests): series count of the ratio chart and the polar chart.
    int seriesCount() const;

public slots:
    void recompute();

private:
    SceneDocument* doc_;
    QComboBox* material_;
    QComboBox* direction_;
    QComboBox* mode_;
    QSpinBox* polar_ppw_;
    QChart* ratio_chart_;
    QPolarChart* polar_chart_;
};

}  // namespace voxwave::ui
