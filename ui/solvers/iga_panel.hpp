// Solvers tab: the isogeometric multi-frontal solver (seed 004): degree, elements, problem,
// backend; Run, or a cost sweep over N, on a worker thread; the solution surface in VTK and a
// log-log plot of the solve time against the unknowns beside the seed's slopes (N^1.5 sequential,
// N^1 parallel).
#pragma once

#include <QWidget>
#include <vector>

#include "iga/iga_solver.hpp"
#include "sim/background_job.hpp"

class QChart;
class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace voxwave::ui {

class VtkWidget;
class ColorBarWidget;

class IgaPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxElements = 1024;  // the largest N of the N x N choices (powers of two)
    explicit IgaPanel(QWidget* parent = nullptr);
    ~IgaPanel() override;
    iga::IgaParams params() const;
    void setParams(const iga::IgaParams& p);
    BackgroundJob* job() { return &job_; }
    const std::vector<iga::IgaResult>& results() const { return results_; }
    int surfacePoints() const;
    int plottedPoints() const;
    QString summary() const;

public slots:
    void run();
    void costSweep();  // N = 4 .. the chosen N at the chosen degree

private:
    void showResults(const std::vector<iga::IgaResult>& rs);
    void replot();

    QSpinBox* degree_;
    QComboBox *elements_, *problem_, *backend_;
    QCheckBox* parallel_;
    QPushButton *run_, *sweep_, *cancel_;
    QProgressBar* progress_;
    QLabel* info_;
    VtkWidget* surface_;
    ColorBarWidget* bar_;  // the colours of the solution drawn in surface_
    QChart* chart_;
    BackgroundJob job_;
    std::vector<iga::IgaResult> pending_, results_;
    struct Pipeline;
    std::unique_ptr<Pipeline> vtk_;
};

}  // namespace voxwave::ui
