// Solvers tab: the element-integration lab (seeds 001 and 003): element, order, variant,
// Jacobian, precision, backend; Run or sweep the orders on a worker thread; the timing table,
// a GFLOP/s-against-p plot and a heat map of one element matrix.
#pragma once

#include <QWidget>
#include <vector>

#include "integration/integration_lab.hpp"
#include "sim/background_job.hpp"

class QChart;
class QComboBox;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace voxwave::ui {

class MatrixHeatmap;

class IntegrationPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxElements = 10'000'000;  // the Elements control's upper end
    explicit IntegrationPanel(QWidget* parent = nullptr);
    integration::IntegrationParams params() const;
    void setParams(const integration::IntegrationParams& p);
    const std::vector<integration::IntegrationResult>& results() const { return results_; }
    BackgroundJob* job() { return &job_; }
    QTableWidget* table() const { return table_; }
    const MatrixHeatmap* heatmap() const { return heatmap_; }
    int plottedPoints() const;

public slots:
    void run();
    void sweep();  // every order of the element type, one row and one plot point each

private:
    void showResults(const std::vector<integration::IntegrationResult>& rs,
                     const std::vector<integration::IntegrationParams>& ps);
    void replot();

    QComboBox *element_, *problem_, *variant_, *jacobian_, *precision_, *backend_;
    QSpinBox *order_, *elements_;
    QPushButton *run_, *sweep_, *cancel_;
    QProgressBar* progress_;
    QTableWidget* table_;
    QChart* chart_;
    MatrixHeatmap* heatmap_;
    BackgroundJob job_;
    std::vector<integration::IntegrationResult> pending_;
    std::vector<integration::IntegrationParams> pending_params_;
    std::vector<integration::IntegrationResult> results_;
    std::vector<integration::IntegrationParams> result_params_;
};

}  // namespace voxwave::ui
