// Plot axes: 1-2-5 steps, SI prefixes and the axis they set, against values worked out by hand and
// an independent search over every candidate step.
#include <QCategoryAxis>
#include <QValueAxis>
#include <QtTest>
#include <cmath>

#include "views/plot_axis.hpp"

using namespace voxwave::ui;

namespace {

// Every m x 10^k (m in 1, 2, 5) from 1e-15 to 1e15, smallest first; the first that fits wins.
double smallest_fitting_step(double span, int max_intervals) {
    for (int k = -15; k <= 15; ++k)
        for (double m : {1.0, 2.0, 5.0}) {
            const double step = m * std::pow(10.0, k);
            if (span / step <= max_intervals * (1 + 1e-9)) return step;
        }
    return 0;
}

}  // namespace

class TestPlotAxis : public QObject {
    Q_OBJECT
private slots:
    void stepsAreOneTwoFiveAndTheSmallestThatFit() {
        QCOMPARE(nice_step(10, 5), 2.0);
        QCOMPARE(nice_step(10, 10), 1.0);
        QCOMPARE(nice_step(0.07, 5), 0.02);
        QCOMPARE(nice_step(255.8, 5), 100.0);
        QCOMPARE(nice_step(600, 6), 100.0);  // exactly six intervals of 100
        QCOMPARE(nice_step(0, 5), 0.0);
        QCOMPARE(nice_step(-1, 5), 0.0);
        QCOMPARE(nice_step(std::nan(""), 5), 0.0);
        for (double span : {1e-9, 3.3e-7, 0.0123, 1.0, 7.77, 149.93, 4e4, 9.99e11})
            for (int n : {1, 2, 3, 4, 5, 7, 10, 12}) {
                const double step = nice_step(span, n);
                const double expected = smallest_fitting_step(span, n);
                QVERIFY2(
                    std::abs(step - expected) <= 1e-12 * expected,
                    qPrintable(QString("span %1, %2 intervals: %3 vs %4").arg(span).arg(n).arg(step).arg(expected)));
            }
    }

    void prefixesShowOneToNineHundredNinetyNine() {
        QCOMPARE(si_scale(2e-5).prefix, QString::fromUtf8("µ"));
        QCOMPARE(si_scale(2e-5).factor, 1e6);
        QCOMPARE(si_scale(1e-3).prefix, QString("m"));  // an exact power of ten: 1 ms, not 1000 µs
        QCOMPARE(si_scale(999e-3).prefix, QString("m"));
        QCOMPARE(si_scale(1.0).prefix, QString());
        QCOMPARE(si_scale(2.5e6).prefix, QString("M"));
        QCOMPARE(si_scale(3e-12).prefix, QString("p"));
        QCOMPARE(si_scale(0).factor, 1.0);
        QCOMPARE(si_scale(INFINITY).factor, 1.0);
        for (double v : {1.7e-11, 4.2e-8, 5.5e-6, 0.3, 12.0, 4.5e3, 8.8e5, 2.2e9}) {
            const double shown = v * si_scale(v).factor;
            QVERIFY2(shown >= 1 && shown < 1000, qPrintable(QString::number(v)));
        }
    }

    void formattedValuesCarryThePrefix() {
        QCOMPARE(format_si(2e-5, "s"), QString::fromUtf8("20.0 µs"));
        QCOMPARE(format_si(149.93e3, "Hz"), QString("150 kHz"));
        QCOMPARE(format_si(-0.0025, "m"), QString("-2.50 mm"));
        QCOMPARE(format_si(0, "m"), QString("0.00 m"));
        // Rounding up across a digit or a prefix keeps three significant digits.
        QCOMPARE(format_si(0.99999e-9, "m"), QString("1.00 nm"));
        QCOMPARE(format_si(999.96e-12, "m"), QString("1.00 nm"));
        QCOMPARE(format_si(9.9996, "s"), QString("10.0 s"));
        QCOMPARE(step_decimals(0.02), 2);
        QCOMPARE(step_decimals(0.5), 1);
        QCOMPARE(step_decimals(1), 0);
        QCOMPARE(step_decimals(200), 0);
    }

    void axisShowsTheRangeInThePrefixedUnit() {
        QValueAxis axis;
        const double factor = set_nice_axis(&axis, 0, 255.8e-6, "time", "s", 5);
        QCOMPARE(factor, 1e6);
        QCOMPARE(axis.titleText(), QString::fromUtf8("time (µs)"));
        QVERIFY(std::abs(axis.max() - 255.8) < 1e-9);
        QCOMPARE(axis.min(), 0.0);
        QCOMPARE(axis.tickType(), QValueAxis::TicksDynamic);
        QCOMPARE(axis.tickInterval(), 100.0);
        QCOMPARE(axis.labelFormat(), QString("%.0f"));
        set_nice_axis(&axis, -2e-9, 3e-9, "displacement", "m", 10);
        QCOMPARE(axis.titleText(), QString("displacement (nm)"));
        QCOMPARE(axis.tickInterval(), 0.5);
        QCOMPARE(axis.labelFormat(), QString("%.1f"));
        set_nice_axis(&axis, 0, 0.05, "u", "", 5);  // no unit, no prefix: "u (m)" would read as metres
        QCOMPARE(axis.titleText(), QString("u"));
        QCOMPARE(axis.max(), 0.05);
        QCOMPARE(axis.tickInterval(), 0.01);
        set_nice_axis(&axis, 0, 0, "ratio", "", 4);  // an empty range still gives a usable axis
        QVERIFY(axis.max() > axis.min());
        QCOMPARE(axis.titleText(), QString("ratio"));
    }

    void twoTicksAtLeast() {
        // -3.6..3.6 in two intervals: 5 leaves 0 alone, 2 gives -2, 0, 2.
        QCOMPARE(tick_step(-3.6, 3.6, 2), 2.0);
        QCOMPARE(tick_step(0.908, 1.002, 1), 0.05);  // 0.95 and 1.00, not 1.0 alone
        QCOMPARE(tick_step(0, 10, 5), 2.0);          // already two: nice_step's
        QCOMPARE(tick_step(1.2, 1.8, 1, 1), 1.0);    // never below min_step, even with no tick
        for (double a : {-7.7, 0.013, 3.3, 99.1})
            for (double span : {0.07, 1.0, 13.0}) {
                const double s = tick_step(a, a + span, 1);
                const double ticks = std::floor((a + span) / s + 1e-9) - std::ceil(a / s - 1e-9) + 1;
                QVERIFY2(ticks >= 2, qPrintable(QString("%1 + %2: step %3").arg(a).arg(span).arg(s)));
                QCOMPARE(s, smallest_fitting_step(span, int(std::ceil(span / s - 1e-9))));  // still 1-2-5
            }
    }

    void logAxisDecades() {
        QCOMPARE(decade_label(-5, "s", false), QString::fromUtf8("10 µs"));
        QCOMPARE(decade_label(-3, "s", true), QString("1 ms"));
        QCOMPARE(decade_label(-2, "", false), QString("0.01"));
        QCOMPARE(decade_label(3, "", false), QString("1000"));
        QCOMPARE(decade_label(-5, "", true), QString::fromUtf8("10⁻⁵"));
        QCOMPARE(decade_label(12, "", true), QString::fromUtf8("10¹²"));
        QCategoryAxis axis;
        // A single point: a decade of room each side, labels below and above it.
        auto r = set_log_axis(&axis, 0.0148, 0.0148, "relative error", "", 8);
        QCOMPARE(r, std::make_pair(-2, -1));
        QCOMPARE(axis.categoriesLabels(), QStringList({"0.01", "0.1"}));
        QCOMPARE(axis.titleText(), QString("relative error"));
        r = set_log_axis(&axis, 0.01, 0.01, "e", "", 8);  // on a decade: not on the axis' end
        QCOMPARE(r, std::make_pair(-3, -1));
        // Thirteen decades in at most four intervals: every fifth one, powers for all.
        r = set_log_axis(&axis, 3e-12, 2e0, "e", "", 4);
        QCOMPARE(r, std::make_pair(-15, 5));
        QCOMPARE(axis.categoriesLabels(),
                 QStringList({QString::fromUtf8("10⁻¹⁵"), QString::fromUtf8("10⁻¹⁰"), QString::fromUtf8("10⁻⁵"),
                              QString::fromUtf8("10⁰"), QString::fromUtf8("10⁵")}));
        r = set_log_axis(&axis, 2e-4, 3e-2, "time", "s", 10);
        QCOMPARE(r, std::make_pair(-4, -1));
        QCOMPARE(axis.categoriesLabels(), QStringList({QString::fromUtf8("100 µs"), "1 ms", "10 ms", "100 ms"}));
        QCOMPARE(axis.titleText(), QString("time (s)"));
    }

    void ticksThatFitTheAxis() {
        QCOMPARE(intervals_that_fit(600, 40), 10);
        QCOMPARE(intervals_that_fit(30, 40), 1);
        QCOMPARE(intervals_that_fit(0, 0), 1);
    }
};

QTEST_MAIN(TestPlotAxis)
#include "test_plot_axis.moc"
