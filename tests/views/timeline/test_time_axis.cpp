// The shared time axis as data: pixel/time round trips, zoom around an
// anchor, clamping at both edges and at the zoom limits, clipped spans, tick
// steps and time labels. Expected values are worked out by hand per row.

#include "common/time_axis.h"

#include <QSignalSpy>
#include <QtTest>

#include <cmath>

using namespace stagecraft::views;
using namespace Qt::StringLiterals;

namespace {

TimeAxis axisOf(double startNs, double nsPerPixel) {
    TimeAxis axis;
    axis.startNs = startNs;
    axis.nsPerPixel = nsPerPixel;
    return axis;
}

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

/// Whether \p step is 1, 2 or 5 times a power of ten.
bool isOneTwoFive(double step) {
    const double power = std::pow(10.0, std::floor(std::log10(step) + 1e-12));
    const double mantissa = step / power;
    return near(mantissa, 1) || near(mantissa, 2) || near(mantissa, 5);
}

/// The 1-2-5 step just below \p step.
double previousStep(double step) {
    const double power = std::pow(10.0, std::floor(std::log10(step) + 1e-12));
    const double mantissa = std::round(step / power);
    return mantissa == 1 ? power / 2 : mantissa == 2 ? power : 2 * power;
}

} // namespace

class TestTimeAxis : public QObject {
    Q_OBJECT
private slots:
    void roundTrips_data() {
        QTest::addColumn<double>("startNs");
        QTest::addColumn<double>("nsPerPixel");
        QTest::newRow("whole run on 1000 px") << 0.0 << 1000.0;
        QTest::newRow("one ns per pixel") << 250.0 << 1.0;
        QTest::newRow("deep zoom, late start") << 123456789.0 << 0.001;
        QTest::newRow("zoomed out, seconds") << 5e8 << 2.5e6;
    }
    void roundTrips() {
        QFETCH(double, startNs);
        QFETCH(double, nsPerPixel);
        const TimeAxis axis = axisOf(startNs, nsPerPixel);
        QCOMPARE(axis.toPixel(startNs), 0.0);
        for (const double pixel : {0.0, 1.0, 17.5, 640.0, -30.0}) {
            // Within a thousandth of a pixel, even at the deepest zoom late in a run.
            QVERIFY(std::abs(axis.toPixel(axis.toTime(pixel)) - pixel) < 1e-3);
            // One pixel further is always nsPerPixel later (a difference of
            // two large times: the tolerance follows their scale).
            const double step = axis.toTime(pixel + 1) - axis.toTime(pixel);
            QVERIFY(std::abs(step - nsPerPixel) <= 1e-12 * std::max(1.0, startNs));
        }
        QVERIFY(near(axis.endNs(800), startNs + 800 * nsPerPixel));
    }

    void zoomKeepsTheAnchor_data() {
        QTest::addColumn<double>("nsPerPixel");
        QTest::addColumn<double>("pixel");
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("expectedNsPerPixel");
        QTest::newRow("in x2 at the middle") << 10.0 << 400.0 << 2.0 << 5.0;
        QTest::newRow("out x4 at the left edge") << 10.0 << 0.0 << 0.25 << 40.0;
        QTest::newRow("in x1.25 at the right") << 100.0 << 799.0 << 1.25 << 80.0;
        QTest::newRow("in past the limit") << 0.004 << 300.0 << 10.0 << TimeAxis::kMinNsPerPixel;
    }
    void zoomKeepsTheAnchor() {
        QFETCH(double, nsPerPixel);
        QFETCH(double, pixel);
        QFETCH(double, factor);
        QFETCH(double, expectedNsPerPixel);
        TimeAxis axis = axisOf(1000, nsPerPixel);
        const double anchor = axis.toTime(pixel);
        axis.zoomAround(pixel, factor);
        QVERIFY(near(axis.nsPerPixel, expectedNsPerPixel));
        QVERIFY(near(axis.toTime(pixel), anchor));
    }
    void zoomIgnoresNonPositiveFactors() {
        TimeAxis axis = axisOf(10, 3);
        axis.zoomAround(50, 0);
        axis.zoomAround(50, -2);
        QCOMPARE(axis, axisOf(10, 3));
    }

    void clamp_data() {
        QTest::addColumn<double>("startNs");
        QTest::addColumn<double>("nsPerPixel");
        QTest::addColumn<double>("expectedStart");
        QTest::addColumn<double>("expectedNsPerPixel");
        // Range [0, 10000] over 100 px: fully zoomed out is 100 ns/px.
        QTest::newRow("inside stays") << 2000.0 << 10.0 << 2000.0 << 10.0;
        QTest::newRow("before the left edge") << -500.0 << 10.0 << 0.0 << 10.0;
        QTest::newRow("past the right edge") << 9500.0 << 10.0 << 9000.0 << 10.0;
        QTest::newRow("exactly at the right edge") << 9000.0 << 10.0 << 9000.0 << 10.0;
        QTest::newRow("zoomed out too far") << 3000.0 << 400.0 << 0.0 << 100.0;
        QTest::newRow("at the zoom-out limit") << 0.0 << 100.0 << 0.0 << 100.0;
        QTest::newRow("zoomed in too far") << 5000.0 << 1e-5 << 5000.0 << TimeAxis::kMinNsPerPixel;
        QTest::newRow("deepest zoom at the right edge")
            << 10000.0 << TimeAxis::kMinNsPerPixel << 9999.9 << TimeAxis::kMinNsPerPixel;
    }
    void clamp() {
        QFETCH(double, startNs);
        QFETCH(double, nsPerPixel);
        QFETCH(double, expectedStart);
        QFETCH(double, expectedNsPerPixel);
        TimeAxis axis = axisOf(startNs, nsPerPixel);
        axis.clampTo(0, 10000, 100);
        QVERIFY2(near(axis.startNs, expectedStart), qPrintable(QString::number(axis.startNs)));
        QVERIFY(near(axis.nsPerPixel, expectedNsPerPixel));
    }

    void span_data() {
        QTest::addColumn<double>("t0");
        QTest::addColumn<double>("t1");
        QTest::addColumn<bool>("visible");
        QTest::addColumn<double>("left");
        QTest::addColumn<double>("right");
        // The plot shows [100, 1100] on 500 px (2 ns/px).
        QTest::newRow("inside") << 200.0 << 300.0 << true << 50.0 << 100.0;
        QTest::newRow("clipped at the left") << 0.0 << 300.0 << true << 0.0 << 100.0;
        QTest::newRow("clipped at the right") << 1000.0 << 2000.0 << true << 450.0 << 500.0;
        QTest::newRow("covers the plot") << 0.0 << 5000.0 << true << 0.0 << 500.0;
        QTest::newRow("ends at the left edge") << 0.0 << 100.0 << true << 0.0 << 0.0;
        QTest::newRow("fully left") << 0.0 << 50.0 << false << 0.0 << 0.0;
        QTest::newRow("fully right") << 1200.0 << 1300.0 << false << 0.0 << 0.0;
        QTest::newRow("reversed") << 300.0 << 200.0 << false << 0.0 << 0.0;
    }
    void span() {
        QFETCH(double, t0);
        QFETCH(double, t1);
        QFETCH(bool, visible);
        QFETCH(double, left);
        QFETCH(double, right);
        const PixelSpan span = axisOf(100, 2).span(t0, t1, 500);
        QCOMPARE(span.visible, visible);
        if (!visible)
            return;
        QVERIFY(near(span.left, left));
        QVERIFY(near(span.right, right));
    }

    void tickSteps_data() {
        QTest::addColumn<double>("nsPerPixel");
        QTest::addColumn<double>("minPixels");
        QTest::addColumn<double>("expected");
        QTest::newRow("1 ns/px, 90 px") << 1.0 << 90.0 << 100.0;
        QTest::newRow("3 ns/px, 90 px") << 3.0 << 90.0 << 500.0;
        QTest::newRow("exact 200") << 2.0 << 100.0 << 200.0;
        QTest::newRow("just over 200") << 2.0 << 100.5 << 500.0;
        QTest::newRow("picoseconds") << 0.001 << 50.0 << 0.05;
        QTest::newRow("milliseconds") << 7e4 << 80.0 << 1e7;
        QTest::newRow("seconds") << 7e6 << 80.0 << 1e9;
        QTest::newRow("below one pixel counts as one") << 3.0 << 0.0 << 5.0;
    }
    void tickSteps() {
        QFETCH(double, nsPerPixel);
        QFETCH(double, minPixels);
        QFETCH(double, expected);
        const double step = axisOf(0, nsPerPixel).tickStepNs(minPixels);
        QVERIFY2(near(step, expected), qPrintable(QString::number(step)));
        QVERIFY(isOneTwoFive(step));
        const double minimum = std::max(1.0, minPixels);
        QVERIFY(step / nsPerPixel >= minimum * (1 - 1e-9));
        QVERIFY(previousStep(step) / nsPerPixel < minimum);
    }

    void formats_data() {
        QTest::addColumn<double>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << u"0"_s;
        QTest::newRow("ns") << 250.0 << u"250 ns"_s;
        QTest::newRow("us") << 1500.0 << u"1.5 \u00b5s"_s;
        QTest::newRow("us rounded to 4 digits") << 123456.0 << u"123.5 \u00b5s"_s;
        QTest::newRow("ms") << 12e6 << u"12 ms"_s;
        QTest::newRow("s") << 2.5e9 << u"2.5 s"_s;
        QTest::newRow("ps") << 0.5 << u"500 ps"_s;
        QTest::newRow("negative") << -1500.0 << u"-1.5 \u00b5s"_s;
        // Just below a unit: rounding to 4 digits reaches the next unit.
        QTest::newRow("rounds up to the next unit") << 999999.0 << u"1 ms"_s;
    }
    void formats() {
        QFETCH(double, ns);
        QFETCH(QString, text);
        QCOMPARE(formatNs(ns), text);
    }

    void modelFitsAndClamps() {
        TimeAxisModel model;
        QSignalSpy changed(&model, &TimeAxisModel::changed);
        model.setRange(0, 8000, 400);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.axis(), axisOf(0, 20));
        model.setAxis(axisOf(-100, 20), 400); // clamps back to the fitted axis
        QCOMPARE(changed.count(), 1);
        model.setAxis(axisOf(1000, 5), 400);
        QCOMPARE(changed.count(), 2);
        QCOMPARE(model.axis(), axisOf(1000, 5));
        model.setAxis(axisOf(7500, 5), 400); // 2000 ns visible: starts at 6000
        QCOMPARE(model.axis(), axisOf(6000, 5));
    }
};

QTEST_GUILESS_MAIN(TestTimeAxis)
#include "test_time_axis.moc"
