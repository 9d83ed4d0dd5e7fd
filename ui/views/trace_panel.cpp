#include "views/trace_panel.hpp"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLineSeries>
#include <QPainter>
#include <QSplitter>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/atomic_file.hpp"

namespace voxwave::ui {

BScanView::BScanView(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(50);
    setMaximumHeight(110);
}

void BScanView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(24, 24, 28));
    if (image_.isNull()) {
        p.setPen(Qt::gray);
        p.drawText(rect(), Qt::AlignCenter, tr("B-scan: receivers x time"));
        return;
    }
    p.drawImage(rect().adjusted(4, 4, -4, -4), image_);
}

TracePanel::TracePanel(QWidget* parent) : QWidget(parent) {
    pending_redraw_.setSingleShot(true);
    connect(&pending_redraw_, &QTimer::timeout, this, &TracePanel::redraw);
    chart_ = new QChart;
    chart_->legend()->setVisible(false);
    chart_->setMargins(QMargins(4, 4, 4, 4));
    chart_->setTheme(QChart::ChartThemeDark);
    view_ = new QChartView(chart_);

    view_->setMinimumHeight(150);
    bscan_ = new BScanView;
    component_box_ = new QComboBox;
    component_box_->addItems({tr("u_x"), tr("u_y"), tr("u_z"), tr("|u|")});
    component_box_->setCurrentIndex(2);
    connect(component_box_, &QComboBox::currentIndexChanged, this, &TracePanel::setComponent);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(view_);
    split->addWidget(bscan_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* top = new QHBoxLayout;
    top->addWidget(component_box_);
    top->addStretch();
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(2, 2, 2, 2);
    lay->addLayout(top);
    lay->addWidget(split);
}

void TracePanel::reset(const std::vector<std::string>& names, double dt) {
    names_ = names;
    dt_ = dt;
    t_.clear();
    u_.assign(names.size(), {});
    rebuildSeries();
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

void TracePanel::flush() { redraw(); }

void TracePanel::showResult(const Result& result) {
    // A result holds receiver x time x component; frames arrive time x receiver x component.
    const std::size_t nr = result.receiver_count(), nt = result.sample_count();
    std::vector<double> samples(nr * nt * 3);
    for (std::size_t r = 0; r < nr; ++r)
        for (std::size_t n = 0; n < nt; ++n)
            for (int c = 0; c < 3; ++c) samples[(n * nr + r) * 3 + std::size_t(c)] = result.u(r, n, c);
    reset(result.receiver_names, result.dt);
    append(0, samples);
    flush();
}

double TracePanel::value(std::size_t r, std::size_t n) const {
    const double* u = &u_[r][n * 3];
    return component_ == 3 ? std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) : u[component_];
}

int TracePanel::plottedPoints() const {
    int n = 0;
    for (auto* s : chart_->series()) n += static_cast<QLineSeries*>(s)->count();
    return n;
}

double TracePanel::plottedEndTime() const {
    double end = 0;
    for (auto* s : chart_->series()) {
        const auto* line = static_cast<QLineSeries*>(s);
        if (line->count() > 0) end = std::max(end, line->at(line->count() - 1).x());
    }
    return end;
}

void TracePanel::setComponent(int c) {
    component_ = std::clamp(c, 0, 3);
    if (component_box_->currentIndex() != component_) component_box_->setCurrentIndex(component_);
    redraw();
}

// The chart's series and axes are made once per receiver set (reset) and only refilled here:
// removing and re-adding QtCharts series every redraw cost up to 40 ms of the GUI thread per
// refresh on the 2-core VM (most of the event loop's longest stalls during a run).
void TracePanel::rebuildSeries() {
    chart_->removeAllSeries();
    for (auto* a : chart_->axes()) chart_->removeAxis(a);
    series_.clear();
    const std::size_t nr = names_.size();
    if (nr == 0) return;
    axis_t_ = new QValueAxis;
    auto* ay = new QValueAxis;
    axis_t_->setTitleText(tr("time (µs)"));
    ay->setRange(-0.6, double(nr) - 0.4);
    ay->setLabelsVisible(false);
    chart_->addAxis(axis_t_, Qt::AlignBottom);
    chart_->addAxis(ay, Qt::AlignLeft);
    for (std::size_t r = 0; r < nr; ++r) {
        auto* s = new QLineSeries;
        s->setName(QString::fromStdString(names_[r]));
        chart_->addSeries(s);
        s->attachAxis(axis_t_);
        s->attachAxis(ay);
        series_.push_back(s);
    }
}

void TracePanel::redraw() {
    pending_redraw_.stop();
    since_redraw_.start();
    const std::size_t nr = names_.size(), nt = t_.size();
    if (series_.size() != nr) rebuildSeries();
    if (nr == 0 || nt == 0) {
        for (auto* s : series_) s->clear();
        bscan_->setImage({});
        return;
    }
    double peak = 0;
    for (std::size_t r = 0; r < nr; ++r)
        for (std::size_t n = 0; n < nt; ++n) peak = std::max(peak, std::abs(value(r, n)));
    if (peak == 0) peak = 1;
    axis_t_->setRange(0, t_.back() * 1e6);
    // Stacked traces: receiver r around offset r, scaled so the largest swing is 0.45. Up to 1200
    // samples every one is drawn; beyond, each of 600 buckets gives its minimum and maximum in
    // time order, so no peak is lost to the decimation.
    constexpr std::size_t kBuckets = 600;
    for (std::size_t r = 0; r < nr; ++r) {
        QList<QPointF> pts;
        const double base = double(nr - 1 - r);
        auto point = [&](std::size_t n) { return QPointF(t_[n] * 1e6, base + 0.45 * value(r, n) / peak); };
        if (nt <= 2 * kBuckets) {
            pts.reserve(int(nt));
            for (std::size_t n = 0; n < nt; ++n) pts.append(point(n));
        } else {
            pts.reserve(int(2 * kBuckets));
            for (std::size_t b = 0; b < kBuckets; ++b) {
                const std::size_t n0 = b * nt / kBuckets, n1 = (b + 1) * nt / kBuckets;
                std::size_t lo = n0, hi = n0;
                for (std::size_t n = n0; n < n1; ++n) {
                    if (value(r, n) < value(r, lo)) lo = n;
                    if (value(r, n) > value(r, hi)) hi = n;
                }
                pts.append(point(std::min(lo, hi)));
                pts.append(point(std::max(lo, hi)));
            }
        }
        series_[r]->replace(pts);
    }
    // B-scan: one row per receiver, one column per (decimated) sample.
    const int cols = int(std::min<std::size_t>(nt, 1200));
    QImage img(cols, int(nr), QImage::Format_RGB32);
    for (std::size_t r = 0; r < nr; ++r)
        for (int x = 0; x < cols; ++x) {
            const std::size_t n = std::size_t(x) * nt / std::size_t(cols);
            const double v = std::clamp(value(r, n) / peak, -1.0, 1.0);
            const int a = int(255 * (1 - std::abs(v)));
            img.setPixel(x, int(r), v >= 0 ? qRgb(255, a, a) : qRgb(a, a, 255));
        }
    bscan_->setImage(img);
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

}  // namespace voxwave::ui
