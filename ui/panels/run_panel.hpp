// Run settings: method, precision, TCOVFEM stages, backend, spacing, dt (auto from the CFL
// limit, which is shown), duration. Changes become one undo command each.
#pragma once

#include <QWidget>

#include "document/scene_document.hpp"

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QLabel;

namespace voxwave::ui {

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(SceneDocument* doc, QWidget* parent = nullptr);
    double stableDt() const { return stable_dt_; }

signals:
    void clusterJobRequested();  // "Run on a cluster..."

public slots:
    void refresh();

private:
    void apply();

    SceneDocument* doc_;
    QComboBox* method_;
    QComboBox* precision_;
    QSpinBox* stages_;
    QSpinBox* order_;
    QComboBox* backend_;
    QDoubleSpinBox* spacing_;
    QDoubleSpinBox* dt_;
    QDoubleSpinBox* duration_;
    QLabel* info_;
    double stable_dt_ = 0;
    bool refreshing_ = false;
};

}  // namespace voxwave::ui
