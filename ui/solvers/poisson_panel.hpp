// Solvers tab: the prehandled lower-precision direct Poisson solver (seed 002): grid, levels,
// precision, right-hand sides, backend; Run, or a sweep over the levels in every precision, on a
// worker thread; the mesh and the solution in VTK, a table across levels and a plot of the error
// against the level (the paper's Fig. 10).
#pragma once

#include <QWidget>
#include <vector>

#include "poisson/poisson_mesh.hpp"
#include "poisson/poisson_run.hpp"
#include "sim/background_job.hpp"

class QChart;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace voxwave::ui {

class VtkWidget;
class ColorBarWidget;

class PoissonPanel : public QWidget {
    Q_OBJECT
public:
    explicit PoissonPanel(QWidget* parent = nullptr);
    ~PoissonPanel() override;
    poisson::PoissonParams params() const;
    void setParams(const poisson::PoissonParams& p);
    BackgroundJob* job() { return &job_; }
    QTableWidget* table() const { return table_; }
    const std::vector<poisson::PoissonResult>& results() const { return results_; }
    int meshCells() const { return mesh_cells_; }
    // Mesh node values drawn (interior nodes take the solution, boundary nodes 0).
    const std::vector<double>& drawnValues() const { return drawn_; }
    const poisson::PoissonMesh& drawnMesh() const { return mesh_; }
    int plottedPoints() const;

public slots:
    void run();
    void sweepLevels();  // levels L0+1 .. L in FP64, FP32, FP16

private:
    // The form's parameters, validated; false (after telling the user why) when they are not.
    bool checkedParams(poisson::PoissonParams& p);
    void showResults(std::vector<poisson::PoissonResult> rs);
    void drawMesh(const poisson::PoissonResult& r);
    void replot();

    QComboBox *grid_, *precision_, *backend_;
    QSpinBox *level_, *coarse_, *rhs_, *solution_;
    QPushButton *run_, *sweep_, *cancel_;
    QProgressBar* progress_;
    QLabel* info_;
    QTableWidget* table_;
    VtkWidget* view_;
    ColorBarWidget* bar_;  // the colours of the solution drawn in view_
    QChart* chart_;
    BackgroundJob job_;
    std::vector<poisson::PoissonResult> pending_, results_;
    poisson::PoissonMesh pending_mesh_, mesh_;
    std::vector<double> drawn_;
    int mesh_cells_ = 0;
    struct Pipeline;
    std::unique_ptr<Pipeline> vtk_;
};

}  // namespace voxwave::ui
