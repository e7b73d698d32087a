// The roofline view: a marker's position follows its intensity and
// throughput on log axes (a decade of either is the same distance however
// the axes are fitted), the compute ceiling sits at the peak's height and
// each bandwidth ceiling rises one decade per decade up to the peak at
// intensity peak / bandwidth, markers appear only at the levels a point has
// traffic at, and a click on a marker selects its kernel's instance (or its
// group) through the shared selection, whose changes ring the markers.

#include "result_fixture.h"
#include "roofline/roofline_view.h"
#include "sim/roofline_chart.h"

#include <QtTest>

#include <cmath>

using namespace stagecraft;
using namespace stagecraft::views;

namespace {

/// fig3-chain on "teaching": 4 groups, 15 kernels.
ResultPtr fixture() {
    static ResultPtr result = test::resultFor({});
    return result;
}

sim::RooflinePoint pointOf(const sim::RooflinePoint& base, double ops, std::array<double, 3> bytes,
                           double seconds) {
    sim::RooflinePoint p = base;
    p.ops = ops;
    p.bytes = bytes;
    p.seconds = seconds;
    return p;
}

/// A chart with known figures on the fixture's first two kernels: kernel 0
/// at 10 ops/B at DDR and 100 at GB, 1e12 ops/s; kernel 1 at 1 op/B at DDR
/// only, 1e11 ops/s. Peak 1e13 ops/s; DDR 1e11 B/s, GB 1e12, no LB path.
sim::RooflineChart knownChart() {
    const sim::RooflineChart real = sim::rooflineChart(fixture()->arch, fixture()->eval);
    sim::RooflineChart chart;
    chart.strategy = "graphturbo";
    chart.precision = "f32";
    chart.peakOpsPerSecond = 1e13;
    chart.bandwidth = {1e11, 1e12, 0};
    chart.kernels = {pointOf(real.kernels.at(0), 1e9, {1e8, 1e7, 0}, 1e-3),
                     pointOf(real.kernels.at(1), 1e9, {1e9, 0, 0}, 1e-2)};
    chart.groups = {pointOf(real.groups.at(0), 2e9, {1.1e9, 1e7, 0}, 1.1e-2)};
    return chart;
}

/// The fraction of the way along \p axis at which \p value lies, in decades.
double logFraction(const LogAxis& axis, double value) {
    return (std::log10(value) - std::log10(axis.low)) /
           (std::log10(axis.high) - std::log10(axis.low));
}

bool near(double a, double b, double tolerance = 0.5) {
    return std::abs(a - b) <= tolerance;
}

std::optional<RooflinePlot::Marker> markerOf(const RooflinePlot& plot, size_t point, size_t level) {
    for (const RooflinePlot::Marker& m : plot.markers())
        if (m.point == point && m.level == level)
            return m;
    return std::nullopt;
}

} // namespace

class TestRooflineView : public QObject {
    Q_OBJECT

private slots:
    void markersFollowIntensityAndThroughputOnLogAxes() {
        RooflineView view;
        view.resize(900, 600);
        view.setChart(fixture(), knownChart());
        const RooflinePlot& plot = *view.plot();
        const RooflineAxes axes = plot.axes();
        // Ends at 1, 2 or 5 × a power of ten, holding every point and the peak.
        QVERIFY(axes.x.low <= 1 && axes.x.high >= 100 && axes.y.high >= 1e13);
        for (double end : {axes.x.low, axes.x.high, axes.y.low, axes.y.high}) {
            const double mantissa = end / std::pow(10.0, std::floor(std::log10(end) + 1e-9));
            QVERIFY2(near(mantissa, 1, 1e-6) || near(mantissa, 2, 1e-6) || near(mantissa, 5, 1e-6),
                     qPrintable(QString::number(end)));
        }
        // The peak does not sit far below the top: less than a decade of room.
        QVERIFY(axes.y.high < 1e14);
        QCOMPARE(decadeText(2e12), QStringLiteral("2T"));
        QCOMPARE(decadeText(1e3), QStringLiteral("1k"));
        QCOMPARE(decadeText(500), QStringLiteral("500"));
        const auto ddr0 = markerOf(plot, 0, 0);
        const auto gb0 = markerOf(plot, 0, 1);
        const auto ddr1 = markerOf(plot, 1, 0);
        QVERIFY(ddr0 && gb0 && ddr1);
        // Only the levels with traffic have markers.
        QVERIFY(!markerOf(plot, 0, 2) && !markerOf(plot, 1, 1));
        QCOMPARE(static_cast<int>(plot.markers().size()), 3);
        const QRectF area = axes.plot;
        const double decadeX = area.width() / std::log10(axes.x.high / axes.x.low);
        const double decadeY = area.height() / std::log10(axes.y.high / axes.y.low);
        QVERIFY(near(ddr0->at.x(), area.left() + area.width() * logFraction(axes.x, 10)));
        QVERIFY(near(ddr0->at.y(), area.bottom() - area.height() * logFraction(axes.y, 1e12)));
        // Ten times the intensity is one decade right; ten times less
        // throughput one decade down; one point's markers share a height.
        QVERIFY(near(gb0->at.x() - ddr0->at.x(), decadeX));
        QVERIFY(near(gb0->at.y(), ddr0->at.y()));
        QVERIFY(near(ddr0->at.x() - ddr1->at.x(), decadeX));
        QVERIFY(near(ddr1->at.y() - ddr0->at.y(), decadeY));
        // The same holds at another size.
        view.resize(500, 300);
        const auto small = markerOf(plot, 0, 1);
        const RooflineAxes smallAxes = plot.axes();
        QVERIFY(small &&
                near(small->at.x(), smallAxes.plot.left() +
                                        smallAxes.plot.width() * logFraction(smallAxes.x, 100)));
    }

    void ceilingsSitAtTheirHeights() {
        RooflineView view;
        view.resize(900, 600);
        view.setChart(fixture(), knownChart());
        const RooflinePlot& plot = *view.plot();
        const RooflineAxes axes = plot.axes();
        const double peakY = axes.plot.bottom() - axes.plot.height() * logFraction(axes.y, 1e13);
        const QLineF compute = plot.ceilingLine(axes, std::nullopt);
        QVERIFY(near(compute.y1(), peakY) && near(compute.y2(), peakY));
        QVERIFY(near(compute.x1(), axes.plot.left()) && near(compute.x2(), axes.plot.right()));
        for (size_t level : {size_t{0}, size_t{1}}) {
            const double bandwidth = knownChart().bandwidth[level];
            const QLineF line = plot.ceilingLine(axes, level);
            // It meets the compute ceiling at the ridge, peak / bandwidth.
            QVERIFY(near(line.y2(), peakY));
            QVERIFY(near(line.x2(), axes.x.toPixel(1e13 / bandwidth)));
            // Every point on it is bandwidth x intensity.
            const QPointF mid = line.pointAt(0.5);
            const double ratio =
                axes.y.fromPixel(mid.y()) / (bandwidth * axes.x.fromPixel(mid.x()));
            QVERIFY2(std::abs(ratio - 1) < 0.02, qPrintable(QString::number(ratio)));
        }
        // No path to the LB: no ceiling for it.
        QVERIFY(plot.ceilingLine(axes, size_t{2}).isNull());
        // What is painted: the compute ceiling's pixels are ink (within a
        // pixel of its height: antialiasing).
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const RooflineAxes shown = plot.axes();
        const double y = plot.ceilingLine(shown, std::nullopt).y1();
        const QImage image = view.plot()->grab().toImage();
        int darkest = 255;
        for (int dy = -1; dy <= 1; ++dy)
            darkest = std::min(darkest, image
                                            .pixelColor(static_cast<int>(shown.plot.center().x()),
                                                        static_cast<int>(std::lround(y)) + dy)
                                            .lightness());
        QVERIFY2(darkest < 128, qPrintable(QString::number(darkest)));
    }

    void aClickSelectsTheKernelOrTheGroup() {
        SelectionModel selection;
        RooflineView view;
        view.setSelectionModel(&selection);
        view.resize(900, 600);
        view.setChart(fixture(), knownChart());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        RooflinePlot* plot = view.plot();
        const auto ddr1 = markerOf(*plot, 1, 0);
        QVERIFY(ddr1);
        QTest::mouseClick(plot, Qt::LeftButton, {}, ddr1->at.toPoint());
        const int32_t kernel = knownChart().kernels[1].kernel;
        const schedule::InstanceId instance =
            fixture()->eval.program.kernels[static_cast<size_t>(kernel)].instance;
        QCOMPARE(selection.current().kind, Selection::Kind::Instance);
        QCOMPARE(selection.current().id, instance.value());
        QVERIFY(plot->isSelected(1) && !plot->isSelected(0));
        QVERIFY(
            plot->tooltipOf(*ddr1).contains(QString::fromStdString(knownChart().kernels[1].label)));
        // A click away from every marker selects nothing new.
        QTest::mouseClick(plot, Qt::LeftButton, {},
                          plot->axes().plot.topLeft().toPoint() + QPoint(3, 3));
        QCOMPARE(selection.current().id, instance.value());
        // Groups: a click selects the group.
        view.setGrain(RooflineGrain::Groups);
        const auto group = markerOf(*plot, 0, 0);
        QVERIFY(group);
        QTest::mouseClick(plot, Qt::LeftButton, {}, group->at.toPoint());
        QCOMPARE(selection.current().kind, Selection::Kind::Group);
        QCOMPARE(selection.current().id, knownChart().groups[0].group.value());
        QVERIFY(plot->isSelected(0));
    }

    void aRealRunIsDrawnWhole() {
        RooflineView view;
        view.resize(900, 600);
        view.setResult(fixture());
        const RooflinePlot& plot = *view.plot();
        QCOMPARE(plot.points().size(), fixture()->eval.report.attribution.kernels.size());
        QVERIFY(plot.chart().peakOpsPerSecond > 0);
        // Every marker lies inside the plot.
        const QRectF area = plot.axes().plot.adjusted(-0.5, -0.5, 0.5, 0.5);
        for (const RooflinePlot::Marker& m : plot.markers())
            QVERIFY(area.contains(m.at));
        QVERIFY(!plot.markers().empty());
        QVERIFY(view.summary().contains(QStringLiteral("kernels")));
    }
};

QTEST_MAIN(TestRooflineView)
#include "test_roofline_view.moc"
