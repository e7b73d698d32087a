// AGO's frontend and reformer (§IV–V): Eq. (1) by hand, the heaviest
// candidate taking its lightest affix partner, Fig. 9 (Conv1 and Conv3 never
// share a sub-graph without Conv2) at every threshold, and Theorem 1 on
// 1,200 random DAGs: the partition is acyclic by Definition 1, checked by
// reachability here, every sub-graph of several ops weighs less than Td,
// and SPLIT's mini-sub-graphs hold one complex op at most and JOIN back.

#include "coretestsupport.h"
#include "graph_ops.h"
#include "graph_paths.h"
#include "partition/ago_partition.h"
#include "random_graphs.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test::graphops;
using partition::AgoParams;
using partition::AgoPartition;
using partition::GroupId;

namespace {

partition::SemanticsCache semanticsOf(const ir::Graph& g) {
    auto cache = partition::SemanticsCache::build(g);
    SC_ASSERT(cache.ok(), "the test graphs have semantics");
    return std::move(cache).value();
}

AgoPartition partitionOf(const ir::Graph& g, const AgoParams& params = {}) {
    auto result = partition::partitionAgo(g, semanticsOf(g), params);
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message());
    return result.ok() ? std::move(*result) : AgoPartition{};
}

/// Definition 1: no two groups with paths both ways between them.
bool acyclic(const ir::Graph& g, const partition::Partition& p) {
    auto reach = test::reachability(g);
    size_t n = p.groupCount();
    std::vector<std::vector<char>> path(n, std::vector<char>(n, 0));
    for (ir::OpId a : g.opIds())
        for (ir::OpId b : g.opIds())
            if (reach[a.index()][b.index()])
                path[p.groupOf(a).index()][p.groupOf(b).index()] = 1;
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j)
            if (i != j && path[i][j] && path[j][i])
                return false;
    return true;
}

} // namespace

// Conv [1,4,8,8] -> 8 channels, 3x3: loops N 1 (left out), O 8, H 8, W 8,
// I 4, KH 3, KW 3.
TEST(TestAgoPartition, weightFollowsEquationOne) {
    ir::Graph g;
    Builder b(g);
    conv(b, b.input({1, 4, 8, 8}), 8, 3, 1, 1, 1, false);
    b.finish();
    double product = std::pow(std::log(8.0), 3) * std::log(4.0) * std::pow(std::log(3.0), 2);
    AgoParams params{2, 5, 0};
    ASSERT_NEAR(partition::agoWeight(semanticsOf(g), ir::OpId(0), params), 2 * product + 5, 1e-9);
    AgoPartition p = partitionOf(g, params);
    ASSERT_NEAR(p.threshold, 3 * (2 * product + 5), 1e-9);
}

// Relu [1,4,8,8] -> Conv -> Neg [1,8,8,8]: the conv is the heaviest; its
// affix set is the Relu (stage 1) and the Neg (stage 3); the Relu is lighter
// (ln 4 ln 8 ln 8 against ln 8 ln 8 ln 8), so it is taken first.
TEST(TestAgoPartition, heaviestCandidateTakesItsLightestAffixPartner) {
    ir::Graph g;
    Builder b(g);
    unary(b, "Neg", conv(b, unary(b, "Relu", b.input({1, 4, 8, 8})), 8, 3, 1, 1, 1, false));
    b.finish();
    AgoPartition all = partitionOf(g);
    ASSERT_EQ(all.merges.size(), size_t{2});
    ASSERT_EQ(all.merges[0].into, std::vector<ir::OpId>{ir::OpId(1)});
    ASSERT_EQ(all.merges[0].taken, std::vector<ir::OpId>{ir::OpId(0)});
    ASSERT_EQ(all.merges[1].taken, std::vector<ir::OpId>{ir::OpId(2)});
    ASSERT_EQ(all.subgraphs.groupCount(), size_t{1});
    // A threshold between conv + Relu and conv + Relu + Neg stops after one merge.
    double conv = all.weights[ir::OpId(1)], relu = all.weights[ir::OpId(0)];
    AgoPartition two = partitionOf(g, {1, 0, conv + relu + 0.5});
    ASSERT_EQ(two.merges.size(), size_t{1});
    ASSERT_EQ(two.subgraphs.groupCount(), size_t{2});
    // Below conv + Relu nothing merges.
    ASSERT_EQ(partitionOf(g, {1, 0, conv + relu}).subgraphs.groupCount(), size_t{3});
}

// Fig. 9: Conv1 -> ReLU -> Conv2 -> ReLU -> Add(., Conv1) -> Conv3.
TEST(TestAgoPartition, figureNineNeverGroupsConv1AndConv3AcrossConv2) {
    ir::Graph g;
    Builder b(g);
    TensorId c1 = conv(b, b.input({1, 8, 16, 16}), 8, 3, 1, 1, 1, false);
    TensorId c2 = conv(b, unary(b, "Relu", c1), 8, 3, 1, 1, 1, false);
    conv(b, binary(b, "Add", unary(b, "Relu", c2), c1), 8, 3, 1, 1, 1, false);
    b.finish();
    ir::OpId conv1(0), conv2(2), conv3(5);
    double heaviest = partitionOf(g).weights[conv1];
    int together = 0;
    for (double factor = 0.5; factor <= 8; factor += 0.25) {
        AgoPartition p = partitionOf(g, {1, 0, factor * heaviest});
        const auto& s = p.subgraphs;
        if (s.groupOf(conv1) == s.groupOf(conv3)) {
            ASSERT_EQ(s.groupOf(conv2), s.groupOf(conv1)) << factor;
            ++together;
        }
        ASSERT_TRUE(acyclic(g, s)) << factor;
    }
    ASSERT_GT(together, 0);
}

TEST(TestAgoPartition, randomGraphsArePartitionedAcyclicallyUnderTheThreshold) {
    int intensive = 0, split = 0;
    for (uint64_t seed = 1; seed <= 1200; ++seed) {
        test::GraphKind kind = test::graphKinds()[seed % test::graphKinds().size()];
        ir::Graph g = test::randomGraph(seed, {kind, 20});
        test::Rng rng(seed * 104729);
        double factor = 0.5 + static_cast<double>(rng.uniform(0, 11)) * 0.5;
        double heaviest = 0;
        AgoPartition byDefault = partitionOf(g);
        for (double w : byDefault.weights.values())
            heaviest = std::max(heaviest, w);
        AgoPartition p = partitionOf(g, {1, 0, factor * heaviest});
        ASSERT_FALSE(HasFailure()) << "seed " << seed;
        ASSERT_TRUE(acyclic(g, p.subgraphs)) << "seed " << seed;
        ASSERT_TRUE(acyclic(g, p.minis)) << "seed " << seed;
        auto semantics = semanticsOf(g);
        for (GroupId s : p.subgraphs.groupIds()) {
            double weight = 0;
            int complexOps = 0;
            for (ir::OpId o : p.subgraphs.ops(s)) {
                weight += p.weights[o];
                complexOps += semantics.of(o).category == ops::Category::Complex;
            }
            if (p.subgraphs.ops(s).size() > 1) {
                ASSERT_LT(weight, p.threshold) << "seed " << seed;
            }
            intensive += complexOps > 1;
        }
        for (GroupId m : p.minis.groupIds()) {
            int complexOps = 0;
            for (ir::OpId o : p.minis.ops(m)) {
                complexOps += semantics.of(o).category == ops::Category::Complex;
                ASSERT_EQ(p.subgraphs.groupOf(o), p.parentOf[m]) << "seed " << seed;
            }
            ASSERT_LE(complexOps, 1) << "seed " << seed;
        }
        split += p.minis.groupCount() > p.subgraphs.groupCount();
        // Deterministic.
        AgoPartition again = partitionOf(g, {1, 0, factor * heaviest});
        ASSERT_EQ(again.subgraphs.assignment().values(), p.subgraphs.assignment().values());
    }
    // The properties were met by partitions that fuse complex ops and split.
    ASSERT_GT(intensive, 50);
    ASSERT_GT(split, 50);
}
