#pragma once
// The simulator's hand cases (test_sim_cases.cpp): the one-core architecture
// with round numbers, the tiny graphs, and the checks of a timeline against
// the hand-computed one.

#include "coretestsupport.h"
#include "graph_ops.h"
#include "ir/precision.h"
#include "sim/compare.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace stagecraft::test::handcases {

using namespace stagecraft::test::graphops;

inline arch::Arch handArch(int cores = 1) {
    arch::Arch a;
    a.name = "hand";
    a.clockGhz = 1;
    a.clusters = 1;
    arch::CoreGroup core;
    core.name = "core";
    core.count = cores;
    core.localBuffer = arch::LocalBuffer{"LB", 1 << 20, 64 << 10};
    core.units.push_back(
        {"vector",
         arch::UnitKind::Vector,
         {ir::OpCategory::Elementwise, ir::OpCategory::Injective, ir::OpCategory::Reduction,
          ir::OpCategory::Opaque},
         {{ir::DType::Float32, 4}, {ir::DType::Float16, 8}, {ir::DType::BFloat16, 8}},
         {}});
    core.units.push_back(
        {"matrix",
         arch::UnitKind::Matrix,
         {ir::OpCategory::Complex},
         {{ir::DType::Float32, 16}, {ir::DType::Float16, 64}, {ir::DType::BFloat16, 32}},
         {}});
    a.cluster.coreGroups.push_back(core);
    a.cluster.globalBuffer = arch::MemorySpec{"GB", 16 << 20};
    a.ddr = {"DDR", int64_t{1} << 30};
    a.paths.push_back({arch::Memory::DDR, arch::Memory::GB, 1, 100, 1, arch::Sharing::Chip});
    a.paths.push_back({arch::Memory::GB, arch::Memory::LB, 4, 10, 1, arch::Sharing::Cluster});
    a.overheads = {1000, 50};
    return a;
}

/// handArch with a small LB of \p bytes (and a weight reserve of \p reserve
/// bytes), for layers that take several tiles.
inline arch::Arch smallLbArch(int64_t bytes, int64_t reserve, int cores = 1) {
    arch::Arch a = handArch(cores);
    a.cluster.coreGroups.front().localBuffer = arch::LocalBuffer{"LB", bytes, reserve};
    return a;
}

/// \p graph scheduled by \p strategy on \p a, simulated, its timeline checked.
inline sim::Evaluation runOn(const arch::Arch& a, const ir::Graph& graph, const char* strategy) {
    Status valid = arch::validateArch(a);
    SC_ASSERT(valid.ok(), "the hand architecture is valid");
    schedule::ClusterPlan plan;
    auto ev = sim::evaluate(graph, a, *sim::findStrategy(strategy), plan);
    SC_ASSERT(ev.ok(), "the hand cases simulate");
    Status timeline = sim::validateTimeline(ev->tasks, ev->sim);
    SC_ASSERT(timeline.ok(), "the hand timelines are valid");
    return std::move(ev).value();
}

inline sim::Evaluation run(const ir::Graph& graph, const char* strategy, int cores = 1) {
    return runOn(handArch(cores), graph, strategy);
}

/// (kind, from, to, start, end) of every task, in task order.
struct Expect {
    kernel::TaskKind kind;
    double start;
    double end;
};

inline void checkTimeline(const sim::Evaluation& ev, const std::vector<Expect>& expected) {
    ASSERT_EQ(ev.tasks.tasks.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        const sim::Event& e = ev.sim.events[kernel::TaskId::at(i)];
        ASSERT_EQ(kernel::taskKindName(ev.tasks.tasks[kernel::TaskId::at(i)].kind),
                  kernel::taskKindName(expected[i].kind));
        ASSERT_FUZZY_EQ(e.start, expected[i].start);
        ASSERT_FUZZY_EQ(e.end, expected[i].end);
    }
}

inline ir::Graph twoElementwise() {
    ir::Graph g;
    Builder b(g);
    TensorId x = b.input({1, 1024});
    unary(b, "Neg", unary(b, "Relu", x));
    b.finish();
    return g;
}

inline ir::Graph oneConv() {
    ir::Graph g;
    Builder b(g);
    conv(b, b.input({1, 4, 8, 8}), 8, 3, 1, 1, 1, false);
    b.finish();
    return g;
}

inline ir::Graph twoConvs() {
    ir::Graph g;
    Builder b(g);
    TensorId x = conv(b, b.input({1, 4, 8, 8}), 8, 3, 1, 1, 1, false);
    conv(b, x, 8, 3, 1, 1, 1, false);
    b.finish();
    return g;
}

/// x [1, 16] times the same 16x16 weight twice: two kernels under tvm.
inline ir::Graph sharedWeight() {
    ir::Graph g;
    Builder b(g);
    TensorId w = b.weight({16, 16});
    matmul(b, matmul(b, b.input({1, 16}), w), w);
    b.finish();
    return g;
}

/// x [1, 16] times the same 16x16 weight three times.
inline ir::Graph threeUsesOfOneWeight() {
    ir::Graph g;
    Builder b(g);
    TensorId w = b.weight({16, 16});
    matmul(b, matmul(b, matmul(b, b.input({1, 16}), w), w), w);
    b.finish();
    return g;
}

/// A 64x16 f32 table (4096 B) gathered at 4 indices given at run time.
inline ir::Graph gatheredTable() {
    ir::Graph g;
    Builder b(g);
    TensorId table = b.weight({64, 16});
    TensorId ids = g.addTensor("ids", ir::DType::Int64, {4});
    b.emit1("Gather", {table, ids}, {4, 16}, attrs({{"axis", int64_t{0}}}));
    b.finish();
    g.setInputs({ids});
    return g;
}

/// x [1, 1024] read by a Relu and a Neg whose outputs are concatenated on
/// dim 1: [1, 2048]. Split in two on dim 1, instance 1 needs the Relu only,
/// instance 2 the Neg only.
inline ir::Graph concatOfTwoBranches() {
    ir::Graph g;
    Builder b(g);
    TensorId x = b.input({1, 1024});
    concat(b, {unary(b, "Relu", x), unary(b, "Neg", x)}, 1);
    b.finish();
    return g;
}

/// x [1, 1024] read by a Relu and a Neg, each a graph output.
inline ir::Graph twoBranches() {
    ir::Graph g;
    Builder b(g);
    TensorId x = b.input({1, 1024});
    unary(b, "Relu", x);
    unary(b, "Neg", x);
    b.finish();
    return g;
}

/// Relu then Neg of an input of \p shape.
inline ir::Graph elementwiseOf(const ir::Shape& shape) {
    ir::Graph g;
    Builder b(g);
    unary(b, "Neg", unary(b, "Relu", b.input(shape)));
    b.finish();
    return g;
}

/// x [rows, 16] times a constant W [16, cols].
inline ir::Graph matmulBy(int64_t rows, int64_t cols) {
    ir::Graph g;
    Builder b(g);
    matmul(b, b.input({rows, 16}), b.weight({16, cols}));
    b.finish();
    return g;
}

/// Two batches of \p rows x 16 times a 16 x \p cols weight.
inline ir::Graph batchedMatmul(int64_t rows, int64_t cols) {
    ir::Graph g;
    Builder b(g);
    matmul(b, b.input({2, rows, 16}), b.weight({16, cols}));
    b.finish();
    return g;
}

/// The weight hoists of \p ev: (bytes, duration ns) each.
inline std::vector<std::pair<int64_t, double>> hoistsOf(const sim::Evaluation& ev) {
    std::vector<std::pair<int64_t, double>> hoists;
    for (kernel::TaskId i : ev.tasks.tasks.ids())
        if (ev.tasks.tasks[i].kind == kernel::TaskKind::WeightHoist)
            hoists.push_back(
                {ev.tasks.tasks[i].bytes, ev.sim.events[i].end - ev.sim.events[i].start});
    return hoists;
}

inline double computeNs(const sim::Evaluation& ev) {
    double ns = 0;
    for (const kernel::Task& t : ev.tasks.tasks)
        if (t.kind == kernel::TaskKind::Compute)
            ns += t.durationNs;
    return ns;
}

} // namespace stagecraft::test::handcases
