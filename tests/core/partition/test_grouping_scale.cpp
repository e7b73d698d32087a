// Algorithm 2 on wide graphs (GraphTurbo §3.2, docs/decisions.md): an exit
// with many branches takes them in batches, so a Concat of n Relus costs a
// few merge attempts, not n passes, and the groups it ends with are a valid
// partition whose merges replay from single ops.

#include "arch/presets.h"
#include "partition/grouping.h"
#include "partition/split_info.h"
#include "random_graphs.h"

#include <gtest/gtest.h>
#include <set>

using namespace stagecraft;
using namespace stagecraft::partition;

namespace {

struct Grouped {
    GroupingResult result;
    Trace trace;
};

Grouped groupOn(const ir::Graph& graph, const char* preset) {
    auto arch = arch::loadPreset(preset);
    EXPECT_TRUE(arch.ok());
    auto semantics = SemanticsCache::build(graph);
    EXPECT_TRUE(semantics.ok());
    Grouped g;
    auto result = groupGraphTurbo(graph, *semantics, splitParamsFor(*arch), &g.trace);
    EXPECT_TRUE(result.ok()) << result.error().message();
    g.result = std::move(result).value();
    return g;
}

} // namespace

TEST(TestGroupingScale, aWideExitTakesItsBranchesInBatches) {
    const int ops = 2001;
    ir::Graph graph = test::wideConcatGraph(ops);
    Grouped g = groupOn(graph, "stcp920");
    size_t branchSteps = 0, mergedOps = 0;
    for (const MergeStep& m : g.trace.merges)
        if (m.pattern == "branch") {
            ++branchSteps;
            if (m.merged)
                mergedOps += m.parts.size() - 1;
        }
    // One merge per pass would record 2,000 steps; batches need O(log^2 n).
    EXPECT_LT(branchSteps, 150u);
    EXPECT_GT(mergedOps, 1000u) << "most branches join the Concat";
    // Every op in exactly one group.
    std::set<ir::OpId> seen;
    for (GroupId group : g.result.partition.groupIds())
        for (ir::OpId op : g.result.partition.ops(group))
            EXPECT_TRUE(seen.insert(op).second);
    EXPECT_EQ(seen.size(), graph.opCount());
}

TEST(TestGroupingScale, aBatchRecordsItsRuleForEveryBranch) {
    Grouped g = groupOn(test::wideConcatGraph(257), "stcp920");
    bool batch = false;
    for (const MergeStep& m : g.trace.merges) {
        if (m.pattern != "branch" || m.parts.size() <= 2)
            continue;
        batch = true;
        ASSERT_EQ(m.factors.size(), m.parts.size());
        ASSERT_EQ(m.partSizes.size(), m.parts.size());
        if (!m.merged)
            continue;
        // Rule (i) for each branch in turn: no branch above the merged
        // factor, and that not above the exit's.
        int64_t exit = m.factors.back();
        for (size_t i = 0; i + 1 < m.factors.size(); ++i)
            EXPECT_LE(m.factors[i], m.mergedFactor);
        EXPECT_LE(m.mergedFactor, exit);
    }
    EXPECT_TRUE(batch) << "a Concat of 256 Relus merges in batches";
}

TEST(TestGroupingScale, aFibonacciDagAndAChainBecomeOneGroup) {
    for (ir::Graph graph : {test::fibonacciAddGraph(3000), test::chainGraph(3000)}) {
        Grouped g = groupOn(graph, "stcp920");
        EXPECT_EQ(g.result.partition.groupCount(), 1u);
    }
}
