// Two runs of the same scene (two methods, or two spacings) side by side in lockstep: both
// wavefield slices, their difference, the traces of one receiver overlaid, and the paper's
// error measure (seed 000 eq. 18) of one run against the run marked as reference.
#pragma once

#include <QWidget>
#include <array>
#include <vector>

#include "document/scene_document.hpp"
#include "scene/result.hpp"
#include "sim/simulation_controller.hpp"

class QChart;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace voxwave::ui {

class WavefieldView;

class ComparePanel : public QWidget {
    Q_OBJECT
public:
    explicit ComparePanel(SceneDocument* doc, QWidget* parent = nullptr);
    ~ComparePanel() override;

    SimulationController* controller() { return &controller_; }
    // Runs A and B as configured: method index (0 VFEM, 1 OVFEM, 2 TCOVFEM), precision index, spacing (m).
    void configure(int run, int method, int precision, double spacing);
    void setReference(int run);  // 0 = A, 1 = B
    // Eq. 18 of the other run against the reference, over the samples so far (NaN before any).
    double currentError() const { return error_; }
    std::size_t sampleCount() const { return t_.size(); }
    // The traces received so far as results (what eq. 18 is computed on).
    Result traces(int run) const;
    WavefieldView* view(int i) const { return views_[std::size_t(i)]; }

public slots:
    void runBoth();
    void stop();

signals:
    void errorChanged(double err);

private:
    void onFrame(const SimulationFrame& f);
    void redrawTraces();

    SceneDocument* doc_;
    SimulationController controller_;
    std::array<QComboBox*, 2> method_{}, precision_{};
    std::array<QDoubleSpinBox*, 2> spacing_{};
    QComboBox* reference_;
    QComboBox* receiver_;
    QComboBox* component_;
    QPushButton* run_;
    QPushButton* stop_;
    std::array<WavefieldView*, 3> views_{};
    QChart* chart_;
    QLabel* error_label_;
    // Traces of the comparison in progress: per run, per receiver, n x 3.
    std::vector<std::string> names_;
    double dt_ = 0;
    std::vector<double> t_;
    std::array<std::vector<std::vector<double>>, 2> u_;
    std::array<std::string, 2> labels_;
    double error_ = 0;
};

}  // namespace voxwave::ui
