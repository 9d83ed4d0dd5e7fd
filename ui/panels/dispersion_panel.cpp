#include "panels/dispersion_panel.hpp"

#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPolarChart>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>
#include <functional>

#include "scene/run_rules.hpp"
#include "views/plot_axis.hpp"
#include "wave/dispersion.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::ui {

DispersionPanel::DispersionPanel(SceneDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    material_ = new QComboBox;
    direction_ = new QComboBox;
    direction_->addItems({tr("axis [100]"), tr("face diagonal [110]"), tr("cube diagonal [111]")});
    direction_->setCurrentIndex(2);
    mode_ = new QComboBox;
    mode_->addItems({tr("S wave"), tr("P wave")});
    polar_ppw_ = new QSpinBox;
    polar_ppw_->setRange(3, 60);
    polar_ppw_->setValue(10);
    polar_ppw_->setPrefix(tr("polar at "));
    polar_ppw_->setSuffix(tr(" ppw"));
    material_->setToolTip(tr("Material whose wave speeds the curves use"));
    direction_->setToolTip(tr("Direction the wave travels through the voxel grid: along an axis or a diagonal"));
    mode_->setToolTip(tr("S (shear) or P (pressure, longitudinal) wave"));
    polar_ppw_->setToolTip(
        tr("The polar plot's resolution: points (voxels, or GLL nodes for SEM) per wavelength; the plot shows the "
           "phase velocity, relative to the exact one, in every direction of the plane through the x "
           "axis and the yz diagonal"));
    ratio_chart_ = new QChart;
    polar_chart_ = new QPolarChart;
    for (QChart* c : {ratio_chart_, static_cast<QChart*>(polar_chart_)}) {
        c->setTheme(QChart::ChartThemeDark);
        c->setMargins(QMargins(2, 2, 2, 2));
    }
    polar_chart_->legend()->setVisible(false);
    ratio_chart_->legend()->setAlignment(Qt::AlignRight);  // the chart is low: its height for the curves  // the same
                                                           // two lines as the ratio chart's legend beside it
    auto* bar = new QHBoxLayout;
    bar->addWidget(material_);
    bar->addWidget(direction_);
    bar->addWidget(mode_);
    bar->addWidget(polar_ppw_);
    bar->addStretch();
    auto* charts = new QHBoxLayout;
    charts->addWidget(new QChartView(ratio_chart_), 3);
    charts->addWidget(new QChartView(polar_chart_), 2);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(2, 2, 2, 2);
    lay->addLayout(bar);
    lay->addLayout(charts, 1);
    for (QComboBox* c : {material_, direction_, mode_})
        connect(c, &QComboBox::currentIndexChanged, this, &DispersionPanel::recompute);
    connect(polar_ppw_, &QSpinBox::valueChanged, this, &DispersionPanel::recompute);
    const auto reload = [this] {
        // A 2D (plane-strain) scene's square has two directions of its own, the axis and the diagonal.
        const bool plane = doc_->scene().grid.plane_strain();
        if (direction_->count() != (plane ? 2 : 3)) {
            QSignalBlocker block_direction(direction_);
            direction_->clear();
            if (plane)
                direction_->addItems({tr("axis [10]"), tr("diagonal [11]")});
            else
                direction_->addItems({tr("axis [100]"), tr("face diagonal [110]"), tr("cube diagonal [111]")});
            direction_->setCurrentIndex(direction_->count() - 1);
        }
        const QString keep = material_->currentText();
        QSignalBlocker block(material_);
        material_->clear();
        for (const auto& m : doc_->scene().materials) material_->addItem(QString::fromStdString(m.name));
        const int i = material_->findText(keep);
        if (i >= 0) material_->setCurrentIndex(i);
        recompute();
    };
    connect(doc_, &SceneDocument::documentReset, this, reload);
    connect(doc_, &SceneDocument::sceneChanged, this, reload);
    reload();
}

int DispersionPanel::seriesCount() const { return int(ratio_chart_->series().size() + polar_chart_->series().size()); }

void DispersionPanel::recompute() {
    for (QChart* c : {ratio_chart_, static_cast<QChart*>(polar_chart_)}) clear_chart(c);
    const Scene& s = doc_->scene();
    const int mi = material_->currentIndex();
    if (mi < 0 || mi >= int(s.materials.size())) return;
    const Material& m = s.materials[mi];
    const double ds = s.grid.spacing;
    // The run's time step (run_time_step: auto is a fraction of the stable limit) so the curves
    // include its error.
    const int dims = s.grid.dimensions;
    const bool plane = dims == 2;
    const double stable = stable_time_step(doc_->model(), s.materials, s.run.method, s.damping, s.run.order, dims);
    const double dt = run_time_step(s.run.dt, stable);
    const std::array<std::array<double, 3>, 3> dirs{
        {{1, 0, 0}, {0, M_SQRT1_2, M_SQRT1_2}, {1 / std::sqrt(3.0), 1 / std::sqrt(3.0), 1 / std::sqrt(3.0)}}};
    const std::array<std::array<double, 3>, 2> plane_dirs{{{1, 0, 0}, {M_SQRT1_2, M_SQRT1_2, 0}}};
    const auto dir = plane ? plane_dirs[std::size_t(std::clamp(direction_->currentIndex(), 0, 1))]
                           : dirs[std::size_t(std::clamp(direction_->currentIndex(), 0, 2))];
    const int mode = mode_->currentIndex() == 0 ? 0 : (plane ? 1 : 2);  // S (the slowest) or P
    std::vector<double> ppw;
    for (double p = 4; p <= 40.001; p += 0.5) ppw.push_back(p);
    auto* ax = new QValueAxis;
    auto* ay = new QValueAxis;
    ratio_chart_->addAxis(ax, Qt::AlignBottom);
    ratio_chart_->addAxis(ay, Qt::AlignLeft);
    fit_nice_axis(ratio_chart_, ax, 4, 40, tr("points per wavelength"), "");
    double lo = 1, hi = 1;
    // VFEM and OVFEM at the run's dt; SEM p = 2..4 at the same node count (ppw against ds / p) and
    // at their own dt (the scene's, or the auto fraction of each order's own stable limit).
    struct Curve {
        QString name;
        std::function<DispersionTable(const std::vector<double>&, std::vector<std::array<double, 3>>)> table;
    };
    std::vector<Curve> curves;
    for (ElementMethod em : {ElementMethod::Vfem, ElementMethod::Ovfem})
        curves.push_back({em == ElementMethod::Vfem ? "VFEM" : "OVFEM", [=](const auto& p, auto d) {
                              return dispersion_table(em, ds, m, dt, p, std::move(d), dims);
                          }});
    // The spectral elements are 3D only.
    for (int order = kSemMinOrder; order <= kSemMaxOrder && !plane; ++order) {
        const double sem_dt =
            run_time_step(s.run.dt, stable_time_step(doc_->model(), s.materials, Method::Sem, s.damping, order));
        curves.push_back({QString("SEM p=%1").arg(order), [=](const auto& p, auto d) {
                              return sem_dispersion_table(order, ds, m, sem_dt, p, std::move(d));
                          }});
    }
    for (const Curve& curve : curves) {
        const QString name = curve.name;
        try {
            const DispersionTable t = curve.table(ppw, {dir});
            auto* series = new QLineSeries;
            series->setName(name);
            for (std::size_t i = 0; i < ppw.size(); ++i) {
                const double r = t.ratio(0, i, mode);
                series->append(ppw[i], r);
                lo = std::min(lo, r);
                hi = std::max(hi, r);
            }
            ratio_chart_->addSeries(series);
            series->attachAxis(ax);
            series->attachAxis(ay);
            // Polar: ratio over directions d(theta) = (cos, sin/sqrt2, sin/sqrt2), in 2D (cos, sin).
            std::vector<std::array<double, 3>> around;
            for (int deg = 0; deg <= 360; deg += 5) {
                const double th = deg * M_PI / 180;
                if (plane)
                    around.push_back({std::cos(th), std::sin(th), 0});
                else
                    around.push_back({std::cos(th), std::sin(th) * M_SQRT1_2, std::sin(th) * M_SQRT1_2});
            }
            const DispersionTable pt = curve.table({double(polar_ppw_->value())}, around);
            auto* ps = new QLineSeries;
            ps->setName(name);
            for (std::size_t d = 0; d < around.size(); ++d) ps->append(double(d) * 5.0, pt.ratio(d, 0, mode));
            polar_chart_->addSeries(ps);
        } catch (const std::exception&) {
            // A dt above the stable limit has no dispersion curve: the run panel already says so.
        }
    }
    // The long name is the chart's title (a line of its own); the axis' title stays short enough
    // for a low chart.
    fit_nice_axis(ratio_chart_, ay, lo - 0.002, hi + 0.002, tr("ratio"), "");
    ratio_chart_->setTitle(tr("phase velocity / exact, %1").arg(direction_->currentText()));
    auto* angle = new QValueAxis;
    angle->setRange(0, 360);
    angle->setTickCount(5);  // every 90 degrees (360 is 0 again, drawn once)
    angle->setLabelFormat("%d");
    auto* radial = new QValueAxis;
    polar_chart_->addAxis(angle, QPolarChart::PolarOrientationAngular);
    polar_chart_->addAxis(radial, QPolarChart::PolarOrientationRadial);
    // The radius' title would sit across its labels: the chart's title names it.
    // Out to hi (at least 1, the exact velocity): a ring beyond the curves would only squeeze them.
    fit_nice_axis(polar_chart_, radial, lo - 0.005, hi, QString(), "");
    for (auto* s2 : polar_chart_->series()) {
        s2->attachAxis(angle);
        s2->attachAxis(radial);
    }
    polar_chart_->setTitle(tr("ratio over angle, %1 ppw").arg(polar_ppw_->value()));
}

}  // namespace voxwave::ui
