// The overlap view's data against brute force over the simulator's events
// and against the report: busy units per kind at sampled times, whole-run
// utilization per kind, per-group utilization, and the per-column maxima the
// chart paints.

#include "usage/overlap_data.h"
#include "usage/usage_lod.h"
#include "usage_fixture.h"

#include <QtTest>

#include <map>

using namespace stagecraft;
using namespace stagecraft::views;

namespace {

/// Units of \p kind busy at \p time, counted over every compute event.
int32_t bruteForceBusy(const PipelineResult& result, const std::string& kind, double time) {
    int32_t busy = 0;
    for (const sim::Event& e : result.eval.sim.events) {
        const kernel::Task& task = result.eval.tasks.tasks[e.task];
        if (task.kind == kernel::TaskKind::Compute && e.start <= time && time < e.end &&
            unitKindOf(result.arch, task.unit) == kind)
            busy += task.unit == kernel::kFallbackUnit ? 1 : task.cores;
    }
    return busy;
}

std::vector<double> eventTimes(const PipelineResult& result) {
    std::vector<double> times;
    for (const sim::Event& e : result.eval.sim.events) {
        times.push_back(e.start);
        times.push_back((e.start + e.end) / 2);
        times.push_back(e.end);
    }
    return times;
}

/// report.cuUtilization (per unit, by name) averaged by kind.
std::map<std::string, double> reportByKind(const PipelineResult& result) {
    std::map<std::string, std::pair<double, int>> sums;
    const auto& units = result.arch.cluster.coreGroups.front().units;
    for (const auto& [name, value] : result.eval.report.cuUtilization) {
        std::string kind = "fallback";
        for (const arch::ComputeUnit& u : units)
            if (u.name == name)
                kind = std::string(arch::unitKindName(u.kind));
        sums[kind].first += value;
        sums[kind].second += 1;
    }
    std::map<std::string, double> means;
    for (const auto& [kind, sum] : sums)
        means[kind] = sum.first / sum.second;
    return means;
}

} // namespace

class TestOverlapData : public QObject {
    Q_OBJECT
private slots:
    void busyCountsMatchEvents_data() { test::addResultRows(); }
    void busyCountsMatchEvents() {
        const ResultPtr result = test::rowResult();
        const OverlapData data = overlapData(*result);
        QVERIFY(!data.kinds.empty());
        std::vector<double> times = eventTimes(*result);
        // A few thousand samples are plenty and keep the brute force quick.
        const size_t stride = std::max<size_t>(1, times.size() / 3000);
        int32_t highest = 0;
        for (const UnitKindUsage& usage : data.kinds) {
            for (size_t i = 0; i < times.size(); i += stride) {
                const int32_t busy = busyAt(usage.busy, times[i]);
                QCOMPARE(busy, bruteForceBusy(*result, usage.kind, times[i]));
                QVERIFY(busy <= usage.units);
                highest = std::max(highest, busy);
            }
        }
        QVERIFY(highest > 0);
    }

    void utilizationAgreesWithReport_data() { test::addResultRows(); }
    void utilizationAgreesWithReport() {
        const ResultPtr result = test::rowResult();
        const OverlapData data = overlapData(*result);
        const auto expected = reportByKind(*result);
        QCOMPARE(data.kinds.size(), expected.size());
        for (const UnitKindUsage& usage : data.kinds) {
            QVERIFY2(expected.count(usage.kind), usage.kind.c_str());
            QVERIFY(qAbs(usage.utilization - expected.at(usage.kind)) < 1e-9);
            qInfo("%s: %d units, %.1f%% busy", usage.kind.c_str(), usage.units,
                  usage.utilization * 100);
        }
    }

    void groupUtilizationIsBusyTimeOverSpan_data() { test::addResultRows(); }
    void groupUtilizationIsBusyTimeOverSpan() {
        const ResultPtr result = test::rowResult();
        const OverlapData data = overlapData(*result);
        const auto& schedule = result->eval.schedule;
        size_t groupsWithKernels = 0;
        for (partition::GroupId g : schedule.groups.ids())
            for (const kernel::Kernel& k : result->eval.program.kernels)
                if (schedule.instances[k.instance].group == g) {
                    ++groupsWithKernels;
                    break;
                }
        QCOMPARE(data.groups.size(), groupsWithKernels);
        // Sum of busy time over groups = whole-run busy time, per kind.
        for (size_t k = 0; k < data.kinds.size(); ++k) {
            double groupsBusy = 0;
            for (const GroupUtilization& g : data.groups) {
                QVERIFY(g.end >= g.start);
                QVERIFY(g.utilization[k] >= 0 && g.utilization[k] <= 1 + 1e-9);
                groupsBusy += g.utilization[k] * data.kinds[k].units * (g.end - g.start);
            }
            const double runBusy =
                data.kinds[k].utilization * data.kinds[k].units * data.makespanNs;
            QVERIFY(qAbs(groupsBusy - runBusy) <= 1e-6 * std::max(1.0, runBusy));
        }
    }

    void columnMaximaAreTheHighestInEachColumn() {
        const ResultPtr result = test::usageResult("fig3-chain", 0, "teaching");
        const OverlapData data = overlapData(*result);
        TimeAxis axis;
        const int width = 300;
        axis.fit(0, data.makespanNs, width);
        for (const UnitKindUsage& usage : data.kinds) {
            const std::vector<int32_t> maxima = columnMaxima(usage.busy, axis, width);
            QCOMPARE(static_cast<int>(maxima.size()), width);
            for (int c = 0; c < width; ++c) {
                int32_t highest = busyAt(usage.busy, axis.toTime(c));
                for (const BusyPoint& p : usage.busy)
                    if (p.time >= axis.toTime(c) && p.time < axis.toTime(c + 1))
                        highest = std::max(highest, p.busy);
                QCOMPARE(maxima[static_cast<size_t>(c)], highest);
            }
        }
    }

    void columnAveragesIntegrateToTheBusyTime() {
        const ResultPtr result = test::usageResult("resnet50", 1, "stcp920");
        const OverlapData data = overlapData(*result);
        TimeAxis axis;
        const int width = 700;
        axis.fit(0, data.makespanNs, width);
        for (const UnitKindUsage& usage : data.kinds) {
            const std::vector<double> means = columnAverages(usage.busy, axis, width);
            const std::vector<int32_t> maxima = columnMaxima(usage.busy, axis, width);
            double busyTime = 0;
            for (int c = 0; c < width; ++c) {
                busyTime += means[static_cast<size_t>(c)] * axis.nsPerPixel;
                QVERIFY(means[static_cast<size_t>(c)] <= maxima[static_cast<size_t>(c)] + 1e-9);
            }
            const double expected = usage.utilization * usage.units * data.makespanNs;
            QVERIFY2(qAbs(busyTime - expected) <= 1e-6 * std::max(1.0, expected),
                     usage.kind.c_str());
        }
    }

    void emptyResultHasNoKinds() {
        const PipelineResult empty;
        const OverlapData data = overlapData(empty);
        QVERIFY(data.kinds.empty());
        QVERIFY(data.groups.empty());
    }
};

QTEST_GUILESS_MAIN(TestOverlapData)
#include "test_overlap_data.moc"
