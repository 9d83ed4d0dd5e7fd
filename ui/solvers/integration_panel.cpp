#include "solvers/integration_panel.hpp"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <map>

#include "solvers/matrix_heatmap.hpp"
#include "solvers/solver_layout.hpp"
#include "views/plot_axis.hpp"

namespace voxwave::ui {

using namespace voxwave::integration;

namespace {
const char* kColumns[] = {"element",   "p",       "variant",    "jacobian",          "precision",
                          "backend",   "DOFs",    "init µs/el", "in µs/el",          "kernel µs/el",
                          "out µs/el", "GFLOP/s", "% peak",     "speed-up vs 1 core"};
}

IntegrationPanel::IntegrationPanel(QWidget* parent) : QWidget(parent) {
    element_ = new QComboBox;
    element_->addItems({"hex", "prism"});
    problem_ = new QComboBox;
    problem_->addItems({"elasticity", "laplace", "convection-diffusion"});
    variant_ = new QComboBox;
    variant_->addItems({"ai", "aii", "reg", "shm", "sumfact"});
    variant_->setCurrentIndex(3);
    // The kernels' names are the papers'; what each does is said in its tooltip.
    const char* variant_tips[] = {
        "one GPU thread per element (paper: seed 001 AI)",
        "one GPU thread per integration point, a warp per element (paper: seed 001 AII)",
        "one GPU thread per element and shape-function pair, sums in registers (paper: seed 003 reg)",
        "a GPU block per element and tile of shape pairs, shared memory (paper: seed 003 shm)",
        "sum factorisation, hexahedra only (on the CPU: sum factorisation; the others: the plain loop)"};
    for (int i = 0; i < variant_->count(); ++i) variant_->setItemData(i, tr(variant_tips[i]), Qt::ToolTipRole);
    variant_->setToolTip(tr("How the element integral is split over GPU threads (hover an entry for details)"));
    jacobian_ = new QComboBox;
    jacobian_->addItems({"precomputed", "computed"});
    jacobian_->setToolTip(
        tr("Jacobian terms of each element: computed on the host beforehand (precomputed) or "
           "by the kernel from the element's vertices (computed, counted as kernel time)"));
    precision_ = new QComboBox;
    precision_->addItems({"fp32", "fp64"});
    backend_ = new QComboBox;
    backend_->addItems({"auto", "cpu", "cuda"});
    order_ = new QSpinBox;
    order_->setRange(1, 10);
    order_->setValue(3);
    elements_ = new QSpinBox;
    elements_->setRange(1, kMaxElements);
    elements_->setValue(10000);
    run_ = new QPushButton(tr("Run"));
    sweep_ = new QPushButton(tr("Sweep p"));
    cancel_ = new QPushButton(tr("Cancel"));
    progress_ = new QProgressBar;
    auto* form = new QFormLayout;
    form->addRow(tr("Element"), element_);
    form->addRow(tr("Problem"), problem_);
    form->addRow(tr("Order p"), order_);
    form->addRow(tr("Elements m"), elements_);
    form->addRow(tr("Variant"), variant_);
    form->addRow(tr("Jacobian"), jacobian_);
    form->addRow(tr("Precision"), precision_);
    form->addRow(tr("Backend"), backend_);
    QWidget* left = solver_controls_column(form, run_, sweep_, cancel_, progress_);
    table_ = new QTableWidget(0, int(std::size(kColumns)));
    QStringList headers;
    for (const char* c : kColumns) headers << QString::fromUtf8(c);
    table_->setHorizontalHeaderLabels(headers);
    const std::pair<int, const char*> column_tips[] = {
        {6, "degrees of freedom of one element"},
        {7, "set-up per element (reference tables, Jacobians), microseconds"},
        {8, "copying the input to the device, per element"},
        {9, "the integration kernel itself, per element"},
        {10, "copying the element matrices back, per element"},
        {12, "share of the device's peak floating-point rate"},
        {13, "against the same integration on one CPU core"}};
    for (const auto& [c, tip] : column_tips) table_->horizontalHeaderItem(c)->setToolTip(tr(tip));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    chart_ = new QChart;
    chart_->setTheme(QChart::ChartThemeDark);
    chart_->setTitle(tr("GFLOP/s against p"));
    auto* cv = new QChartView(chart_);
    heatmap_ = new MatrixHeatmap;
    auto* plots = new QSplitter;
    plots->addWidget(cv);
    plots->addWidget(heatmap_);
    plots->setStretchFactor(0, 3);
    plots->setStretchFactor(1, 2);
    cv->setMinimumWidth(360);
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(table_);
    right->addWidget(plots);
    right->setStretchFactor(0, 2);
    right->setStretchFactor(1, 3);
    right->setSizes({320, 520});  // the table's size hint would take the height otherwise
    plots->setSizes({600, 400});
    auto* lay = new QHBoxLayout(this);
    lay->addWidget(left);
    lay->addWidget(right, 1);
    connect(run_, &QPushButton::clicked, this, &IntegrationPanel::run);
    connect(sweep_, &QPushButton::clicked, this, &IntegrationPanel::sweep);
    bind_job_controls(job_, this, {run_, sweep_}, cancel_, progress_, tr("Integration failed"));
    connect(&job_, &BackgroundJob::finished, this, [this] { showResults(pending_, pending_params_); });
}

IntegrationParams IntegrationPanel::params() const {
    IntegrationParams p;
    p.element = parse_element(element_->currentText().toStdString(), "element");
    p.problem = parse_problem(problem_->currentText().toStdString(), "problem");
    p.order = order_->value();
    p.elements = elements_->value();
    p.variant = parse_variant(variant_->currentText().toStdString(), "variant");
    p.jacobian = parse_jacobian(jacobian_->currentText().toStdString(), "jacobian");
    p.fp64 = precision_->currentIndex() == 1;
    p.backend = parse_backend(backend_->currentText().toStdString(), "backend");
    return p;
}

void IntegrationPanel::setParams(const IntegrationParams& p) {
    element_->setCurrentIndex(p.element == ElementType::Hexahedron ? 0 : 1);
    problem_->setCurrentText(to_string(p.problem));
    order_->setValue(p.order);
    elements_->setValue(int(p.elements));
    variant_->setCurrentText(to_string(p.variant));
    jacobian_->setCurrentText(to_string(p.jacobian));
    precision_->setCurrentIndex(p.fp64 ? 1 : 0);
    backend_->setCurrentIndex(int(p.backend));
}

void IntegrationPanel::run() {
    if (job_.busy()) return;
    IntegrationParams p;
    try {
        p = params();
    } catch (const std::exception& e) {
        warn_without_blocking(this, tr("Integration"), e.what());
        return;
    }
    job_.start([this, p](const ProgressFn& progress) {
        pending_ = {run_integration_lab(p, progress)};
        pending_params_ = {p};
    });
}

void IntegrationPanel::sweep() {
    if (job_.busy()) return;
    IntegrationParams p = params();
    std::vector<int> orders;
    const bool hex = p.element == ElementType::Hexahedron;
    for (int o = hex ? 1 : 2; o <= (hex ? 10 : 7); ++o) orders.push_back(o);
    job_.start([this, p, orders](const ProgressFn& progress) {
        pending_ = run_integration_sweep(p, orders, progress);
        pending_params_.clear();
        for (int o : orders) {
            IntegrationParams q = p;
            q.order = o;
            pending_params_.push_back(q);
        }
    });
}

void IntegrationPanel::showResults(const std::vector<IntegrationResult>& rs, const std::vector<IntegrationParams>& ps) {
    for (std::size_t i = 0; i < rs.size() && i < ps.size(); ++i) {
        const IntegrationResult& r = rs[i];
        const IntegrationParams& p = ps[i];
        results_.push_back(r);
        result_params_.push_back(p);
        const int row = table_->rowCount();
        table_->insertRow(row);
        const double m = double(std::max<std::int64_t>(1, r.elements));
        const QStringList cells = {to_string(p.element),
                                   QString::number(p.order),
                                   to_string(p.variant),
                                   to_string(p.jacobian),
                                   p.fp64 ? "fp64" : "fp32",
                                   QString::fromStdString(r.backend),
                                   QString::number(r.ndofs),
                                   QString::number(1e6 * r.init_s / m, 'g', 3),
                                   QString::number(1e6 * r.transfer_in_s / m, 'g', 3),
                                   QString::number(1e6 * r.kernel_s / m, 'g', 3),
                                   QString::number(1e6 * r.transfer_out_s / m, 'g', 3),
                                   QString::number(r.gflops, 'g', 4),
                                   r.peak_gflops > 0 ? QString::number(100 * r.gflops / r.peak_gflops, 'f', 1) : "-",
                                   r.speedup_vs_core > 0 ? QString::number(r.speedup_vs_core, 'g', 3) : "-"};
        for (int c = 0; c < cells.size(); ++c) table_->setItem(row, c, new QTableWidgetItem(cells[c]));
    }
    if (!rs.empty()) heatmap_->setMatrix(rs.back().first_element, rs.back().ndofs);
    replot();
}

int IntegrationPanel::plottedPoints() const { return chart_point_count(chart_); }

void IntegrationPanel::replot() {
    clear_chart(chart_);
    // One line per (element, variant, precision, backend): GFLOP/s against p, best per p.
    std::map<QString, std::map<int, double>> lines;
    for (std::size_t i = 0; i < results_.size(); ++i) {
        const auto& p = result_params_[i];
        const QString key = QStringLiteral("%1 %2 %3 %4")
                                .arg(to_string(p.element), to_string(p.variant), p.fp64 ? "fp64" : "fp32",
                                     QString::fromStdString(results_[i].backend).section(' ', 0, 0));
        double& best = lines[key][p.order];
        best = std::max(best, results_[i].gflops);
    }
    if (lines.empty()) return;
    auto* ax = new QValueAxis;
    auto* ay = new QCategoryAxis;
    chart_->addAxis(ax, Qt::AlignBottom);
    chart_->addAxis(ay, Qt::AlignLeft);
    double lo = 1e30, hi = 0;
    for (const auto& [key, pts] : lines)
        for (const auto& [p, g] : pts)
            if (g > 0) lo = std::min(lo, g), hi = std::max(hi, g);
    // Orders are whole numbers (ticks on them, 0 and 11 as room); GFLOP/s on decades, plotted as log10.
    fit_nice_axis(chart_, ax, 0, 11, tr("order p"), "", 1);
    fit_log_axis(chart_, ay, lo, hi, tr("GFLOP/s"), "");
    for (const auto& [key, pts] : lines) {
        auto* s = new QLineSeries;
        s->setName(key);
        s->setPointsVisible(true);
        for (const auto& [p, g] : pts)
            if (g > 0) s->append(p, std::log10(g));
        chart_->addSeries(s);
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
}

}  // namespace voxwave::ui
