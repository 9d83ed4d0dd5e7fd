#include "panels/compare_panel.hpp"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>
#include <limits>

#include "scene/run_rules.hpp"
#include "views/plot_axis.hpp"
#include "views/wavefield_view.hpp"
#include "wave/trace_error.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::ui {

namespace {
const char* kMethodNames[] = {"VFEM", "OVFEM", "TCOVFEM", "SEM"};
const char* kPrecisionNames[] = {"FP64", "FP32"};
}  // namespace

ComparePanel::ComparePanel(SceneDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    auto* bar = new QHBoxLayout;
    for (int r = 0; r < 2; ++r) {
        method_[r] = new QComboBox;
        method_[r]->addItems({"VFEM", "OVFEM", "TCOVFEM", "SEM"});
        method_[r]->setCurrentIndex(r == 0 ? 0 : 1);
        precision_[r] = new QComboBox;
        precision_[r]->addItems({"FP64", "FP32"});
        spacing_[r] = new QDoubleSpinBox;
        spacing_[r]->setObjectName(r == 0 ? "compare-spacing-a" : "compare-spacing-b");
        spacing_[r]->setRange(kMinSpacing * 1e3, kMaxSpacing * 1e3);
        spacing_[r]->setDecimals(3);
        spacing_[r]->setSuffix(" mm");
        bar->addWidget(new QLabel(r == 0 ? tr("A:") : tr("  B:")));
        bar->addWidget(method_[r]);
        bar->addWidget(precision_[r]);
        bar->addWidget(spacing_[r]);
    }
    reference_ = new QComboBox;
    reference_->addItems({tr("reference: A"), tr("reference: B")});
    reference_->setToolTip(tr("The run the other one is measured against (the misfit divides by its energy)"));
    reference_->setCurrentIndex(1);
    receiver_ = new QComboBox;
    component_ = new QComboBox;
    component_->addItems({"u_x", "u_y", "u_z"});
    component_->setCurrentIndex(2);
    run_ = new QPushButton(tr("Run both"));
    stop_ = new QPushButton(tr("Stop"));
    // The rest on a second row: in one the bar is about 1000 px, wider than the centre of the
    // window on a 1366 px screen.
    bar->addStretch();
    auto* bar2 = new QHBoxLayout;
    bar2->addWidget(reference_);
    bar2->addWidget(receiver_);
    bar2->addWidget(component_);
    bar2->addStretch();
    bar2->addWidget(run_);
    bar2->addWidget(stop_);
    auto* views = new QHBoxLayout;
    for (auto*& v : views_) {
        v = new WavefieldView;
        // Three side by side: smaller than a single view's minimum, or they alone would need 720 px.
        v->setMinimumSize(160, 120);

        views->addWidget(v);
    }
    views_[0]->setHint(tr("A\n(press Run both)"));
    views_[1]->setHint(tr("B"));
    views_[2]->setHint(tr("A - B"));
    chart_ = new QChart;
    chart_->setTheme(QChart::ChartThemeDark);
    chart_->setMargins(QMargins(2, 2, 2, 2));
    chart_->legend()->setAlignment(Qt::AlignRight);  // a low chart: its height for the traces
    auto* cv = new QChartView(chart_);
    cv->setMinimumHeight(140);
    error_label_ = new QLabel(tr("misfit: run both to compare"));
    error_label_->setToolTip(
        tr("Relative misfit of the traces of one run against the reference run, in %: for every receiver and "
           "component, the energy of the difference divided by the energy of the reference trace, averaged "
           "(0 % = identical, 100 % = a difference as large as the signal). Paper: seed 000 eq. 18 (Err)."));
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(2, 2, 2, 2);
    lay->addLayout(bar);
    lay->addLayout(bar2);
    lay->addLayout(views, 3);
    lay->addWidget(error_label_);
    lay->addWidget(cv, 2);
    connect(run_, &QPushButton::clicked, this, &ComparePanel::runBoth);
    connect(stop_, &QPushButton::clicked, this, &ComparePanel::stop);
    connect(&controller_, &SimulationController::frameReady, this, &ComparePanel::onFrame);
    connect(&controller_, &SimulationController::failed, this,
            [this](const QString& m) { QMessageBox::warning(this, tr("Comparison failed"), m); });
    connect(receiver_, &QComboBox::currentIndexChanged, this, &ComparePanel::redrawTraces);
    connect(component_, &QComboBox::currentIndexChanged, this, &ComparePanel::redrawTraces);
    connect(reference_, &QComboBox::currentIndexChanged, this, &ComparePanel::redrawTraces);
    const auto reload = [this] {
        for (auto* s : spacing_) s->setValue(doc_->scene().grid.spacing * 1e3);
        receiver_->clear();
        for (const auto& r : doc_->scene().receivers) receiver_->addItem(QString::fromStdString(r.name));
    };
    connect(doc_, &SceneDocument::documentReset, this, reload);
    connect(doc_, &SceneDocument::sceneChanged, this, [this] {
        const QString keep = receiver_->currentText();
        receiver_->clear();
        for (const auto& r : doc_->scene().receivers) receiver_->addItem(QString::fromStdString(r.name));
        receiver_->setCurrentIndex(std::max(0, receiver_->findText(keep)));
    });
    reload();
}

ComparePanel::~ComparePanel() {
    controller_.stop();
    controller_.waitForIdle();
}

void ComparePanel::configure(int run, int method, int precision, double spacing) {
    method_[std::size_t(run)]->setCurrentIndex(method);
    precision_[std::size_t(run)]->setCurrentIndex(precision);
    spacing_[std::size_t(run)]->setValue(spacing * 1e3);
}

void ComparePanel::setReference(int run) { reference_->setCurrentIndex(run); }

void ComparePanel::stop() { controller_.stop(); }

void ComparePanel::runBoth() {
    std::vector<std::pair<Scene, VoxelGrid>> runs;
    double dt = std::numeric_limits<double>::infinity();
    try {
        for (int r = 0; r < 2; ++r) {
            Scene s = doc_->scene();
            s.grid.spacing = spacing_[r]->value() * 1e-3;
            s.run.method = Method(method_[r]->currentIndex());
            s.run.precision = allowed_precision(s.run.method, Precision(precision_[r]->currentIndex()));
            VoxelGrid g = doc_->modelAtSpacing(s.grid.spacing);
            dt = std::min(dt, run_time_step(0, stable_time_step(g, s.materials, s.run.method, s.damping, s.run.order,
                                                                s.grid.dimensions)));
            runs.emplace_back(std::move(s), std::move(g));
            labels_[std::size_t(r)] =
                std::string(kMethodNames[method_[r]->currentIndex()]) + " " +
                (runs.back().first.run.method == Method::Tcovfem ? "INT8"
                                                                 : kPrecisionNames[precision_[r]->currentIndex()]) +
                " " + QString::number(spacing_[r]->value()).toStdString() + " mm";
        }
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Cannot compare"), QString::fromStdString(e.what()));
        return;
    }
    for (auto* v : views_) v->setHint({});
    // Lockstep needs one time step: the smaller stable one, unless the scene asks for less.
    if (doc_->scene().run.dt > 0) dt = std::min(dt, doc_->scene().run.dt);
    for (auto& [s, g] : runs) s.run.dt = dt;
    names_.clear();
    for (const auto& r : doc_->scene().receivers) names_.push_back(r.name);
    dt_ = dt;
    t_.clear();
    for (auto& u : u_) u.assign(names_.size(), {});
    error_ = std::numeric_limits<double>::quiet_NaN();
    for (auto* v : views_) v->clearSlice();
    controller_.setView(SlicePlane::XZ,
                        doc_->scene().sources.empty()
                            ? runs[0].second.n[1] / 2
                            : nearest_node(runs[0].second, doc_->scene().sources.front().position)[1],
                        SliceQuantity::Uz);
    controller_.startAll(runs);
}

Result ComparePanel::traces(int run) const {
    Result r;
    r.receiver_names = names_;
    r.receiver_positions.assign(names_.size(), {0, 0, 0});
    r.dt = dt_;
    r.time = t_;
    const std::size_t nt = t_.size();
    r.displacement.assign(names_.size() * nt * 3, 0.0);
    for (std::size_t i = 0; i < names_.size(); ++i)
        for (std::size_t j = 0; j < nt; ++j)
            for (int c = 0; c < 3; ++c) r.u(i, j, c) = u_[std::size_t(run)][i][j * 3 + c];
    return r;
}

void ComparePanel::onFrame(const SimulationFrame& f) {
    if (f.runs.size() != 2) return;
    // Slices: A, B and A - B (B read at A's node positions when the spacings differ).
    const SliceImage& a = f.runs[0].slice;
    const SliceImage& b = f.runs[1].slice;
    views_[0]->setSlice(a, {}, true);
    views_[1]->setSlice(b, {}, true);
    SliceImage d = a;
    if (b.width > 1 && b.height > 1)
        for (int y = 0; y < a.height; ++y)
            for (int x = 0; x < a.width; ++x) {
                const int bx =
                    std::clamp(int(std::lround(double(x) * (b.width - 1) / std::max(1, a.width - 1))), 0, b.width - 1);
                const int by = std::clamp(int(std::lround(double(y) * (b.height - 1) / std::max(1, a.height - 1))), 0,
                                          b.height - 1);
                d.values[std::size_t(y) * a.width + x] -= b.values[std::size_t(by) * b.width + bx];
            }
    views_[2]->setSlice(d, {}, true);
    views_[0]->setOverlayText(QString::fromStdString("A: " + labels_[0]));
    views_[1]->setOverlayText(QString::fromStdString("B: " + labels_[1]));
    views_[2]->setOverlayText(tr("A - B   t = %1 µs").arg(f.time * 1e6, 0, 'f', 2));
    // Traces.
    const std::size_t nr = names_.size();
    if (nr) {
        // A frame's rows: the scene's receivers, then the probes' traces (not compared).
        const std::size_t rows = nr + controller_.probeTraceRows().names.size();
        const std::size_t count = f.runs[0].samples.size() / (3 * rows);
        for (std::size_t n = 0; n < count; ++n) {
            t_.push_back(double(f.first_sample + std::int64_t(n)) * dt_);
            for (int run = 0; run < 2; ++run)
                for (std::size_t r = 0; r < nr; ++r)
                    for (int c = 0; c < 3; ++c)
                        u_[std::size_t(run)][r].push_back(
                            n * rows * 3 + r * 3 + std::size_t(c) < f.runs[std::size_t(run)].samples.size()
                                ? f.runs[std::size_t(run)].samples[(n * rows + r) * 3 + std::size_t(c)]
                                : 0.0);
        }
    }
    redrawTraces();
}

void ComparePanel::redrawTraces() {
    clear_chart(chart_);
    const int ref = reference_->currentIndex(), obs = 1 - ref;
    if (!t_.empty()) {
        try {
            error_ = paper_trace_error(traces(obs), traces(ref));
            error_label_->setText(
                tr("misfit %1 vs %2: %3 %  (%1 = %4 against the reference %2 = %5; %6 samples, %7 receivers)")
                    .arg(obs == 0 ? "A" : "B", ref == 0 ? "A" : "B")
                    .arg(100.0 * error_, 0, 'f', 2)
                    .arg(QString::fromStdString(labels_[std::size_t(obs)]))
                    .arg(QString::fromStdString(labels_[std::size_t(ref)]))
                    .arg(t_.size())
                    .arg(names_.size()));
            emit errorChanged(error_);
        } catch (const std::exception& e) {
            error_label_->setText(tr("misfit: %1").arg(e.what()));
        }
    }
    const int r = receiver_->currentIndex();
    if (r < 0 || std::size_t(r) >= names_.size() || t_.empty()) return;
    const int c = component_->currentIndex();
    auto* ax = new QValueAxis;
    auto* ay = new QValueAxis;
    chart_->addAxis(ax, Qt::AlignBottom);
    chart_->addAxis(ay, Qt::AlignLeft);
    const std::size_t stride = std::max<std::size_t>(1, t_.size() / 1500);
    double lo = 0, hi = 0;
    for (int run = 0; run < 2; ++run)
        for (std::size_t j = 0; j < t_.size(); j += stride) {
            const double v = u_[std::size_t(run)][std::size_t(r)][j * 3 + std::size_t(c)];
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    const double tf = fit_nice_axis(chart_, ax, 0, t_.back(), tr("time"), "s");
    const double pad = 0.05 * std::max(hi - lo, 1e-30);
    const double uf = fit_nice_axis(chart_, ay, lo - pad, hi + pad, component_->currentText(), "m");
    for (int run = 0; run < 2; ++run) {
        auto* s = new QLineSeries;
        s->setName(QString::fromStdString((run == 0 ? "A: " : "B: ") + labels_[std::size_t(run)]));
        QList<QPointF> pts;
        for (std::size_t j = 0; j < t_.size(); j += stride)
            pts.append({t_[j] * tf, u_[std::size_t(run)][std::size_t(r)][j * 3 + std::size_t(c)] * uf});
        s->replace(pts);
        chart_->addSeries(s);
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
}

}  // namespace voxwave::ui
