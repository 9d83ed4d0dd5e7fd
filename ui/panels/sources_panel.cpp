#include "panels/sources_panel.hpp"

#include <QChart>
#include <QChartView>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>
#include <complex>
#include <set>

#include "core/errors.hpp"
#include "document/edit_commands.hpp"
#include "panels/table_errors.hpp"
#include "scene/scene_io.hpp"
#include "views/plot_axis.hpp"
#include "wave/wavelet.hpp"

namespace voxwave::ui {

namespace {

QTableWidgetItem* cell(const QString& text) { return new QTableWidgetItem(text); }
QTableWidgetItem* cell(double v) { return new QTableWidgetItem(QString::number(v, 'g', 10)); }

// The wavelet's two frequency columns and delay, per type (Hz, s).
void wavelet_columns(const Wavelet& w, double& f1, double& f2) {
    switch (w.type) {
        case WaveletType::Ricker:
            f1 = w.frequency, f2 = 0;
            break;
        case WaveletType::ToneBurst:
            f1 = w.frequency, f2 = w.cycles;
            break;
        case WaveletType::Bandpass:
            f1 = w.f_low, f2 = w.f_high;
            break;
        case WaveletType::Samples:
            f1 = 0, f2 = w.sample_dt;
            break;
    }
}

QString unique_name(const QString& prefix, const std::set<std::string>& taken) {
    for (int i = 1;; ++i) {
        const QString n = prefix + QString::number(i);
        if (!taken.count(n.toStdString())) return n;
    }
}

}  // namespace

SourcesPanel::SourcesPanel(SceneDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    sources_ = new QTableWidget(0, kSrcColumns);
    sources_->setHorizontalHeaderLabels({tr("name"), tr("x mm"), tr("y mm"), tr("z mm"), tr("dir x"), tr("dir y"),
                                         tr("dir z"), tr("force N"), tr("wavelet"), tr("f / f_low Hz"),
                                         tr("cycles / f_high"), tr("delay s")});
    sources_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    const char* source_tips[kSrcColumns] = {
        "Name of the source (labels it in the views)",
        "Position x in mm (inside the model)",
        "Position y in mm",
        "Position z in mm",
        "Direction of the force: x component (the direction is normalised)",
        "Direction of the force: y component",
        "Direction of the force: z component",
        "Peak force in newtons (scales the whole field)",
        "Pulse shape: ricker, tone_burst, bandpass or samples (from a file)",
        "ricker and tone_burst: centre frequency in Hz; bandpass: lower band edge in Hz",
        "tone_burst: number of cycles; bandpass: upper band edge in Hz; samples: sample interval in s",
        "Delay in s: ricker and bandpass peak at this time, tone_burst starts at it"};
    for (int c = 0; c < kSrcColumns; ++c) sources_->horizontalHeaderItem(c)->setToolTip(tr(source_tips[c]));
    receivers_ = new QTableWidget(0, kRecColumns);
    receivers_->setHorizontalHeaderLabels({tr("name"), tr("x mm"), tr("y mm"), tr("z mm")});
    receivers_->setToolTip(tr("Receivers record the displacement at their node; positions in mm"));
    receivers_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    connect(sources_, &QTableWidget::cellChanged, this, &SourcesPanel::sourceEdited);
    connect(receivers_, &QTableWidget::cellChanged, this, &SourcesPanel::receiverEdited);
    connect(sources_, &QTableWidget::currentCellChanged, this, &SourcesPanel::updatePreview);

    wavelet_chart_ = new QChart;
    spectrum_chart_ = new QChart;
    for (QChart* c : {wavelet_chart_, spectrum_chart_}) {
        c->legend()->setVisible(false);
        c->setTheme(QChart::ChartThemeDark);
        c->setMargins(QMargins(2, 2, 2, 2));
    }
    auto* wv = new QChartView(wavelet_chart_);
    auto* sv = new QChartView(spectrum_chart_);
    wv->setMinimumHeight(150);
    sv->setMinimumHeight(150);
    wv->setToolTip(tr("The selected source's wavelet w(t) (times its force gives the load)"));
    sv->setToolTip(tr("Magnitude of the wavelet's spectrum relative to its peak"));

    auto* remove = new QPushButton(tr("Remove selected"));
    auto* line = new QPushButton(tr("Receiver line..."));
    connect(remove, &QPushButton::clicked, this, &SourcesPanel::removeSelected);
    connect(line, &QPushButton::clicked, this, &SourcesPanel::showReceiverLineDialog);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(remove);
    buttons->addWidget(line);
    buttons->addStretch();
    auto* plots = new QHBoxLayout;
    plots->addWidget(wv);
    plots->addWidget(sv);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(2, 2, 2, 2);
    lay->addWidget(sources_, 2);
    lay->addLayout(plots, 2);
    lay->addWidget(receivers_, 3);
    lay->addLayout(buttons);
    connect(doc_, &SceneDocument::sceneChanged, this, &SourcesPanel::refresh);
    connect(doc_, &SceneDocument::documentReset, this, &SourcesPanel::refresh);
    refresh();
}

void SourcesPanel::refresh() {
    refreshing_ = true;
    const Scene& s = doc_->scene();
    sources_->setRowCount(int(s.sources.size()));
    for (int r = 0; r < int(s.sources.size()); ++r) {
        const Source& src = s.sources[r];
        double f1 = 0, f2 = 0;
        wavelet_columns(src.wavelet, f1, f2);
        sources_->setItem(r, kSrcName, cell(QString::fromStdString(src.name)));
        for (int c = 0; c < 3; ++c) {
            sources_->setItem(r, kSrcX + c, cell(src.position[c] * 1e3));
            sources_->setItem(r, kSrcDx + c, cell(src.direction[c]));
        }
        sources_->setItem(r, kSrcAmp, cell(src.amplitude));
        sources_->setItem(r, kSrcType, cell(QString(to_string(src.wavelet.type))));
        sources_->setItem(r, kSrcF1, cell(f1));
        sources_->setItem(r, kSrcF2, cell(f2));
        sources_->setItem(r, kSrcDelay, cell(src.wavelet.delay));
    }
    receivers_->setRowCount(int(s.receivers.size()));
    for (int r = 0; r < int(s.receivers.size()); ++r) {
        receivers_->setItem(r, kRecName, cell(QString::fromStdString(s.receivers[r].name)));
        for (int c = 0; c < 3; ++c) receivers_->setItem(r, kRecX + c, cell(s.receivers[r].position[c] * 1e3));
    }
    refreshing_ = false;
    updatePreview();
}

void SourcesPanel::sourceEdited(int row, int col) {
    if (refreshing_) return;
    auto v = doc_->scene().sources;
    if (row < 0 || row >= int(v.size())) return;
    Source& s = v[row];
    const QString text = sources_->item(row, col)->text().trimmed();
    bool ok = true;
    const double x = text.toDouble(&ok);
    try {
        switch (col) {
            case kSrcName:
                s.name = text.toStdString();
                ok = !text.isEmpty();
                break;
            case kSrcX:
            case kSrcY:
            case kSrcZ:
                s.position[col - kSrcX] = x * 1e-3;
                break;
            case kSrcDx:
            case kSrcDy:
            case kSrcDz:
                s.direction[col - kSrcDx] = x;
                break;
            case kSrcAmp:
                s.amplitude = x;
                break;
            case kSrcType:
                s.wavelet.type =
                    parse_wavelet_type(text.toStdString(), "sources[" + std::to_string(row) + "].wavelet.type");
                ok = true;
                break;
            case kSrcF1:
                if (s.wavelet.type == WaveletType::Bandpass)
                    s.wavelet.f_low = x;
                else
                    s.wavelet.frequency = x;
                break;
            case kSrcF2:
                if (s.wavelet.type == WaveletType::Bandpass)
                    s.wavelet.f_high = x;
                else if (s.wavelet.type == WaveletType::ToneBurst)
                    s.wavelet.cycles = x;
                else
                    s.wavelet.sample_dt = x;
                break;
            case kSrcDelay:
                s.wavelet.delay = x;
                break;
        }
        if (!ok) {
            emit failed(table_cell_error(sources_, tr("Sources"), row, col, kSrcName,
                                         col == kSrcName ? tr("must not be empty") : tr("is not a number")));
            refresh();  // back to the document's values
            return;
        }
        Scene trial = doc_->scene();
        trial.sources = v;
        validate_scene(trial, "scene");
    } catch (const InputError& e) {
        emit failed(tableError(e, sources_, row, col));
        refresh();  // back to the document's values
        return;
    }
    doc_->undoStack()->push(new SetSourcesCommand(doc_, v, tr("Edit source %1").arg(row + 1)));
}

void SourcesPanel::receiverEdited(int row, int col) {
    if (refreshing_) return;
    auto v = doc_->scene().receivers;
    if (row < 0 || row >= int(v.size())) return;
    const QString text = receivers_->item(row, col)->text().trimmed();
    bool ok = true;
    if (col == kRecName) {
        v[row].name = text.toStdString();
        ok = !text.isEmpty();
    } else {
        v[row].position[col - kRecX] = text.toDouble(&ok) * 1e-3;
    }
    if (!ok) {
        emit failed(table_cell_error(receivers_, tr("Receivers"), row, col, kRecName,
                                     col == kRecName ? tr("must not be empty") : tr("is not a number")));
        refresh();
        return;
    }
    try {
        Scene trial = doc_->scene();
        trial.receivers = v;
        validate_scene(trial, "scene");
    } catch (const InputError& e) {
        emit failed(tableError(e, receivers_, row, col));
        refresh();
        return;
    }
    doc_->undoStack()->push(new SetReceiversCommand(doc_, v, tr("Edit receiver %1").arg(row + 1)));
}

QString SourcesPanel::tableError(const InputError& e, const QTableWidget* edited, int edited_row,
                                 int edited_col) const {
    int index = 0;
    std::string rest;
    const bool is_source = split_list_field(e.field(), "sources", index, rest);
    if (!is_source && !split_list_field(e.field(), "receivers", index, rest))
        return QString::fromStdString(e.what());  // not about a row of these tables
    QTableWidget* table = is_source ? sources_ : receivers_;
    const int x_col = is_source ? int(kSrcX) : int(kRecX);
    const bool edited_table = table == edited;
    int col = is_source ? int(kSrcType) : int(kRecName);
    QString reason = QString::fromStdString(e.reason());
    if (rest == "name") {
        col = is_source ? int(kSrcName) : int(kRecName);
    } else if (rest == "position") {
        // The table is in mm; the model's box is said in mm too, along the axis at fault.
        const GridSpec& g = doc_->scene().grid;
        int axis = -1;
        if (edited_table && index == edited_row && edited_col >= x_col && edited_col < x_col + 3)
            axis = edited_col - x_col;
        else
            for (int a = 0; a < 3 && axis < 0; ++a) {
                const double mm = table->item(index, x_col + a) ? table->item(index, x_col + a)->text().toDouble() : 0;
                if (mm < g.origin[a] * 1e3 || mm > (g.origin[a] + g.size[a]) * 1e3) axis = a;
            }
        axis = std::max(axis, 0);
        col = x_col + axis;
        reason = tr("is outside the model, whose %1 runs from %2 to %3 mm")
                     .arg(QChar("xyz"[axis]))
                     .arg(g.origin[axis] * 1e3, 0, 'g', 6)
                     .arg((g.origin[axis] + g.size[axis]) * 1e3, 0, 'g', 6);
    } else if (is_source) {
        // The other source columns are in the scene's own units (N, Hz, s).
        if (rest == "direction")
            col = edited_table && index == edited_row && edited_col >= kSrcDx && edited_col <= kSrcDz ? edited_col
                                                                                                      : int(kSrcDx);
        else if (rest == "amplitude")
            col = kSrcAmp;
        else if (rest == "wavelet.frequency" || rest == "wavelet.f_low")
            col = kSrcF1;
        else if (rest == "wavelet.cycles" || rest == "wavelet.f_high" || rest == "wavelet.dt")
            col = kSrcF2;
        else if (rest == "wavelet.delay")
            col = kSrcDelay;
    }
    return table_cell_error(table, is_source ? tr("Sources") : tr("Receivers"), index, col,
                            is_source ? int(kSrcName) : int(kRecName), reason);
}

void SourcesPanel::addSourceAt(const Vec3& p) {
    auto v = doc_->scene().sources;
    std::set<std::string> taken;
    for (const auto& s : v) taken.insert(s.name);
    Source s;
    s.name = unique_name("S", taken).toStdString();
    s.position = p;
    if (!v.empty()) {
        s.wavelet = v.front().wavelet;  // the same pulse as the first source: what users expect
        s.direction = v.front().direction;
        s.amplitude = v.front().amplitude;
    } else {
        s.wavelet.type = WaveletType::Ricker;
        s.wavelet.frequency = 100e3;
        s.wavelet.delay = 1.2e-5;
        if (doc_->scene().grid.plane_strain()) s.direction = {0, 1, 0};  // a 2D force lies in the x-y plane
    }
    v.push_back(s);
    doc_->undoStack()->push(new SetSourcesCommand(doc_, v, tr("Place source %1").arg(QString::fromStdString(s.name))));
}

void SourcesPanel::addReceiverAt(const Vec3& p) {
    auto v = doc_->scene().receivers;
    std::set<std::string> taken;
    for (const auto& r : v) taken.insert(r.name);
    const QString name = unique_name("R", taken);
    v.push_back({name.toStdString(), p});
    doc_->undoStack()->push(new SetReceiversCommand(doc_, v, tr("Place receiver %1").arg(name)));
}

void SourcesPanel::addReceiverLine(const Vec3& a, const Vec3& b, int count, const QString& prefix) {
    auto v = doc_->scene().receivers;
    std::set<std::string> taken;
    for (const auto& r : v) taken.insert(r.name);
    for (int i = 0; i < count; ++i) {
        const double t = count == 1 ? 0.0 : double(i) / (count - 1);
        Vec3 p{};
        for (int c = 0; c < 3; ++c) p[c] = a[c] + t * (b[c] - a[c]);
        QString name = prefix + QString::number(i + 1);
        if (taken.count(name.toStdString())) name = unique_name(prefix + QString::number(i + 1) + "_", taken);
        taken.insert(name.toStdString());
        v.push_back({name.toStdString(), p});
    }
    doc_->undoStack()->push(new SetReceiversCommand(doc_, v, tr("Add receiver line (%1)").arg(count)));
}

void SourcesPanel::removeSelected() {
    std::set<int> src_rows, rec_rows;
    for (auto* it : sources_->selectedItems()) src_rows.insert(it->row());
    for (auto* it : receivers_->selectedItems()) rec_rows.insert(it->row());
    if (!src_rows.empty()) {
        auto v = doc_->scene().sources;
        for (auto r = src_rows.rbegin(); r != src_rows.rend(); ++r) v.erase(v.begin() + *r);
        doc_->undoStack()->push(new SetSourcesCommand(doc_, v, tr("Remove sources")));
    }
    if (!rec_rows.empty()) {
        auto v = doc_->scene().receivers;
        for (auto r = rec_rows.rbegin(); r != rec_rows.rend(); ++r) v.erase(v.begin() + *r);
        doc_->undoStack()->push(new SetReceiversCommand(doc_, v, tr("Remove receivers")));
    }
}

void SourcesPanel::showReceiverLineDialog() {
    QDialog dlg(this);
    dlg.setWindowTitle(tr("Receiver line"));
    auto* form = new QFormLayout(&dlg);
    const auto ext = doc_->model().extent();
    std::array<QDoubleSpinBox*, 6> ends{};
    for (int i = 0; i < 6; ++i) {
        ends[i] = new QDoubleSpinBox;
        ends[i]->setRange(-1e6, 1e6);
        ends[i]->setDecimals(3);
        ends[i]->setSuffix(" mm");
        const int c = i % 3;
        ends[i]->setValue(1e3 * (c == 0 ? (i < 3 ? 0.1 : 0.9) * ext[0] : c == 1 ? 0.5 * ext[1] : ext[2]));
    }
    auto* count = new QSpinBox;
    count->setRange(1, 1000);
    count->setValue(16);
    auto* prefix = new QLineEdit("L");
    form->addRow(tr("from x, y, z"), [&] {
        auto* w = new QWidget;
        auto* h = new QHBoxLayout(w);
        h->setContentsMargins(0, 0, 0, 0);
        for (int i = 0; i < 3; ++i) h->addWidget(ends[i]);
        return w;
    }());
    form->addRow(tr("to x, y, z"), [&] {
        auto* w = new QWidget;
        auto* h = new QHBoxLayout(w);
        h->setContentsMargins(0, 0, 0, 0);
        for (int i = 3; i < 6; ++i) h->addWidget(ends[i]);
        return w;
    }());
    form->addRow(tr("receivers"), count);
    form->addRow(tr("name prefix"), prefix);
    auto* bb = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(bb);
    connect(bb, &QDialogButtonBox::accepted, &dlg, &QDialog::accept);
    connect(bb, &QDialogButtonBox::rejected, &dlg, &QDialog::reject);
    if (dlg.exec() != QDialog::Accepted) return;
    Vec3 a{}, b{};
    for (int c = 0; c < 3; ++c) {
        a[c] = ends[c]->value() * 1e-3;
        b[c] = ends[3 + c]->value() * 1e-3;
    }
    addReceiverLine(a, b, count->value(), prefix->text().isEmpty() ? "L" : prefix->text());
}

void SourcesPanel::updatePreview() {
    for (QChart* c : {wavelet_chart_, spectrum_chart_}) clear_chart(c);
    const auto& v = doc_->scene().sources;
    const int row = std::clamp(sources_->currentRow(), 0, int(v.size()) - 1);
    if (v.empty()) return;
    const Wavelet& w = v[row].wavelet;
    // Sample 2.5 x delay (or 200 us) at 2048 points; the spectrum is the DFT magnitude.
    const double span = w.delay > 0 ? 2.5 * w.delay : 2e-4;
    const int n = 2048;
    const double dt = span / n;
    std::vector<double> x(n);
    double lo = 0, hi = 0;
    for (int i = 0; i < n; ++i) {
        x[i] = evaluate_wavelet(w, i * dt);
        lo = std::min(lo, x[i]);
        hi = std::max(hi, x[i]);
    }
    const auto axes = [](QChart* c) {
        auto* ax = new QValueAxis;
        auto* ay = new QValueAxis;
        c->addAxis(ax, Qt::AlignBottom);
        c->addAxis(ay, Qt::AlignLeft);
        return std::make_pair(ax, ay);
    };
    const auto [tx, ty] = axes(wavelet_chart_);
    const double tf = fit_nice_axis(wavelet_chart_, tx, 0, span, tr("t"), "s");
    const double pad = 0.05 * std::max(hi - lo, 1e-30);
    fit_nice_axis(wavelet_chart_, ty, lo - pad, hi + pad, tr("w(t)"), "");
    auto* ts = new QLineSeries;
    for (int i = 0; i < n; i += 2) ts->append(i * dt * tf, x[i]);
    wavelet_chart_->addSeries(ts);
    ts->attachAxis(tx);
    ts->attachAxis(ty);
    // |W(f)| relative to its peak, up to where it has fallen below 1 % of it (600 kHz at most).
    const double df = 1.0 / span;
    const int kmax = std::min(n / 2, int(600e3 / df) + 1);
    std::vector<double> mag(std::size_t(std::max(kmax, 1)), 0.0);
    double peak = 0;
    for (int k = 0; k < kmax; ++k) {
        std::complex<double> acc = 0;
        for (int i = 0; i < n; ++i) acc += x[i] * std::polar(1.0, -2 * M_PI * k * i / n);
        mag[std::size_t(k)] = std::abs(acc);
        peak = std::max(peak, mag[std::size_t(k)]);
    }
    int last = 1;
    for (int k = 0; k < kmax; ++k)
        if (mag[std::size_t(k)] >= 0.01 * peak) last = k;
    const int shown = std::min(kmax, int(1.25 * (last + 1)) + 1);
    const auto [fx, fy] = axes(spectrum_chart_);
    const double ff = fit_nice_axis(spectrum_chart_, fx, 0, (shown - 1) * df, tr("f"), "Hz");
    fit_nice_axis(spectrum_chart_, fy, 0, 1.05, tr("|W(f)|"), "");
    auto* fs = new QLineSeries;
    for (int k = 0; k < shown; ++k) fs->append(k * df * ff, peak > 0 ? mag[std::size_t(k)] / peak : 0.0);
    spectrum_chart_->addSeries(fs);
    fs->attachAxis(fx);
    fs->attachAxis(fy);
}

}  // namespace voxwave::ui
