// DLA sub-graph extraction (§3): Fig. 2's convex and non-convex sub-graphs,
// the post-prune's parts on a chain, a diamond, two entries and a fan-out,
// and on random DAGs with random unsupported ops: every extracted sub-graph
// connected, convex and maximal (merging two adjacent ones closes a cycle),
// every part with one input and one output operator, each checked here by
// reachability and Partition's cycle check rather than by the code's own
// helpers.

#include "coretestsupport.h"
#include "graph_ops.h"
#include "graph_paths.h"
#include "partition/dla_extraction.h"
#include "random_graphs.h"

#include <gtest/gtest.h>
#include <set>

using namespace stagecraft;
using partition::DlaExtraction;
using partition::GroupId;

namespace {

using test::connected;
using test::convex;
using test::Ops;
using test::reachability;
using Supported = IdVector<ir::OpId, char>;

ir::OpId op(int32_t id) {
    return ir::OpId(id);
}

DlaExtraction extract(const ir::Graph& g, const Supported& supported) {
    auto result = partition::extractDlaSubgraphs(g, supported);
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message());
    return result.ok() ? std::move(*result) : DlaExtraction{};
}

/// The ops of every group, by group.
std::vector<Ops> groupsOf(const partition::Partition& p) {
    std::vector<Ops> out;
    for (GroupId g : p.groupIds())
        out.emplace_back(p.ops(g).begin(), p.ops(g).end());
    return out;
}

/// Ops of \p ops reading a non-constant tensor from outside them (or a
/// graph input), and ops whose output leaves them.
std::pair<size_t, size_t> boundaryOps(const ir::Graph& g, const Ops& ops) {
    std::set<ir::OpId> in(ops.begin(), ops.end());
    size_t inputs = 0, outputs = 0;
    for (ir::OpId o : ops) {
        bool reads = false, leaves = false;
        for (ir::TensorId t : g.op(o).inputs)
            if (t != ir::kNoTensor && !g.tensor(t).isConstant() && !in.count(g.tensor(t).producer))
                reads = true;
        for (ir::TensorId t : g.op(o).outputs) {
            leaves = leaves || g.isGraphOutput(t);
            for (const ir::Use& use : g.tensor(t).uses)
                leaves = leaves || !in.count(use.op);
        }
        inputs += reads;
        outputs += leaves;
    }
    return {inputs, outputs};
}

} // namespace

TEST(TestDlaExtraction, aPathThroughAHostOpKeepsItsEndsApart) {
    // Fig. 2: a -> c and a -> b -> c with b on the host: {a, c} is not
    // convex, so a and c are two sub-graphs.
    ir::Graph g;
    test::graphops::Builder b(g);
    ir::TensorId x = b.input({4});
    ir::TensorId a = b.emit1("Relu", {x}, {4});
    ir::TensorId h = b.emit1("Relu", {a}, {4});
    b.emit1("Add", {a, h}, {4});
    b.finish();
    DlaExtraction split = extract(g, Supported{1, 0, 1});
    EXPECT_EQ(groupsOf(split.extracted), (std::vector<Ops>{{op(0)}, {op(1)}, {op(2)}}));
    // With b supported the three form one convex sub-graph.
    DlaExtraction whole = extract(g, Supported{1, 1, 1});
    EXPECT_EQ(groupsOf(whole.extracted), (std::vector<Ops>{{op(0), op(1), op(2)}}));
    EXPECT_EQ(groupsOf(whole.parts), (std::vector<Ops>{{op(0), op(1), op(2)}}));
    EXPECT_EQ(whole.onAccelerator.values(), (std::vector<char>{1}));
}

TEST(TestDlaExtraction, aChainAndADiamondAreOnePartEach) {
    ir::Graph g;
    test::graphops::Builder b(g);
    ir::TensorId x = b.input({4});
    ir::TensorId a = b.emit1("Relu", {x}, {4});
    ir::TensorId left = b.emit1("Relu", {a}, {4});
    ir::TensorId right = b.emit1("Sigmoid", {a}, {4});
    ir::TensorId d = b.emit1("Add", {left, right}, {4});
    b.emit1("Relu", {d}, {4});
    b.finish();
    DlaExtraction e = extract(g, Supported(g.opCount(), 1));
    EXPECT_EQ(groupsOf(e.parts), (std::vector<Ops>{{op(0), op(1), op(2), op(3), op(4)}}));
    EXPECT_EQ(partition::inputOperators(g, groupsOf(e.parts)[0]), Ops{op(0)});
    EXPECT_EQ(partition::outputOperators(g, groupsOf(e.parts)[0]), Ops{op(4)});
}

TEST(TestDlaExtraction, twoEntriesOrTwoExitsArePrunedApart) {
    // Fig. 3: a fused sub-graph would wait for both inputs and hold both
    // outputs. Host ops h1, h2 feed a, b; a and b join in c.
    ir::Graph g;
    test::graphops::Builder b(g);
    ir::TensorId x = b.input({4});
    ir::TensorId h1 = b.emit1("Relu", {x}, {4});
    ir::TensorId h2 = b.emit1("Relu", {x}, {4});
    ir::TensorId a = b.emit1("Relu", {h1}, {4});
    ir::TensorId bb = b.emit1("Relu", {h2}, {4});
    b.emit1("Add", {a, bb}, {4});
    b.finish();
    DlaExtraction join = extract(g, Supported{0, 0, 1, 1, 1});
    EXPECT_EQ(groupsOf(join.extracted).back(), (Ops{op(2), op(3), op(4)}));
    EXPECT_EQ(groupsOf(join.parts).size(), size_t{5});

    // a feeds b and c, each read by a host op: the branch point ends a part.
    ir::Graph f;
    test::graphops::Builder fb(f);
    ir::TensorId y = fb.input({4});
    ir::TensorId fa = fb.emit1("Relu", {y}, {4});
    ir::TensorId fbr = fb.emit1("Relu", {fa}, {4});
    ir::TensorId fc = fb.emit1("Sigmoid", {fa}, {4});
    fb.emit1("Relu", {fbr}, {4});
    fb.emit1("Relu", {fc}, {4});
    fb.finish();
    DlaExtraction fan = extract(f, Supported{1, 1, 1, 0, 0});
    EXPECT_EQ(groupsOf(fan.extracted).front(), (Ops{op(0), op(1), op(2)}));
    EXPECT_EQ(groupsOf(fan.parts).size(), size_t{5});
    EXPECT_EQ(fan.onAccelerator.values(), (std::vector<char>{1, 1, 1, 0, 0}));
}

TEST(TestDlaExtraction, randomGraphsGiveMaximalConvexSubgraphsAndOneEntryOneExitParts) {
    int pruned = 0, adjacent = 0;
    for (uint64_t seed = 1; seed <= 400; ++seed) {
        test::GraphKind kind = test::graphKinds()[seed % test::graphKinds().size()];
        ir::Graph g = test::randomGraph(seed, {kind, 24});
        test::Rng rng(seed * 7919);
        Supported supported(g.opCount(), 0);
        for (ir::OpId o : g.opIds())
            supported[o] = rng.chance(75) ? 1 : 0;
        DlaExtraction e = extract(g, supported);
        ASSERT_FALSE(HasFailure()) << "seed " << seed;
        auto reach = reachability(g);
        std::vector<Ops> subgraphs = groupsOf(e.extracted);
        for (const Ops& ops : subgraphs) {
            std::set<ir::OpId> set(ops.begin(), ops.end());
            ASSERT_TRUE(ops.size() == 1 || supported[ops.front()]) << "seed " << seed;
            for (ir::OpId o : ops)
                ASSERT_EQ(supported[o], supported[ops.front()]) << "seed " << seed;
            ASSERT_TRUE(connected(g, ops)) << "seed " << seed;
            ASSERT_TRUE(convex(reach, set, g.opCount())) << "seed " << seed;
        }
        // Maximal: merging two adjacent supported sub-graphs closes a cycle.
        for (GroupId a : e.extracted.groupIds())
            for (GroupId c : e.extracted.consumers(a)) {
                if (!supported[e.extracted.ops(a).front()] ||
                    !supported[e.extracted.ops(c).front()])
                    continue;
                partition::Assignment merged = e.extracted.assignment();
                for (ir::OpId o : e.extracted.ops(c))
                    merged[o] = a;
                ASSERT_FALSE(partition::Partition::fromAssignment(g, merged).ok())
                    << "seed " << seed;
                ++adjacent;
            }
        for (GroupId p : e.parts.groupIds()) {
            Ops ops(e.parts.ops(p).begin(), e.parts.ops(p).end());
            GroupId home = e.extracted.groupOf(ops.front());
            for (ir::OpId o : ops)
                ASSERT_EQ(e.extracted.groupOf(o), home) << "seed " << seed;
            ASSERT_EQ(e.onAccelerator[p], supported[ops.front()]) << "seed " << seed;
            ASSERT_TRUE(connected(g, ops)) << "seed " << seed;
            auto [inputs, outputs] = boundaryOps(g, ops);
            ASSERT_LE(inputs, size_t{1}) << "seed " << seed;
            ASSERT_LE(outputs, size_t{1}) << "seed " << seed;
        }
        pruned += e.parts.groupCount() > e.extracted.groupCount();
        // Deterministic.
        ASSERT_EQ(extract(g, supported).parts.assignment(), e.parts.assignment());
    }
    // The prune and the maximality check are exercised, not vacuous.
    EXPECT_GT(pruned, 100);
    EXPECT_GT(adjacent, 20);
}
