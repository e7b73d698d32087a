// The occupancy view's data against the simulator and the allocator: the
// rectangles add up to the simulated occupancy and stay under capacity, never
// overlap in time x address, and the spill marks are the program's spills.

#include "usage/occupancy_data.h"
#include "usage/occupancy_labels.h"
#include "usage/spill_marks.h"
#include "usage_fixture.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

using namespace stagecraft;
using namespace stagecraft::views;

namespace {

/// Every memory the simulator tracks, as the view's data.
std::vector<MemoryUsage> allMemories(const PipelineResult& result) {
    std::vector<MemoryUsage> memories;
    for (int32_t c = 0; c < lbCoreCount(result); ++c)
        memories.push_back(lbUsage(result, c));
    memories.push_back(gbUsage(result));
    return memories;
}

const sim::Occupancy* simSeries(const PipelineResult& result, const MemoryUsage& usage) {
    for (const sim::Occupancy& occ : result.eval.sim.occupancy)
        if (occ.memory == usage.memory && occ.core == usage.core)
            return &occ;
    return nullptr;
}

/// Sample times: every step of the series and the midpoints between them.
std::vector<double> sampleTimes(const sim::Occupancy& occ) {
    std::vector<double> times;
    for (size_t i = 0; i < occ.points.size(); ++i) {
        times.push_back(occ.points[i].time);
        if (i + 1 < occ.points.size())
            times.push_back((occ.points[i].time + occ.points[i + 1].time) / 2);
    }
    return times;
}

int64_t simBytesAt(const sim::Occupancy& occ, double time) {
    int64_t bytes = 0;
    for (const sim::OccupancyPoint& p : occ.points)
        if (p.time <= time)
            bytes = p.bytes;
    return bytes;
}

} // namespace

class TestOccupancyData : public QObject {
    Q_OBJECT
private slots:
    void stacksAddUpToSimulatedOccupancy_data() { test::addResultRows(); }
    void stacksAddUpToSimulatedOccupancy() {
        const ResultPtr result = test::rowResult();
        const auto memories = allMemories(*result);
        QVERIFY(memories.size() >= 2);
        for (const MemoryUsage& usage : memories) {
            const sim::Occupancy* occ = simSeries(*result, usage);
            QVERIFY2(occ, usage.memory.c_str());
            QCOMPARE(usage.capacityBytes, occ->capacityBytes);
            QCOMPARE(usage.total.size(), occ->points.size());
            for (const double t : sampleTimes(*occ)) {
                const int64_t stacked = residentBytesAt(usage, t);
                QCOMPARE(stacked, simBytesAt(*occ, t));
                QCOMPARE(bytesAt(usage.total, t), stacked);
                QVERIFY(stacked <= usage.capacityBytes);
            }
        }
        QVERIFY(!memories.front().rects.empty());
    }

    void rectanglesNeverOverlap_data() { test::addResultRows(); }
    void rectanglesNeverOverlap() {
        const ResultPtr result = test::rowResult();
        for (const MemoryUsage& usage : allMemories(*result)) {
            const auto& rects = usage.rects;
            for (size_t i = 0; i < rects.size(); ++i) {
                QVERIFY(rects[i].offset + rects[i].bytes <= usage.capacityBytes);
                // Sorted by start: only later rectangles starting before i ends can meet it.
                for (size_t j = i + 1; j < rects.size() && rects[j].start < rects[i].end; ++j) {
                    const bool timeOverlap = rects[j].end > rects[i].start &&
                                             rects[j].start < rects[j].end &&
                                             rects[i].start < rects[i].end;
                    const bool addressOverlap =
                        rects[j].offset < rects[i].offset + rects[i].bytes &&
                        rects[i].offset < rects[j].offset + rects[j].bytes;
                    QVERIFY2(!(timeOverlap && addressOverlap),
                             qPrintable(QStringLiteral("%1 and %2 in %3")
                                            .arg(QString::fromStdString(rects[i].tensorName),
                                                 QString::fromStdString(rects[j].tensorName),
                                                 QString::fromStdString(usage.memory))));
                }
            }
        }
    }

    void rectanglesNameTheirTensorAndGroup() {
        const ResultPtr result = test::usageResult("fig3-chain", 0, "teaching");
        const MemoryUsage usage = lbUsage(*result, 0);
        for (const OccupancyRect& r : usage.rects) {
            const kernel::Buffer& buffer = result->eval.program.buffers[r.buffer];
            QCOMPARE(r.tensorName, result->graph->tensor(buffer.tensor).name);
            const ir::OpId producer = result->graph->tensor(buffer.tensor).producer;
            QCOMPARE(r.group, result->eval.schedule.partition.groupOf(producer));
        }
    }

    void labelsNameTheLevelAndWhereSpillsWent() {
        // STCP920's L1 and LLB are the paper's LB and GB: a plot says both,
        // and an LB's capacity leaves the weight reserve out, said so.
        const ResultPtr result = test::usageResult("resnet50", 1, "stcp920");
        const MemoryUsage lb = lbUsage(*result, 0);
        QCOMPARE(memoryTitle(lb), QStringLiteral("LB (L1), core 0"));
        QCOMPARE(memoryTitle(gbUsage(*result)), QStringLiteral("GB (LLB), cluster"));
        QCOMPARE(lb.capacityBytes + lb.reservedBytes, int64_t{65536});
        const std::vector<SpillMark> all = spillMarks(*result);
        std::vector<SpillMark> fromLb;
        for (const SpillMark& mark : all)
            if (mark.from == kernel::kLbPool)
                fromLb.push_back(mark);
        QVERIFY(!fromLb.empty());
        const QString summary = memorySummary(lb, 1000, fromLb);
        QVERIFY2(summary.startsWith(QStringLiteral("capacity 56 KiB\n(+ 8 KiB for weights)")),
                 qPrintable(summary));
        const auto toDdr = std::count_if(fromLb.begin(), fromLb.end(), [](const SpillMark& m) {
            return m.to == kernel::kDdrPool;
        });
        const auto toGb = static_cast<int64_t>(fromLb.size()) - toDdr;
        const QString spills = toDdr == 0  ? QStringLiteral("\n%1 spills to GB\n").arg(toGb)
                               : toGb == 0 ? QStringLiteral("\n%1 spills to DDR\n").arg(toDdr)
                                           : QStringLiteral("\n%1 spill%2 to GB\n%3 to DDR\n")
                                                 .arg(toGb)
                                                 .arg(toGb == 1 ? QString() : QStringLiteral("s"))
                                                 .arg(toDdr);
        QVERIFY2(summary.contains(spills), qPrintable(summary));
        // Spills by destination: to GB, to DDR, or both counted apart.
        std::vector<SpillMark> mixed(fromLb.begin(), fromLb.begin() + 1);
        mixed.front().to = kernel::kGbPool;
        mixed.push_back(fromLb.front());
        mixed.back().to = kernel::kDdrPool;
        QVERIFY2(
            memorySummary(lb, 0, mixed).contains(QStringLiteral("\n1 spill to GB\n1 to DDR\n")),
            qPrintable(memorySummary(lb, 0, mixed)));
        QVERIFY(memorySummary(lb, 0, {}).contains(QStringLiteral("\nno spills\n")));
    }

    void laterCoresHoldFewerPieces() {
        const ResultPtr result = test::usageResult("fig3-chain", 0, "teaching");
        const int32_t cores = lbCoreCount(*result);
        QVERIFY(cores > 1);
        for (int32_t c = 1; c < cores; ++c)
            QVERIFY(lbUsage(*result, c).rects.size() <= lbUsage(*result, c - 1).rects.size());
    }

    void coreFilterFollowsResidencyCores() {
        // Every zoo run binds its buffers over all cores; narrow some pieces
        // to core 0 to see that the later cores' LBs leave them out.
        PipelineResult narrowed = *test::usageResult("fig3-chain", 0, "teaching");
        std::set<int32_t> onCore0Only;
        auto& residencies = narrowed.eval.sim.residencies;
        for (size_t i = 0; i < residencies.size(); i += 2)
            if (residencies[i].pool == kernel::kLbPool && residencies[i].bytes > 0) {
                residencies[i].cores = 1;
                onCore0Only.insert(static_cast<int32_t>(i));
            }
        QVERIFY(!onCore0Only.empty());
        const MemoryUsage core0 = lbUsage(narrowed, 0);
        const MemoryUsage core1 = lbUsage(narrowed, 1);
        QCOMPARE(core1.rects.size() + onCore0Only.size(), core0.rects.size());
        for (const OccupancyRect& r : core1.rects)
            QVERIFY(!onCore0Only.count(r.residency));
    }

    void spillMarksAreTheProgramsSpills_data() { test::addResultRows(); }
    void spillMarksAreTheProgramsSpills() {
        const ResultPtr result = test::rowResult();
        const kernel::Program& program = result->eval.program;
        // From the allocation passes: each request whose placements leave its pool.
        // (A tensor spilled LB→GB→DDR at once is one move of the buffer but
        // a spill in each pass, so buffers compare as sets, levels as counts.)
        std::set<kernel::BufferId> expectedBuffers;
        int64_t expectedLevels = 0;
        for (const kernel::AllocationPass* pass : {&program.lb, &program.gb}) {
            for (kernel::RequestId r : pass->requests.ids()) {
                kernel::PoolId pool = pass->requests[r].pool;
                for (const kernel::Placement& p : pass->allocation.tensors[r].placements) {
                    if (p.pool > pool) {
                        expectedLevels += p.pool.value() - pool.value();
                        expectedBuffers.insert(pass->buffers[r]);
                    }
                    pool = p.pool;
                }
            }
        }
        QCOMPARE(expectedLevels, result->eval.report.spills);
        const std::vector<SpillMark> marks = spillMarks(*result);
        int64_t levels = 0;
        std::set<kernel::BufferId> buffers;
        for (const SpillMark& m : marks) {
            levels += m.to.value() - m.from.value();
            buffers.insert(m.buffer);
            QCOMPARE(m.tensor, program.buffers[m.buffer].tensor);
            QVERIFY(m.time >= 0 && m.time <= result->eval.sim.makespanNs);
        }
        QCOMPARE(levels, expectedLevels);
        QVERIFY(buffers == expectedBuffers);
        qInfo("%zu spill marks, %lld levels", marks.size(), static_cast<long long>(levels));
    }

    void fig3ChainOnTeachingSpills() {
        const ResultPtr result = test::usageResult("fig3-chain", 0, "teaching");
        const std::vector<SpillMark> marks = spillMarks(*result);
        QVERIFY(!marks.empty());
        for (const SpillMark& m : marks) {
            const QString label = QString::fromStdString(spillLabel(m));
            QVERIFY(label.startsWith(QString::fromStdString(m.tensorName)));
            QVERIFY(label.endsWith(QStringLiteral("\u2192GB")) ||
                    label.endsWith(QStringLiteral("\u2192DDR")));
        }
    }
};

QTEST_GUILESS_MAIN(TestOccupancyData)
#include "test_occupancy_data.moc"
