// Masked tails in the register-blocked lowering (lower_blocked.cpp, issue
// 65): an edge tap whose lanes read consecutive elements is one masked load
// in place, its padding lanes masked off (named "edge"), and a segment's
// last, shorter chunk is one store of that many lanes (llvm.vp.store: RVV's
// vl, a masked store on the host). Against ONNX Runtime under tvm and
// graphturbo: a padded 3x3 Conv on rows of 13, a strided one on rows of 15
// (its lanes shuffled, so no in-place edge), a MatMul on rows of 13; and a
// check that their kernels take the paths, which a 1x1 Conv on whole rows
// of 16 does not. Compiled for AVX-512, an edge tap's mask is loaded from a
// hidden global (Emitter::laneMask), so that the select of its sums becomes
// a masked FMA; for AVX2 and riscv64 it stays a constant.

#include "coretestsupport.h"
#include "small_model_case.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

void paddedConv(onnxio::ModelBuilder& m, Seeded& r) {
    m.addFloatInitializer("w", {6, 4, 3, 3}, r.floats(6 * 4 * 9, 0.5));
    m.addFloatInitializer("b", {6}, r.floats(6, 1.0));
    m.addNode("Conv", {"x", "w", "b"}, {"y"}).attr("pads", std::vector<int64_t>{1, 1, 1, 1});
    output(m, "y", DType::Float32, {1, 6, 6, 13});
}

void stridedConv(onnxio::ModelBuilder& m, Seeded& r) {
    m.addFloatInitializer("w", {5, 4, 3, 3}, r.floats(5 * 4 * 9, 0.5));
    m.addNode("Conv", {"x", "w"}, {"y"})
        .attr("pads", std::vector<int64_t>{1, 1, 1, 1})
        .attr("strides", std::vector<int64_t>{2, 2});
    output(m, "y", DType::Float32, {1, 5, 5, 15});
}

void matmulRowTail(onnxio::ModelBuilder& m, Seeded& r) {
    m.addFloatInitializer("w", {24, 13}, r.floats(24 * 13, 0.5));
    m.addNode("MatMul", {"x", "w"}, {"y"});
    output(m, "y", DType::Float32, {5, 13});
}

void wholeRows(onnxio::ModelBuilder& m, Seeded& r) {
    m.addFloatInitializer("w", {8, 4, 1, 1}, r.floats(32, 0.5));
    m.addNode("Conv", {"x", "w"}, {"y"});
    output(m, "y", DType::Float32, {1, 8, 2, 16});
}

/// A case and the paths its kernels must take.
struct TailCase {
    Case model;
    bool edgeLoads;
    bool shorterStores;
    /// Padding taps: lanes whose sums a select keeps.
    bool paddingLanes;
};

const std::vector<TailCase>& tailCases() {
    static const std::vector<TailCase> all = {
        {{"conv-pad-row13", DType::Float32, {1, 4, 6, 13}, 2.0, paddedConv}, true, true, true},
        {{"conv-stride2-row15", DType::Float32, {1, 4, 9, 29}, 2.0, stridedConv},
         false,
         true,
         true},
        {{"matmul-row13", DType::Float32, {5, 24}, 2.0, matmulRowTail}, false, true, false},
        {{"conv1x1-rows16", DType::Float32, {1, 4, 2, 16}, 2.0, wholeRows}, false, false, false},
    };
    return all;
}

std::vector<StrategyRow> tailRows() {
    std::vector<std::string> names;
    for (const auto& c : tailCases())
        names.push_back(c.model.name);
    return strategyRows(names);
}

} // namespace

class TailsMatchOnnxRuntime : public ::testing::TestWithParam<StrategyRow> {};

TEST_P(TailsMatchOnnxRuntime, tailsMatchOnnxRuntime) {
    expectMatchesOnnxRuntime(tailCases()[GetParam().index].model, GetParam().strategy);
}

INSTANTIATE_TEST_SUITE_P(TestTails, TailsMatchOnnxRuntime, ::testing::ValuesIn(tailRows()),
                         test::RowName{});

// Edge taps load in place under a mask and shorter chunks store their lanes
// alone; whole rows without padding need neither.
TEST(TestTails, edgesAndRowTailsAreMasked) {
    TempDir dir;
    for (const char* strategy : {"tvm", "graphturbo"})
        for (const TailCase& c : tailCases()) {
            const int64_t edges = countInKernels(c.model, strategy, dir.path(), "%edge");
            const int64_t stores = countInKernels(c.model, strategy, dir.path(), "@llvm.vp.store");
            EXPECT_EQ(edges > 0, c.edgeLoads) << c.model.name << " under " << strategy;
            EXPECT_EQ(stores > 0, c.shorterStores) << c.model.name << " under " << strategy;
        }
}

// For AVX-512 the padding lanes' masks stay opaque to the optimizer (a load
// of a hidden global's bits, hoisted), so the selects of the edge taps' sums
// are masked FMAs, not blends; AVX2 has no mask registers, and whole rows
// need no mask.
TEST(TestTails, edgeTapMasksAreRegistersOnAvx512) {
    TempDir dir;
    for (const TailCase& c : tailCases()) {
        const std::string avx512 = optimizedKernels(c.model, "tvm", dir.path(), "skylake-avx512");
        const std::string avx2 = optimizedKernels(c.model, "tvm", dir.path(), "x86-64-v3");
        ASSERT_FALSE(avx512.empty() || avx2.empty()) << c.model.name;
        EXPECT_EQ(countText(avx512, "select <16 x i1> %") > 0, c.paddingLanes) << c.model.name;
        EXPECT_EQ(countText(avx512, ".lanes16.") > 0, c.paddingLanes) << c.model.name;
        EXPECT_EQ(countText(avx2, ".lanes"), 0) << c.model.name;
    }
}
