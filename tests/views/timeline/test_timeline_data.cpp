// The timeline data on real results: a bar per simulated event on the lane
// of its resource slot, no overlap on a lane, each bar's instance as the
// program and schedule say, and range queries and hit tests equal to brute
// force (also on a synthetic lane with overlapping bars).

#include "timeline/timeline_data.h"
#include "timeline/timeline_range.h"
#include "timeline_fixture.h"

#include <QtTest>

#include <algorithm>
#include <random>
#include <set>

using namespace stagecraft;
using namespace stagecraft::views;
using namespace Qt::StringLiterals;

namespace {

ResultPtr resultOfRow() {
    QFETCH_GLOBAL(QString, zoo);
    QFETCH_GLOBAL(int, batch);
    QFETCH_GLOBAL(QString, arch);
    return test::timelineResult(zoo.toStdString(), batch, arch.toStdString());
}

std::vector<size_t> bruteForce(const TimelineLane& lane, double t0, double t1) {
    std::vector<size_t> found;
    for (size_t i = 0; i < lane.bars.size(); ++i)
        if (lane.bars[i].start <= t1 && lane.bars[i].end >= t0)
            found.push_back(i);
    return found;
}

/// A lane whose bars overlap (not simulated; exercises the running maximum).
TimelineData overlappingTimeline() {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> start(0, 1000);
    std::exponential_distribution<double> length(0.05);
    TimelineLane lane{"synthetic", LaneKind::Unit, -1, 0, {}};
    for (int i = 0; i < 500; ++i) {
        TimelineBar bar;
        bar.start = start(random);
        bar.end = bar.start + length(random);
        bar.task = kernel::TaskId(i);
        lane.bars.push_back(bar);
    }
    return TimelineData({lane}, 1200);
}

} // namespace

class TestTimelineData : public QObject {
    Q_OBJECT
private slots:
    void initTestCase_data() {
        QTest::addColumn<QString>("zoo");
        QTest::addColumn<int>("batch");
        QTest::addColumn<QString>("arch");
        QTest::newRow("fig3-chain/teaching") << u"fig3-chain"_qs << 0 << u"teaching"_qs;
        QTest::newRow("resnet50 b1/stcp920") << u"resnet50"_qs << 1 << u"stcp920"_qs;
    }

    void aBarPerEventOnItsSlot() {
        const ResultPtr result = resultOfRow();
        const sim::SimResult& sim = result->eval.sim;
        const TimelineData data = TimelineData::fromResult(*result);
        QCOMPARE(data.barCount(), sim.events.size());
        QVERIFY(data.barCount() > 0);
        IdVector<kernel::TaskId, int> seen(sim.events.size(), 0);
        for (const TimelineLane& lane : data.lanes()) {
            for (const TimelineBar& bar : lane.bars) {
                const sim::Event& event = sim.events[bar.task];
                QCOMPARE(event.resource, lane.resource);
                QCOMPARE(event.slot, lane.slot);
                QCOMPARE(bar.start, event.start);
                QCOMPARE(bar.end, event.end);
                ++seen[bar.task];
            }
        }
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
        QCOMPARE(data.makespanNs(), sim.makespanNs);
    }

    void lanesAreSlotsInKindOrder() {
        const ResultPtr result = resultOfRow();
        const TimelineData data = TimelineData::fromResult(*result);
        int slotCount = 0;
        for (const sim::Resource& resource : result->eval.sim.resources)
            slotCount += resource.slotCount;
        QCOMPARE(data.laneCount(), slotCount);
        for (int32_t lane = 1; lane < data.laneCount(); ++lane)
            QVERIFY(data.lane(lane - 1).kind <= data.lane(lane).kind);
        QCOMPARE(data.lane(0).kind, LaneKind::Control);
        QCOMPARE(data.lane(data.laneCount() - 1).kind, LaneKind::Channel);
        std::set<std::string> names;
        for (const TimelineLane& lane : data.lanes())
            names.insert(lane.name);
        QCOMPARE(names.size(), data.lanes().size()); // readable and distinct
    }

    void barsOnALaneNeverOverlap() {
        const TimelineData data = TimelineData::fromResult(*resultOfRow());
        for (const TimelineLane& lane : data.lanes())
            for (size_t i = 1; i < lane.bars.size(); ++i)
                QVERIFY2(lane.bars[i - 1].end <= lane.bars[i].start + 1e-9, lane.name.c_str());
    }

    void barInstanceIsTheKernelsInstance() {
        const ResultPtr result = resultOfRow();
        const sim::Evaluation& eval = result->eval;
        const TimelineData data = TimelineData::fromResult(*result);
        for (const TimelineLane& lane : data.lanes()) {
            for (const TimelineBar& bar : lane.bars) {
                const kernel::Task& task = eval.tasks.tasks[bar.task];
                QCOMPARE(bar.kind, task.kind);
                QVERIFY(task.kernel >= 0);
                // Kernels follow the instance order, one per instance.
                const auto kernel = static_cast<size_t>(task.kernel);
                QCOMPARE(bar.instance, eval.schedule.order[kernel]);
                QCOMPARE(bar.instance, eval.program.kernels[kernel].instance);
                const auto& instance = eval.schedule.instances[bar.instance];
                QCOMPARE(bar.group, instance.group);
                QCOMPARE(bar.op, task.op.value());
            }
        }
    }

    void rangeQueryEqualsBruteForce_data() {
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("to");
        QTest::newRow("whole run") << 0.0 << 1.0;
        QTest::newRow("first tenth") << 0.0 << 0.1;
        QTest::newRow("middle") << 0.42 << 0.58;
        QTest::newRow("one instant") << 0.5 << 0.5;
        QTest::newRow("before the run") << -0.5 << -0.1;
        QTest::newRow("after the run") << 1.1 << 1.5;
        QTest::newRow("across the end") << 0.97 << 1.3;
    }
    void rangeQueryEqualsBruteForce() {
        QFETCH(double, from);
        QFETCH(double, to);
        const TimelineData data = TimelineData::fromResult(*resultOfRow());
        const double t0 = from * data.makespanNs();
        const double t1 = to * data.makespanNs();
        for (int32_t lane = 0; lane < data.laneCount(); ++lane)
            QCOMPARE(data.intersecting(lane, t0, t1), bruteForce(data.lane(lane), t0, t1));
        const TimelineData overlapping = overlappingTimeline();
        QCOMPARE(overlapping.intersecting(0, t0 / data.makespanNs() * 1000,
                                          t1 / data.makespanNs() * 1000),
                 bruteForce(overlapping.lane(0), t0 / data.makespanNs() * 1000,
                            t1 / data.makespanNs() * 1000));
    }

    void hitTestFindsTheBarUnderATime() {
        const TimelineData data = TimelineData::fromResult(*resultOfRow());
        for (int32_t lane = 0; lane < data.laneCount(); ++lane) {
            const auto& bars = data.lane(lane).bars;
            for (size_t i = 0; i < bars.size(); i += std::max<size_t>(1, bars.size() / 50)) {
                if (bars[i].duration() <= 0)
                    continue;
                const auto hit = data.hitTest(lane, (bars[i].start + bars[i].end) / 2);
                QVERIFY(hit.has_value());
                QCOMPARE(*hit, (BarRef{lane, static_cast<int32_t>(i)}));
            }
            QVERIFY(!data.hitTest(lane, data.makespanNs() * 2).has_value());
            QVERIFY(!data.hitTest(lane, -1).has_value());
        }
        QVERIFY(!data.hitTest(-1, 0).has_value());
        QVERIFY(!data.hitTest(data.laneCount(), 0).has_value());
    }

    void aRangeSumsBusyTimeAndProratedBytes() {
        TimelineLane unit{"unit", LaneKind::Unit, 0, 0, {}};
        TimelineLane channel{"dma", LaneKind::Channel, 1, 0, {}};
        TimelineLane core{"core 0 unit", LaneKind::Unit, 0, 0, {}, 0};
        const auto bar = [](double start, double end, int64_t bytes) {
            TimelineBar b;
            b.start = start;
            b.end = end;
            b.bytes = bytes;
            return b;
        };
        unit.bars = {bar(0, 10, 0), bar(20, 30, 0), bar(40, 50, 0)};
        core.bars = unit.bars; // a core's lane repeats its unit's bars
        channel.bars = {bar(5, 15, 100)};
        const TimelineData data({unit, core, channel}, 60);
        const RangeSummary s = summarizeRange(data, 22, 8);
        QCOMPARE(s.startNs, 8.0);
        QCOMPARE(s.endNs, 22.0);
        QCOMPARE(s.tasks, size_t(3));
        QCOMPARE(s.computeNs, 4.0); // 8-10 and 20-22
        QCOMPARE(s.computeLanes, 1);
        QCOMPARE(s.dmaNs, 7.0); // 8-15
        QCOMPARE(s.dmaBytes, int64_t(70));
        QVERIFY(rangeText(s).contains(u"3 tasks"_s));
        const RangeSummary none = summarizeRange(data, 31, 39);
        QCOMPARE(none.tasks, size_t(0));
        QCOMPARE(none.computeNs, 0.0);
    }

    void hitTestToleranceReachesThinBars() {
        TimelineLane lane{"thin", LaneKind::Unit, -1, 0, {}};
        lane.bars.push_back({100, 100.5, kernel::TaskId(0), kernel::TaskKind::Compute,
                             schedule::InstanceId(0), partition::GroupId(0), -1, 0});
        lane.bars.push_back({300, 301, kernel::TaskId(1), kernel::TaskKind::Compute,
                             schedule::InstanceId(1), partition::GroupId(0), -1, 0});
        const TimelineData data({lane}, 400);
        QVERIFY(!data.hitTest(0, 103).has_value());
        QCOMPARE(data.hitTest(0, 103, 5), (BarRef{0, 0}));
        QCOMPARE(data.hitTest(0, 298, 5), (BarRef{0, 1}));
        QVERIFY(!data.hitTest(0, 200, 5).has_value());
    }
};

QTEST_GUILESS_MAIN(TestTimelineData)
#include "test_timeline_data.moc"
