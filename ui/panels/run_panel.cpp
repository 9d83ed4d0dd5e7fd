#include "panels/run_panel.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include "document/edit_commands.hpp"
#include "scene/run_rules.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::ui {

RunPanel::RunPanel(SceneDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    method_ = new QComboBox;
    method_->addItems({"VFEM", "OVFEM", "TCOVFEM (INT8)", "SEM (GLL)"});
    precision_ = new QComboBox;
    precision_->addItems({"FP64", "FP32"});
    stages_ = new QSpinBox;
    stages_->setObjectName("run-stages");
    stages_->setRange(kTcovfemMinStages, kTcovfemMaxStages);
    stages_->setToolTip(tr("TCOVFEM INT8 digits M: 8 matches FP64, 4 is FP32-like"));
    order_ = new QSpinBox;
    order_->setObjectName("run-order");
    order_->setRange(kSemMinOrder, kSemMaxOrder);
    order_->setToolTip(
        tr("SEM polynomial order p: each voxel carries (p + 1)^3 GLL nodes; higher p converges faster "
           "but needs a smaller time step"));
    backend_ = new QComboBox;
    backend_->addItems({tr("auto"), "CPU", "CUDA"});
    spacing_ = new QDoubleSpinBox;
    spacing_->setObjectName("run-spacing");
    spacing_->setRange(kMinSpacing * 1e3, kMaxSpacing * 1e3);
    spacing_->setDecimals(3);
    spacing_->setSuffix(" mm");
    dt_ = new QDoubleSpinBox;
    dt_->setRange(0, 1e6);
    dt_->setDecimals(4);
    dt_->setSuffix(" µs");
    dt_->setSpecialValueText(tr("auto (%1 of the stable limit)").arg(kAutoDtFraction));
    duration_ = new QDoubleSpinBox;
    duration_->setRange(0.001, 1e7);
    duration_->setDecimals(3);
    duration_->setSuffix(" µs");
    info_ = new QLabel;
    info_->setWordWrap(true);
    method_->setToolTip(
        tr("VFEM: the classic trilinear voxel element; OVFEM: the paper's element, whose "
           "mass matrix is exactly diagonal; TCOVFEM: OVFEM in INT8 integer arithmetic (Tensor Cores on a GPU); "
           "SEM: each voxel a spectral element of order p on Gauss-Lobatto-Legendre nodes"));
    precision_->setToolTip(tr("Floating-point precision of the run: FP64 (double) or FP32 (single, faster)"));
    backend_->setToolTip(tr("Where the run computes: auto picks a CUDA GPU when there is one, else the CPU"));
    spacing_->setToolTip(
        tr("Voxel edge length: smaller is more accurate and slower; keep at least 10 voxels per "
           "wavelength (see the Dispersion panel)"));
    dt_->setToolTip(tr("Time step of the explicit scheme; auto takes a safe fraction of the stable limit"));
    duration_->setToolTip(tr("Simulated time the run covers"));
    auto* form = new QFormLayout(this);
    form->addRow(tr("Method"), method_);
    form->addRow(tr("Precision"), precision_);
    form->addRow(tr("Stages M"), stages_);
    form->addRow(tr("SEM order p"), order_);
    form->addRow(tr("Backend"), backend_);
    form->addRow(tr("Spacing"), spacing_);
    form->addRow(tr("Time step"), dt_);
    form->addRow(tr("Duration"), duration_);
    form->addRow(info_);
    auto* cluster = new QPushButton(tr("Run on a cluster..."));
    cluster->setToolTip(tr("Write the scene and a Slurm script that runs it on several GPUs"));
    connect(cluster, &QPushButton::clicked, this, &RunPanel::clusterJobRequested);
    form->addRow(cluster);
    for (QComboBox* c : {method_, precision_, backend_}) connect(c, &QComboBox::activated, this, &RunPanel::apply);
    for (QDoubleSpinBox* s : {spacing_, dt_, duration_})
        connect(s, &QDoubleSpinBox::editingFinished, this, &RunPanel::apply);
    connect(stages_, &QSpinBox::editingFinished, this, &RunPanel::apply);
    connect(order_, &QSpinBox::editingFinished, this, &RunPanel::apply);
    connect(doc_, &SceneDocument::sceneChanged, this, &RunPanel::refresh);
    connect(doc_, &SceneDocument::documentReset, this, &RunPanel::refresh);
    refresh();
}

void RunPanel::refresh() {
    refreshing_ = true;
    const Scene& s = doc_->scene();
    const RunSpec& r = s.run;
    method_->setCurrentIndex(int(r.method));
    precision_->setCurrentIndex(int(r.precision));
    precision_->setEnabled(precision_allowed(r.method, Precision::Fp32));
    stages_->setValue(r.stages);
    stages_->setEnabled(r.method == Method::Tcovfem);
    order_->setValue(r.order);
    order_->setEnabled(r.method == Method::Sem);
    backend_->setCurrentIndex(int(r.backend));
    spacing_->setValue(s.grid.spacing * 1e3);
    dt_->setValue(r.dt * 1e6);
    stable_dt_ = stable_time_step(doc_->model(), s.materials, r.method, s.damping, r.order, s.grid.dimensions);
    const double dt = run_time_step(r.dt, stable_dt_);
    const double duration = r.steps > 0 ? double(r.steps) * dt : r.duration;
    duration_->setValue(duration * 1e6);
    const auto& g = doc_->model();
    info_->setText((s.grid.plane_strain()
                        ? tr("Stable limit %1 µs; %2 steps; %3 x %4 squares, plane strain%5 = %6 elements")
                        : tr("Stable limit %1 µs; %2 steps; %3 x %4 x %5 = %6 elements"))
                       .arg(stable_dt_ * 1e6, 0, 'g', 4)
                       .arg(dt > 0 ? qint64(std::ceil(duration / dt - 1e-9)) : 0)
                       .arg(g.n[0])
                       .arg(g.n[1])
                       .arg(s.grid.plane_strain() ? QString() : QString::number(g.n[2]))
                       .arg(qulonglong(g.element_count())));
    refreshing_ = false;
}

void RunPanel::apply() {
    if (refreshing_) return;
    RunSpec r = doc_->scene().run;
    r.method = Method(method_->currentIndex());
    r.precision = allowed_precision(r.method, Precision(precision_->currentIndex()));
    r.stages = stages_->value();
    r.order = order_->value();
    r.backend = Backend(backend_->currentIndex());
    r.dt = dt_->value() * 1e-6;
    const double stable = stable_time_step(doc_->model(), doc_->scene().materials, r.method, doc_->scene().damping,
                                           r.order, doc_->scene().grid.dimensions);
    if (!time_step_stable(r.dt, stable)) r.dt = stable;  // the engine refuses an unstable dt: clamp and show it
    r.duration = duration_->value() * 1e-6;
    r.steps = 0;
    const double spacing = spacing_->value() * 1e-3;
    if (r == doc_->scene().run && spacing == doc_->scene().grid.spacing) return;
    doc_->undoStack()->push(new SetRunCommand(doc_, r, spacing));
}

}  // namespace voxwave::ui
