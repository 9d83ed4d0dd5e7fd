// The receivers' scan views with 64 receivers on a line, given in shuffled table order: B-scan rows
// in their order along the line, axes and units, the gain and dB colour mapping of known
// amplitudes, the gate's peak and time and the envelope against closed forms, selection by click
// and by the list, the highlight under the cursor, scrolling, and no overlapping tick labels at
// 1280 x 720.
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QScrollBar>
#include <QSplitter>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <array>
#include <cmath>
#include <random>

#include "editing/slice_painter.hpp"
#include "scene/result.hpp"
#include "ui_test_support.hpp"
#include "views/trace_panel.hpp"

using namespace voxwave;
using namespace voxwave::ui;

namespace {

constexpr std::size_t kReceivers = 64, kSamples = 1000;
constexpr double kDt = 1e-7, kSigma = 2e-6, kFreq = 1e6;
const double kPi = std::acos(-1.0);

// Receiver at slot k of the line: x = 10 + 1.5 k mm, its pulse centred at 20 + 0.5 k us (on a
// sample), amplitude (1 + k / 63) nm on u_z, a Gaussian-modulated 1 MHz cosine.
double slot_x(std::size_t k) { return 0.010 + 0.0015 * double(k); }
double slot_centre(std::size_t k) { return double(200 + 5 * k) * kDt; }
double slot_amplitude(std::size_t k) { return 1e-9 * (1 + double(k) / 63); }
double pulse(std::size_t k, double t) {
    const double s = t - slot_centre(k);
    return slot_amplitude(k) * std::exp(-s * s / (2 * kSigma * kSigma)) * std::cos(2 * kPi * kFreq * s);
}

struct Line {
    Result result;
    std::vector<std::size_t> slot;  // table index -> slot along the line
};

Line shuffled_line() {
    Line l;
    l.slot.resize(kReceivers);
    for (std::size_t i = 0; i < kReceivers; ++i) l.slot[i] = i;
    std::shuffle(l.slot.begin(), l.slot.end(), std::mt19937(30));
    Result& r = l.result;
    r.method = "ovfem";
    r.precision = "fp64";
    r.backend = "cpu";
    r.spacing = 0.0015;
    r.dt = kDt;
    r.steps = std::int64_t(kSamples) - 1;
    for (std::size_t i = 0; i < kReceivers; ++i) {
        r.receiver_names.push_back("P" + std::to_string(l.slot[i] + 1));
        r.receiver_positions.push_back({slot_x(l.slot[i]), 0.05, 0.0});
    }
    for (std::size_t n = 0; n < kSamples; ++n) r.time.push_back(double(n) * kDt);
    r.displacement.assign(kReceivers * kSamples * 3, 0);
    for (std::size_t i = 0; i < kReceivers; ++i)
        for (std::size_t n = 0; n < kSamples; ++n) {
            r.u(i, n, 2) = pulse(l.slot[i], r.time[n]);
            r.u(i, n, 0) = 0.25 * pulse(l.slot[i], r.time[n]);
        }
    r.velocity = r.displacement;
    return l;
}

// The colour maps written out here, apart from the code under test, from their published stops
// (views/color_bar.hpp): linear, cool-warm from -1 to 1; dB, black-red-yellow-white from 0 to 1.
QRgb from_stops(const std::vector<std::array<double, 3>>& stops, double t) {
    const double x = std::clamp(t, 0.0, 1.0) * double(stops.size() - 1);
    const std::size_t i = std::min(std::size_t(x), stops.size() - 2);
    const double f = x - double(i);
    int c[3];
    for (int k = 0; k < 3; ++k) c[k] = int(std::lround(255 * (stops[i][k] * (1 - f) + stops[i + 1][k] * f)));
    return qRgb(c[0], c[1], c[2]);
}
QRgb expected_linear(double level) {
    return from_stops({{0.23, 0.30, 0.75}, {0.95, 0.95, 0.95}, {0.71, 0.02, 0.15}}, 0.5 + 0.5 * level);
}
QRgb expected_db(double level) { return from_stops({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}}, level); }
// Equal to one unit in each channel (the maps are stored in floats).
bool same_colour(QRgb a, QRgb b) {
    return std::abs(qRed(a) - qRed(b)) <= 1 && std::abs(qGreen(a) - qGreen(b)) <= 1 &&
           std::abs(qBlue(a) - qBlue(b)) <= 1;
}
#define QCOMPARE_COLOUR(a, b) \
    QVERIFY2(same_colour(a, b), qPrintable(QStringLiteral("%1 != %2").arg(QColor(a).name(), QColor(b).name())))

// The B-scan pixel row for position x along the line, from its axis range.
int bscan_y(const BScanView* b, double x) {
    const QRect plot = b->plotRect();
    return plot.top() + int((x - b->positionTop()) / (b->positionBottom() - b->positionTop()) * plot.height());
}

void expect_no_overlap(const std::vector<QRect>& labels, const QRect& widget, const char* what) {
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (!widget.contains(labels[i])) qWarning() << what << "label" << i << labels[i] << "outside" << widget;
        QVERIFY2(widget.contains(labels[i]), what);
        for (std::size_t j = i + 1; j < labels.size(); ++j)
            QVERIFY2(!labels[i].intersects(labels[j]),
                     qPrintable(QStringLiteral("%1: labels %2 and %3 overlap").arg(what).arg(i).arg(j)));
    }
}

}  // namespace

class TestScanViews : public QObject {
    Q_OBJECT
    Line line_ = shuffled_line();
    std::unique_ptr<TracePanel> panel_;

    std::size_t receiverAtSlot(std::size_t k) const {
        return std::size_t(std::find(line_.slot.begin(), line_.slot.end(), k) - line_.slot.begin());
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // the panel's saved settings stay apart from a user's
        QSettings().clear();
    }
    void init() {
        QSettings().clear();  // each case starts from the defaults
        panel_ = std::make_unique<TracePanel>();
        panel_->resize(1000, 420);
        panel_->show();
        QVERIFY(QTest::qWaitForWindowExposed(panel_.get()));
        panel_->showResult(line_.result);
        QApplication::processEvents();
    }
    void cleanup() { panel_.reset(); }

    void rowsFollowThePositionsAlongTheLine() {
        const ScanState& s = panel_->scan();
        QVERIFY(s.line.valid);
        QCOMPARE(s.line.axis, 0);
        for (std::size_t k = 0; k < kReceivers; ++k) QCOMPARE(line_.slot[s.line.order[k]], k);
        const BScanView* b = panel_->bscan();
        QCOMPARE(b->image().height(), int(kReceivers));
        QCOMPARE(b->image().width(), int(kSamples));
        // The axis spans the line and half a receiver spacing beyond each end.
        QVERIFY(std::abs(b->positionTop() - (slot_x(0) - 0.00075)) < 1e-12);
        QVERIFY(std::abs(b->positionBottom() - (slot_x(63) + 0.00075)) < 1e-12);
        for (std::size_t r = 0; r < kReceivers; ++r) {
            const std::size_t k = line_.slot[r];
            // The pixel at the receiver's position on the axis is its row.
            const int y = bscan_y(b, slot_x(k));
            QCOMPARE(b->receiverAt(QPoint(b->plotRect().center().x(), y)), int(r));
            // Image row k holds this receiver: brightest (|u_z| largest) at its pulse's centre.
            int brightest = 0, best = -1;
            for (int x = 0; x < b->image().width(); ++x) {
                const QRgb c = b->image().pixel(x, int(k));
                const int deep = 255 - std::min(qGreen(c), qBlue(c));
                if (deep > best) best = deep, brightest = x;
            }
            QCOMPARE(brightest, int(200 + 5 * k));
        }
    }

    void axesSayWhatAndInWhichUnit() {
        const BScanView* b = panel_->bscan();
        QCOMPARE(b->positionTitle(), QStringLiteral("x (mm)"));
        QCOMPARE(b->timeTitle(), QStringLiteral("time (µs)"));
        QCOMPARE(b->colourTitle(), QStringLiteral("u_z (nm)"));
        QCOMPARE(panel_->ascan()->amplitudeTitle(), QStringLiteral("u_z (nm)"));
        QCOMPARE(panel_->ascan()->timeTitle(), QStringLiteral("time (µs)"));
        panel_->setLogScale(true, 40);
        QCOMPARE(b->colourTitle(), QStringLiteral("|u_z| (dB re 2.00 nm)"));  // full scale: the largest |u_z|
        panel_->setComponent(0);
        QCOMPARE(b->colourTitle(), QStringLiteral("|u_x| (dB re 500 pm)"));
    }

    void gainAndDbMapKnownAmplitudesToTheirColours() {
        // Slot 0 at its centre: u_z = 1 nm; the largest |u_z| (slot 63) is 2 nm.
        const int x = 200;
        const QImage& img = panel_->bscan()->image();
        QCOMPARE(panel_->scan().full_scale, 2e-9);
        QCOMPARE_COLOUR(img.pixel(x, 0), expected_linear(0.5));
        panel_->setGainDb(6);  // full scale 2 nm / 10^(6/20)
        QVERIFY(std::abs(panel_->scan().full_scale - 2e-9 / std::pow(10.0, 0.3)) < 1e-21);
        QCOMPARE_COLOUR(panel_->bscan()->image().pixel(x, 0), expected_linear(1e-9 * std::pow(10.0, 0.3) / 2e-9));
        QCOMPARE_COLOUR(panel_->bscan()->image().pixel(5 * 63 + 200, 63), expected_linear(1.0));  // clipped
        panel_->setGainDb(0);
        panel_->setLogScale(true, 40);  // 1 nm is 6.02 dB below 2 nm: level 1 - 6.02 / 40
        QCOMPARE_COLOUR(panel_->bscan()->image().pixel(x, 0), expected_db(1 + 20 * std::log10(0.5) / 40));
        QCOMPARE_COLOUR(panel_->bscan()->image().pixel(5 * 63 + 200, 63), expected_db(1.0));
        // 3 us before slot 0's centre: exp(-9/8) cos(6 pi) = 0.3247 nm, 15.8 dB down.
        const double v = std::exp(-9.0 / 8.0) * 1e-9;
        QCOMPARE_COLOUR(panel_->bscan()->image().pixel(x - 30, 0), expected_db(1 + 20 * std::log10(v / 2e-9) / 40));
        panel_->setLogScale(true, 20);
        QCOMPARE_COLOUR(panel_->bscan()->image().pixel(x - 30, 0), expected_db(1 + 20 * std::log10(v / 2e-9) / 20));
        panel_->setGainDb(20);  // 10 x: 0.3247 nm is now 2.8 dB over full scale
        QCOMPARE_COLOUR(panel_->bscan()->image().pixel(x - 30, 0), expected_db(1.0));
        // A new panel (the next session) starts with the user's gain and scale.
        TracePanel next;
        QCOMPARE(next.gainDb(), 20.0);
        next.showResult(line_.result);
        QVERIFY(next.scan().log_scale);
        QCOMPARE(next.scan().range_db, 20.0);
    }

    void gateGivesEachReceiversPeakAndItsTime() {
        panel_->setGate(true, 15e-6, 60e-6);
        const ScanState& s = panel_->scan();
        for (std::size_t r = 0; r < kReceivers; ++r) {
            const std::size_t k = line_.slot[r];
            QVERIFY(s.peaks[r].found);
            QVERIFY2(std::abs(s.peaks[r].time - slot_centre(k)) < 1e-12, qPrintable(QString::number(r)));
            QVERIFY(std::abs(s.peaks[r].amplitude - slot_amplitude(k)) < 1e-6 * slot_amplitude(k));
        }
        // A gate that ends 1 us after slot 0's centre: its peak is still that centre; one that
        // ends before slot 63's pulse rises to its peak finds a smaller one at the gate's end side.
        panel_->setGate(true, 15e-6, 21e-6);
        QVERIFY(std::abs(s.peaks[receiverAtSlot(0)].time - slot_centre(0)) < 1e-12);
        QVERIFY(s.peaks[receiverAtSlot(63)].amplitude < 0.01 * slot_amplitude(63));
        // With the envelope the gate measures the envelope: the Gaussian's top.
        panel_->setEnvelopeShown(true);
        panel_->setGate(true, 15e-6, 60e-6);
        for (std::size_t r = 0; r < kReceivers; ++r) {
            QVERIFY(std::abs(s.peaks[r].time - slot_centre(line_.slot[r])) < 1e-3 * kDt);
            QVERIFY(std::abs(s.peaks[r].amplitude - slot_amplitude(line_.slot[r])) <
                    1e-4 * slot_amplitude(line_.slot[r]));
        }
    }

    void gateMovesWithTheMouse() {
        panel_->setGate(true, 15e-6, 60e-6);
        const AScanView* a = panel_->ascan();
        const int y = a->rowRect(a->visibleReceivers().front()).center().y();
        auto* w = const_cast<AScanView*>(a);
        // Drag the end edge to where 80 us is.
        QTest::mousePress(w, Qt::LeftButton, {}, QPoint(a->timeToX(60e-6), y));
        QTest::mouseMove(w, QPoint(a->timeToX(80e-6), y));
        QTest::mouseRelease(w, Qt::LeftButton, {}, QPoint(a->timeToX(80e-6), y));
        const double pixel = panel_->scan().t_end / a->plotRect().width();
        QVERIFY(std::abs(panel_->scan().gate_t1 - 80e-6) <= pixel);
        QCOMPARE(panel_->scan().gate_t0, 15e-6);
        QCOMPARE(panel_->selectedReceiver(), -1);  // a drag is no click
    }

    void envelopeIsTheGaussianOfEachPulse() {
        QVERIFY(panel_->envelope(0).empty());  // not computed while not shown
        panel_->setEnvelopeShown(true);
        for (std::size_t r = 0; r < kReceivers; r += 7) {
            const std::vector<double> env = panel_->envelope(r);
            QCOMPARE(env.size(), kSamples);
            const std::size_t k = line_.slot[r];
            double worst = 0;
            for (std::size_t n = 0; n < kSamples; ++n) {
                const double s = double(n) * kDt - slot_centre(k);
                worst =
                    std::max(worst, std::abs(env[n] - slot_amplitude(k) * std::exp(-s * s / (2 * kSigma * kSigma))));
            }
            QVERIFY2(worst < 1e-6 * slot_amplitude(k), qPrintable(QString::number(worst / slot_amplitude(k))));
        }
        QVERIFY(!panel_->scan().envelopes.empty());
    }

    void clickOrListSelectsOneReceiver() {
        auto* b = const_cast<BScanView*>(panel_->bscan());
        const std::size_t r = receiverAtSlot(41);
        const QPoint at(b->plotRect().center().x(), bscan_y(b, slot_x(41)));
        QSignalSpy selected(panel_.get(), &TracePanel::receiverSelected);
        QTest::mouseClick(b, Qt::LeftButton, {}, at);
        QCOMPARE(panel_->selectedReceiver(), int(r));
        QCOMPARE(selected.count(), 1);
        QCOMPARE(panel_->ascan()->visibleReceivers(), std::vector<std::size_t>{r});  // alone
        auto* box = panel_->findChild<QComboBox*>("receiver-box");
        QCOMPARE(box->currentText(), QStringLiteral("P42"));
        QTest::mouseClick(b, Qt::LeftButton, {}, at);  // again: all receivers
        QCOMPARE(panel_->selectedReceiver(), -1);
        QVERIFY(panel_->ascan()->visibleReceivers().size() > 1);
        // The list runs in spatial order: the first entry after "All receivers" is slot 0.
        box->setFocus();
        QTest::keyClick(box, Qt::Key_Down);
        QCOMPARE(panel_->selectedReceiver(), int(receiverAtSlot(0)));
        // A click on an A-scan row selects that receiver; clicking it again shows all.
        QTest::keyClick(box, Qt::Key_Up);
        QCOMPARE(panel_->selectedReceiver(), -1);
        auto* a = const_cast<AScanView*>(panel_->ascan());
        const std::size_t second = a->visibleReceivers()[1];
        QTest::mouseClick(a, Qt::LeftButton, {}, a->rowRect(second).center());
        QCOMPARE(panel_->selectedReceiver(), int(second));
        QTest::mouseClick(a, Qt::LeftButton, {}, a->rowRect(second).center());
        QCOMPARE(panel_->selectedReceiver(), -1);
        // The keyboard walks along the line from the view that has it.
        QTest::mouseClick(b, Qt::LeftButton, {}, at);
        QCOMPARE(panel_->selectedReceiver(), int(receiverAtSlot(41)));
        QTest::keyClick(b, Qt::Key_Down);
        QCOMPARE(panel_->selectedReceiver(), int(receiverAtSlot(42)));
        QTest::keyClick(b, Qt::Key_Up);
        QTest::keyClick(b, Qt::Key_Up);
        QCOMPARE(panel_->selectedReceiver(), int(receiverAtSlot(40)));
        QTest::keyClick(b, Qt::Key_Escape);
        QCOMPARE(panel_->selectedReceiver(), -1);
    }

    void receiverUnderTheCursorIsHighlighted() {
        panel_->setLogScale(true, 40);  // a dark B-scan: the white outline shows
        auto* b = const_cast<BScanView*>(panel_->bscan());
        const std::size_t r = receiverAtSlot(17);
        QTest::mouseMove(b, QPoint(b->plotRect().left() + 30, bscan_y(b, slot_x(17))));
        QTRY_COMPARE(panel_->hoveredReceiver(), int(r));
        QCOMPARE(panel_->scan().hovered, int(r));  // the A-scans draw from the same state
        const QImage shot = b->grab().toImage();
        const QRect row = b->rowRect(r);
        QCOMPARE(shot.pixel(row.left() + 10, row.top()), qRgb(255, 255, 255));
        QVERIFY(shot.pixel(row.left() + 10, row.top() - 3) != qRgb(255, 255, 255));
        panel_->setLogScale(false);  // on the linear scale's light ground: black
        const QImage linear = b->grab().toImage();
        QCOMPARE(linear.pixel(row.left() + 10, row.top()), qRgb(0, 0, 0));
        QCOMPARE_COLOUR(linear.pixel(row.left() + 10, row.top() - 3), expected_linear(0));
        // Over an A-scan row: that receiver.
        auto* a = const_cast<AScanView*>(panel_->ascan());
        const std::size_t third = a->visibleReceivers()[2];
        QTest::mouseMove(a, a->rowRect(third).center());
        QTRY_COMPARE(panel_->hoveredReceiver(), int(third));
    }

    void sixtyFourReceiversScrollInSpatialOrder() {
        const AScanView* a = panel_->ascan();
        const auto page = a->visibleReceivers();
        QVERIFY(page.size() >= 3 && page.size() < kReceivers);
        for (std::size_t i = 0; i < page.size(); ++i) QCOMPARE(line_.slot[page[i]], i);
        for (std::size_t r : page) QVERIFY(a->rowRect(r).height() >= AScanView::kMinRowHeight);
        QVERIFY(a->scrollBar()->isVisible());
        QCOMPARE(a->scrollBar()->maximum(), int(kReceivers - page.size()));
        a->scrollBar()->setValue(a->scrollBar()->maximum());
        const auto last = a->visibleReceivers();
        QCOMPARE(line_.slot[last.back()], kReceivers - 1);
        QCOMPARE(line_.slot[last.front()], kReceivers - page.size());
    }

    void bScanHeightIsTheUsersToSet() {
        // A wide, low panel puts the views side by side, each the panel's full height; a tall
        // one stacks them, and the splitter between them sets the B-scan's height.
        auto* split = panel_->findChild<QSplitter*>("scan-splitter");
        QVERIFY(split);
        QCOMPARE(split->orientation(), Qt::Horizontal);
        QVERIFY(panel_->bscan()->height() > 300);
        panel_->resize(700, 900);
        QTRY_COMPARE(split->orientation(), Qt::Vertical);
        std::vector<int> plot_heights;
        for (int h : {150, 500}) {
            split->setSizes({split->height() - h, h});
            QApplication::processEvents();
            QVERIFY2(std::abs(panel_->bscan()->height() - h) <= 2,
                     qPrintable(QString::number(panel_->bscan()->height())));
            plot_heights.push_back(panel_->bscan()->plotRect().height());
        }
        QVERIFY(plot_heights[1] - plot_heights[0] >= 340);  // the rows get the height
    }

    void tickLabelsDoNotOverlapAt1280x720() {
        panel_.reset();
        QTemporaryDir dir;
        const QString path = dir.filePath("line64.h5");
        write_result_h5(path.toStdString(), line_.result);
        auto w = test::shown_window();
        w->setNonInteractive(true);
        w->resize(1280, 720);
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openResult(path, true));
        TracePanel* p = w->traces();
        for (bool alone : {false, true})
            for (bool gate : {false, true}) {
                p->selectReceiver(alone ? 5 : -1);
                p->setGate(gate, 20e-6, 40e-6);
                p->setEnvelopeShown(gate);
                p->setLogScale(gate, 40);
                for (QWidget* v : {static_cast<QWidget*>(const_cast<AScanView*>(p->ascan())),
                                   static_cast<QWidget*>(const_cast<BScanView*>(p->bscan()))})
                    v->repaint();
                QVERIFY(p->ascan()->isVisible() && p->bscan()->isVisible());
                const auto& al = p->ascan()->labelRects();
                const auto& bl = p->bscan()->labelRects();
                qInfo() << "A-scans" << p->ascan()->size() << al.size() << "labels; B-scan" << p->bscan()->size()
                        << bl.size() << "labels";
                QVERIFY(al.size() >= 6 && bl.size() >= 8);  // ticks of both axes, titles, names
                expect_no_overlap(al, p->ascan()->rect(), "A-scans");
                expect_no_overlap(bl, p->bscan()->rect(), "B-scan");
                if (gate) QVERIFY(!p->scan().peaks.empty());
            }
        // The receiver the scan views point at is ringed on the slice: under the cursor, else
        // the selected one.
        const auto name = [&](std::size_t r) { return QString::fromStdString(line_.result.receiver_names[r]); };
        p->selectReceiver(7);
        QCOMPARE(w->painter()->highlightedReceiver(), name(7));
        p->hoverReceiver(12);
        QCOMPARE(w->painter()->highlightedReceiver(), name(12));
        p->hoverReceiver(-1);
        QCOMPARE(w->painter()->highlightedReceiver(), name(7));
        p->selectReceiver(-1);
        QCOMPARE(w->painter()->highlightedReceiver(), QString());
        // A picture of the scans for the docs when asked (VOXWAVE_SCAN_SHOT=file.png): the dock
        // made taller, a gate, the envelope, the receiver under the cursor.
        if (qEnvironmentVariableIsSet("VOXWAVE_SCAN_SHOT")) {
            w->resize(1500, 920);
            w->resizeDocks({qobject_cast<QDockWidget*>(p->parentWidget())}, {420}, Qt::Vertical);
            p->setGate(true, 17e-6, 30e-6);
            p->setEnvelopeShown(true);
            p->setLogScale(false);
            p->hoverReceiver(int(receiverAtSlot(20)));
            QApplication::processEvents();
            p->grab().save(qEnvironmentVariable("VOXWAVE_SCAN_SHOT"));
        }
    }
};

QTEST_MAIN(TestScanViews)
#include "test_scan_views.moc"
