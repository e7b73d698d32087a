// Algorithm 1 (SplitInfo) on small graphs built by hand: candidate factors,
// peak, propagation of a split through the access maps, halo recomputation
// and the cost model, input re-reads, the fallback to a second capacity, Eq. 1.

#include "coretestsupport.h"
#include "partition/split_info.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::partition;

namespace {

/// input [n, c, h, w] -> conv3x3 pad 1 -> relu -> conv3x3 pad 1 -> relu
ir::Graph convChain(int64_t n, int64_t c, int64_t hw) {
    ir::Graph g;
    ir::Shape act{n, c, hw, hw};
    ir::TensorId x = g.addTensor("x", ir::DType::Float32, act);
    g.setInputs({x});
    auto weight = [&](const std::string& name) {
        int64_t bytes = c * c * 9 * 4;
        return g.addTensor(
            name, ir::DType::Float32, {c, c, 3, 3},
            ir::makeInlineWeight(std::vector<std::byte>(static_cast<size_t>(bytes))));
    };
    ir::TensorId current = x;
    for (int layer = 1; layer <= 2; ++layer) {
        std::string id = std::to_string(layer);
        ir::TensorId w = weight("w" + id);
        ir::TensorId conv = g.addTensor("conv" + id, ir::DType::Float32, act);
        ir::Op op;
        op.name = "conv" + id;
        op.type = "Conv";
        op.inputs = {current, w};
        op.outputs = {conv};
        op.attrs.set("kernel_shape", std::vector<int64_t>{3, 3});
        op.attrs.set("strides", std::vector<int64_t>{1, 1});
        op.attrs.set("dilations", std::vector<int64_t>{1, 1});
        op.attrs.set("pads", std::vector<int64_t>{1, 1, 1, 1});
        op.attrs.set("group", int64_t{1});
        g.addOp(std::move(op));
        ir::TensorId relu = g.addTensor("relu" + id, ir::DType::Float32, act);
        ir::Op r;
        r.name = "relu" + id;
        r.type = "Relu";
        r.inputs = {conv};
        r.outputs = {relu};
        g.addOp(std::move(r));
        current = relu;
    }
    g.setOutputs({current});
    return g;
}

std::vector<ir::OpId> allOps(const ir::Graph& g) {
    std::vector<ir::OpId> ops;
    for (ir::OpId op : g.opIds())
        ops.push_back(op);
    return ops;
}

bool better(const SplitCandidate& a, const SplitCandidate& b) {
    return std::make_tuple(a.opsSplit, -a.factor, -a.rereads, -a.dim) >
           std::make_tuple(b.opsSplit, -b.factor, -b.rereads, -b.dim);
}

} // namespace

struct CandidateFactorsRow {
    std::string rowLabel;
    int64_t extent;
    std::vector<int64_t> expected;
};

std::vector<CandidateFactorsRow> candidateFactorsRows() {
    std::vector<CandidateFactorsRow> rows;
    rows.push_back({"16", int64_t(16), std::vector<int64_t>{1, 2, 4, 8, 16}});
    rows.push_back({"12", int64_t(12), std::vector<int64_t>{1, 2, 4, 12}});
    rows.push_back({"56", int64_t(56), std::vector<int64_t>{1, 2, 4, 8, 14, 28, 56}});
    rows.push_back({"7", int64_t(7), std::vector<int64_t>{1, 7}});
    rows.push_back({"1", int64_t(1), std::vector<int64_t>{1}});
    return rows;
}

class CandidateFactorsRows : public ::testing::TestWithParam<CandidateFactorsRow> {};

TEST_P(CandidateFactorsRows, candidateFactors) {
    int64_t extent = GetParam().extent;
    std::vector<int64_t> expected = GetParam().expected;
    ASSERT_EQ(splitFactorCandidates(extent), expected);
}

INSTANTIATE_TEST_SUITE_P(TestSplitInfo, CandidateFactorsRows,
                         ::testing::ValuesIn(candidateFactorsRows()), test::RowName{});

TEST(TestSplitInfo, peakIsTheLargestProducedTensor) {
    ir::Graph g = convChain(2, 4, 8);
    auto semantics = SemanticsCache::build(g);
    ASSERT_TRUE(semantics.ok());
    SplitParams params;
    params.capacityBytes = 1 << 20;
    SplitInfo info = computeSplitInfo(g, *semantics, allOps(g), params);
    ASSERT_EQ(info.peakBytes, int64_t(2 * 4 * 8 * 8 * 4));
    ASSERT_TRUE(info.best);
    ASSERT_EQ(info.best->factor, int64_t(1)); // everything fits: one instance
    ASSERT_EQ(info.best->opsSplit, int64_t(4));
}

TEST(TestSplitInfo, batchSplitReachesEveryOpWithoutRecompute) {
    ir::Graph g = convChain(8, 4, 8);
    auto semantics = SemanticsCache::build(g);
    SplitParams params;
    params.capacityBytes = 8 * 4 * 8 * 8 * 4 / 4; // a quarter of the tensor
    SplitInfo info = computeSplitInfo(g, *semantics, allOps(g), params);
    ASSERT_TRUE(info.best);
    ASSERT_EQ(info.best->dim, 0);
    ASSERT_EQ(info.best->factor, int64_t(4));
    ASSERT_EQ(info.best->opsSplit, int64_t(4));
    ASSERT_FUZZY_EQ(info.best->recompute, 0.0);
    ASSERT_EQ(info.best->instanceBytes, params.capacityBytes);
    for (const SplitCandidate& c : info.candidates)
        ASSERT_TRUE(!better(c, *info.best));  // Eq. 1: lexmax (n_d, -f_d, -r_d, -d)
    ASSERT_FUZZY_EQ(info.best->rereads, 1.0); // each image read by one instance
}

/// conv1 alone on [1, 8, 2, 2] (128 B) with room for 32 B: only a split
/// of the output channels by 4 fits, and each of its 4 instances reads
/// the whole input (its 3x3 windows reduce over every input channel).
TEST(TestSplitInfo, channelSplitReReadingItsInputIsRefused) {
    ir::Graph g = convChain(1, 8, 2);
    auto semantics = SemanticsCache::build(g);
    std::vector<ir::OpId> conv1{ir::OpId(0)};
    SplitParams params;
    params.capacityBytes = 32;
    SplitInfo refused = computeSplitInfo(g, *semantics, conv1, params);
    ASSERT_TRUE(refused.candidates.empty());
    ASSERT_TRUE(!refused.best);
    params.maxInputRereads = 0; // no limit
    SplitInfo allowed = computeSplitInfo(g, *semantics, conv1, params);
    ASSERT_TRUE(allowed.best);
    ASSERT_EQ(allowed.best->dim, 1);
    ASSERT_EQ(allowed.best->factor, int64_t(4));
    ASSERT_FUZZY_EQ(allowed.best->rereads, 4.0);
}

/// The chain on [8, 8, 2, 2] (1,024 B per tensor, 4,608 B of weights)
/// with room for 256 B: N/4 reads each image once but the weights 4
/// times: (1,024 + 4 x 4,608) / (1,024 + 4,608) = 3.45 re-reads of all
/// inputs. Without a fallback only activations count and N/4 wins; with
/// one, weights count, nothing survives at 256 B and Algorithm 1 runs
/// again at the fallback, where everything fits unsplit.
TEST(TestSplitInfo, weightReReadsSendTheGroupToTheFallback) {
    ir::Graph g = convChain(8, 8, 2);
    auto semantics = SemanticsCache::build(g);
    SplitParams params;
    params.capacityBytes = 256;
    SplitInfo lb = computeSplitInfo(g, *semantics, allOps(g), params);
    ASSERT_TRUE(lb.best);
    ASSERT_EQ(lb.best->dim, 0);
    ASSERT_EQ(lb.best->factor, int64_t(4));
    params.fallbackCapacityBytes = 1 << 20;
    SplitInfo fallback = computeSplitInfo(g, *semantics, allOps(g), params);
    ASSERT_TRUE(fallback.best);
    ASSERT_EQ(fallback.best->factor, int64_t(1));
    ASSERT_EQ(fallback.best->instanceBytes, int64_t(8 * 8 * 2 * 2 * 4));
    params.countWeightRereads = false; // activations only: N/4 stays
    SplitInfo activations = computeSplitInfo(g, *semantics, allOps(g), params);
    ASSERT_TRUE(activations.best);
    ASSERT_EQ(activations.best->factor, int64_t(4));
}

/// The chain on [8, 4, 8, 8] (8,192 B per tensor, 1,152 B of weights)
/// in a GB of 8,192 B. Algorithm 1 keeps one instance (its largest
/// tensor fits), but an instance holds two tensors at once (a conv's
/// output beside the ReLU that reads it): 16,384 / v bytes of live set.
/// With one core, 1 byte/ns to hoist and 1 byte/ns to DDR, v instances
/// cost v x (1,152 + 2 x overflow) ns: v = 1: 1,152 + 2 x 9,344 =
/// 19,840; v = 2: 2 x (1,152 + 2 x 1,152) = 6,912; v = 4 (the first that
/// holds 4,096 + 1,152 B): 4,608, the least. Hoisting at 0.1 byte/ns,
/// v = 2 costs 27,648 and v = 4 46,080, so 2 wins (v = 1: 30,208). At the
/// LB (no GB behind the capacity) Algorithm 1's split stays.
TEST(TestSplitInfo, gbResidentSplitHoldsItsLiveSet) {
    ir::Graph g = convChain(8, 4, 8);
    auto semantics = SemanticsCache::build(g);
    ASSERT_TRUE(semantics.ok());
    SplitParams params;
    params.capacityBytes = 8 * 4 * 8 * 8 * 4;
    params.finalSplit = true;
    params.capacityIsGlobal = true;
    params.cores = 1;
    params.hoistBytesPerSecond = 1e9;
    params.ddrBytesPerSecond = 1e9;
    SplitInfo held = computeSplitInfo(g, *semantics, allOps(g), params);
    ASSERT_TRUE(held.best && held.resident);
    ASSERT_EQ(held.best->factor, int64_t(1)); // Algorithm 1 (§3.1) as it is
    ASSERT_EQ(held.resident->dim, 0);
    ASSERT_EQ(held.resident->factor, int64_t(4));
    params.hoistBytesPerSecond = 1e8;
    SplitInfo heavy = computeSplitInfo(g, *semantics, allOps(g), params);
    ASSERT_TRUE(heavy.resident);
    ASSERT_EQ(heavy.resident->factor, int64_t(2));
    params.capacityIsGlobal = false;
    SplitInfo lb = computeSplitInfo(g, *semantics, allOps(g), params);
    ASSERT_TRUE(lb.best && !lb.resident);
    params.capacityIsGlobal = true;
    params.finalSplit = false; // a merge's trial split (Algorithm 2)
    ASSERT_TRUE(!computeSplitInfo(g, *semantics, allOps(g), params).resident);
}

TEST(TestSplitInfo, spatialSplitRecomputesHalos) {
    ir::Graph g = convChain(1, 4, 32);
    auto semantics = SemanticsCache::build(g);
    auto candidate = evaluateSplit(g, *semantics, allOps(g), 2, 8);
    ASSERT_TRUE(candidate.ok());
    // Rows 4..7 of the output need rows 3..8 of relu1 (the second conv's
    // halo): the first conv and relu are computed 6/4 of the time.
    ASSERT_EQ(candidate->opsSplit, int64_t(4));
    ASSERT_TRUE(candidate->recompute > 0.2 && candidate->recompute < 0.3);
    ASSERT_EQ(candidate->instanceBytes, int64_t(1 * 4 * 6 * 32 * 4)); // relu1's slice with halo
}

TEST(TestSplitInfo, costModelDropsExpensiveHalos) {
    ir::Graph g = convChain(1, 4, 32);
    auto semantics = SemanticsCache::build(g);
    SplitParams params;
    params.capacityBytes = 4 * 4 * 32 * 4; // four rows of one tensor: H must split by 8
    params.clusterOpsPerSecond = 1e9;      // recomputing is expensive...
    params.offCoreBytesPerSecond = 1e12;   // ...and keeping data on-core saves little
    SplitInfo costly = computeSplitInfo(g, *semantics, allOps(g), params);
    bool spatial = std::any_of(costly.candidates.begin(), costly.candidates.end(),
                               [](const SplitCandidate& c) { return c.dim >= 2; });
    ASSERT_TRUE(!spatial);
    params.recomputeCostModel = false;
    params.maxInputRereads = 0; // H/16 reads 6 of 32 input rows: 3 re-reads
    SplitInfo free = computeSplitInfo(g, *semantics, allOps(g), params);
    spatial = std::any_of(free.candidates.begin(), free.candidates.end(),
                          [](const SplitCandidate& c) { return c.dim >= 2; });
    ASSERT_TRUE(spatial);
}

TEST(TestSplitInfo, channelSplitDoesNotReachTheInputs) {
    ir::Graph g = convChain(1, 8, 8);
    auto semantics = SemanticsCache::build(g);
    auto candidate = evaluateSplit(g, *semantics, allOps(g), 1, 2);
    ASSERT_TRUE(candidate.ok());
    // Output channels split relu2 and conv2; conv2 reads every input
    // channel, so conv1 and relu1 run whole in both instances.
    ASSERT_EQ(candidate->opsSplit, int64_t(2));
    ASSERT_TRUE(candidate->recompute > 0.4);
}

TEST(TestSplitInfo, evaluateSplitRefusesBadSplits) {
    ir::Graph g = convChain(1, 4, 8);
    auto semantics = SemanticsCache::build(g);
    auto ops = allOps(g);
    ASSERT_TRUE(!evaluateSplit(g, *semantics, ops, 4, 2).ok());
    ASSERT_TRUE(!evaluateSplit(g, *semantics, ops, 2, 3).ok());
    ASSERT_TRUE(!evaluateSplit(g, *semantics, ops, 2, 0).ok());
    ASSERT_TRUE(evaluateSplit(g, *semantics, ops, 2, 4).ok());
}
