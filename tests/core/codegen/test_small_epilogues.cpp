// Epilogues in registers (lower_epilogue.cpp, issue 65): contractions whose
// elementwise successors run on the register-blocked lowering's sums before
// the one store, against ONNX Runtime under tvm and graphturbo — a Conv's
// bias, Relu, a residual Add of the block's input and a Clip by runtime
// bounds; a Relu then a batch norm that cannot fold into the Conv; a
// MatMul's bias, scale and LeakyRelu; a QLinearConv's bytes dequantized,
// a residual Add, Relu and quantized again (a QDQ ResNet-50 block's end); a
// QLinearMatMul's bytes dequantized and a bias added; a ConvInteger's sums
// cast to f32, scaled, a bias added and Relu (as ONNX Runtime's dynamic
// quantizer writes a Conv); a 1 x 1 Conv's rows flattened across output
// rows, a bias, a residual and Relu; a MatMul summed in reduction chunks,
// a bias and Relu on the last chunk's sums — and a check that
// their kernels take the path (the values it computes are named
// "epilogue"), which a MatMul followed by a Softmax does not; and that the
// host's kernels prefetch a residual a segment ahead (blocked_prefetch.cpp).

#include "codegen/codegen.h"
#include "coretestsupport.h"
#include "small_model_case.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

void convReluResidualClip(onnxio::ModelBuilder& m, Seeded& r) {
    m.addFloatInitializer("w", {8, 8, 3, 3}, r.floats(8 * 8 * 9, 0.5));
    m.addFloatInitializer("b", {8}, r.floats(8, 1.0));
    scalar(m, "lo", DType::Float32, 0.0);
    scalar(m, "hi", DType::Float32, 3.0);
    m.addNode("Conv", {"x", "w", "b"}, {"c"}).attr("pads", std::vector<int64_t>{1, 1, 1, 1});
    m.addNode("Relu", {"c"}, {"r"});
    m.addNode("Add", {"r", "x"}, {"a"});
    m.addNode("Clip", {"a", "lo", "hi"}, {"y"});
    output(m, "y", DType::Float32, {1, 8, 10, 10});
}

void convReluBatchNorm(onnxio::ModelBuilder& m, Seeded& r) {
    m.addFloatInitializer("w", {10, 6, 1, 1}, r.floats(60, 0.5));
    m.addFloatInitializer("scale", {10}, r.floats(10, 1.0));
    m.addFloatInitializer("shift", {10}, r.floats(10, 1.0));
    m.addFloatInitializer("mean", {10}, r.floats(10, 0.5));
    std::vector<float> var = r.floats(10, 0.5);
    for (float& v : var)
        v = v * v + 0.1f;
    m.addFloatInitializer("var", {10}, var);
    m.addNode("Conv", {"x", "w"}, {"c"});
    m.addNode("Relu", {"c"}, {"r"});
    m.addNode("BatchNormalization", {"r", "scale", "shift", "mean", "var"}, {"y"});
    output(m, "y", DType::Float32, {1, 10, 9, 12});
}

void matmulBiasScaleLeakyRelu(onnxio::ModelBuilder& m, Seeded& r) {
    m.addFloatInitializer("w", {40, 24}, r.floats(40 * 24, 0.5));
    m.addFloatInitializer("bias", {24}, r.floats(24, 1.0));
    m.addFloatInitializer("scale", {24}, r.floats(24, 2.0));
    m.addNode("MatMul", {"x", "w"}, {"p"});
    m.addNode("Add", {"p", "bias"}, {"q"});
    m.addNode("Mul", {"q", "scale"}, {"s"});
    m.addNode("LeakyRelu", {"s"}, {"y"}).attr("alpha", 0.1f);
    output(m, "y", DType::Float32, {12, 24});
}

void matmulSoftmax(onnxio::ModelBuilder& m, Seeded& r) {
    m.addFloatInitializer("w", {40, 24}, r.floats(40 * 24, 0.5));
    m.addNode("MatMul", {"x", "w"}, {"p"});
    m.addNode("Softmax", {"p"}, {"y"}).attr("axis", int64_t{-1});
    output(m, "y", DType::Float32, {12, 24});
}

/// Requantized to u8 in registers, dequantized, a residual Add of the
/// input dequantized, Relu, quantized: one store of bytes. Input zero point
/// 120 (padding read as it), per-channel weight scales, a bias.
void qlinearConvResidualQuantize(onnxio::ModelBuilder& m, Seeded& r) {
    scalar(m, "xs", DType::Float32, 0.05);
    scalar(m, "xz", DType::UInt8, 120);
    m.addInlineInitializer("w", DType::Int8, {8, 8, 3, 3},
                           bytesOf(r.ints<int8_t>(8 * 72, -127, 127)));
    m.addFloatInitializer("ws", {8}, r.floats(8, 0.01));
    m.addInlineInitializer("wz", DType::Int8, {8}, bytesOf(std::vector<int8_t>(8, 0)));
    scalar(m, "cs", DType::Float32, 0.1);
    scalar(m, "cz", DType::UInt8, 128);
    m.addInlineInitializer("bias", DType::Int32, {8}, bytesOf(r.ints<int32_t>(8, -2000, 2000)));
    m.addNode("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "cs", "cz", "bias"}, {"c"})
        .attr("pads", std::vector<int64_t>{1, 1, 1, 1});
    m.addNode("DequantizeLinear", {"c", "cs", "cz"}, {"cf"});
    m.addNode("DequantizeLinear", {"x", "xs", "xz"}, {"xf"});
    m.addNode("Add", {"cf", "xf"}, {"a"});
    m.addNode("Relu", {"a"}, {"relu"});
    scalar(m, "ys", DType::Float32, 0.08);
    scalar(m, "yz", DType::UInt8, 3);
    m.addNode("QuantizeLinear", {"relu", "ys", "yz"}, {"y"});
    output(m, "y", DType::UInt8, {1, 8, 10, 10});
}

/// Requantized to u8 in registers, dequantized, a bias added: f32 stored.
void qlinearMatMulBias(onnxio::ModelBuilder& m, Seeded& r) {
    scalar(m, "xs", DType::Float32, 0.02);
    scalar(m, "xz", DType::UInt8, 131);
    m.addInlineInitializer("w", DType::UInt8, {40, 24}, bytesOf(r.ints<uint8_t>(40 * 24, 0, 255)));
    scalar(m, "ws", DType::Float32, 0.03);
    scalar(m, "wz", DType::UInt8, 125);
    scalar(m, "ps", DType::Float32, 0.5);
    scalar(m, "pz", DType::UInt8, 128);
    m.addNode("QLinearMatMul", {"x", "xs", "xz", "w", "ws", "wz", "ps", "pz"}, {"p"});
    m.addNode("DequantizeLinear", {"p", "ps", "pz"}, {"pf"});
    m.addFloatInitializer("bias", {24}, r.floats(24, 1.0));
    m.addNode("Add", {"pf", "bias"}, {"y"});
    output(m, "y", DType::Float32, {12, 24});
}

/// int32 sums cast to f32 in registers, scaled, a bias added, Relu: one
/// store of f32. u8 weights of zero point 128 (the import stores them s8),
/// an input zero point of 97, padding.
void convIntegerCastScaleBias(onnxio::ModelBuilder& m, Seeded& r) {
    m.addInlineInitializer("w", DType::UInt8, {8, 8, 3, 3},
                           bytesOf(r.ints<uint8_t>(8 * 72, 0, 255)));
    scalar(m, "xz", DType::UInt8, 97);
    scalar(m, "wz", DType::UInt8, 128);
    m.addNode("ConvInteger", {"x", "w", "xz", "wz"}, {"c"})
        .attr("pads", std::vector<int64_t>{1, 1, 1, 1});
    m.addNode("Cast", {"c"}, {"cf"}).attr("to", int64_t{1});
    scalar(m, "scale", DType::Float32, 0.0004);
    m.addNode("Mul", {"cf", "scale"}, {"s"});
    m.addFloatInitializer("bias", {1, 8, 1, 1}, r.floats(8, 1.0));
    m.addNode("Add", {"s", "bias"}, {"a"});
    m.addNode("Relu", {"a"}, {"y"});
    output(m, "y", DType::Float32, {1, 8, 10, 10});
}

/// A 1 x 1 Conv into 14 x 14 (ResNet-50's stage-3 bottleneck's end): its
/// rows flattened to 196 positions in vectors across output rows, a bias,
/// the residual Add of a tensor laid out as the output, and Relu.
void flatConvResidual(onnxio::ModelBuilder& m, Seeded& r) {
    m.addFloatInitializer("w", {32, 16, 1, 1}, r.floats(32 * 16, 0.5));
    m.addFloatInitializer("skip", {1, 32, 14, 14}, r.floats(32 * 196, 1.0));
    m.addFloatInitializer("bias", {1, 32, 1, 1}, r.floats(32, 1.0));
    m.addNode("Conv", {"x", "w"}, {"c"});
    m.addNode("Add", {"c", "bias"}, {"b"});
    m.addNode("Add", {"b", "skip"}, {"a"});
    m.addNode("Relu", {"a"}, {"y"});
    output(m, "y", DType::Float32, {1, 32, 14, 14});
}

/// A MatMul deep enough to sum in reduction chunks (16,384 steps: a
/// segment's strip, 1.5 MB and more, past half of a 2 MiB L2), a bias and
/// Relu: only the last chunk's sums go through them.
void chunkedMatMulBiasRelu(onnxio::ModelBuilder& m, Seeded& r) {
    m.addFloatInitializer("w", {16384, 64}, r.floats(16384 * 64, 0.05));
    m.addFloatInitializer("bias", {64}, r.floats(64, 1.0));
    m.addNode("MatMul", {"x", "w"}, {"p"});
    m.addNode("Add", {"p", "bias"}, {"q"});
    m.addNode("Relu", {"q"}, {"y"});
    output(m, "y", DType::Float32, {8, 64});
}

const std::vector<Case>& epilogueCases() {
    static const std::vector<Case> all = {
        {"conv-relu-residual-clip", DType::Float32, {1, 8, 10, 10}, 2.0, convReluResidualClip},
        {"conv-relu-batchnorm", DType::Float32, {1, 6, 9, 12}, 2.0, convReluBatchNorm},
        {"matmul-bias-scale-leakyrelu", DType::Float32, {12, 40}, 2.0, matmulBiasScaleLeakyRelu},
        {"matmul-softmax", DType::Float32, {12, 40}, 2.0, matmulSoftmax},
        {"qlinearconv-residual-quantize",
         DType::UInt8,
         {1, 8, 10, 10},
         0,
         qlinearConvResidualQuantize},
        {"qlinearmatmul-bias", DType::UInt8, {12, 40}, 0, qlinearMatMulBias},
        {"convinteger-cast-scale-bias", DType::UInt8, {1, 8, 10, 10}, 0, convIntegerCastScaleBias},
        {"flat-conv-residual", DType::Float32, {1, 16, 14, 14}, 2.0, flatConvResidual},
        {"chunked-matmul-bias-relu", DType::Float32, {8, 16384}, 2.0, chunkedMatMulBiasRelu},
    };
    return all;
}

const Case& caseNamed(std::string_view name) {
    const std::vector<Case>& all = epilogueCases();
    return *std::find_if(all.begin(), all.end(), [&](const Case& c) { return c.name == name; });
}

} // namespace

class EpiloguesMatchOnnxRuntime : public ::testing::TestWithParam<StrategyRow> {};

TEST_P(EpiloguesMatchOnnxRuntime, epiloguesMatchOnnxRuntime) {
    expectMatchesOnnxRuntime(epilogueCases()[GetParam().index], GetParam().strategy);
}

INSTANTIATE_TEST_SUITE_P(TestEpilogues, EpiloguesMatchOnnxRuntime,
                         ::testing::ValuesIn(strategyRows(epilogueCases())), test::RowName{});

// The successors run in the contraction's registers under both strategies;
// a Softmax (a normalization, not an elementwise op) stays an op of its own.
TEST(TestEpilogues, elementwiseSuccessorsRunAsEpilogues) {
    TempDir dir;
    for (const char* strategy : {"tvm", "graphturbo"})
        for (const Case& c : epilogueCases()) {
            const bool expected = std::string(c.name) != "matmul-softmax";
            EXPECT_EQ(countInKernels(c, strategy, dir.path(), "%epilogue") > 0, expected)
                << c.name << " under " << strategy;
        }
}

// A contraction summed in reduction chunks (chunked-matmul-bias-relu) takes
// its epilogue too: the chunks store their partial sums, the last one runs
// the bias and Relu on its sums before the one store of the output.
TEST(TestEpilogues, reductionChunksTakeTheirEpilogue) {
    TempDir dir;
    const Case& c = caseNamed("chunked-matmul-bias-relu");
    for (const char* strategy : {"tvm", "graphturbo"}) {
        EXPECT_GT(countInKernels(c, strategy, dir.path(), "chunks"), 0) << strategy;
        EXPECT_GT(countInKernels(c, strategy, dir.path(), "%epilogue"), 0) << strategy;
    }
}

// Over rows flattened across output rows (flat-conv-residual: 196
// positions, 14 per row) the residual, laid out as the output, is one masked
// vector load per vector and the bias one splat, not a load per lane.
TEST(TestEpilogues, flattenedRowsLoadTheResidualAsVectors) {
    TempDir dir;
    const Case& c = caseNamed("flat-conv-residual");
    for (const char* strategy : {"tvm", "graphturbo"}) {
        EXPECT_GT(countInKernels(c, strategy, dir.path(), "%epiloguelanes"), 0) << strategy;
        EXPECT_EQ(countInKernels(c, strategy, dir.path(), "%epiloguegather"), 0) << strategy;
    }
}

// A residual laid out as the output (flat-conv-residual's skip) is
// prefetched a segment ahead on the host, and no input of a contraction
// without one is; riscv64's objects never prefetch (its caches are not
// modelled).
TEST(TestEpilogues, residualsArePrefetchedOnTheHost) {
    TempDir dir;
    constexpr std::string_view kPrefetch = "call void @llvm.prefetch";
    const Case& residual = caseNamed("flat-conv-residual");
    for (const char* strategy : {"tvm", "graphturbo"}) {
        EXPECT_GT(countInKernels(residual, strategy, dir.path(), kPrefetch), 0) << strategy;
        EXPECT_EQ(countInKernels(caseNamed("matmul-bias-scale-leakyrelu"), strategy, dir.path(),
                                 kPrefetch),
                  0)
            << strategy;
    }
    const std::string riscv =
        optimizedKernels(residual, "graphturbo", dir.path(), "", codegen::Target::RiscV64);
    ASSERT_FALSE(riscv.empty());
    EXPECT_EQ(test::countText(riscv, "@llvm.prefetch"), 0);
}
