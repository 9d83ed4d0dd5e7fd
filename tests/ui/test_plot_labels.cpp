// Every plot outside the trace panel, shown in the main window at 1280 x 720: the labels QtCharts
// drew (text items of the chart's scene) do not overlap, none is cut by the view or elided, the
// axis titles are there whole, and consecutive tick labels differ by 1, 2 or 5 x 10^k in the
// unit shown (by a factor of 10, 100, 10^5, ... on log axes). The colour bars of the field views
// show the views' colour map from -gain to gain (0 to gain for a magnitude) in the quantity's
// unit: checked by reading the bar as a user would (its labels, the colour beside each label).
#include <QChartView>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLineSeries>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTabWidget>
#include <QValueAxis>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "panels/compare_panel.hpp"
#include "panels/dispersion_panel.hpp"
#include "panels/sources_panel.hpp"
#include "sim/background_job.hpp"
#include "solvers/iga_panel.hpp"
#include "solvers/integration_panel.hpp"
#include "solvers/matrix_heatmap.hpp"
#include "solvers/poisson_panel.hpp"
#include "ui_test_support.hpp"
#include "views/color_bar.hpp"
#include "views/model_view_3d.hpp"
#include "views/plot_axis.hpp"
#include "views/wavefield_view.hpp"

using namespace voxwave;
using namespace voxwave::ui;

namespace {

struct Label {
    QString text;
    QRectF rect;  // scene coordinates
};

// A label's value: "-0.5", "120", "10⁻⁵" (superscript exponent), "100 µs", "1 ms" (SI prefix).
std::optional<double> label_value(QString t) {
    t = t.trimmed();
    if (t.startsWith("10") && t.size() > 2 && !t[2].isDigit() && t[2] != '.' && t[2] != ' ') {
        static const QString sup = QString::fromUtf8("⁰¹²³⁴⁵⁶⁷⁸⁹");
        int sign = 1, e = 0;
        for (int i = 2; i < t.size(); ++i) {
            if (t[i] == QChar(0x207B)) {
                sign = -1;
                continue;
            }
            const int d = int(sup.indexOf(t[i]));
            if (d < 0) return std::nullopt;
            e = 10 * e + d;
        }
        return std::pow(10.0, sign * e);
    }
    const int space = int(t.indexOf(' '));
    double scale = 1;
    if (space > 0) {
        const QString unit = t.mid(space + 1);
        static const std::map<QString, double> prefixes{
            {"f", 1e-15}, {"p", 1e-12}, {"n", 1e-9}, {QString::fromUtf8("µ"), 1e-6},
            {"m", 1e-3},  {"k", 1e3},   {"M", 1e6},  {"G", 1e9}};
        const auto it = unit.size() > 1 ? prefixes.find(unit.left(1)) : prefixes.end();
        scale = it != prefixes.end() ? it->second : 1.0;
        t = t.left(space);
    }
    bool ok = false;
    const double v = t.toDouble(&ok);
    return ok ? std::optional<double>(v * scale) : std::nullopt;
}

// Whether x is 1, 2 or 5 x 10^k (to rounding).
bool one_two_five(double x) {
    if (!(x > 0)) return false;
    const double k = std::floor(std::log10(x) + 1e-9);
    const double m = x / std::pow(10.0, k);
    for (double c : {1.0, 2.0, 5.0})
        if (std::abs(m - c) < 1e-6 * c) return true;
    return false;
}

// The text items drawn in a chart's scene, visible and non-empty, grouped by the item that holds
// them (QtCharts keeps one group per axis' labels, one per legend marker, ...).
std::map<const QGraphicsItem*, std::vector<Label>> drawn_labels(QChartView* view) {
    std::map<const QGraphicsItem*, std::vector<Label>> groups;
    for (QGraphicsItem* item : view->chart()->scene()->items()) {
        if (!item->isVisible()) continue;
        QString text;
        if (auto* t = dynamic_cast<QGraphicsTextItem*>(item))
            text = t->toPlainText();
        else if (auto* s = dynamic_cast<QGraphicsSimpleTextItem*>(item))
            text = s->text();
        else
            continue;
        if (text.trimmed().isEmpty()) continue;
        groups[item->parentItem()].push_back({text, item->sceneBoundingRect()});
    }
    return groups;
}

}  // namespace

class TestPlotLabels : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;

    // The checks of one chart, as shown now; `name` says which in a failure.
    void checkChart(QChartView* view, const QString& name, bool needs_data = true) {
        QVERIFY2(view->isVisible(), qPrintable(name + ": not shown"));
        QChart* chart = view->chart();
        if (needs_data) QVERIFY2(!chart->series().isEmpty(), qPrintable(name + ": nothing plotted"));
        QTest::qWait(50);  // a relayout after a resize comes with the next event-loop pass
        const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect().adjusted(-0.5, -0.5, 0.5, 0.5);
        const auto groups = drawn_labels(view);
        QStringList texts;
        for (const auto& [parent, labels] : groups)
            for (const Label& l : labels) texts << l.text;
        // Titles are there whole (not elided to "phase velo...").
        for (QAbstractAxis* axis : chart->axes())
            if (!axis->titleText().isEmpty())
                QVERIFY2(texts.contains(axis->titleText()),
                         qPrintable(QString("%1: axis title '%2' not drawn whole; drawn: %3")
                                        .arg(name, axis->titleText(), texts.join(" | "))));
        if (!chart->title().isEmpty())
            QVERIFY2(texts.contains(chart->title()),
                     qPrintable(QString("%1: chart title '%2' not drawn whole; drawn: %3")
                                    .arg(name, chart->title(), texts.join(" | "))));
        int tick_groups = 0;
        for (const auto& [parent, labels] : groups) {
            for (const Label& l : labels) {
                QVERIFY2(visible.contains(l.rect), qPrintable(QString("%1: '%2' cut by the view").arg(name, l.text)));
                QVERIFY2(!l.text.contains("...") && !l.text.contains(QChar(0x2026)),
                         qPrintable(QString("%1: '%2' elided").arg(name, l.text)));
            }
            for (std::size_t i = 0; i < labels.size(); ++i)
                for (std::size_t j = i + 1; j < labels.size(); ++j)
                    QVERIFY2(
                        !labels[i].rect.intersects(labels[j].rect),
                        qPrintable(QString("%1: '%2' and '%3' overlap").arg(name, labels[i].text, labels[j].text)));
            if (labels.size() < 2) continue;
            // Tick labels: all numbers. In the order drawn (left to right, or bottom to top).
            std::vector<std::pair<double, double>> pos_value;
            bool numbers = true;
            const bool horizontal = std::abs(labels.front().rect.center().y() - labels.back().rect.center().y()) < 1;
            for (const Label& l : labels) {
                const auto v = label_value(l.text);
                if (!v) numbers = false;
                pos_value.push_back({horizontal ? l.rect.center().x() : -l.rect.center().y(), v.value_or(0)});
            }
            if (!numbers) continue;
            std::sort(pos_value.begin(), pos_value.end());
            // A polar chart's angles go round in steps of 90 degrees: not a 1-2-5 scale.
            if (std::any_of(pos_value.begin(), pos_value.end(), [](auto& p) { return p.second == 270; })) continue;
            ++tick_groups;
            // Decades: every label a power of ten (a linear axis of 1-2-5 steps has at most one).
            const bool log = std::all_of(pos_value.begin(), pos_value.end(), [](auto& p) {
                const double k = std::log10(p.second);
                return p.second > 0 && std::abs(k - std::round(k)) < 1e-9;
            });
            for (std::size_t i = 1; i < pos_value.size(); ++i) {
                const double a = pos_value[i - 1].second, b = pos_value[i].second;
                const double step = log ? std::log10(b / a) : b - a;
                QVERIFY2(one_two_five(std::abs(step)),
                         qPrintable(QString("%1: ticks '%2' then '%3' (%4 step %5) is not 1, 2 or 5 x 10^k")
                                        .arg(name)
                                        .arg(a)
                                        .arg(b)
                                        .arg(log ? "decade" : "linear")
                                        .arg(step)));
                if (i >= 2) {
                    const double prev = log ? std::log10(a / pos_value[i - 2].second) : a - pos_value[i - 2].second;
                    QVERIFY2(std::abs(step - prev) <= 1e-6 * std::abs(step),
                             qPrintable(QString("%1: uneven ticks %2, %3").arg(name).arg(prev).arg(step)));
                }
            }
        }
        // Every axis with values has labelled ticks (x and y; a polar chart's radius).
        int value_axes = 0;
        for (QAbstractAxis* axis : chart->axes()) value_axes += axis->labelsVisible();
        QVERIFY2(tick_groups >= std::min(value_axes, 2) - (chart->chartType() == QChart::ChartTypePolar ? 1 : 0),
                 qPrintable(QString("%1: %2 axes with 1-2-5 tick labels, %3 axes; drawn: %4")
                                .arg(name)
                                .arg(tick_groups)
                                .arg(value_axes)
                                .arg(texts.join(" | "))));
    }

    // Reads a colour bar drawn in `image` (the view's pixels): each tick label's value from its
    // text and the title's prefix, and the colour of the strip beside it; these must be the map's
    // colour for that value on the range [lo, hi] the view uses.
    void checkBar(const ColorBar& bar, const QImage& image, const ColorMap& map, double lo, double hi,
                  const QString& title, const QString& name) {
        QCOMPARE(bar.title(), title);
        // (float precision: the views' values and gains come from float slices)
        QVERIFY2(
            std::abs(bar.lo() - lo) <= 1e-6 * std::abs(hi - lo) && std::abs(bar.hi() - hi) <= 1e-6 * std::abs(hi - lo),
            qPrintable(QString("%1: bar %2..%3, view %4..%5").arg(name).arg(bar.lo()).arg(bar.hi()).arg(lo).arg(hi)));
        QVERIFY2(bar.ticks().size() >= 2, qPrintable(name + ": fewer than two labels on the bar"));
        const QString unit = title.section('(', 1).section(')', 0, 0);
        for (std::size_t i = 0; i < bar.ticks().size(); ++i) {
            const ColorBar::Tick& t = bar.ticks()[i];
            const auto shown = label_value(t.text + (unit.isEmpty() ? QString() : " " + unit));
            QVERIFY(shown.has_value());
            if (i > 0) QVERIFY(one_two_five(*shown - *label_value(bar.ticks()[i - 1].text + " " + unit)));
            const double frac = (*shown - lo) / (hi - lo);
            QVERIFY2(frac >= -1e-9 && frac <= 1 + 1e-9,
                     qPrintable(QString("%1: label %2 outside the range").arg(name, t.text)));
            // Where a user reads the label: the strip's colour on its line.
            const qreal dpr = image.devicePixelRatio();
            const QColor drawn = image.pixelColor(QPoint(int(bar.strip().center().x() * dpr), int((t.y + 0.5) * dpr)));
            const QColor expected = qcolor_at(map, frac);
            const int slack = 255 / std::max(8, bar.strip().height()) + 3;  // a row's worth of colour change
            QVERIFY2(std::abs(drawn.red() - expected.red()) <= slack &&
                         std::abs(drawn.green() - expected.green()) <= slack &&
                         std::abs(drawn.blue() - expected.blue()) <= slack,
                     qPrintable(QString("%1: at label %2 the bar is %3, the map gives %4")
                                    .arg(name, t.text, drawn.name(), expected.name())));
        }
    }

    // Starts a panel's job and waits for its result.
    template <class Panel, class Start>
    static void runJob(Panel* panel, Start start) {
        QSignalSpy done(panel->job(), &BackgroundJob::finished);
        QSignalSpy failed(panel->job(), &BackgroundJob::failed);
        start();
        QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, 120000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.isEmpty() ? QString() : failed.first().first().toString()));
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        w_ = std::make_unique<MainWindow>();
        w_->setNonInteractive(true);
        w_->resize(1280, 720);
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
        QCOMPARE(w_->size(), QSize(1280, 720));
    }

    void waveletAndSpectrum() {
        w_->showPage("model");
        auto views = w_->findChild<SourcesPanel*>()->findChildren<QChartView*>();
        QCOMPARE(views.size(), 2);
        for (QChartView* v : views) checkChart(v, "sources " + v->chart()->axes(Qt::Horizontal).first()->titleText());
        // The time axis in µs or ms, the frequency axis in kHz: prefixed units, not 0.0000201.
        const QString t = views[0]->chart()->axes(Qt::Horizontal).first()->titleText();
        const QString f = views[1]->chart()->axes(Qt::Horizontal).first()->titleText();
        QVERIFY2(t == QString::fromUtf8("t (µs)") || t == "t (ms)", qPrintable(t));
        QCOMPARE(f, QString("f (kHz)"));
    }

    void ticksFollowTheChartsSize() {
        // An axis fitted to its chart: made wider, it holds more ticks, still 1-2-5 and apart.
        QChartView view;
        auto* chart = view.chart();
        auto* ax = new QValueAxis;
        auto* ay = new QValueAxis;
        chart->addAxis(ax, Qt::AlignBottom);
        chart->addAxis(ay, Qt::AlignLeft);
        auto* s = new QLineSeries;
        s->append(0, 0);
        s->append(255.8, 1);
        chart->addSeries(s);
        s->attachAxis(ax);
        s->attachAxis(ay);
        QCOMPARE(fit_nice_axis(chart, ax, 0, 255.8e-6, "time", "s"), 1e6);
        fit_nice_axis(chart, ay, 0, 1, "w", "");
        view.resize(260, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTest::qWait(50);
        const double narrow = ax->tickInterval();
        checkChart(&view, "260 px chart");
        view.resize(1200, 600);
        QTRY_VERIFY(ax->tickInterval() < narrow);
        QVERIFY(ay->tickInterval() < 1);
        checkChart(&view, "1200 px chart");
        view.resize(260, 200);
        QTRY_COMPARE(ax->tickInterval(), narrow);
    }

    void dispersionPlots() {
        w_->showPage("dispersion");
        auto* d = w_->dispersion();
        QTRY_VERIFY(d->isVisible());
        auto views = d->findChildren<QChartView*>();
        QCOMPARE(views.size(), 2);
        checkChart(views[0], "dispersion ratio");
        checkChart(views[1], "dispersion polar");
    }

    void wavefieldColourBar() {
        w_->showPage("model");
        WavefieldView* v = w_->wavefield();
        QTRY_VERIFY(v->isValid());
        // A field from -3 nm to 3 nm across the slice, gain 2 nm: the bar is u_z from -2 to 2 nm.
        const int nw = 41, nh = 21;
        SliceImage s{nw, nh, std::vector<float>(std::size_t(nw) * nh)};
        for (int b = 0; b < nh; ++b)
            for (int a = 0; a < nw; ++a) s.values[std::size_t(b) * nw + a] = float(-3e-9 + 6e-9 * a / (nw - 1));
        v->setShowMaterials(false);
        v->setManualGain(2e-9);
        v->setSlice(s, std::vector<MaterialId>(std::size_t(nw - 1) * (nh - 1), 1), true);
        QImage img = v->grabFramebuffer();
        checkBar(v->colorBar(), img, diverging_color_map(), -2e-9, 2e-9, "u_z (nm)", "wavefield");
        // The slice is drawn in the same map: the column where the field is 1 nm has the colour
        // the map gives 1 nm at gain 2 nm (3/4 of the way), and the bar shows that colour beside
        // its "1.0" label.
        const QRect r = v->sliceRect();
        QVERIFY(r.width() > 50 && r.right() < v->colorBar().strip().left());
        const double x_at = r.left() + (r.width() - 1) * (1e-9 + 3e-9) / 6e-9;
        const qreal dpr = img.devicePixelRatio();
        const QColor field = img.pixelColor(QPoint(int(x_at * dpr), int(r.center().y() * dpr)));
        const QColor expected = qcolor_at(diverging_color_map(), 0.75);
        QVERIFY2(std::abs(field.red() - expected.red()) <= 6 && std::abs(field.green() - expected.green()) <= 6 &&
                     std::abs(field.blue() - expected.blue()) <= 6,
                 qPrintable(field.name() + " vs " + expected.name()));
        // The gain changes, the bar follows: 50 pm.
        v->setManualGain(5e-11);
        img = v->grabFramebuffer();
        checkBar(v->colorBar(), img, diverging_color_map(), -5e-11, 5e-11, "u_z (pm)", "wavefield, new gain");
        // A magnitude: the sequential map from 0, in its unit.
        v->setQuantity(SliceQuantity::VelocityMagnitude);
        for (float& x : s.values) x = std::abs(x) * 1e6f;  // mm/s
        v->setManualGain(2e-3);
        v->setSlice(s, {}, false);
        img = v->grabFramebuffer();
        checkBar(v->colorBar(), img, sequential_color_map(), 0, 2e-3, "|v| (mm/s)", "wavefield |v|");
        v->setQuantity(SliceQuantity::Uz);
        v->setShowMaterials(true);
        v->setAutoGain(true);
    }

    void threeDViewColourBar() {
        w_->showPage("3d");
        ModelView3D* m = w_->model3d();
        m->setWavefieldEnabled(true);
        auto* bar = m->findChild<ColorBarWidget*>("3d-color-bar");
        QVERIFY(bar);
        QVERIFY(!bar->isVisible());  // blank planes until a run's first frame: no scale yet
        // Every non-zero |value| is 4 µm: the scale's 99th percentile, the bar's end.
        const auto& g = w_->document()->model();
        auto plane = [](int a, int b) {
            SliceImage s{a, b, std::vector<float>(std::size_t(a) * b, 0.0f)};
            for (std::size_t i = 0; i < s.values.size(); i += 3) s.values[i] = i % 2 ? 4e-6f : -4e-6f;
            return s;
        };
        m->setWavefield({plane(g.n[0] + 1, g.n[1] + 1), plane(g.n[0] + 1, g.n[2] + 1), plane(g.n[1] + 1, g.n[2] + 1)},
                        {g.n[2] / 2, g.n[1] / 2, g.n[0] / 2});
        QTRY_VERIFY(bar->isVisible());
        QTest::qWait(50);
        checkBar(bar->bar(), bar->grab().toImage(), diverging_color_map(), -4e-6, 4e-6, QString::fromUtf8("u_z (µm)"),
                 "3D view");
        m->setWavefieldEnabled(false);
        QVERIFY(!bar->isVisible());
    }

    void compareViewsAndTraces() {
        const QString path = QDir::temp().filePath("plot_labels_small.json");
        write_scene_json(path.toStdString(), test::small_scene(0.005, 5e-2));
        QVERIFY(w_->openScene(path, true));
        ComparePanel* c = w_->compare();
        w_->showPage("compare");
        c->configure(0, 0, 0, 0.005);
        c->configure(1, 1, 0, 0.005);
        c->runBoth();
        QTRY_VERIFY_WITH_TIMEOUT(c->sampleCount() > 80, 30000);
        c->stop();
        QTRY_VERIFY_WITH_TIMEOUT(!c->controller()->busy(), 30000);
        QTest::qWait(200);
        for (int i = 0; i < 3; ++i) {
            WavefieldView* v = c->view(i);
            const QImage img = v->grabFramebuffer();
            const double g = v->gain();
            const SiScale s = si_scale(g);
            checkBar(v->colorBar(), img, diverging_color_map(), -g, g, "u_z (" + s.prefix + "m)",
                     QString("compare view %1").arg(i));
        }
        auto views = c->findChildren<QChartView*>();
        QCOMPARE(views.size(), 1);
        // The page scrolls at this size: the traces brought into sight as a user would.
        if (auto* area = qobject_cast<QScrollArea*>(c->parentWidget() ? c->parentWidget()->parentWidget() : nullptr))
            area->ensureWidgetVisible(views[0]);
        checkChart(views[0], "compare traces");
        QFile::remove(path);
    }

    void solverPlots() {
        // One run each first: a single point must still have ticks on both axes.
        w_->showPage("solvers-poisson");
        PoissonPanel* p = w_->poisson();
        poisson::PoissonParams pp;
        pp.level = 2;
        pp.coarse_level = 1;
        pp.backend = Backend::Cpu;
        p->setParams(pp);
        runJob(p, [p] { p->run(); });
        if (QTest::currentTestFailed()) return;
        QCOMPARE(p->plottedPoints(), 1);
        checkChart(p->findChild<QChartView*>(), "poisson, one point");
        if (QTest::currentTestFailed()) return;
        // The solution's colour bar: u over -peak..peak of the values drawn, in the rainbow map.
        {
            double peak = 0;
            for (double x : p->drawnValues()) peak = std::max(peak, std::abs(x));
            auto* bar = p->findChild<ColorBarWidget*>("poisson-color-bar");
            QVERIFY(bar && bar->isVisible() && peak > 0);
            QTest::qWait(50);
            checkBar(bar->bar(), bar->grab().toImage(), rainbow_color_map(), -peak, peak, "u", "poisson solution");
            if (QTest::currentTestFailed()) return;
        }
        runJob(p, [p] { p->sweepLevels(); });
        if (QTest::currentTestFailed()) return;
        checkChart(p->findChild<QChartView*>(), "poisson, sweep");
        if (QTest::currentTestFailed()) return;

        w_->showPage("solvers-iga");
        IgaPanel* iga = w_->iga();
        iga::IgaParams ip;
        ip.degree = 2;
        ip.elements = 8;
        ip.backend = Backend::Cpu;
        iga->setParams(ip);
        runJob(iga, [iga] { iga->run(); });
        if (QTest::currentTestFailed()) return;
        checkChart(iga->findChild<QChartView*>(), "iga, one point");
        if (QTest::currentTestFailed()) return;
        {
            const auto& u = iga->results().back().u;
            auto* bar = iga->findChild<ColorBarWidget*>("iga-color-bar");
            QVERIFY(bar && bar->isVisible());
            QTest::qWait(50);
            checkBar(bar->bar(), bar->grab().toImage(), rainbow_color_map(), *std::min_element(u.begin(), u.end()),
                     *std::max_element(u.begin(), u.end()), "u", "iga solution");
            if (QTest::currentTestFailed()) return;
        }
        runJob(iga, [iga] { iga->costSweep(); });
        if (QTest::currentTestFailed()) return;
        checkChart(iga->findChild<QChartView*>(), "iga, sweep");
        if (QTest::currentTestFailed()) return;

        w_->showPage("solvers");
        IntegrationPanel* in = w_->integration();
        integration::IntegrationParams ig;
        ig.order = 2;
        ig.elements = 20;
        ig.backend = Backend::Cpu;
        in->setParams(ig);
        runJob(in, [in] { in->run(); });
        if (QTest::currentTestFailed()) return;
        QCOMPARE(in->plottedPoints(), 1);
        checkChart(in->findChild<QChartView*>(), "integration, one point");
        if (QTest::currentTestFailed()) return;
        // The element matrix' colour bar: log10 |K_ij| over the twelve decades below the largest.
        const MatrixHeatmap* h = in->heatmap();
        double peak = 0;
        for (double x : in->results().back().first_element) peak = std::max(peak, std::abs(x));
        QTest::qWait(50);
        checkBar(h->colorBar(), const_cast<MatrixHeatmap*>(h)->grab().toImage(), sequential_color_map(),
                 std::log10(peak) - 12, std::log10(peak), "log10 |K_ij|", "element matrix");
    }

    void cleanupTestCase() { w_.reset(); }
};

QTEST_MAIN(TestPlotLabels)
#include "test_plot_labels.moc"
