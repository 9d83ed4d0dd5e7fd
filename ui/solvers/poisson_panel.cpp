#include "solvers/poisson_panel.hpp"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkDoubleArray.h>
#include <vtkLookupTable.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>
#include <map>

#include "panels/plain_words.hpp"
#include "solvers/solver_layout.hpp"
#include "views/color_bar.hpp"
#include "views/plot_axis.hpp"
#include "views/vtk_widget.hpp"

namespace voxwave::ui {

using namespace voxwave::poisson;

struct PoissonPanel::Pipeline {
    vtkSmartPointer<vtkActor> actor;
};

namespace {
const char* kColumns[] = {"grid", "L",          "L0",      "precision", "backend", "N",
                          "K",    "rel. error", "solve s", "GFLOP/s",   "MDof/s"};
}

PoissonPanel::PoissonPanel(QWidget* parent) : QWidget(parent), vtk_(std::make_unique<Pipeline>()) {
    grid_ = new QComboBox;
    grid_->addItems({"flow-around-square", "unit-square"});
    precision_ = new QComboBox;
    precision_->addItems({"fp64", "fp32", "tf32", "fp16"});
    backend_ = new QComboBox;
    backend_->addItems({"auto", "cpu", "cuda"});
    level_ = new QSpinBox;
    level_->setRange(1, 10);
    level_->setValue(5);
    coarse_ = new QSpinBox;
    coarse_->setRange(0, 9);
    coarse_->setValue(1);
    rhs_ = new QSpinBox;
    rhs_->setRange(1, 4096);
    solution_ = new QSpinBox;
    solution_->setRange(1, 50);
    solution_->setToolTip(tr("n of the exact solution (seed 002 eq. 7)"));
    run_ = new QPushButton(tr("Run"));
    sweep_ = new QPushButton(tr("Sweep levels"));
    cancel_ = new QPushButton(tr("Cancel"));
    progress_ = new QProgressBar;
    info_ = new QLabel;
    info_->setToolTip(
        tr("The prehandled solver splits the unknowns into three groups (paper: seed 002, C / E / I): "
           "nodes of the coarse grid, nodes on the edges of its cells, and nodes inside them; "
           "cells of the same shape share one factorisation."));
    auto* form = new QFormLayout;
    form->addRow(tr("Grid"), grid_);
    form->addRow(tr("Level L"), level_);
    form->addRow(tr("Coarse level L0"), coarse_);
    form->addRow(tr("Precision"), precision_);
    form->addRow(tr("Right-hand sides"), rhs_);
    form->addRow(tr("Solution n"), solution_);
    form->addRow(tr("Backend"), backend_);
    QWidget* leftw = solver_controls_column(form, run_, sweep_, cancel_, progress_, info_);
    table_ = new QTableWidget(0, int(std::size(kColumns)));
    QStringList headers;
    for (const char* c : kColumns) headers << c;
    table_->setHorizontalHeaderLabels(headers);
    const std::pair<int, const char*> column_tips[] = {
        {1, "L: the finest grid level (each level halves the cell size)"},
        {2, "L0: the coarse level, factorised in full"},
        {5, "N: unknowns"},
        {6, "K: right-hand sides solved at once"},
        {7, "relative error against the exact solution"}};
    for (const auto& [c, tip] : column_tips) table_->horizontalHeaderItem(c)->setToolTip(tr(tip));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view_ = new VtkWidget;
    chart_ = new QChart;
    chart_->setTheme(QChart::ChartThemeDark);
    chart_->setTitle(tr("relative error against grid level"));
    auto* cv = new QChartView(chart_);
    cv->setToolTip(
        tr("Error of the computed solution against the exact one, relative, for each grid level "
           "and precision (paper: seed 002 Fig. 10)"));
    cv->setMinimumWidth(380);
    auto* top = new QSplitter;
    bar_ = new ColorBarWidget;
    bar_->setObjectName("poisson-color-bar");
    bar_->setToolTip(tr("The solution u on the mesh (dimensionless), symmetric about 0"));
    top->addWidget(with_color_bar(view_, bar_));
    top->addWidget(cv);
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(top);
    right->addWidget(table_);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    right->setSizes({560, 300});  // the table's size hint would take the height otherwise
    auto* lay = new QHBoxLayout(this);
    lay->addWidget(leftw);
    lay->addWidget(right, 1);
    connect(run_, &QPushButton::clicked, this, &PoissonPanel::run);
    connect(sweep_, &QPushButton::clicked, this, &PoissonPanel::sweepLevels);
    bind_job_controls(job_, this, {run_, sweep_}, cancel_, progress_, tr("Poisson solve failed"));
    connect(&job_, &BackgroundJob::finished, this, [this] {
        mesh_ = std::move(pending_mesh_);
        showResults(std::move(pending_));
    });
}

PoissonPanel::~PoissonPanel() {
    job_.cancel();
    job_.wait();
}

PoissonParams PoissonPanel::params() const {
    PoissonParams p;
    p.grid = parse_poisson_grid(grid_->currentText().toStdString(), "grid");
    p.level = level_->value();
    p.coarse_level = coarse_->value();
    p.precision = parse_poisson_precision(precision_->currentText().toStdString(), "precision");
    p.rhs = rhs_->value();
    p.solution = solution_->value();
    p.backend = Backend(backend_->currentIndex());
    p.repetitions = 1;
    return p;
}

void PoissonPanel::setParams(const PoissonParams& p) {
    grid_->setCurrentText(poisson_grid_name(p.grid));
    level_->setValue(p.level);
    coarse_->setValue(p.coarse_level);
    precision_->setCurrentText(poisson_precision_name(p.precision));
    rhs_->setValue(p.rhs);
    solution_->setValue(p.solution);
    backend_->setCurrentIndex(int(p.backend));
}

bool PoissonPanel::checkedParams(PoissonParams& p) {
    try {
        p = params();
        validate_poisson_params(p);
        return true;
    } catch (const std::exception& e) {
        warn_without_blocking(this, tr("Poisson"), e.what());
        return false;
    }
}

void PoissonPanel::run() {
    if (job_.busy()) return;
    PoissonParams p;
    if (!checkedParams(p)) return;
    job_.start([this, p](const ProgressFn& progress) {
        pending_ = {run_poisson(p, progress)};
        pending_mesh_ = refined_poisson_mesh(p.grid, p.level);
    });
}

void PoissonPanel::sweepLevels() {
    if (job_.busy()) return;
    PoissonParams p;
    if (!checkedParams(p)) return;
    job_.start([this, p](const ProgressFn& progress) {
        std::vector<PoissonResult> out;
        const PoissonPrecision precisions[] = {PoissonPrecision::Fp64, PoissonPrecision::Fp32, PoissonPrecision::Fp16};
        const int total = 3 * (p.level - p.coarse_level);
        int done = 0;
        for (int L = p.coarse_level + 1; L <= p.level; ++L)
            for (PoissonPrecision prec : precisions) {
                PoissonParams q = p;
                q.level = L;
                q.precision = prec;
                out.push_back(run_poisson(q, {}));
                if (progress && !progress(++done, total)) throw Cancelled{};
            }
        pending_ = std::move(out);
        pending_mesh_ = refined_poisson_mesh(p.grid, p.level);
    });
}

void PoissonPanel::showResults(std::vector<PoissonResult> rs) {
    if (rs.empty()) return;
    for (auto& r : rs) {
        const int row = table_->rowCount();
        table_->insertRow(row);
        const QStringList cells = {poisson_grid_name(r.params.grid),
                                   QString::number(r.params.level),
                                   QString::number(r.params.coarse_level),
                                   poisson_precision_name(r.params.precision),
                                   QString::fromStdString(r.backend),
                                   QString::number(r.N),
                                   QString::number(r.params.rhs),
                                   QString::number(r.relative_error, 'e', 3),
                                   QString::number(r.timings.solve, 'g', 3),
                                   QString::number(r.gflops, 'g', 4),
                                   QString::number(r.mdofs, 'g', 4)};
        for (int c = 0; c < cells.size(); ++c) table_->setItem(row, c, new QTableWidgetItem(cells[c]));
    }
    // Draw the finest run of this batch (the last one at the mesh's level).
    const PoissonResult* finest = nullptr;
    for (const auto& r : rs)
        if (r.params.level == mesh_.level) finest = &r;
    if (finest) drawMesh(*finest);
    info_->setText(tr("%1 unknowns: %2 on the coarse grid, %3 on coarse-cell edges, %4 inside coarse cells; "
                      "%5 kinds of similar cells\nBackend: %6\nprehandling %7 s, solve %8 s\nrelative error %9")
                       .arg(rs.back().N)
                       .arg(rs.back().nC)
                       .arg(rs.back().nE)
                       .arg(rs.back().nI)
                       .arg(rs.back().classes)
                       .arg(backend_words(rs.back().backend_note.empty() ? rs.back().backend : rs.back().backend_note))
                       .arg(rs.back().timings.prehandling, 0, 'g', 3)
                       .arg(rs.back().timings.solve, 0, 'g', 3)
                       .arg(rs.back().relative_error, 0, 'e', 3));
    results_.insert(results_.end(), std::make_move_iterator(rs.begin()), std::make_move_iterator(rs.end()));
    replot();
}

void PoissonPanel::drawMesh(const PoissonResult& r) {
    // Interior nodes carry the solution (matched by position); boundary nodes are 0 (Dirichlet).
    std::map<std::pair<long long, long long>, double> value;
    const auto key = [](const std::array<double, 2>& p) {
        return std::make_pair(std::llround(p[0] * 1e9), std::llround(p[1] * 1e9));
    };
    for (std::size_t i = 0; i < r.nodes.size(); ++i) value[key(r.nodes[i])] = r.solution(Eigen::Index(i), 0);
    drawn_.assign(mesh_.node_count(), 0.0);
    double peak = 0;
    for (std::size_t n = 0; n < mesh_.node_count(); ++n) {
        const auto it = value.find(key(mesh_.xy[n]));
        if (it != value.end()) drawn_[n] = it->second;
        peak = std::max(peak, std::abs(drawn_[n]));
    }
    auto points = vtkSmartPointer<vtkPoints>::New();
    auto scalars = vtkSmartPointer<vtkDoubleArray>::New();
    const double lift = peak > 0 ? 0.25 / peak : 0;
    for (std::size_t n = 0; n < mesh_.node_count(); ++n) {
        points->InsertNextPoint(mesh_.xy[n][0], mesh_.xy[n][1], lift * drawn_[n]);
        scalars->InsertNextValue(drawn_[n]);
    }
    auto cells = vtkSmartPointer<vtkCellArray>::New();
    for (const auto& c : mesh_.fine_cells()) {
        vtkIdType ids[4] = {c[0], c[1], c[2], c[3]};
        cells->InsertNextCell(mesh_.vertices_per_cell, ids);
    }
    mesh_cells_ = int(mesh_.fine_cells().size());
    auto poly = vtkSmartPointer<vtkPolyData>::New();
    poly->SetPoints(points);
    poly->SetPolys(cells);
    poly->GetPointData()->SetScalars(scalars);
    auto lut = lookup_table(rainbow_color_map());
    const double top = peak > 0 ? peak : 1;
    bar_->set(&rainbow_color_map(), -top, top, tr("u"), QString());
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(poly);
    mapper->SetLookupTable(lut);
    mapper->SetScalarRange(-top, top);
    vtkRenderer* ren = view_->renderer();
    if (vtk_->actor) ren->RemoveActor(vtk_->actor);
    vtk_->actor = vtkSmartPointer<vtkActor>::New();
    vtk_->actor->SetMapper(mapper);
    // The mesh's edges while there are few enough cells to see them.
    if (mesh_cells_ <= 20000) {
        vtk_->actor->GetProperty()->EdgeVisibilityOn();
        vtk_->actor->GetProperty()->SetEdgeColor(0.15, 0.15, 0.15);
    }
    ren->AddActor(vtk_->actor);
    view_->beforeNextRender([ren] {
        vtkCamera* cam = ren->GetActiveCamera();
        cam->SetFocalPoint(2, 0.5, 0);
        cam->SetPosition(2, -2.5, 3.0);
        cam->SetViewUp(0, 0, 1);
        ren->ResetCamera();
        ren->ResetCameraClippingRange();
    });
    view_->update();
}

int PoissonPanel::plottedPoints() const { return chart_point_count(chart_); }

void PoissonPanel::replot() {
    clear_chart(chart_);
    std::map<QString, std::map<int, double>> lines;
    for (const auto& r : results_)
        if (r.relative_error > 0)
            lines[QStringLiteral("%1 n=%2%3")
                      .arg(poisson_precision_name(r.params.precision))
                      .arg(r.params.solution)
                      .arg(r.params.grid == PoissonGrid::UnitSquare ? " (square)" : "")][r.params.level] =
                r.relative_error;
    if (lines.empty()) return;
    auto* ax = new QValueAxis;
    auto* ay = new QCategoryAxis;
    chart_->addAxis(ax, Qt::AlignBottom);
    chart_->addAxis(ay, Qt::AlignLeft);
    double lo = 1e300, hi = 0;
    int lmin = 99, lmax = 0;
    for (const auto& [name, pts] : lines)
        for (const auto& [L, e] : pts)
            lo = std::min(lo, e), hi = std::max(hi, e), lmin = std::min(lmin, L), lmax = std::max(lmax, L);
    // Levels are whole numbers: ticks on them, a level of room each side (a single run is a
    // point between labelled ticks, not alone on an axis without any). The error on decades.
    fit_nice_axis(chart_, ax, lmin - 1, lmax + 1, tr("level L"), "", 1);
    fit_log_axis(chart_, ay, lo, hi, tr("relative error"), "");
    for (const auto& [name, pts] : lines) {
        auto* s = new QLineSeries;
        s->setName(name);
        s->setPointsVisible(true);
        for (const auto& [L, e] : pts) s->append(L, std::log10(e));
        chart_->addSeries(s);
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
}

}  // namespace voxwave::ui
