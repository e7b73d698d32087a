// The occupancy and overlap widgets as a user meets them: hover names the
// tensor, a click selects it, the selection emphasizes its rectangles, the
// core chooser switches the LB series, zooming one view moves the shared
// axis, the value axes read bytes and busy units, and both render without a
// result and with ResNet-50 at scale.

#include "common/group_colors.h"
#include "stepper/algorithm_steps.h"
#include "usage/busy_chart.h"
#include "usage/occupancy_plot.h"
#include "usage/occupancy_view.h"
#include "usage/overlap_view.h"
#include "usage/utilization_bars.h"
#include "usage_fixture.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

using namespace stagecraft;
using namespace stagecraft::views;

namespace {

/// The rectangle of \p usage with the largest area in time x bytes.
int largestRect(const MemoryUsage& usage) {
    int best = -1;
    double area = 0;
    for (size_t i = 0; i < usage.rects.size(); ++i) {
        const OccupancyRect& r = usage.rects[i];
        const double a = (r.end - r.start) * static_cast<double>(r.bytes);
        if (a > area) {
            area = a;
            best = static_cast<int>(i);
        }
    }
    return best;
}

QPoint centerOf(const OccupancyPlot& plot, const OccupancyRect& r) {
    return plot
        .positionOf((r.start + r.end) / 2,
                    static_cast<double>(r.offset) + static_cast<double>(r.bytes) / 2)
        .toPoint();
}

/// Saves \p widget as <name>.png under $STAGECRAFT_USAGE_SNAPSHOTS, when set
/// (to look at what the views draw).
void snapshot(QWidget& widget, const QString& name) {
    const QString dir = qEnvironmentVariable("STAGECRAFT_USAGE_SNAPSHOTS");
    if (!dir.isEmpty())
        widget.grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

void wheel(QWidget* widget, QPoint at, int notches) {
    QWheelEvent event(at, widget->mapToGlobal(at), QPoint(), QPoint(0, 120 * notches), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &event);
}

} // namespace

class TestUsageViews : public QObject {
    Q_OBJECT
private slots:
    void init() {
        result_ = test::usageResult("fig3-chain", 0, "teaching");
        occupancy_ = std::make_unique<OccupancyView>();
        overlap_ = std::make_unique<OverlapView>();
        for (QWidget* w :
             {static_cast<QWidget*>(occupancy_.get()), static_cast<QWidget*>(overlap_.get())}) {
            w->resize(1100, 700);
            w->show();
        }
        QVERIFY(QTest::qWaitForWindowExposed(occupancy_.get()));
        selection_.clear();
        occupancy_->setSelectionModel(&selection_);
        occupancy_->setTimeAxisModel(&axis_);
        overlap_->setSelectionModel(&selection_);
        overlap_->setTimeAxisModel(&axis_);
        occupancy_->setResult(result_);
        overlap_->setResult(result_);
    }
    void cleanup() {
        occupancy_.reset();
        overlap_.reset();
    }

    void axisCoversTheRun() {
        QCOMPARE(axis_.rangeEnd(), result_->eval.sim.makespanNs);
        const OccupancyPlot* plot = occupancy_->lbPlot();
        QVERIFY(qAbs(plot->xOf(result_->eval.sim.makespanNs) - plot->plotRect().right()) < 2);
    }

    void resizedPlotsKeepShowingTheRun() {
        // Screenshots enlarge a view after it was fitted (--view NAME --size).
        for (int width : {1700, 600}) {
            occupancy_->resize(width, 700);
            const OccupancyPlot* plot = occupancy_->lbPlot();
            QTRY_VERIFY(plot->width() > width - 20);
            QVERIFY2(qAbs(plot->xOf(result_->eval.sim.makespanNs) - plot->plotRect().right()) < 2,
                     qPrintable(QString::number(width)));
        }
        // Zoomed in, a resize keeps the zoom.
        TimeAxis half = axis_.axis();
        half.fit(0, result_->eval.sim.makespanNs / 2, occupancy_->lbPlot()->plotRect().width());
        axis_.setAxis(half, occupancy_->lbPlot()->plotRect().width());
        occupancy_->resize(1000, 700);
        QTRY_VERIFY(occupancy_->lbPlot()->width() < 1010);
        QCOMPARE(axis_.axis().nsPerPixel, half.nsPerPixel);
        axis_.setRange(0, result_->eval.sim.makespanNs, occupancy_->lbPlot()->plotRect().width());
    }

    void hoverNamesTheTensor() {
        OccupancyPlot* plot = occupancy_->lbPlot();
        const int i = largestRect(plot->usage());
        QVERIFY(i >= 0);
        const OccupancyRect& r = plot->usage().rects[static_cast<size_t>(i)];
        const QPoint at = centerOf(*plot, r);
        QCOMPARE(plot->rectAt(at), i);
        const QString tip = plot->toolTipAt(at);
        QVERIFY2(tip.startsWith(QString::fromStdString(r.tensorName)), qPrintable(tip));
        QVERIFY(tip.contains(formatBufferBytes(r.bytes)));
        QVERIFY(tip.contains(QString::fromStdString(plot->usage().memory)));
        QVERIFY(plot->toolTipAt(QPoint(5, 5)).isEmpty());
    }

    void clickSelectsTheTensor() {
        OccupancyPlot* plot = occupancy_->gbPlot();
        const int i = largestRect(plot->usage());
        QVERIFY(i >= 0);
        const OccupancyRect& r = plot->usage().rects[static_cast<size_t>(i)];
        QTest::mouseClick(plot, Qt::LeftButton, {}, centerOf(*plot, r));
        QCOMPARE(selection_.current().kind, Selection::Kind::Tensor);
        QCOMPARE(selection_.current().id, r.tensor.value());
        QVERIFY(!plot->emphasized().empty());
        for (int32_t e : plot->emphasized())
            QCOMPARE(plot->usage().rects[static_cast<size_t>(e)].tensor, r.tensor);
    }

    void selectedGroupEmphasizesItsTensors() {
        const MemoryUsage& usage = occupancy_->lbPlot()->usage();
        const partition::GroupId group = usage.rects.back().group;
        selection_.select(Selection{Selection::Kind::Group, group.value(), -1});
        std::vector<int32_t> expected;
        for (size_t i = 0; i < usage.rects.size(); ++i)
            if (result_->eval.schedule.partition.groupOf(
                    result_->graph->tensor(usage.rects[i].tensor).producer) == group)
                expected.push_back(static_cast<int32_t>(i));
        QVERIFY(!expected.empty());
        QCOMPARE(occupancy_->lbPlot()->emphasized(), expected);
        snapshot(*occupancy_, QStringLiteral("fig3-occupancy-group"));
        snapshot(*overlap_, QStringLiteral("fig3-overlap"));
    }

    void coreChooserSwitchesTheLbSeries() {
        // (In the zoo runs every buffer is bound over all cores, so the series
        // of the cores are alike; test_occupancy_data checks the core filter.)
        QComboBox* chooser = occupancy_->coreChooser();
        const int cores = lbCoreCount(*result_);
        QCOMPARE(chooser->count(), cores);
        QVERIFY(cores > 1);
        QCOMPARE(occupancy_->lbPlot()->usage().core, 0);
        chooser->setCurrentIndex(cores - 1);
        const MemoryUsage expected = lbUsage(*result_, cores - 1);
        QCOMPARE(occupancy_->core(), cores - 1);
        const MemoryUsage& shown = occupancy_->lbPlot()->usage();
        QCOMPARE(shown.core, cores - 1);
        QCOMPARE(shown.rects.size(), expected.rects.size());
        for (size_t i = 0; i < shown.rects.size(); ++i)
            QCOMPARE(shown.rects[i].residency, expected.rects[i].residency);
        for (const SpillMark& m : occupancy_->lbPlot()->marks())
            QVERIFY(m.cores > cores - 1);
        const OccupancyRect& r = shown.rects.front();
        QVERIFY(occupancy_->lbPlot()
                    ->toolTipAt(centerOf(*occupancy_->lbPlot(), r))
                    .contains(QStringLiteral("core %1").arg(cores - 1)));
        // The GB is the cluster's: it does not follow the core.
        QCOMPARE(occupancy_->gbPlot()->usage().core, -1);
    }

    void zoomInOneViewMovesTheSharedAxis() {
        const TimeAxis before = axis_.axis();
        QSignalSpy changed(&axis_, &TimeAxisModel::changed);
        OccupancyPlot* plot = occupancy_->lbPlot();
        const QPoint at(plot->plotRect().center());
        const double timeUnderCursor = plot->timeAt(at.x());
        wheel(plot, at, 3);
        QCOMPARE(changed.count(), 1);
        QVERIFY(axis_.axis().nsPerPixel < before.nsPerPixel);
        QVERIFY(qAbs(plot->timeAt(at.x()) - timeUnderCursor) < axis_.axis().nsPerPixel);
        // The overlap view paints with the same axis; panning it moves it for both.
        BusyChart* chart = overlap_->busyChart();
        QCOMPARE(chart->timeAxisModel(), &axis_);
        const double start = axis_.axis().startNs;
        const QPoint from = chart->plotRect().center();
        QTest::mousePress(chart, Qt::LeftButton, {}, from);
        QTest::mouseMove(chart, from + QPoint(60, 0));
        QTest::mouseRelease(chart, Qt::LeftButton, {}, from + QPoint(60, 0));
        QVERIFY(axis_.axis().startNs < start);
        QCOMPARE(plot->xOf(axis_.axis().startNs), double(plot->plotRect().left()));
    }

    void byteAxisStepsByPowersOfTwo() {
        // 60 KiB over 600 px: 40 px need 4 KiB; over 100 px, 24 KiB: 32 KiB.
        const std::vector<int64_t> tall = AddressScale{0, 600, 60 * 1024}.tickAddresses();
        QCOMPARE(tall.size(), size_t{16});
        QCOMPARE(tall[1], int64_t{4096});
        QCOMPARE(tall.back(), int64_t{15 * 4096});
        QCOMPARE(AddressScale({0, 100, 60 * 1024}).tickAddresses(),
                 (std::vector<int64_t>{0, 32768}));
    }

    void occupancyAxisReadsBytes() {
        OccupancyPlot* plot = occupancy_->lbPlot();
        const std::vector<ValueTick> ticks = plot->valueTicks();
        QVERIFY(ticks.size() >= 3);
        const double zeroY = plot->positionOf(0, 0).y();
        const double pxPerByte = zeroY - plot->positionOf(0, 1).y();
        QCOMPARE(ticks.back().y, zeroY);
        const double spacing = ticks[ticks.size() - 2].y - ticks.back().y;
        const auto step = static_cast<int64_t>(std::llround(-spacing / pxPerByte));
        QVERIFY2(step > 0 && (step & (step - 1)) == 0, qPrintable(QString::number(step)));
        QVERIFY(-spacing >= 40);
        for (size_t i = 0; i < ticks.size(); ++i) {
            const auto value = static_cast<int64_t>(ticks.size() - 1 - i) * step;
            QCOMPARE(ticks[i].label, formatBufferBytes(value));
            QVERIFY(qAbs(ticks[i].y - plot->positionOf(0, static_cast<double>(value)).y()) < 1e-6);
        }
        // The labels are drawn: dark pixels left of the plot at the 0 mark.
        const QImage image = plot->grab().toImage();
        const int y = static_cast<int>(zeroY);
        int dark = 0;
        for (int x = plot->plotRect().left() - TimePlot::kValueAxisWidth;
             x < plot->plotRect().left() - 6; ++x)
            dark += qGray(image.pixel(x, y)) < 128 ? 1 : 0;
        QVERIFY2(dark > 0, "no label at the 0 mark");
    }

    void busyAxisReadsUnitsPerLane() {
        const BusyChart* chart = overlap_->busyChart();
        const OverlapData& data = chart->data();
        QVERIFY(!data.kinds.empty());
        const std::vector<ValueTick> ticks = chart->valueTicks();
        QCOMPARE(ticks.front().label, QString::number(data.kinds[0].units));
        QCOMPARE(ticks.front().y, chart->laneRect(0).top() + 3);
        QCOMPARE(ticks.back().label, QStringLiteral("0"));
        QCOMPARE(ticks.back().y,
                 chart->laneRect(static_cast<int>(data.kinds.size()) - 1).bottom() - 1);
        for (size_t i = 1; i < ticks.size(); ++i)
            QVERIFY(ticks[i].y >= ticks[i - 1].y);
    }

    // Squeezed, the lanes keep their ticks but no two labels overlap.
    void busyAxisLabelsNeverOverlap() {
        BusyChart chart;
        chart.setData(overlap_->busyChart()->data());
        const double textHeight = chart.fontMetrics().height();
        chart.setMinimumHeight(0); // as a splitter squeezes it
        chart.resize(600,
                     static_cast<int>(textHeight * static_cast<double>(chart.data().kinds.size())) +
                         20);
        double last = -1e9;
        size_t labelled = 0;
        for (const ValueTick& tick : chart.valueTicks()) {
            if (tick.label.isEmpty())
                continue;
            QVERIFY2(tick.y - last >= textHeight, qPrintable(tick.label));
            last = tick.y;
            ++labelled;
        }
        QVERIFY(labelled >= 1);
    }

    void legendsExplainEveryMark() {
        const auto* occupancy = occupancy_->findChild<QLabel*>(QStringLiteral("occupancyLegend"));
        QVERIFY(occupancy && occupancy->isVisible());
        // Given room to be read: the row's width less the core chooser's.
        QVERIFY2(occupancy->width() > occupancy_->width() / 2,
                 qPrintable(QString::number(occupancy->width())));
        for (const char* mark : {"group", "bytes in use", "capacity", "spill"})
            QVERIFY2(occupancy->text().contains(QLatin1String(mark)), mark);
        // The marks in the colours the plots draw them with.
        QVERIFY(occupancy->text().contains(QColor(kOccupancyAlertRgb).name()));
        QVERIFY(occupancy->text().contains(groupColor(partition::GroupId(0)).name()));
        const auto* overlap = overlap_->findChild<QLabel*>(QStringLiteral("overlapLegend"));
        QVERIFY(overlap && overlap->isVisible());
        QVERIFY(overlap->width() > overlap_->width() / 2);
        QVERIFY(overlap->text().contains(unitKindColor("matrix").name()));
        QVERIFY(overlap->text().contains(unitKindLightColor("matrix").name()));
        // Why the groups' times add up to more than the run.
        QVERIFY(overlap->text().contains(QStringLiteral("overlap in time")));
    }

    void barsShowUtilizationAndSelectGroups() {
        UtilizationBars* bars = overlap_->utilizationBars();
        const OverlapData& data = bars->data();
        QVERIFY(!data.groups.empty());
        QCOMPARE(bars->rowCount(), 1 + static_cast<int>(data.groups.size()));
        const QString label = bars->barLabel(0, 0);
        QVERIFY(label.endsWith(QStringLiteral("%")));
        QVERIFY(label.contains(QString::number(data.kinds[0].utilization * 100, 'f', 1)));
        overlap_->grab();
        const QRect row = bars->rowRect(2);
        QTest::mouseClick(bars, Qt::LeftButton, {}, row.center());
        QCOMPARE(selection_.current(),
                 (Selection{Selection::Kind::Group, data.groups[1].group.value(), -1}));
        const QString tip =
            overlap_->busyChart()->toolTipAt(overlap_->busyChart()->laneRect(0).center().toPoint());
        QVERIFY(tip.startsWith(QString::fromStdString(data.kinds[0].kind)));
    }

    void spillsAppearStepByStep() {
        HighlightModel steps;
        occupancy_->setHighlightModel(&steps);
        OccupancyPlot* lb = occupancy_->lbPlot();
        OccupancyPlot* gb = occupancy_->gbPlot();
        const size_t allGb = gb->marks().size();
        std::vector<const AlgorithmStep*> spills;
        const std::vector<AlgorithmStep> memory = memorySteps(*result_);
        for (const AlgorithmStep& step : memory)
            if (step.spill)
                spills.push_back(&step);
        QVERIFY(spills.size() >= 2);
        const auto decided = [](const SpillMark& mark, const Highlights& h) {
            return std::any_of(h.spillsSoFar.begin(), h.spillsSoFar.end(), [&](const SpillRef& r) {
                return r.buffer == mark.buffer.value() && r.task == mark.task &&
                       r.from == mark.from.value();
            });
        };
        for (const AlgorithmStep* step : {spills.front(), spills.back()}) {
            steps.set(step->highlights);
            // Only spills decided so far are marked; the step's own is the current mark,
            // in the plot of the memory it leaves, on a core that holds it.
            for (OccupancyPlot* plot : {lb, gb})
                for (const SpillMark& mark : plot->marks())
                    QVERIFY(decided(mark, step->highlights));
            OccupancyPlot* own = step->spill->from == schedule::Scope::LB ? lb : gb;
            QVERIFY(own->currentMark() >= 0);
            const SpillMark& current = own->marks()[static_cast<size_t>(own->currentMark())];
            QCOMPARE(current.buffer, step->spill->buffer);
            QCOMPARE(current.task, step->spill->task);
            // Its time is on screen.
            const TimeAxis& axis = own->timeAxisModel()->axis();
            QVERIFY(current.time >= axis.startNs &&
                    current.time <= axis.endNs(own->plotRect().width()));
        }
        QVERIFY(gb->marks().size() <= allGb);
        // A liveness step before any spill: nothing is marked yet.
        steps.set(memory.front().highlights);
        if (memory.front().highlights.spillsSoFar.empty()) {
            QVERIFY(lb->marks().empty());
            QVERIFY(gb->marks().empty());
        }
        // Off the step-through, every spill again.
        steps.clear();
        QCOMPARE(gb->marks().size(), allGb);
        QCOMPARE(lb->currentMark(), -1);
    }

    void rendersWithoutAResult() {
        for (ResultPtr result : {ResultPtr{}, result_, ResultPtr{}}) {
            occupancy_->setResult(result);
            overlap_->setResult(result);
            QVERIFY(!occupancy_->grab().isNull());
            QVERIFY(!overlap_->grab().isNull());
        }
        OccupancyView standalone;
        OverlapView standaloneOverlap;
        standalone.resize(400, 300);
        standaloneOverlap.resize(400, 300);
        QVERIFY(!standalone.grab().isNull());
        QVERIFY(!standaloneOverlap.grab().isNull());
        QVERIFY(occupancy_->lbPlot()->toolTipAt(QPoint(300, 100)).isEmpty());
    }

    void resnetPaintsPerPixelNotPerTensor() {
        const ResultPtr resnet = test::usageResult("resnet50", 16, "stcp920");
        QElapsedTimer timer;
        timer.start();
        occupancy_->setResult(resnet);
        overlap_->setResult(resnet);
        const qint64 setMs = timer.restart();
        occupancy_->grab();
        overlap_->grab();
        const qint64 paintMs = timer.elapsed();
        snapshot(*occupancy_, QStringLiteral("resnet50-occupancy"));
        snapshot(*overlap_, QStringLiteral("resnet50-overlap"));
        const OccupancyPlot* lb = occupancy_->lbPlot();
        const OccupancyPlot* gb = occupancy_->gbPlot();
        const size_t residencies = resnet->eval.sim.residencies.size();
        qInfo("resnet50 b16: %zu residencies, LB %zu rects -> %d painted, GB %zu -> %d painted, "
              "%zu spill marks (%d labelled); set %lld ms, paint %lld ms",
              residencies, lb->usage().rects.size(), lb->lastPaintedRects(),
              gb->usage().rects.size(), gb->lastPaintedRects(),
              lb->marks().size() + gb->marks().size(),
              lb->lastPaintedLabels() + gb->lastPaintedLabels(), static_cast<long long>(setMs),
              static_cast<long long>(paintMs));
        QVERIFY(residencies > 500); // 553 since the LB level's re-read rule (decisions.md)
        QVERIFY(lb->lastPaintedRects() > 0);
        QVERIFY(lb->lastPaintedRects() <= static_cast<int>(lb->usage().rects.size()));
        QVERIFY(lb->lastPaintedRects() < static_cast<int>(lb->usage().rects.size()) ||
                lb->usage().rects.size() < static_cast<size_t>(lb->plotRect().width()));
        // Zoomed in to a tenth of the run, rectangles outside the view are skipped.
        TimeAxis tenth = axis_.axis();
        tenth.fit(0, resnet->eval.sim.makespanNs / 10, lb->plotRect().width());
        axis_.setAxis(tenth, lb->plotRect().width());
        occupancy_->grab();
        int visible = 0;
        for (const OccupancyRect& r : lb->usage().rects)
            visible += r.start < resnet->eval.sim.makespanNs / 10 ? 1 : 0;
        QVERIFY(lb->lastPaintedRects() <= visible);
    }

private:
    ResultPtr result_;
    SelectionModel selection_;
    TimeAxisModel axis_;
    std::unique_ptr<OccupancyView> occupancy_;
    std::unique_ptr<OverlapView> overlap_;
};

QTEST_MAIN(TestUsageViews)
#include "test_usage_views.moc"
