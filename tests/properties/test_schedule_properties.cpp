// Property test of the scheduling pipeline (GraphTurbo §3) over seeded random
// graphs: chains, diamonds, branches, Split fans and mixes, each scheduled on
// the teaching, stcp920 and habana-goya presets with the best, BFS and DFS
// orders. Every run must succeed and satisfy every property of
// schedule_checks.h, and `best` must pick the BFS or the DFS order.
//
// Cost: Algorithm 2 (grouping) is most of a run and does not depend on the
// order, so per preset the best order runs through buildSchedule and BFS and
// DFS through reschedule() from it, which promises the same result as
// buildSchedule. Each row also runs buildSchedule once more for one
// (preset, order) pair, rotating with the seed over all nine, and compares
// it field by field with the first run: determinism and reschedule ==
// buildSchedule. Sizes: every fourth seed sweeps 1..60 ops, the others
// 1..24 (Algorithm 2 grows faster than linearly with the op count).
// A failing row names its seed: test::randomGraph(seed, {kind, ops})
// rebuilds the graph.

#include "arch/presets.h"
#include "coretestsupport.h"
#include "random_graphs.h"
#include "schedule_checks.h"
#include "suite_fixture.h"
#include "test_rows.h"

#include <array>
#include <gtest/gtest.h>

using namespace stagecraft;

namespace {

constexpr uint64_t kSeeds = 1020;

struct OrderCase {
    schedule::OrderChoice choice;
    const char* name;
};
constexpr std::array<OrderCase, 3> kOrders{{{schedule::OrderChoice::Best, "best"},
                                            {schedule::OrderChoice::BFS, "bfs"},
                                            {schedule::OrderChoice::DFS, "dfs"}}};

/// The smallest graphs (found by the sweep) where a property once failed:
/// a Split whose consumer reads one of its smaller outputs (the data move
/// must move that output), and an unsplit Split group reading a producer
/// split along the same dim (the Split reads all of it, so no producer
/// instance may be dropped as redundant).
std::vector<test::RandomGraphRow> smallCaseRows() {
    return {{"split-consumer-reads-smaller-output", 10, test::GraphKind::MultiOutput, 2},
            {"unsplit-split-reads-split-producer", 29, test::GraphKind::MultiOutput, 3}};
}

} // namespace

/// The three presets, loaded once for the whole program (the Qt suite's
/// initTestCase).
class TestScheduleProperties
    : public test::OnceSuite<TestScheduleProperties, test::SuiteDir::None> {
public:
    /// Loads the three presets (OnceSuite's setup).
    static void prepare() {
        for (const char* name : {"teaching", "stcp920", "habana-goya"}) {
            auto loaded = arch::loadPreset(name);
            ASSERT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message().c_str());
            archs_.push_back(std::move(*loaded));
        }
    }

protected:
    /// Schedules of one preset in kOrders order; fails the test on a violation.
    static std::vector<schedule::Schedule> scheduleAll(const ir::Graph& graph,
                                                       const arch::Arch& arch,
                                                       const partition::SemanticsCache& semantics,
                                                       bool& ok) {
        ok = false;
        std::vector<schedule::Schedule> result;
        for (const OrderCase& order : kOrders) {
            std::string where = arch.name + ", order " + order.name + ": ";
            schedule::ScheduleOptions options;
            options.order = order.choice;
            auto s = result.empty() ? schedule::buildSchedule(graph, arch, options)
                                    : schedule::reschedule(result.front(), graph, arch, options);
            if (!s.ok()) {
                ADD_FAILURE() << where + s.error().message();
                return result;
            }
            std::string problem = test::scheduleProblem(graph, arch, *s, &semantics,
                                                        result.empty() ? nullptr : &result.front());
            if (!problem.empty()) {
                ADD_FAILURE() << where + problem;
                return result;
            }
            result.push_back(std::move(*s));
        }
        ok = true;
        return result;
    }

    /// Every preset and order on the graph of \p row.
    static void checkRow(const test::RandomGraphRow& row) {
        uint64_t seed = row.seed;
        ir::Graph graph = test::randomGraph(seed, {row.kind, row.ops});
        auto semantics = partition::SemanticsCache::build(graph);
        ASSERT_TRUE(semantics.ok()) << (semantics.ok() ? "" : semantics.error().message().c_str());
        for (size_t a = 0; a < archs_.size(); ++a) {
            bool ok = false;
            std::vector<schedule::Schedule> runs = scheduleAll(graph, archs_[a], *semantics, ok);
            if (!ok)
                return;
            const schedule::Schedule& best = runs[0];
            ASSERT_EQ(runs[1].orderKind, schedule::OrderKind::BFS);
            ASSERT_EQ(runs[2].orderKind, schedule::OrderKind::DFS);
            ASSERT_TRUE(best.orderKind != schedule::OrderKind::User);
            ASSERT_EQ(best.order,
                      best.orderKind == schedule::OrderKind::BFS ? runs[1].order : runs[2].order);
            if (a != seed % archs_.size())
                continue;
            size_t k = (seed / archs_.size()) % kOrders.size();
            schedule::ScheduleOptions options;
            options.order = kOrders[k].choice;
            auto again = schedule::buildSchedule(graph, archs_[a], options);
            ASSERT_TRUE(again.ok());
            std::string difference = test::scheduleDifference(runs[k], *again);
            ASSERT_TRUE(difference.empty()) << (archs_[a].name + ", order " + kOrders[k].name +
                                                ": a second buildSchedule differs: " + difference);
        }
    }

    static inline std::vector<arch::Arch> archs_;
};

class SmallCaseRows : public TestScheduleProperties,
                      public ::testing::WithParamInterface<test::RandomGraphRow> {};

TEST_P(SmallCaseRows, smallCases) {
    checkRow(GetParam());
}

INSTANTIATE_TEST_SUITE_P(TestScheduleProperties, SmallCaseRows,
                         ::testing::ValuesIn(smallCaseRows()), test::RowName{});

class RandomGraphRows : public TestScheduleProperties,
                        public ::testing::WithParamInterface<test::RandomGraphRow> {};

TEST_P(RandomGraphRows, randomGraphs) {
    checkRow(GetParam());
}

INSTANTIATE_TEST_SUITE_P(TestScheduleProperties, RandomGraphRows,
                         ::testing::ValuesIn(test::randomGraphRows(kSeeds, 60)), test::RowName{});
