#include "solvers/iga_panel.hpp"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkDoubleArray.h>
#include <vtkLookupTable.h>
#include <vtkPlaneSource.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>
#include <cmath>
#include <map>

#include "iga/iga_problem.hpp"
#include "panels/plain_words.hpp"
#include "solvers/solver_layout.hpp"
#include "views/color_bar.hpp"
#include "views/plot_axis.hpp"
#include "views/vtk_widget.hpp"

namespace voxwave::ui {

using namespace voxwave::iga;

struct IgaPanel::Pipeline {
    vtkSmartPointer<vtkActor> actor;
    int points = 0;
};

IgaPanel::IgaPanel(QWidget* parent) : QWidget(parent), vtk_(std::make_unique<Pipeline>()) {
    degree_ = new QSpinBox;
    degree_->setRange(1, 8);
    degree_->setValue(2);
    elements_ = new QComboBox;
    for (int n = 2; n <= kMaxElements; n *= 2) elements_->addItem(QString::number(n));
    elements_->setCurrentText("64");
    problem_ = new QComboBox;
    problem_->addItems({"seed", "manufactured"});
    problem_->setItemData(0, tr("The paper's problem (seed 004): u = 0 at the bottom, 1 at the top; exact u = y"),
                          Qt::ToolTipRole);
    problem_->setItemData(1, tr("A smooth known solution, cos(pi x) sin(pi y): its error shows the convergence rate"),
                          Qt::ToolTipRole);
    problem_->setToolTip(tr("Model problem on the unit square (hover an entry for details)"));
    backend_ = new QComboBox;
    backend_->addItems({"auto", "cpu", "cuda"});
    parallel_ = new QCheckBox(tr("parallel fronts (CPU)"));
    parallel_->setChecked(true);
    run_ = new QPushButton(tr("Run"));
    sweep_ = new QPushButton(tr("Cost sweep"));
    cancel_ = new QPushButton(tr("Cancel"));
    progress_ = new QProgressBar;
    info_ = new QLabel;
    auto* form = new QFormLayout;
    form->addRow(tr("Degree p"), degree_);
    form->addRow(tr("Elements N x N"), elements_);
    form->addRow(tr("Problem"), problem_);
    form->addRow(tr("Backend"), backend_);
    form->addRow(parallel_);
    QWidget* leftw = solver_controls_column(form, run_, sweep_, cancel_, progress_, info_);
    surface_ = new VtkWidget;
    chart_ = new QChart;
    chart_->setTheme(QChart::ChartThemeDark);
    chart_->setTitle(tr("solve time against unknowns"));
    auto* split = new QSplitter;
    auto* chart_view = new QChartView(chart_);
    chart_view->setMinimumWidth(420);
    bar_ = new ColorBarWidget;
    bar_->setObjectName("iga-color-bar");
    bar_->setToolTip(tr("The solution u (dimensionless): height and colour of the surface"));
    split->addWidget(with_color_bar(surface_, bar_));
    split->addWidget(chart_view);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* lay = new QHBoxLayout(this);
    lay->addWidget(leftw);
    lay->addWidget(split, 1);
    connect(run_, &QPushButton::clicked, this, &IgaPanel::run);
    connect(sweep_, &QPushButton::clicked, this, &IgaPanel::costSweep);
    bind_job_controls(job_, this, {run_, sweep_}, cancel_, progress_, tr("IGA solve failed"));
    connect(&job_, &BackgroundJob::finished, this, [this] { showResults(pending_); });
}

IgaPanel::~IgaPanel() {
    job_.cancel();
    job_.wait();
}

IgaParams IgaPanel::params() const {
    IgaParams p;
    p.degree = degree_->value();
    p.elements = elements_->currentText().toInt();
    p.problem = parse_iga_problem(problem_->currentText().toStdString(), "problem");
    p.backend = parse_backend(backend_->currentText().toStdString(), "backend");
    p.parallel = parallel_->isChecked();
    return p;
}

void IgaPanel::setParams(const IgaParams& p) {
    degree_->setValue(p.degree);
    elements_->setCurrentText(QString::number(p.elements));
    problem_->setCurrentText(to_string(p.problem));
    backend_->setCurrentIndex(int(p.backend));
    parallel_->setChecked(p.parallel);
}

void IgaPanel::run() {
    if (job_.busy()) return;
    const IgaParams p = params();
    job_.start([this, p](const ProgressFn& progress) { pending_ = {solve_iga(p, progress)}; });
}

void IgaPanel::costSweep() {
    if (job_.busy()) return;
    const IgaParams p = params();
    job_.start([this, p](const ProgressFn& progress) {
        std::vector<IgaResult> out;
        std::vector<int> ns;
        for (int n = 4; n <= p.elements; n *= 2) ns.push_back(n);
        for (std::size_t i = 0; i < ns.size(); ++i) {
            IgaParams q = p;
            q.elements = ns[i];
            q.baseline = false;  // the multi-frontal cost only
            out.push_back(solve_iga(q, {}));
            if (progress && !progress(std::int64_t(i + 1), std::int64_t(ns.size()))) throw Cancelled{};
        }
        pending_ = std::move(out);
    });
}

QString IgaPanel::summary() const { return info_->text(); }

int IgaPanel::surfacePoints() const { return vtk_->points; }

void IgaPanel::showResults(const std::vector<IgaResult>& rs) {
    if (rs.empty()) return;
    results_.insert(results_.end(), rs.begin(), rs.end());
    const IgaResult& r = rs.back();
    info_->setText(tr("%1 unknowns (%2 free), %3 levels, largest front %4\n"
                      "Backend: %5\nsetup %6 s, factor %7 s, solve %8 s\nL2 error %9%10")
                       .arg(r.dofs)
                       .arg(r.free_dofs)
                       .arg(r.levels)
                       .arg(r.max_front)
                       .arg(backend_words(r.backend_note.empty() ? r.backend : r.backend_note))
                       .arg(r.setup_seconds, 0, 'g', 3)
                       .arg(r.factor_seconds, 0, 'g', 3)
                       .arg(r.solve_seconds, 0, 'g', 3)
                       .arg(r.l2_error, 0, 'g', 3)
                       .arg(r.baseline_max_difference >= 0
                                ? tr("\n%1: %2 s, max difference %3")
                                      .arg(QString::fromStdString(r.baseline_solver))
                                      .arg(r.baseline_factor_seconds + r.baseline_solve_seconds, 0, 'g', 3)
                                      .arg(r.baseline_max_difference, 0, 'g', 2)
                                : QString()));
    // Surface z = u over [0,1]^2, coloured by u.
    const int n = r.params.grid;
    auto points = vtkSmartPointer<vtkPoints>::New();
    auto values = vtkSmartPointer<vtkDoubleArray>::New();
    auto plane = vtkSmartPointer<vtkPlaneSource>::New();
    plane->SetOrigin(0, 0, 0);
    plane->SetPoint1(1, 0, 0);
    plane->SetPoint2(0, 1, 0);
    plane->SetResolution(n - 1, n - 1);
    plane->Update();
    vtkPolyData* poly = plane->GetOutput();
    double lo = 1e300, hi = -1e300;
    for (vtkIdType i = 0; i < poly->GetNumberOfPoints() && std::size_t(i) < r.u.size(); ++i) {
        double x[3];
        poly->GetPoint(i, x);
        x[2] = 0.5 * r.u[std::size_t(i)];
        poly->GetPoints()->SetPoint(i, x);
        values->InsertNextValue(r.u[std::size_t(i)]);
        lo = std::min(lo, r.u[std::size_t(i)]);
        hi = std::max(hi, r.u[std::size_t(i)]);
    }
    poly->GetPointData()->SetScalars(values);
    vtk_->points = int(poly->GetNumberOfPoints());
    auto lut = lookup_table(rainbow_color_map());
    if (!(hi > lo)) hi = lo + 1;
    bar_->set(&rainbow_color_map(), lo, hi, tr("u"), QString());
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(poly);
    mapper->SetLookupTable(lut);
    mapper->SetScalarRange(lo, hi);
    vtkRenderer* ren = surface_->renderer();
    if (vtk_->actor) ren->RemoveActor(vtk_->actor);
    vtk_->actor = vtkSmartPointer<vtkActor>::New();
    vtk_->actor->SetMapper(mapper);
    ren->AddActor(vtk_->actor);
    surface_->beforeNextRender([ren] {
        vtkCamera* cam = ren->GetActiveCamera();
        cam->SetFocalPoint(0.5, 0.5, 0.2);
        cam->SetPosition(1.9, -1.4, 1.6);
        cam->SetViewUp(0, 0, 1);
        ren->ResetCamera();
        ren->ResetCameraClippingRange();
    });
    replot();
}

int IgaPanel::plottedPoints() const { return chart_point_count(chart_, "p ="); }

void IgaPanel::replot() {
    clear_chart(chart_);
    // Measured (factor + solve) per degree and backend, and the seed's slopes from the first point.
    std::map<QString, std::map<double, double>> lines;
    for (const auto& r : results_)
        lines[QStringLiteral("p = %1, %2").arg(r.params.degree).arg(QString::fromStdString(r.backend))]
             [double(r.dofs)] = std::max(1e-9, r.factor_seconds + r.solve_seconds);
    if (lines.empty()) return;
    // Both axes on decades: the data are plotted as log10 of unknowns and seconds.
    auto* ax = new QCategoryAxis;
    auto* ay = new QCategoryAxis;
    chart_->addAxis(ax, Qt::AlignBottom);
    chart_->addAxis(ay, Qt::AlignLeft);
    double xlo = 1e300, xhi = 0, ylo = 1e300, yhi = 0;
    std::vector<QLineSeries*> drawn;
    for (const auto& [name, pts] : lines) {
        auto* s = new QLineSeries;
        s->setName(name);
        s->setPointsVisible(true);
        for (const auto& [x, y] : pts) {
            s->append(std::log10(x), std::log10(y));
            xlo = std::min(xlo, x), xhi = std::max(xhi, x), ylo = std::min(ylo, y), yhi = std::max(yhi, y);
        }
        drawn.push_back(s);
        if (pts.size() >= 2) {
            // Slopes 1.5 (sequential, seed's O(N^1.5 p^3)) and 1 (parallel, O(N p^2)) through the last point.
            const auto [x1, y1] = *pts.rbegin();
            for (double slope : {1.5, 1.0}) {
                auto* ref = new QLineSeries;
                ref->setName(slope > 1 ? tr("N^1.5 (sequential)") : tr("N^1 (parallel)"));
                QPen pen(slope > 1 ? QColor(220, 120, 60) : QColor(120, 200, 120));
                pen.setStyle(Qt::DashLine);
                ref->setPen(pen);
                const double x0 = pts.begin()->first;
                ref->append(std::log10(x0), std::log10(y1 * std::pow(x0 / x1, slope)));
                ref->append(std::log10(x1), std::log10(y1));
                ylo = std::min(ylo, y1 * std::pow(x0 / x1, slope));
                drawn.push_back(ref);
            }
        }
    }
    fit_log_axis(chart_, ax, xlo, xhi, tr("unknowns"), "");
    fit_log_axis(chart_, ay, ylo, yhi, tr("time"), "s");
    for (QLineSeries* s : drawn) {
        chart_->addSeries(s);
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
}

}  // namespace voxwave::ui
