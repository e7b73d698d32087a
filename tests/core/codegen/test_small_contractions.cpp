// The float contractions of the register-blocked lowering
// (lower_blocked.cpp, issue 18) against ONNX Runtime on small generated
// models: Conv with padding, stride, dilation, groups and rows wider than a
// segment, depthwise with and without stride, MatMul over a batch with a
// block that leaves a remainder, a dense layer whose output features run in
// many tiles (at run-time starts where the host keeps more than 8), a MatMul whose
// 16,384-step reduction runs in
// chunks (each taking up the sums the last one stored), an attention-like
// MatMul + mask of -1e4 + Softmax (exp of the masked scores underflows to 0),
// Pow(x, 2) + ReduceMean as a LayerNorm squares, Gemm with transposed
// operands; under tvm and graphturbo, whose tiles differ (small_model_case.h);
// and where a Conv's output rows run outside its tiles.

#include "codegen/codegen.h"
#include "coretestsupport.h"
#include "small_model_case.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

/// A Conv on x (1 x \p channels x ...) with seeded weights and bias;
/// \p set adds its attributes.
Case convCase(const char* name, ir::Shape x, ir::Shape w, ir::Shape y, bool bias,
              std::function<void(onnxio::NodeBuilder&)> set, const char* type = "Conv") {
    return {name, DType::Float32, x, 2.0, [=](onnxio::ModelBuilder& m, Seeded& r) {
                m.addFloatInitializer("w", w, r.floats(ir::elementCount(w), 0.5));
                std::vector<std::string> in{"x", "w"};
                if (bias) {
                    m.addFloatInitializer("b", {y[1]}, r.floats(y[1], 1.0));
                    in.push_back("b");
                }
                onnxio::NodeBuilder node = m.addNode(type, in, {"y"});
                set(node);
                output(m, "y", DType::Float32, y);
            }};
}

const std::vector<Case>& contractionCases() {
    static const std::vector<Case> all = {
        convCase("conv-3x3-wide-rows", {1, 5, 6, 150}, {13, 5, 3, 3}, {1, 13, 6, 150}, true,
                 [](onnxio::NodeBuilder& n) {
                     n.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
                 }),
        convCase("conv-7x7-stride-2", {2, 3, 23, 23}, {9, 3, 7, 7}, {2, 9, 12, 12}, false,
                 [](onnxio::NodeBuilder& n) {
                     n.attr("pads", std::vector<int64_t>{3, 3, 3, 3})
                         .attr("strides", std::vector<int64_t>{2, 2});
                 }),
        convCase("conv-dilated-asymmetric", {1, 4, 9, 21}, {6, 4, 3, 3}, {1, 6, 6, 19}, true,
                 [](onnxio::NodeBuilder& n) {
                     n.attr("pads", std::vector<int64_t>{0, 1, 1, 2})
                         .attr("dilations", std::vector<int64_t>{2, 2});
                 }),
        convCase("conv-grouped", {1, 8, 7, 7}, {6, 4, 3, 3}, {1, 6, 7, 7}, true,
                 [](onnxio::NodeBuilder& n) {
                     n.attr("pads", std::vector<int64_t>{1, 1, 1, 1}).attr("group", 2);
                 }),
        convCase("conv-depthwise", {1, 6, 10, 33}, {6, 1, 3, 3}, {1, 6, 10, 33}, true,
                 [](onnxio::NodeBuilder& n) {
                     n.attr("pads", std::vector<int64_t>{1, 1, 1, 1}).attr("group", 6);
                 }),
        convCase("conv-depthwise-stride-2", {2, 8, 11, 20}, {8, 1, 3, 3}, {2, 8, 6, 10}, false,
                 [](onnxio::NodeBuilder& n) {
                     n.attr("pads", std::vector<int64_t>{1, 1, 1, 1})
                         .attr("strides", std::vector<int64_t>{2, 2})
                         .attr("group", 8);
                 }),
        convCase("conv-1x1", {1, 16, 7, 7}, {24, 16, 1, 1}, {1, 24, 7, 7}, false,
                 [](onnxio::NodeBuilder&) {}),
        // Rows of 6 run flattened with the rows above: 54 positions, padded
        // rows and columns decided per lane.
        convCase("conv-3x3-narrow-rows", {2, 5, 9, 6}, {7, 5, 3, 3}, {2, 7, 9, 6}, true,
                 [](onnxio::NodeBuilder& n) {
                     n.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
                 }),
        // Rows of 14 of 16 lanes without taps run flattened: 196 positions.
        convCase("conv-1x1-rows-of-14", {1, 8, 14, 14}, {12, 8, 1, 1}, {1, 12, 14, 14}, true,
                 [](onnxio::NodeBuilder&) {}),
        // And past the unrolled bound: 399 positions in a loop of segments,
        // the last one shorter.
        convCase("conv-1x1-looped-positions", {1, 6, 21, 19}, {10, 6, 1, 1}, {1, 10, 21, 19}, true,
                 [](onnxio::NodeBuilder&) {}),
        // Strided narrow rows flattened too: a span per input row, shuffled.
        convCase("conv-1x1-stride-2-narrow-rows", {1, 6, 10, 9}, {5, 6, 1, 1}, {1, 5, 5, 5}, true,
                 [](onnxio::NodeBuilder& n) {
                     n.attr("strides", std::vector<int64_t>{2, 2});
                 }),
        convCase(
            "conv-transpose-2x2-stride-2", {1, 6, 5, 7}, {6, 4, 2, 2}, {1, 4, 10, 14}, true,
            [](onnxio::NodeBuilder& n) {
                n.attr("strides", std::vector<int64_t>{2, 2});
            },
            "ConvTranspose"),
        convCase(
            "conv-transpose-3x3-stride-2-padded", {1, 3, 6, 5}, {3, 5, 3, 3}, {1, 5, 12, 10}, false,
            [](onnxio::NodeBuilder& n) {
                n.attr("strides", std::vector<int64_t>{2, 2})
                    .attr("pads", std::vector<int64_t>{1, 1, 1, 1})
                    .attr("output_padding", std::vector<int64_t>{1, 1});
            },
            "ConvTranspose"),
        convCase(
            "conv-transpose-dilated-grouped", {1, 4, 5, 5}, {4, 3, 3, 3}, {1, 6, 13, 13}, true,
            [](onnxio::NodeBuilder& n) {
                n.attr("strides", std::vector<int64_t>{2, 2})
                    .attr("dilations", std::vector<int64_t>{2, 2})
                    .attr("group", 2);
            },
            "ConvTranspose"),
        {"matmul-batched",
         DType::Float32,
         {2, 3, 37, 19},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded& r) {
             m.addFloatInitializer("b", {2, 3, 19, 150}, r.floats(2 * 3 * 19 * 150, 0.5));
             m.addNode("MatMul", {"x", "b"}, {"y"});
             output(m, "y", DType::Float32, {2, 3, 37, 150});
         }},
        {"dense-many-feature-tiles",
         DType::Float32,
         {1, 24, 512},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded& r) {
             m.addFloatInitializer("w", {512, 1000}, r.floats(512 * 1000, 0.1));
             m.addNode("MatMul", {"x", "w"}, {"y"});
             output(m, "y", DType::Float32, {1, 24, 1000});
         }},
        {"matmul-reduction-chunks",
         DType::Float32,
         {1, 24, 16384},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded& r) {
             m.addFloatInitializer("w", {16384, 200}, r.floats(16384 * 200, 0.1));
             m.addNode("MatMul", {"x", "w"}, {"y"});
             output(m, "y", DType::Float32, {1, 24, 200});
         }},
        {"attention-masked-softmax",
         DType::Float32,
         {2, 16, 64},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded& r) {
             m.addFloatInitializer("w", {64, 16}, r.floats(64 * 16, 0.5));
             std::vector<float> mask(16, 0.0f);
             for (size_t i = 0; i < mask.size(); i += 3)
                 mask[i] = -10000.0f;
             m.addFloatInitializer("mask", {16}, mask);
             m.addNode("MatMul", {"x", "w"}, {"scores"});
             m.addNode("Add", {"scores", "mask"}, {"masked"});
             m.addNode("Softmax", {"masked"}, {"y"}).attr("axis", int64_t{-1});
             output(m, "y", DType::Float32, {2, 16, 16});
         }},
        {"layernorm-square",
         DType::Float32,
         {4, 96},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             scalar(m, "two", DType::Float32, 2.0);
             m.addNode("Pow", {"x", "two"}, {"squared"});
             m.addNode("ReduceMean", {"squared"}, {"y"}).attr("axes", std::vector<int64_t>{-1});
             output(m, "y", DType::Float32, {4, 1});
         }},
        {"gemm-transposed",
         DType::Float32,
         {11, 20},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded& r) {
             m.addFloatInitializer("b", {70, 20}, r.floats(70 * 20, 0.5));
             m.addFloatInitializer("c", {70}, r.floats(70, 1.0));
             m.addNode("Gemm", {"x", "b", "c"}, {"y"})
                 .attr("transB", 1)
                 .attr("alpha", 0.5f)
                 .attr("beta", 2.0f);
             output(m, "y", DType::Float32, {11, 70});
         }},
    };
    return all;
}

} // namespace

class ContractionsMatchOnnxRuntime : public ::testing::TestWithParam<StrategyRow> {};

TEST_P(ContractionsMatchOnnxRuntime, contractionsMatchOnnxRuntime) {
    expectMatchesOnnxRuntime(contractionCases()[GetParam().index], GetParam().strategy);
}

INSTANTIATE_TEST_SUITE_P(TestContractions, ContractionsMatchOnnxRuntime,
                         ::testing::ValuesIn(strategyRows(contractionCases())), test::RowName{});

/// The case named \p name.
const Case& caseNamed(const std::string& name) {
    const auto& all = contractionCases();
    auto c = std::find_if(all.begin(), all.end(), [&](const Case& k) { return k.name == name; });
    EXPECT_TRUE(c != all.end()) << name;
    return *c;
}

// Over taps, the output rows run outside the block's tiles where the whole
// block's weights fit half a core's L2 share (the 3 x 3 Conv of 13
// channels, 2.3 KB: each input row read once, the weights from L2 per
// row; named "rows" in the IR), not where they do not (512 x 512 x 3 x 3,
// 9.4 MB, 1.2 MB a thread's tile at 8 threads: each tile's weights kept
// over all rows). The first matches ONNX Runtime above.
TEST(TestContractions, rowsRunOutsideTheTilesOfSmallWeights) {
    TempDir dir;
    const Case large = convCase("conv-3x3-large-weights", {1, 512, 3, 20}, {512, 512, 3, 3},
                                {1, 512, 3, 20}, true, [](onnxio::NodeBuilder& n) {
                                    n.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
                                });
    for (const char* strategy : {"tvm", "graphturbo"}) {
        EXPECT_GT(
            countInKernels(caseNamed("conv-3x3-wide-rows"), strategy, dir.path(), "br label %rows"),
            0)
            << strategy;
        EXPECT_EQ(countInKernels(large, strategy, dir.path(), "br label %rows"), 0) << strategy;
    }
}

// Pow by a constant 2 squares (scalar_ops.cpp), as ONNX Runtime computes
// it, instead of calling powf: the kernel of the LayerNorm-like case calls
// no libm pow.
TEST(TestContractions, powByTwoSquares) {
    TempDir dir;
    Seeded r;
    const auto& all = contractionCases();
    auto c = std::find_if(all.begin(), all.end(),
                          [](const Case& k) { return std::string(k.name) == "layernorm-square"; });
    ASSERT_TRUE(c != all.end());
    ModelFile file = saveCase(*c, dir.path() / "square.onnx", r);
    auto planned = plan(file, "stcp920", "tvm");
    ASSERT_TRUE(planned.ok()) << (planned.ok() ? "" : planned.error().message().c_str());
    const codegen::CodePlan& code = (*planned)->plan;
    ASSERT_FALSE(code.kernels.empty());
    for (size_t k = 0; k < code.kernels.size(); ++k) {
        auto text = codegen::lowerKernelText((*planned)->graph,
                                             *(*planned)->evaluation.schedule.semantics, code, k);
        ASSERT_TRUE(text.ok()) << text.error().message();
        EXPECT_FALSE(test::containsText(*text, "powf")) << code.kernels[k].symbol;
    }
}

// A Softmax whose instance writes whole rows (the attention's, rows of 16)
// computes each exponential once: kept in its output as the sum goes (named
// "kept"), then divided there, under both strategies (the rows of a tail,
// softmax-rows-with-a-tail, take it too and match ONNX Runtime).
TEST(TestContractions, softmaxKeepsItsExponentials) {
    TempDir dir;
    for (const char* strategy : {"tvm", "graphturbo"})
        EXPECT_GT(
            countInKernels(caseNamed("attention-masked-softmax"), strategy, dir.path(), "%kept"), 0)
            << strategy;
}

// A tile's accumulators, a step's row vectors and one broadcast fit the
// vector registers (blocked_plan.cpp, chunksForRegisters): with AVX2's and
// SSE2's 16, a dense layer runs 3 vectors by 4 rows, not 4 by 3, which
// spilled an accumulator every step; AVX-512's 32 hold 4 by 6. Rows of 7
// flatten in 8 lanes as they fill them alike (7 of 8, 49 of 56). Each
// kernel's innermost loops keep their vectors in registers, and the AVX2
// kernels match ONNX Runtime whatever this machine's vectors.
TEST(TestContractions, innerLoopsKeepTheirVectorsInRegisters) {
    TempDir dir;
    for (const char* name :
         {"dense-many-feature-tiles", "matmul-reduction-chunks", "conv-1x1", "conv-3x3-wide-rows"})
        for (const char* cpu : {"x86-64-v3", "x86-64", "skylake-avx512"})
            EXPECT_EQ(innerLoopVectorSpills(caseNamed(name), "graphturbo", dir.path(), cpu), 0)
                << name << " for " << cpu;
    expectMatchesOnnxRuntime(caseNamed("dense-many-feature-tiles"), "graphturbo", "x86-64-v3");
    expectMatchesOnnxRuntime(caseNamed("conv-1x1"), "graphturbo", "x86-64-v3");
}
