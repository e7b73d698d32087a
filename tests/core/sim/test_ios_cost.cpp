// IOS stage costs from the simulator's rates (sim/ios_cost.h), by hand on
// the hand architecture: 4 cores, a matrix unit of 16 f32 MACs per cycle at
// 1 GHz, launch 1000 ns, sync 50 ns. Conv a (3x3, 8 out of 4 channels,
// 8x8) is 18,432 MACs: 1152 ns on one core; conv b (1x1) 2,048 MACs: 128 ns.
// The stage moves x (1,024 B), both weights (1,152 + 128 B) and both
// outputs (2 x 2,048 B): 6,400 B.

#include "hand_cases.h"
#include "partition/ios_scheduler.h"
#include "sim/ios_cost.h"

using namespace stagecraft;
using namespace stagecraft::test::handcases;

namespace {

struct TwoConvsOfOneInput {
    ir::Graph graph;
    ir::OpId a, b, relu;
    TwoConvsOfOneInput() {
        Builder builder(graph);
        TensorId x = builder.input({1, 4, 8, 8});
        TensorId ya = conv(builder, x, 8, 3, 1, 1, 1, false);
        TensorId yb = conv(builder, x, 8, 1, 1, 0, 1, false);
        unary(builder, "Relu", binary(builder, "Add", ya, yb));
        builder.finish();
        a = graph.tensor(ya).producer;
        b = graph.tensor(yb).producer;
        relu = ir::OpId(graph.opCount() - 1);
    }
};

arch::Arch withDdr(double gbps) {
    arch::Arch a = handArch(4);
    a.paths[0].bandwidthGBps = gbps;
    return a;
}

} // namespace

TEST(TestIosCost, concurrentGroupsShareTheCoresEvenly) {
    TwoConvsOfOneInput g;
    arch::Arch a = withDdr(100); // 64 ns of DDR: compute bound
    auto semantics = partition::SemanticsCache::build(g.graph);
    ASSERT_TRUE(semantics.ok());
    partition::IosCostModel cost = sim::iosStageCost(g.graph, a, *semantics);
    // Two groups of 2 cores: a 576 ns, b 64 ns; the slower plus launch and sync.
    EXPECT_DOUBLE_EQ(cost.concurrent({{g.a}, {g.b}}), 576 + 1050);
    // One group of 4 cores: 288 + 32 ns in sequence.
    EXPECT_DOUBLE_EQ(cost.concurrent({{g.a, g.b}}), 320 + 1050);
}

TEST(TestIosCost, mergedConvsComputeWithTheLargestKernel) {
    TwoConvsOfOneInput g;
    arch::Arch a = withDdr(100);
    auto semantics = partition::SemanticsCache::build(g.graph);
    ASSERT_TRUE(semantics.ok());
    partition::IosCostModel cost = sim::iosStageCost(g.graph, a, *semantics);
    // b's 1x1 kernel padded to 3x3: 9 x 32 ns on 4 cores, beside a's 288.
    std::optional<double> merged = cost.merged({g.a, g.b});
    ASSERT_TRUE(merged.has_value());
    EXPECT_DOUBLE_EQ(*merged, 288 + 288 + 1050);
    EXPECT_FALSE(cost.merged({g.a, g.relu}).has_value());
    EXPECT_FALSE(cost.merged({g.a}).has_value());
}

TEST(TestIosCost, aStageWaitsForItsDdrTraffic) {
    TwoConvsOfOneInput g;
    arch::Arch a = withDdr(1); // 1 B/ns: 6,400 ns of DDR
    auto semantics = partition::SemanticsCache::build(g.graph);
    ASSERT_TRUE(semantics.ok());
    partition::IosCostModel cost = sim::iosStageCost(g.graph, a, *semantics);
    EXPECT_DOUBLE_EQ(cost.concurrent({{g.a}, {g.b}}), 6400 + 1050);
    // With the Add in the stage its inputs stay inside; its output is added.
    EXPECT_DOUBLE_EQ(cost.concurrent({{g.a, g.b, ir::OpId(2)}}), 6400 + 2048 + 1050);
}

TEST(TestIosCost, mergeNeedsOneInputStrideAndOutputSize) {
    ir::Graph graph;
    Builder builder(graph);
    TensorId x = builder.input({1, 4, 8, 8});
    TensorId y = builder.input({1, 4, 8, 8});
    ir::OpId same1 = graph.tensor(conv(builder, x, 8, 3, 1, 1, 1, false)).producer;
    ir::OpId same2 = graph.tensor(conv(builder, x, 16, 1, 1, 0, 1, false)).producer;
    ir::OpId other = graph.tensor(conv(builder, y, 8, 3, 1, 1, 1, false)).producer;
    ir::OpId strided = graph.tensor(conv(builder, x, 8, 3, 2, 1, 1, false)).producer;
    ir::OpId grouped = graph.tensor(conv(builder, x, 8, 3, 1, 1, 4, false)).producer;
    builder.finish();
    EXPECT_TRUE(sim::iosMergeable(graph, {same1, same2}));
    EXPECT_FALSE(sim::iosMergeable(graph, {same1, other}));
    EXPECT_FALSE(sim::iosMergeable(graph, {same1, strided}));
    EXPECT_FALSE(sim::iosMergeable(graph, {same1, grouped}));
}

TEST(TestIosCost, theSchedulerUsesTheCosts) {
    // Two independent convs on 4 cores: one stage of two concurrent groups
    // (1626) beats two stages (b then a: 1082 + 1338); merging ties (1626) and
    // a tie keeps concurrent execution.
    TwoConvsOfOneInput g;
    arch::Arch a = withDdr(100);
    auto semantics = partition::SemanticsCache::build(g.graph);
    ASSERT_TRUE(semantics.ok());
    auto s = partition::scheduleIos(g.graph, {g.a, g.b}, sim::iosStageCost(g.graph, a, *semantics));
    ASSERT_TRUE(s.ok());
    ASSERT_EQ(s->stages.size(), size_t{1});
    EXPECT_EQ(s->stages[0].groups.size(), size_t{2});
    EXPECT_FALSE(s->stages[0].merged);
    EXPECT_DOUBLE_EQ(s->latency, 1626);
}
