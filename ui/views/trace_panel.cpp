#include "views/trace_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QSettings>
#include <QSlider>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/atomic_file.hpp"
#include "views/plot_axis.hpp"

namespace voxwave::ui {

TracePanel::TracePanel(QWidget* parent) : QWidget(parent) {
    pending_redraw_.setSingleShot(true);
    connect(&pending_redraw_, &QTimer::timeout, this, &TracePanel::redraw);
    ascan_ = new AScanView(&state_);
    bscan_ = new BScanView(&state_);
    component_box_ = new QComboBox;
    component_box_->setObjectName("component-box");
    component_box_->addItems({tr("u_x"), tr("u_y"), tr("u_z"), tr("|u|")});
    component_box_->setCurrentIndex(2);
    component_box_->setToolTip(tr("Displacement component drawn in the A-scans and the B-scan"));
    connect(component_box_, &QComboBox::currentIndexChanged, this, &TracePanel::setComponent);
    receiver_box_ = new QComboBox;
    receiver_box_->setObjectName("receiver-box");
    receiver_box_->setToolTip(tr("Show one receiver's A-scan alone (or click its row in the B-scan or the A-scans)"));
    receiver_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    receiver_box_->setMinimumContentsLength(10);
    connect(receiver_box_, &QComboBox::activated, this,
            [this](int i) { selectReceiver(i <= 0 ? -1 : receiver_box_->itemData(i).toInt()); });
    gain_slider_ = new QSlider(Qt::Horizontal);
    gain_slider_->setObjectName("gain-slider");
    gain_slider_->setRange(-20, 60);
    gain_slider_->setValue(0);
    gain_slider_->setMaximumWidth(110);
    gain_slider_->setToolTip(
        tr("Gain in dB: full scale (the A-scans' row height, the B-scan's full colour) is the "
           "largest displacement of all receivers divided by the gain"));
    gain_label_ = new QLabel;
    gain_label_->setMinimumWidth(gain_label_->fontMetrics().horizontalAdvance(QStringLiteral("+60 dB")));
    connect(gain_slider_, &QSlider::valueChanged, this, [this](int v) {
        gain_label_->setText(tr("%1%2 dB").arg(v > 0 ? "+" : "").arg(v));
        redraw();
    });
    gain_label_->setText(tr("0 dB"));
    scale_box_ = new QComboBox;
    scale_box_->setObjectName("scale-box");
    scale_box_->addItem(tr("Linear"), 0);
    for (int db : {20, 40, 60}) scale_box_->addItem(tr("dB, %1 dB range").arg(db), db);
    scale_box_->setToolTip(
        tr("B-scan colour scale: linear (signed, blue to red) or log-compressed |value| in dB "
           "below full scale (the envelope when it is shown)"));
    connect(scale_box_, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
    envelope_box_ = new QCheckBox(tr("Envelope"));
    envelope_box_->setObjectName("envelope-box");
    envelope_box_->setToolTip(
        tr("Hilbert envelope of each trace (yellow); the gate then measures the envelope's peak"));
    connect(envelope_box_, &QCheckBox::toggled, this, [this] {
        force_envelope_ = true;
        redraw();
    });
    gate_box_ = new QCheckBox(tr("Gate"));
    gate_box_->setObjectName("gate-box");
    gate_box_->setToolTip(
        tr("A time window on the A-scans: the peak inside it and its time per receiver. Drag its "
           "edges or its middle"));
    connect(gate_box_, &QCheckBox::toggled, this, [this](bool on) {
        state_.gate = on;
        if (on && !(state_.gate_t1 > state_.gate_t0)) {
            state_.gate_t0 = 0.25 * state_.t_end;
            state_.gate_t1 = 0.5 * state_.t_end;
        }
        redraw();
    });
    info_ = new QLabel;
    info_->setObjectName("scan-info");
    connect(ascan_, &AScanView::gateMoved, this, [this](double t0, double t1) { setGate(true, t0, t1); });
    connect(ascan_, &AScanView::hovered, this, &TracePanel::hoverReceiver);
    connect(bscan_, &BScanView::hovered, this, &TracePanel::hoverReceiver);
    auto toggle = [this](int r) { selectReceiver(r == state_.selected ? -1 : r); };
    connect(ascan_, &AScanView::clicked, this, toggle);
    // A click gives the views the keyboard: Up / Down / Escape reach keyPressEvent.
    ascan_->setFocusPolicy(Qt::ClickFocus);
    bscan_->setFocusPolicy(Qt::ClickFocus);
    connect(bscan_, &BScanView::clicked, this, toggle);
    split_ = new QSplitter(Qt::Horizontal);
    split_->setObjectName("scan-splitter");
    split_->addWidget(ascan_);
    split_->addWidget(bscan_);
    split_->setChildrenCollapsible(false);
    split_->setStretchFactor(0, 1);
    split_->setStretchFactor(1, 1);
    // The display settings of the scans are the user's: kept between sessions.
    const QSettings settings;
    gain_slider_->setValue(settings.value("scans/gain_db", 0).toInt());
    scale_box_->setCurrentIndex(std::max(0, scale_box_->findData(settings.value("scans/scale_db", 0).toInt())));
    envelope_box_->setChecked(settings.value("scans/envelope", false).toBool());
    connect(gain_slider_, &QSlider::valueChanged, this, [](int v) { QSettings().setValue("scans/gain_db", v); });
    connect(scale_box_, &QComboBox::currentIndexChanged, this,
            [this] { QSettings().setValue("scans/scale_db", scale_box_->currentData().toInt()); });
    connect(envelope_box_, &QCheckBox::toggled, this, [](bool on) { QSettings().setValue("scans/envelope", on); });
    auto* top = new QHBoxLayout;
    top->setSpacing(6);
    top->addWidget(component_box_);
    top->addWidget(receiver_box_);
    top->addWidget(new QLabel(tr("Gain")));
    top->addWidget(gain_slider_);
    top->addWidget(gain_label_);
    top->addWidget(scale_box_);
    top->addWidget(envelope_box_);
    top->addWidget(gate_box_);
    top->addWidget(info_, 1);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(2, 2, 2, 2);
    lay->addLayout(top);
    lay->addWidget(split_, 1);
}

void TracePanel::resizeEvent(QResizeEvent* e) {
    // A wide, low dock (the window's bottom) puts the two views side by side, each the full
    // height; a tall one stacks them. The splitter between them sets their share either way.
    const Qt::Orientation o = width() > 2 * height() ? Qt::Horizontal : Qt::Vertical;
    if (split_->orientation() != o) split_->setOrientation(o);
    QWidget::resizeEvent(e);
}

void TracePanel::keyPressEvent(QKeyEvent* e) {
    const int n = int(names_.size());
    const int k = state_.selected >= 0 ? int(state_.rank[std::size_t(state_.selected)]) : -1;
    int to = k;
    if (e->key() == Qt::Key_Down)
        to = std::min(n - 1, k + 1);
    else if (e->key() == Qt::Key_Up)
        to = k < 0 ? 0 : std::max(0, k - 1);
    else if (e->key() == Qt::Key_Escape && k >= 0)
        to = -1;
    else
        return QWidget::keyPressEvent(e);
    if (n > 0 && to != k) selectReceiver(to < 0 ? -1 : int(state_.line.order[std::size_t(to)]));
    e->accept();
}

void TracePanel::reset(const std::vector<std::string>& names, double dt,
                       const std::vector<std::array<double, 3>>& positions) {
    names_ = names;
    dt_ = dt;
    t_.clear();
    u_.assign(names.size(), {});
    envelope_.clear();
    envelope_component_ = -1;
    const std::size_t n = names.size();
    state_.names.clear();
    for (const auto& s : names) state_.names.push_back(QString::fromStdString(s));
    // Without a position per receiver the receivers count along the table, from 1.
    state_.line = receiver_line(positions.size() == n ? positions : std::vector<std::array<double, 3>>(n));
    if (!state_.line.valid)
        for (std::size_t r = 0; r < n; ++r) state_.line.coordinate[r] = double(r + 1);
    state_.rank.assign(n, 0);
    for (std::size_t k = 0; k < n; ++k) state_.rank[state_.line.order[k]] = k;
    const auto& d = state_.line.direction;
    if (!state_.line.valid)
        state_.position_quantity = tr("receiver (table order)");
    else if (state_.line.axis >= 0)
        state_.position_quantity = QString(QChar('x' + state_.line.axis));
    else
        state_.position_quantity =
            tr("along (%1, %2, %3)").arg(d[0], 0, 'f', 2).arg(d[1], 0, 'f', 2).arg(d[2], 0, 'f', 2);
    bscan_->setToolTip(
        tr("B-scan: one row per receiver, in their order along %1; click a row to show that "
           "receiver's A-scan alone")
            .arg(state_.line.valid
                     ? tr("the direction (%1, %2, %3)").arg(d[0], 0, 'f', 3).arg(d[1], 0, 'f', 3).arg(d[2], 0, 'f', 3)
                     : tr("the table (their positions give no line)")));
    const bool pointed = state_.selected >= 0 || state_.hovered >= 0;
    state_.selected = state_.hovered = -1;
    if (pointed) emit receiverSelected(-1);  // the old receivers are gone
    receiver_box_->clear();
    receiver_box_->addItem(tr("All receivers"), -1);
    for (std::size_t k = 0; k < n; ++k)
        receiver_box_->addItem(state_.names[state_.line.order[k]], int(state_.line.order[k]));
    ascan_->scrollToRow(0);
    redraw();
}

void TracePanel::append(std::int64_t first, const std::vector<double>& samples) {
    const std::size_t nr = names_.size();
    if (nr == 0) return;
    const std::size_t count = samples.size() / (3 * nr);
    // Samples arrive in order; a frame that overlaps what we have (never expected) is trimmed.
    const std::size_t skip = t_.size() > std::size_t(first) ? t_.size() - std::size_t(first) : 0;
    for (std::size_t n = skip; n < count; ++n) {
        t_.push_back(double(first + std::int64_t(n)) * dt_);
        for (std::size_t r = 0; r < nr; ++r)
            for (int c = 0; c < 3; ++c) u_[r].push_back(samples[(n * nr + r) * 3 + c]);
    }
    constexpr qint64 kRedrawMs = 150;
    const qint64 since = since_redraw_.isValid() ? since_redraw_.elapsed() : kRedrawMs + 1;
    if (since > kRedrawMs)
        redraw();
    else if (!pending_redraw_.isActive())
        pending_redraw_.start(int(kRedrawMs - since + 1));
}

void TracePanel::flush() {
    force_envelope_ = true;
    redraw();
}

void TracePanel::showResult(const Result& result) {
    // A result holds receiver x time x component; frames arrive time x receiver x component.
    const std::size_t nr = result.receiver_count(), nt = result.sample_count();
    std::vector<double> samples(nr * nt * 3);
    for (std::size_t r = 0; r < nr; ++r)
        for (std::size_t n = 0; n < nt; ++n)
            for (int c = 0; c < 3; ++c)  // a 2D (plane-strain) result has no u_z: 0
                samples[(n * nr + r) * 3 + std::size_t(c)] = c < result.components ? result.u(r, n, c) : 0.0;
    reset(result.receiver_names, result.dt, result.receiver_positions);
    append(0, samples);
    flush();
}

double TracePanel::value(std::size_t r, std::size_t n) const {
    const double* u = &u_[r][n * 3];
    return component_ == 3 ? std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) : u[component_];
}

int TracePanel::plottedPoints() const {
    int n = 0;
    for (const auto& t : state_.traces) n += int(t.size());
    return n;
}

double TracePanel::plottedEndTime() const {
    double end = 0;
    for (const auto& t : state_.traces)
        if (!t.isEmpty()) end = std::max(end, t.back().x() * 1e6);
    return end;
}

std::vector<double> TracePanel::envelope(std::size_t r) const {
    return state_.envelope && r < envelope_.size() ? envelope_[r] : std::vector<double>{};
}

double TracePanel::gainDb() const { return gain_slider_->value(); }

void TracePanel::setComponent(int c) {
    component_ = std::clamp(c, 0, 3);
    if (component_box_->currentIndex() != component_) component_box_->setCurrentIndex(component_);
    redraw();
}

void TracePanel::setGainDb(double db) { gain_slider_->setValue(int(std::lround(db))); }

void TracePanel::setLogScale(bool log, double range_db) {
    const int i = log ? scale_box_->findData(int(std::lround(range_db))) : 0;
    scale_box_->setCurrentIndex(std::max(0, i));
}

void TracePanel::setEnvelopeShown(bool on) { envelope_box_->setChecked(on); }

void TracePanel::setGate(bool on, double t0, double t1) {
    state_.gate_t0 = std::min(t0, t1);
    state_.gate_t1 = std::max(t0, t1);
    if (gate_box_->isChecked() != on)
        gate_box_->setChecked(on);  // redraws
    else
        redraw();
}

void TracePanel::selectReceiver(int r) {
    if (r >= int(names_.size())) r = -1;
    const bool changed = r != state_.selected;
    state_.selected = r;
    receiver_box_->setCurrentIndex(r < 0 ? 0 : int(state_.rank[std::size_t(r)]) + 1);
    if (r < 0 && changed) ascan_->scrollToRow(0);
    refreshViews();
    updateInfo();
    if (changed) emit receiverSelected(r);
}

void TracePanel::hoverReceiver(int r) {
    if (r == state_.hovered) return;
    state_.hovered = r;
    refreshViews();
    updateInfo();
    emit receiverHovered(r);
}

void TracePanel::updateInfo() {
    const int r = state_.hovered >= 0 ? state_.hovered : state_.selected;
    if (r < 0 || std::size_t(r) >= names_.size()) {
        info_->clear();
        return;
    }
    QString text = state_.names[std::size_t(r)];
    if (state_.line.valid)
        text += tr(": %1 = %2")
                    .arg(state_.position_quantity.section(' ', 0, 0),
                         format_si(state_.line.coordinate[std::size_t(r)], "m"));
    info_->setText(text);
}

void TracePanel::refreshViews() {
    ascan_->refresh();
    bscan_->update();
}

void TracePanel::redraw() {
    pending_redraw_.stop();
    since_redraw_.start();
    const std::size_t nr = names_.size(), nt = t_.size();
    state_.quantity = component_box_->currentText();
    state_.log_scale = scale_box_->currentData().toInt() > 0;
    state_.range_db = state_.log_scale ? scale_box_->currentData().toInt() : 40;
    state_.envelope = envelope_box_->isChecked();
    envelope_box_->setEnabled(component_ < 3);
    if (component_ == 3) state_.envelope = false;  // |u| is its own envelope
    state_.t_end = nt > 0 ? t_.back() : 0;
    if (nr == 0 || nt == 0) {
        state_.traces.assign(nr, {});
        state_.envelopes.clear();
        state_.peaks.assign(nr, {});
        state_.peak_sign.assign(nr, 1);
        bscan_->setImage({});
        refreshViews();
        return;
    }
    std::vector<std::vector<double>> values(nr, std::vector<double>(nt));
    double peak = 0;
    for (std::size_t r = 0; r < nr; ++r)
        for (std::size_t n = 0; n < nt; ++n) {
            values[r][n] = value(r, n);
            peak = std::max(peak, std::abs(values[r][n]));
        }
    if (!(peak > 0)) peak = 1e-9;  // silent traces: a nanometre full scale, not a metre
    state_.full_scale = peak / std::pow(10.0, gainDb() / 20);
    // The envelope takes an FFT per receiver: while samples keep arriving it is renewed at most
    // once a second (the newest samples' part reads 0 until then); flush and every change of
    // what is shown renew it at once.
    const bool stale = envelope_component_ != component_ || envelope_samples_ != nt;
    const bool renew = envelope_component_ != component_ || envelope_samples_ > nt || force_envelope_ ||
                       !envelope_age_.isValid() || envelope_age_.elapsed() >= 1000;
    force_envelope_ = false;
    if (state_.envelope && stale && renew) {
        envelope_.resize(nr);
        for (std::size_t r = 0; r < nr; ++r) envelope_[r] = hilbert_envelope(values[r]);
        envelope_component_ = component_;
        envelope_samples_ = nt;
        envelope_age_.start();
    }
    if (state_.envelope)
        for (auto& e : envelope_) e.resize(nt, 0.0);
    // A-scans (and the envelopes), decimated for drawing.
    state_.traces.resize(nr);
    state_.envelopes.resize(state_.envelope ? nr : 0);
    for (std::size_t r = 0; r < nr; ++r) {
        state_.traces[r] = decimated_trace(nt, t_, [&](std::size_t n) { return values[r][n]; });
        if (state_.envelope)
            state_.envelopes[r] = decimated_trace(nt, t_, [&](std::size_t n) { return envelope_[r][n]; });
    }
    // Gate: the peak of the envelope when it is shown, else of |value|.
    state_.peaks.assign(nr, {});
    state_.peak_sign.assign(nr, 1);
    if (state_.gate)
        for (std::size_t r = 0; r < nr; ++r) {
            const auto& x = state_.envelope ? envelope_[r] : values[r];
            state_.peaks[r] = gated_peak(x, dt_, state_.gate_t0, state_.gate_t1);
            if (!state_.envelope && state_.peaks[r].found) {
                const auto n = std::size_t(std::clamp(std::lround(state_.peaks[r].time / dt_), 0L, long(nt - 1)));
                state_.peak_sign[r] = values[r][n] < 0 ? -1 : 1;
            }
        }
    // B-scan: a row per receiver in spatial order; a column per sample, or per bucket of
    // samples (its largest |value|) beyond kBScanColumns (bscan_columns).
    QImage img(bscan_columns(nt), int(nr), QImage::Format_RGB32);
    for (std::size_t k = 0; k < nr; ++k) {
        const std::size_t r = state_.line.order[k];
        fill_bscan_row(img, int(k), state_.log_scale && state_.envelope ? envelope_[r] : values[r], state_);
    }
    bscan_->setImage(img);
    refreshViews();
}

void TracePanel::exportCsv(const QString& path) const {
    std::ostringstream out;
    out.precision(17);
    out << "time";
    const char* comp[] = {"x", "y", "z"};
    for (const auto& n : names_)
        for (const char* c : comp) out << ',' << n << "_u" << c;
    out << '\n';
    for (std::size_t n = 0; n < t_.size(); ++n) {
        out << t_[n];
        for (std::size_t r = 0; r < names_.size(); ++r)
            for (int c = 0; c < 3; ++c) out << ',' << u_[r][n * 3 + c];
        out << '\n';
    }
    write_text_atomically(path.toStdString(), out.str());
}

void TracePanel::setBScanShown(bool on) { bscan_->setVisible(on); }

}  // namespace voxwave::ui
