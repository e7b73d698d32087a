// IOS's scheduler (§3-4, Algorithm 1): Fig. 5's six states and twelve
// transitions, the §4.2 count of (S, S') pairs on d independent chains, the
// dynamic programming against an exhaustive search over every stage
// sequence on random graphs, schedule pruning P(r, s), operator merge, and
// the refusals.

#include "coretestsupport.h"
#include "graph_ops.h"
#include "partition/ios_scheduler.h"
#include "random_graphs.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <map>

using namespace stagecraft;
using partition::IosCostModel;
using partition::IosPruning;
using partition::IosSchedule;
using Groups = std::vector<std::vector<ir::OpId>>;

namespace {

ir::OpId op(int32_t id) {
    return ir::OpId(id);
}

/// A group runs its ops in sequence, each costing \p opCost, plus \p sync
/// per op after the first; a stage takes its slowest group plus 1.
IosCostModel sequentialGroups(std::function<double(ir::OpId)> opCost, double sync) {
    IosCostModel model;
    model.concurrent = [opCost, sync](const Groups& groups) {
        double slowest = 0;
        for (const auto& group : groups) {
            double t = sync * static_cast<double>(group.size() - 1);
            for (ir::OpId o : group)
                t += opCost(o);
            slowest = std::max(slowest, t);
        }
        return slowest + 1;
    };
    return model;
}

IosSchedule schedule(const ir::Graph& g, const IosCostModel& cost, IosPruning pruning = {}) {
    std::vector<ir::OpId> all(g.opIds().begin(), g.opIds().end());
    auto result = partition::scheduleIos(g, all, cost, pruning);
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message());
    return result.ok() ? *result : IosSchedule{};
}

Groups stageGroups(const IosSchedule& s, size_t i) {
    return s.stages[i].groups;
}

/// d chains of c Relus each, side by side.
ir::Graph chains(int d, int c) {
    ir::Graph g;
    test::graphops::Builder b(g);
    for (int chain = 0; chain < d; ++chain) {
        ir::TensorId t = b.input({4});
        for (int k = 0; k < c; ++k)
            t = b.emit1("Relu", {t}, {4});
    }
    b.finish();
    return g;
}

int64_t choose2(int64_t n) {
    return n * (n - 1) / 2;
}

// The exhaustive search: every subset of a state that no edge leaves is a
// possible last stage; groups by a plain flood fill.

using Ops = std::vector<ir::OpId>;

bool edge(const ir::Graph& g, ir::OpId from, ir::OpId to) {
    for (ir::TensorId t : g.op(from).outputs)
        for (const ir::Use& use : g.tensor(t).uses)
            if (use.op == to)
                return true;
    return false;
}

Groups floodGroups(const ir::Graph& g, const Ops& ops) {
    Groups out;
    std::vector<char> done(ops.size(), 0);
    for (size_t i = 0; i < ops.size(); ++i) {
        if (done[i])
            continue;
        Ops group{ops[i]};
        done[i] = 1;
        for (size_t k = 0; k < group.size(); ++k)
            for (size_t j = 0; j < ops.size(); ++j)
                if (!done[j] && (edge(g, group[k], ops[j]) || edge(g, ops[j], group[k]))) {
                    done[j] = 1;
                    group.push_back(ops[j]);
                }
        std::sort(group.begin(), group.end());
        out.push_back(group);
    }
    return out;
}

double exhaustive(const ir::Graph& g, const IosCostModel& cost, const IosPruning& pruning,
                  uint32_t state, std::map<uint32_t, double>& memo) {
    if (state == 0)
        return 0;
    if (auto it = memo.find(state); it != memo.end())
        return it->second;
    double best = std::numeric_limits<double>::infinity();
    size_t n = g.opCount();
    for (uint32_t end = state; end != 0; end = (end - 1) & state) {
        bool ending = true;
        for (size_t u = 0; u < n && ending; ++u)
            for (size_t v = 0; v < n && ending; ++v)
                if ((end >> u & 1) && (state >> v & 1) && !(end >> v & 1) &&
                    edge(g, ir::OpId::at(u), ir::OpId::at(v)))
                    ending = false;
        if (!ending)
            continue;
        Ops ops;
        for (size_t u = 0; u < n; ++u)
            if (end >> u & 1)
                ops.push_back(ir::OpId::at(u));
        Groups groups = floodGroups(g, ops);
        bool allowed = pruning.maxGroups <= 0 || groups.size() <= size_t(pruning.maxGroups);
        for (const Ops& group : groups)
            allowed = allowed &&
                      (pruning.maxGroupOps <= 0 || group.size() <= size_t(pruning.maxGroupOps));
        if (!allowed)
            continue;
        double stage = cost.concurrent(groups);
        if (cost.merged)
            if (auto merged = cost.merged(ops))
                stage = std::min(stage, *merged);
        best = std::min(best, exhaustive(g, cost, pruning, state & ~end, memo) + stage);
    }
    memo[state] = best;
    return best;
}

} // namespace

TEST(TestIosScheduler, fig5VisitsSixStatesThroughTwelveTransitions) {
    // a -> b, c independent (Fig. 5 (1)).
    ir::Graph g;
    test::graphops::Builder b(g);
    ir::TensorId x = b.input({4});
    ir::TensorId y = b.input({4});
    ir::TensorId a = b.emit1("Relu", {x}, {4});
    b.emit1("Relu", {a}, {4});
    b.emit1("Sigmoid", {y}, {4});
    b.finish();
    // a and c cost 2, b 1; a longer group pays 3 per extra op. Then running a
    // and c together, then b, is the one best schedule (5): one stage costs 7,
    // {a}, {b, c} costs 6.
    auto cost = sequentialGroups([](ir::OpId o) { return o == op(1) ? 1.0 : 2.0; }, 3);
    IosSchedule s = schedule(g, cost);
    EXPECT_EQ(s.states, 6);
    EXPECT_EQ(s.transitions, 12);
    EXPECT_DOUBLE_EQ(s.latency, 5);
    ASSERT_EQ(s.stages.size(), size_t{2});
    EXPECT_EQ(stageGroups(s, 0), (Groups{{op(0)}, {op(2)}}));
    EXPECT_EQ(stageGroups(s, 1), (Groups{{op(1)}}));
    EXPECT_FALSE(s.stages[0].merged);
    EXPECT_DOUBLE_EQ(s.stages[0].latency + s.stages[1].latency, s.latency);
    // The states the stages end: {a, c} has 3 endings, {a}, {c} and both
    // (3, against 2 + 1 + 3 for either alone); {a, b, c} has 5, {b} best
    // (3 + 2), then {b, c} (3 + 3), {a, b, c} (7), {c} (5 + 3), {a, b} (3 + 7).
    EXPECT_EQ(s.stages[0].stateUnits, 2);
    EXPECT_DOUBLE_EQ(s.stages[0].stateCost, 3);
    EXPECT_EQ(s.stages[0].endings, 3);
    EXPECT_DOUBLE_EQ(s.stages[0].runnerUpCost, 6);
    EXPECT_EQ(s.stages[1].stateUnits, 3);
    EXPECT_DOUBLE_EQ(s.stages[1].stateCost, 5);
    EXPECT_EQ(s.stages[1].endings, 5);
    EXPECT_DOUBLE_EQ(s.stages[1].runnerUpCost, 6);
}

TEST(TestIosScheduler, independentChainsReachTheBoundOfSection4_2) {
    // d chains of c ops: each chain contributes C(c + 2, 2) pairs of (its part
    // of S, its part of S'); the (c + 1)^d states each have one empty S',
    // which is not a transition.
    auto cost = sequentialGroups([](ir::OpId) { return 1.0; }, 0);
    for (auto [d, c] : {std::pair{1, 4}, std::pair{2, 3}, std::pair{3, 3}, std::pair{4, 2}}) {
        IosSchedule s = schedule(chains(d, c), cost);
        int64_t states = static_cast<int64_t>(std::pow(c + 1, d));
        int64_t pairs = static_cast<int64_t>(std::pow(choose2(c + 2), d));
        EXPECT_EQ(s.states, states) << d << " chains of " << c;
        EXPECT_EQ(s.transitions, pairs - states) << d << " chains of " << c;
    }
}

TEST(TestIosScheduler, theBoundOnEndingsCutsOnlyBlocksThatPassIt) {
    // 3 chains of 3 ops enumerate 10^3 - 4^3 endings: a bound of exactly that
    // many runs the DP, one less gives up (the DP itself, or the lower bound). A block far too wide
    // for the bound (16 ops side by side: 3^16 endings) gives up before any stage is priced, from
    // the lower bound on its endings alone.
    auto cost = sequentialGroups([](ir::OpId) { return 1.0; }, 0);
    int64_t endings = 1000 - 64;
    IosSchedule fits = schedule(chains(3, 3), cost, IosPruning{0, 0, endings});
    EXPECT_FALSE(fits.boundReached);
    EXPECT_EQ(fits.transitions, endings);
    EXPECT_FALSE(fits.stages.empty());
    IosSchedule over = schedule(chains(3, 3), cost, IosPruning{0, 0, endings - 1});
    EXPECT_TRUE(over.boundReached);
    EXPECT_TRUE(over.stages.empty());
    IosSchedule wide = schedule(chains(16, 1), cost, IosPruning{0, 0, 100000});
    EXPECT_TRUE(wide.boundReached);
    EXPECT_EQ(wide.transitions, 0);
}

TEST(TestIosScheduler, dynamicProgrammingEqualsTheExhaustiveSearch) {
    int multiStage = 0;
    for (uint64_t seed = 1; seed <= 60; ++seed) {
        test::GraphKind kind = test::graphKinds()[seed % test::graphKinds().size()];
        ir::Graph g = test::randomGraph(seed, {kind, 10});
        auto opCost = [seed](ir::OpId o) {
            return 1.0 + static_cast<double>((o.value() * 7 + seed) % 5);
        };
        IosCostModel cost = sequentialGroups(opCost, 0.5 * static_cast<double>(seed % 3));
        cost.merged = [&g, opCost](const Ops& ops) -> std::optional<double> {
            for (ir::OpId o : ops)
                if (g.op(o).type != g.op(ops.front()).type)
                    return std::nullopt;
            double sum = 0;
            for (ir::OpId o : ops)
                sum += opCost(o);
            return 0.7 * sum + 1;
        };
        for (IosPruning pruning : {IosPruning{}, IosPruning{2, 2}}) {
            IosSchedule s = schedule(g, cost, pruning);
            std::map<uint32_t, double> memo;
            double best = exhaustive(g, cost, pruning, (1u << g.opCount()) - 1, memo);
            EXPECT_DOUBLE_EQ(s.latency, best) << "seed " << seed;
            double sum = 0;
            for (const auto& stage : s.stages)
                sum += stage.latency;
            EXPECT_DOUBLE_EQ(sum, s.latency) << "seed " << seed;
            multiStage += s.stages.size() > 1;
        }
    }
    EXPECT_GT(multiStage, 30);
}

TEST(TestIosScheduler, pruningBoundsEveryStage) {
    for (uint64_t seed = 1; seed <= 40; ++seed) {
        ir::Graph g = test::randomGraph(seed, {test::GraphKind::Mix, 16});
        auto cost = sequentialGroups([](ir::OpId o) { return 1.0 + o.value() % 3; }, 0.25);
        IosSchedule full = schedule(g, cost);
        IosSchedule pruned = schedule(g, cost, {2, 3});
        EXPECT_GE(pruned.latency, full.latency) << "seed " << seed;
        EXPECT_LE(pruned.transitions, full.transitions) << "seed " << seed;
        size_t covered = 0;
        for (const auto& stage : pruned.stages) {
            EXPECT_LE(stage.groups.size(), size_t{3}) << "seed " << seed;
            for (const auto& group : stage.groups) {
                EXPECT_LE(group.size(), size_t{2}) << "seed " << seed;
                covered += group.size();
            }
        }
        EXPECT_EQ(covered, g.opCount()) << "seed " << seed;
    }
}

TEST(TestIosScheduler, operatorMergeWinsWhenCheaper) {
    // Two independent convolution-like ops of one type: merged they cost
    // less than side by side.
    ir::Graph g = chains(2, 1);
    IosCostModel cost = sequentialGroups([](ir::OpId) { return 4.0; }, 0);
    cost.merged = [](const Ops& ops) -> std::optional<double> {
        return ops.size() == 2 ? std::optional(3.0) : std::nullopt;
    };
    IosSchedule s = schedule(g, cost);
    ASSERT_EQ(s.stages.size(), size_t{1});
    EXPECT_TRUE(s.stages[0].merged);
    EXPECT_DOUBLE_EQ(s.latency, 3);
}

TEST(TestIosScheduler, refusesAnEmptyOrOversizedBlock) {
    ir::Graph g = chains(1, 70);
    IosCostModel cost = sequentialGroups([](ir::OpId) { return 1.0; }, 0);
    auto empty = partition::scheduleIos(g, {}, cost);
    ASSERT_FALSE(empty.ok());
    EXPECT_TRUE(test::containsText(empty.error().message(), "no ops"));
    std::vector<ir::OpId> all(g.opIds().begin(), g.opIds().end());
    auto big = partition::scheduleIos(g, all, cost);
    ASSERT_FALSE(big.ok());
    EXPECT_TRUE(test::containsText(big.error().message(), "70 ops, more than 64"));
}

TEST(TestIosScheduler, scheduleUnitsAreConvReluAndReluSepConv) {
    // x -> Conv -> Relu (Conv-Relu); x -> Relu -> depthwise -> 1x1 -> Relu
    // -> depthwise -> 1x1 (two Relu-SepConv); both into an Add.
    ir::Graph g;
    test::graphops::Builder b(g);
    ir::TensorId x = b.input({1, 8, 8, 8});
    ir::TensorId c =
        test::graphops::unary(b, "Relu", test::graphops::conv(b, x, 8, 3, 1, 1, 1, false));
    ir::TensorId s = test::graphops::unary(b, "Relu", x);
    s = test::graphops::conv(b, s, 8, 3, 1, 1, 8, false);
    s = test::graphops::conv(b, s, 8, 1, 1, 0, 1, false);
    s = test::graphops::unary(b, "Relu", s);
    s = test::graphops::conv(b, s, 8, 3, 1, 1, 8, false);
    s = test::graphops::conv(b, s, 8, 1, 1, 0, 1, false);
    test::graphops::binary(b, "Add", c, s);
    b.finish();
    std::vector<ir::OpId> all(g.opIds().begin(), g.opIds().end());
    auto units = partition::iosScheduleUnits(g, all);
    Groups expected = {{op(0), op(1)}, {op(2), op(3), op(4)}, {op(5), op(6), op(7)}, {op(8)}};
    EXPECT_EQ(units, expected);
    // Scheduled as units: no stage splits a unit, and r counts units.
    auto s1 = partition::scheduleIosUnits(
        g, units, sequentialGroups([](ir::OpId) { return 1.0; }, 0), {1, 8});
    ASSERT_TRUE(s1.ok());
    for (const auto& stage : s1->stages) {
        for (const auto& group : stage.groups) {
            const auto unit = std::find_if(units.begin(), units.end(), [&](const auto& u) {
                return u.front() == group.front();
            });
            ASSERT_TRUE(unit != units.end());
            EXPECT_EQ(group, *unit); // r = 1: the group is exactly one unit
        }
    }
    auto twice = partition::scheduleIosUnits(g, {{op(0), op(1)}, {op(1)}},
                                             sequentialGroups([](ir::OpId) { return 1.0; }, 0));
    ASSERT_FALSE(twice.ok());
    EXPECT_TRUE(test::containsText(twice.error().message(), "op 1 is in two schedule units"));
    // {conv, Add} starts before {x's Relu...} but reads from it: refused,
    // since the DP takes units in order of first op.
    auto backwards = partition::scheduleIosUnits(
        g, {{op(0), op(1), op(8)}, {op(2), op(3), op(4), op(5), op(6), op(7)}},
        sequentialGroups([](ir::OpId) { return 1.0; }, 0));
    ASSERT_FALSE(backwards.ok());
    EXPECT_TRUE(test::containsText(backwards.error().message(), "a unit must come after"));
}
