#include "panels/scan_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMetaObject>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "document/edit_commands.hpp"
#include "panels/probes_panel.hpp"
#include "scene/scene_io.hpp"
#include "views/array_face_view.hpp"
#include "views/plot_axis.hpp"
#include "views/view_theme.hpp"
#include "wave/probe_scan.hpp"

namespace voxwave::ui {

namespace {

const char* const kScanTypes[] = {"single", "linear", "raster"};

double length(const Vec3& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

std::array<QDoubleSpinBox*, 3> step_boxes(const QString& name, const QString& tip) {
    std::array<QDoubleSpinBox*, 3> out{};
    const char* axes = "xyz";
    for (int a = 0; a < 3; ++a) {
        auto* s = new QDoubleSpinBox;
        s->setObjectName(name + "-" + QChar(axes[a]));
        s->setRange(-1e4, 1e4);
        s->setDecimals(3);
        s->setSuffix(" mm");
        s->setKeyboardTracking(false);
        s->setToolTip(tip);
        shrinkable(s);
        out[std::size_t(a)] = s;
    }
    return out;
}

QHBoxLayout* row_of(const std::array<QDoubleSpinBox*, 3>& boxes) {
    auto* h = new QHBoxLayout;
    for (auto* b : boxes) h->addWidget(b);
    return h;
}

}  // namespace

ScanPanel::ScanPanel(SceneDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    auto* lay = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    probe_ = choice_box("scan-probe", {},
                        tr("The probe moved over the model, one full run a shot (it must receive); none: no scan"));
    QStringList types;
    for (const char* t : kScanTypes) types << QString::fromLatin1(t);
    type_ = choice_box("scan-type", types,
                       tr("single: one shot where the probe is; linear: a line of shots (a B-scan); raster: lines of "
                          "shots (a C-scan)"));
    step_ = step_boxes("scan-step", tr("How far the probe moves between shots (x, y, z), along the surface"));
    positions_box_ = count_box("scan-positions", 1, 100000, tr("Shots along the step (the first where the probe is)"));
    step2_ = step_boxes("scan-step2", tr("Raster: how far one line of shots is from the next (x, y, z)"));
    positions2_box_ = count_box("scan-positions2", 1, 100000, tr("Raster: lines of shots"));
    gate_ = new QCheckBox(tr("gate"));
    gate_->setObjectName("scan-gate");
    gate_->setToolTip(tr("The C-scan: each shot's peak amplitude between the gate's start and end"));
    gate_start_ = new QDoubleSpinBox;
    gate_end_ = new QDoubleSpinBox;
    gate_start_->setObjectName("scan-gate-start");
    gate_end_->setObjectName("scan-gate-end");
    for (auto* g : {gate_start_, gate_end_}) {
        g->setRange(0, 1e7);
        g->setDecimals(3);
        g->setSuffix(" us");
        g->setKeyboardTracking(false);
        g->setToolTip(tr("The gate, microseconds from the start of the run"));
        shrinkable(g);
    }
    auto* gate_row = new QHBoxLayout;
    gate_row->addWidget(gate_);
    gate_row->addWidget(gate_start_);
    gate_row->addWidget(gate_end_);
    form->addRow(tr("Probe"), probe_);
    form->addRow(tr("Type"), type_);
    form->addRow(tr("Step"), row_of(step_));
    form->addRow(tr("Positions"), positions_box_);
    form->addRow(tr("Step 2"), row_of(step2_));
    form->addRow(tr("Positions 2"), positions2_box_);
    form->addRow(tr("Gate"), gate_row);
    lay->addLayout(form);
    auto* buttons = new QHBoxLayout;
    run_ = new QPushButton(tr("Run scan"));
    run_->setObjectName("scan-run");
    run_->setToolTip(
        tr("Run every shot of the scan in the background (the CLI's voxwave-cli scan); the views fill as "
           "shots complete"));
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setObjectName("scan-cancel");
    save_ = new QPushButton(tr("Save result..."));
    save_->setObjectName("scan-save");
    save_->setToolTip(tr("Write the scan's result as voxwave-cli scan writes it (HDF5: /probes, /scan)"));
    save_->setEnabled(false);
    for (auto* b : {run_, cancel_, save_}) buttons->addWidget(b);
    lay->addLayout(buttons);
    progress_ = new QProgressBar;
    progress_->setObjectName("scan-progress");
    progress_->setRange(0, 1);
    progress_->setValue(0);
    lay->addWidget(progress_);
    status_ = new QLabel;
    status_->setObjectName("scan-status");
    status_->setWordWrap(true);
    lay->addWidget(status_);
    error_ = panel_error_label("scan-error");
    lay->addWidget(error_);
    lay->addStretch(1);

    // The results: B-scan, C-scan and A-scan with the channel and scale they show.
    results_ = new QWidget;
    results_->setObjectName("scan-results");
    auto* rl = new QVBoxLayout(results_);
    rl->setContentsMargins(2, 2, 2, 2);
    auto* bar = new QHBoxLayout;
    channel_ = new QComboBox;
    channel_->setObjectName("scan-channel");
    channel_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    channel_->setToolTip(tr("What the views show of each shot: an array's delay-and-sum (its beam), or one element"));
    scale_ = new QComboBox;
    scale_->setObjectName("scan-scale");
    scale_->addItem(tr("linear"), 0);
    for (int db : {20, 40, 60}) scale_->addItem(tr("%1 dB").arg(db), db);
    scale_->setToolTip(tr("The B-scan's and C-scan's colour scale"));
    scale_->setCurrentIndex(QSettings().value("scan/scale", 2).toInt());
    face_ = new ArrayFaceView;
    face_->hide();  // shown for an array's scan
    line_ = new QSpinBox;
    line_->setObjectName("scan-line");
    line_->setRange(1, 1);
    line_->setKeyboardTracking(false);
    line_->setToolTip(
        tr("Raster: the line of shots (along step 2, 1 the first) the B-scan and A-scans show, its shots at "
           "their positions along the line; a click on the C-scan picks a shot and its line"));
    line_label_ = new QLabel(tr("Line"));
    for (QWidget* w : std::initializer_list<QWidget*>{line_, line_label_}) w->hide();  // shown for a raster
    bar->addWidget(new QLabel(tr("Channel")));
    bar->addWidget(channel_);
    bar->addWidget(face_, 4);
    bar->addWidget(line_label_);
    bar->addWidget(line_);
    bar->addWidget(new QLabel(tr("Scale")));
    bar->addWidget(scale_);
    bar->addStretch(1);
    rl->addLayout(bar);
    auto* split = new QSplitter(Qt::Horizontal);
    bscan_ = new BScanView(&state_);
    bscan_->setObjectName("probe-bscan");
    bscan_->setToolTip(
        tr("B-scan: a row per shot of the line at its position along it (a raster: the line in the Line "
           "box), time across; rows fill as shots complete. Click a row for its A-scan."));
    cscan_ = new CScanView;
    ascan_ = new AScanView(&state_);
    ascan_->setObjectName("probe-ascan");
    split->addWidget(bscan_);
    split->addWidget(cscan_);
    split->addWidget(ascan_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 3);
    split->setChildrenCollapsible(false);
    rl->addWidget(split, 1);

    bind_job_controls(job_, this, {run_}, cancel_, progress_, tr("Scan failed"));
    connect(run_, &QPushButton::clicked, this, &ScanPanel::runScan);
    connect(&job_, &BackgroundJob::failed, this, [this](const QString& m) {
        status_->setText(m == BackgroundJob::tr("cancelled")
                             ? tr("Cancelled after %1 of %2 shots").arg(filled_).arg(shotCount())
                             : tr("Failed"));
        if (m != BackgroundJob::tr("cancelled")) {
            show_panel_error(error_, last_error_, m);
        }
    });
    connect(&job_, &BackgroundJob::finished, this, [this] {
        save_->setEnabled(result_ != nullptr);
        status_->setText(tr("%1 shots of %2 steps").arg(shotCount()).arg(result_ ? result_->steps : 0));
        emit scanFinished();
    });
    connect(save_, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save scan result"), QString(), tr("HDF5 result (*.h5)"));
        if (!path.isEmpty()) saveResult(path);
    });
    for (auto* s : {step_[0], step_[1], step_[2], step2_[0], step2_[1], step2_[2], gate_start_, gate_end_})
        connect(s, &QDoubleSpinBox::valueChanged, this, &ScanPanel::edited);
    for (auto* s : {positions_box_, positions2_box_}) connect(s, &QSpinBox::valueChanged, this, &ScanPanel::edited);
    for (auto* b : {probe_, type_}) connect(b, &QComboBox::activated, this, &ScanPanel::edited);
    connect(gate_, &QCheckBox::toggled, this, &ScanPanel::edited);
    connect(channel_, &QComboBox::activated, this, [this] { setChannel(channel_->currentData().toInt()); });
    connect(face_, &ArrayFaceView::elementClicked, this, &ScanPanel::setChannel);
    connect(line_, &QSpinBox::valueChanged, this, [this](int line) {
        follow_line_ = false;
        showLine(line - 1);
    });
    connect(scale_, &QComboBox::activated, this, [this] {
        QSettings().setValue("scan/scale", scale_->currentIndex());
        redrawViews();
    });
    // The B-scan's and A-scans' rows are the line's shots; a click on the selected one clears it.
    const auto pick_row = [this](int r) { selectShot(r < 0 || r == state_.selected ? -1 : int(lineFirstShot()) + r); };
    connect(bscan_, &BScanView::clicked, this, pick_row);
    connect(cscan_, &CScanView::clicked, this, &ScanPanel::selectShot);
    connect(ascan_, &AScanView::clicked, this, pick_row);
    connect(doc_, &SceneDocument::sceneChanged, this, &ScanPanel::refresh);
    connect(doc_, &SceneDocument::documentReset, this, &ScanPanel::refresh);
    refresh();
}

ScanPanel::~ScanPanel() {
    job_.cancel();
    job_.wait();
    delete results_;
}

void ScanPanel::showError(const QString& message) {
    show_panel_error(error_, last_error_, message);
    if (!message.isEmpty()) emit failed(message);
}

void ScanPanel::refresh() {
    refreshing_ = true;
    const Scene& s = doc_->scene();
    const QList<QWidget*> boxes = findChildren<QWidget*>();
    for (QWidget* w : boxes) w->blockSignals(true);
    probe_->clear();
    probe_->addItem(tr("(no scan)"));
    for (const ProbeSpec& p : s.probes)
        if (p.receive) probe_->addItem(QString::fromStdString(p.name));
    const ScanSpec scan = s.scan.value_or(ScanSpec{});
    probe_->setCurrentIndex(s.scan ? std::max(0, probe_->findText(QString::fromStdString(scan.probe))) : 0);
    const auto t = std::find(std::begin(kScanTypes), std::end(kScanTypes), scan.type);
    type_->setCurrentIndex(t == std::end(kScanTypes) ? 0 : int(t - std::begin(kScanTypes)));
    for (int a = 0; a < 3; ++a) {
        step_[std::size_t(a)]->setValue(scan.step[a] * 1e3);
        step2_[std::size_t(a)]->setValue(scan.step2[a] * 1e3);
    }
    positions_box_->setValue(scan.positions);
    positions2_box_->setValue(scan.positions2);
    gate_->setChecked(scan.gated);
    gate_start_->setValue(scan.gate_start * 1e6);
    gate_end_->setValue(scan.gate_end * 1e6);
    for (QWidget* w : boxes) w->blockSignals(false);
    const bool on = s.scan.has_value();
    for (QWidget* w : std::initializer_list<QWidget*>{type_, positions_box_, gate_, gate_start_, gate_end_})
        w->setEnabled(on);
    for (auto* b : step_) b->setEnabled(on && scan.type != "single");
    for (auto* b : step2_) b->setEnabled(on && scan.type == "raster");
    positions_box_->setEnabled(on && scan.type != "single");
    positions2_box_->setEnabled(on && scan.type == "raster");
    gate_start_->setEnabled(on && scan.gated);
    gate_end_->setEnabled(on && scan.gated);
    run_->setEnabled(on && !job_.busy());
    refreshing_ = false;
}

void ScanPanel::edited() {
    if (refreshing_) return;
    const Scene& s = doc_->scene();
    std::optional<ScanSpec> scan;
    if (probe_->currentIndex() > 0) {
        ScanSpec sc = s.scan.value_or(ScanSpec{});
        const std::string name = probe_->currentText().toStdString();
        if (!s.scan) {
            // A new scan: a line of shots a millimetre apart along the probe's array axis.
            sc.type = "linear";
            sc.positions = 3;
            for (const ProbeSpec& p : s.probes)
                if (p.name == name)
                    for (int a = 0; a < 3; ++a) sc.step[a] = 0.001 * p.array_axis[a];
        } else {
            sc.type = kScanTypes[std::max(0, type_->currentIndex())];
            for (int a = 0; a < 3; ++a) {
                sc.step[a] = spin_box_si_value(step_[std::size_t(a)], sc.step[a], 1e3);
                sc.step2[a] = spin_box_si_value(step2_[std::size_t(a)], sc.step2[a], 1e3);
            }
            sc.positions = positions_box_->value();
            sc.positions2 = positions2_box_->value();
            sc.gated = gate_->isChecked();
            sc.gate_start = spin_box_si_value(gate_start_, sc.gate_start, 1e6);
            sc.gate_end = spin_box_si_value(gate_end_, sc.gate_end, 1e6);
            if (sc.gated && !s.scan->gated && !(sc.gate_end > sc.gate_start)) {
                // A new gate: the middle half of the run.
                const double t_end = s.run.duration > 0 ? s.run.duration : double(s.run.steps) * s.run.dt;
                sc.gate_start = 0.25 * t_end;
                sc.gate_end = 0.75 * t_end;
            }
            if (sc.type == "single") sc.positions = 1;
            if (sc.type != "raster") sc.positions2 = 1;
        }
        sc.probe = name;
        scan = sc;
    }
    if (scan == s.scan) return;
    const QString err = push_probes_edit(doc_, s.probes, scan, tr("Edit scan"));
    if (!err.isEmpty()) refresh();
    showError(err);
}

std::vector<double> ScanPanel::shotChannel(int shot) const {
    if (shot < 0 || std::size_t(shot) >= shots_.size() || shots_[std::size_t(shot)].empty()) return {};
    const std::vector<double>& all = shots_[std::size_t(shot)];
    const std::size_t nt = time_.size();
    if (channel_index_ >= 0 && std::size_t(channel_index_) < elements_)
        return {all.begin() + std::ptrdiff_t(std::size_t(channel_index_) * nt),
                all.begin() + std::ptrdiff_t(std::size_t(channel_index_ + 1) * nt)};
    if (!array_) return all;
    const double dt = nt > 1 ? time_[1] - time_[0] : 0;
    return delay_and_sum(all, nt, delays_, dt);
}

void ScanPanel::setChannel(int element) {
    channel_index_ = element >= 0 && std::size_t(element) < elements_ && array_ ? element : -1;
    const int i = channel_->findData(channel_index_);
    if (i >= 0) channel_->setCurrentIndex(i);
    face_->setSelected(channel_index_);
    redrawViews();
}

std::size_t ScanPanel::lineFirstShot() const {
    return std::min(std::size_t(line_index_) * std::size_t(std::max(1, positions_count_)), positions_.size());
}

std::size_t ScanPanel::lineShotCount() const {
    const std::size_t first = lineFirstShot();
    return positions2_count_ > 1 ? std::min(std::size_t(std::max(1, positions_count_)), positions_.size() - first)
                                 : positions_.size() - first;
}

int ScanPanel::selectedShot() const { return state_.selected >= 0 ? int(lineFirstShot()) + state_.selected : -1; }

void ScanPanel::selectShot(int shot) {
    if (shot >= 0 && std::size_t(shot) < positions_.size()) {
        follow_line_ = false;  // a shot picked: its line stays
        if (positions2_count_ > 1) showLine(shot / std::max(1, positions_count_));
    }
    const int row = shot - int(lineFirstShot());
    state_.selected = shot >= 0 && row >= 0 && std::size_t(row) < state_.count() ? row : -1;
    cscan_->setSelected(selectedShot());
    ascan_->refresh();
    bscan_->update();
}

void ScanPanel::showLine(int line) {
    line = std::clamp(line, 0, std::max(0, positions2_count_ - 1));
    const QSignalBlocker block(line_);
    line_->setValue(line + 1);
    if (line == line_index_) return;
    line_index_ = line;
    setupLine();
    redrawViews();
}

void ScanPanel::setupLine() {
    const std::size_t first = lineFirstShot(), m = lineShotCount();
    const std::vector<Vec3> line(positions_.begin() + std::ptrdiff_t(first),
                                 positions_.begin() + std::ptrdiff_t(first + m));
    state_.names.clear();
    for (std::size_t k = 0; k < m; ++k) state_.names.push_back(tr("shot %1").arg(first + k + 1));
    state_.line = receiver_line(line);
    if (!state_.line.valid)
        for (std::size_t r = 0; r < m; ++r) state_.line.coordinate[r] = double(r + 1);
    state_.rank.assign(m, 0);
    for (std::size_t k = 0; k < m; ++k) state_.rank[state_.line.order[k]] = k;
    state_.position_quantity = !state_.line.valid      ? tr("shot")
                               : state_.line.axis >= 0 ? QString(QChar('x' + state_.line.axis))
                                                       : tr("position along the scan");
    state_.selected = state_.hovered = -1;
}

void ScanPanel::runScan() {
    if (job_.busy()) return;
    showError({});
    const std::string label = document_label(*doc_);
    const Scene scene = doc_->scene();
    try {
        validate_scene(scene, label);
        if (!scene.scan) throw InputError(label, "scan", "the scene has no scan (pick a probe to scan)");
    } catch (const InputError& e) {
        showError(QString::fromStdString(e.what()));
        return;
    }
    const ScanSpec& scan = *scene.scan;
    const auto probe = std::find_if(scene.probes.begin(), scene.probes.end(),
                                    [&](const ProbeSpec& p) { return p.name == scan.probe; });
    // The views' rows: every shot's place, known before the first runs.
    positions_ = scan_shot_centers(scan, probe->center);
    positions_count_ = scan.positions;
    positions2_count_ = scan.positions2;
    step_len_ = length(scan.step);
    step2_len_ = length(scan.step2);
    array_ = probe->is_array();
    elements_ = std::size_t(probe->element_count());
    shots_.assign(positions_.size(), {});
    cscan_values_.assign(scan.gated ? positions_.size() : 0, std::numeric_limits<double>::quiet_NaN());
    time_.clear();
    delays_.clear();
    filled_ = 0;
    result_.reset();
    save_->setEnabled(false);
    channel_->clear();
    channel_->addItem(array_ ? tr("delay-and-sum") : tr("signal"), -1);
    if (array_)
        for (std::size_t e = 0; e < elements_; ++e) channel_->addItem(tr("element %1").arg(e + 1), int(e));
    channel_index_ = -1;
    face_->setProbe(*probe);
    face_->setSelected(-1);
    face_->setVisible(array_);
    line_index_ = 0;
    follow_line_ = true;
    {
        const QSignalBlocker block(line_);
        line_->setRange(1, std::max(1, positions2_count_));
        line_->setValue(1);
    }
    for (QWidget* w : std::initializer_list<QWidget*>{line_, line_label_}) w->setVisible(positions2_count_ > 1);
    setupLine();
    state_.gate = scan.gated;
    state_.gate_t0 = scan.gate_start;
    state_.gate_t1 = scan.gate_end;
    status_->setText(tr("Scanning: %1 shots").arg(positions_.size()));
    redrawViews();

    VoxelGrid model = doc_->model();
    auto out = std::make_shared<Result>();
    job_.start([this, scene, model = std::move(model), label, out](const ProgressFn& progress) mutable {
        const ScanShotFn on_shot = [this](std::size_t shot, const ScanRecord& so_far, const Result& r) {
            const std::size_t per_shot = so_far.elements * r.sample_count();
            std::vector<double> samples(so_far.shot_signals.end() - std::ptrdiff_t(per_shot),
                                        so_far.shot_signals.end());
            const double c = so_far.gated ? so_far.cscan.back() : std::numeric_limits<double>::quiet_NaN();
            std::vector<double> delays;
            for (const ProbeRecord& p : r.probes)
                if (p.name == so_far.probe) delays = p.delays;
            QMetaObject::invokeMethod(
                this,
                [this, shot, samples = std::move(samples), c, time = r.time, delays = std::move(delays)]() mutable {
                    shotArrived(int(shot), std::move(samples), c, std::move(time), std::move(delays));
                },
                Qt::QueuedConnection);
        };
        *out = run_probe_scan(scene, std::move(model), label, progress, nullptr, {}, nullptr, 1, on_shot);
        out->scene = label;
        QMetaObject::invokeMethod(
            this, [this, out] { result_ = out; }, Qt::QueuedConnection);
    });
}

void ScanPanel::cancelScan() { job_.cancel(); }

void ScanPanel::shotArrived(int shot, std::vector<double> samples, double cscan_value, std::vector<double> time,
                            std::vector<double> delays) {
    if (shot < 0 || std::size_t(shot) >= shots_.size()) return;
    if (time_.empty()) {
        time_ = std::move(time);
        delays_ = std::move(delays);
    }
    shots_[std::size_t(shot)] = std::move(samples);
    if (std::size_t(shot) < cscan_values_.size()) cscan_values_[std::size_t(shot)] = cscan_value;
    filled_ = int(std::count_if(shots_.begin(), shots_.end(), [](const auto& s) { return !s.empty(); }));
    status_->setText(tr("Shot %1 of %2 done").arg(filled_).arg(shotCount()));
    const int line = shot / std::max(1, positions_count_);
    if (follow_line_ && positions2_count_ > 1 && line != line_index_)
        showLine(line);  // the line being filled
    else
        redrawViews();
    emit shotCompleted(filled_);
}

void ScanPanel::redrawViews() {
    // The colours' full scale is the whole scan's peak, so that lines compare; the rows are the line's.
    const std::size_t n = positions_.size(), nt = time_.size();
    const std::size_t first = lineFirstShot(), m = lineShotCount();
    state_.quantity = tr("v");  // the channel is named in the box above the views
    state_.unit = QStringLiteral("m/s");
    const int db = scale_->currentData().toInt();
    state_.log_scale = db > 0;
    state_.range_db = db > 0 ? db : 40;
    state_.t_end = nt > 0 ? time_.back() : 0;
    std::vector<std::vector<double>> values(n);
    double peak = 0;
    for (std::size_t k = 0; k < n; ++k) {
        values[k] = shotChannel(int(k));
        for (double v : values[k]) peak = std::max(peak, std::abs(v));
    }
    state_.full_scale = peak > 0 ? peak : 1e-9;
    state_.traces.assign(m, {});
    state_.envelopes.clear();
    state_.envelope = false;
    state_.peaks.assign(m, {});
    state_.peak_sign.assign(m, 1);
    const double dt = nt > 1 ? time_[1] - time_[0] : 0;
    for (std::size_t k = 0; k < m; ++k) {
        const std::vector<double>& x = values[first + k];
        if (x.empty()) continue;
        state_.traces[k] = decimated_trace(nt, time_, [&](std::size_t i) { return x[i]; });
        if (state_.gate) state_.peaks[k] = gated_peak(x, dt, state_.gate_t0, state_.gate_t1);
    }
    if (m > 0 && nt > 0) {
        QImage img(bscan_columns(nt), int(m), QImage::Format_RGB32);
        img.fill(view_colors().plot);
        for (std::size_t k = 0; k < m; ++k)
            if (!values[first + k].empty()) fill_bscan_row(img, int(state_.rank[k]), values[first + k], state_);
        bscan_->setImage(img);
    } else {
        bscan_->setImage(m > 0 ? [&] {
            QImage img(1, int(m), QImage::Format_RGB32);
            img.fill(view_colors().plot);
            return img;
        }()
                               : QImage());
    }
    cscan_->set(positions_count_, positions2_count_, step_len_, step2_len_, cscan_values_, state_.log_scale,
                state_.range_db, QStringLiteral("m/s"));
    cscan_->setSelected(selectedShot());
    cscan_->setLine(positions2_count_ > 1 ? line_index_ : -1);
    ascan_->refresh();
}

bool ScanPanel::saveResult(const QString& path) {
    if (!result_) {
        showError(tr("No finished scan to save: run the scan first"));
        return false;
    }
    try {
        Result r = *result_;
        r.scene = QFileInfo(doc_->path()).fileName().toStdString();
        write_result_h5(path.toStdString(), r);
    } catch (const InputError& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
    status_->setText(tr("Saved %1").arg(QFileInfo(path).fileName()));
    return true;
}

}  // namespace voxwave::ui
