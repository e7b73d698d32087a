// Integer contractions in the register-blocked lowering (blocked_integer.cpp,
// issue 65): ConvInteger, MatMulInteger, QLinearConv and QLinearMatMul of u8
// and s8 factors sum in int32 lanes, each factor widened and its zero point
// subtracted before a multiply-add (a word dot product on x86); the QLinear
// ones requantize the lanes before the store. Against ONNX Runtime under tvm
// and graphturbo (exact: integer sums), with padding, zero points near both
// ends of u8 and s8 weights (ONNX Runtime takes only u8 weights and
// per-tensor zero points in ConvInteger, a per-tensor a_zero_point in
// MatMulInteger), compiled for this machine and for x86 CPUs of each
// multiply-add it may have; and checks that the kernels take the path
// (int32 vector multiply-adds), which a per-column zero point of the row
// factor does not, and the multiply-add each CPU has; an s8 weight of zero
// point 0 by u8 rows (stored with 4 reduction steps interleaved; a Conv's
// with 4 input channels grouped, by a u8 input of any zero point, the
// padding read as it; a u8 weight of zero point 128 stored as s8 by the
// import; an image's 3 input channels padded to a group) sums byte dot
// products with AVX-512 VNNI.

#include "codegen/codegen.h"
#include "coretestsupport.h"
#include "small_model_case.h"

#include <array>
#include <gtest/gtest.h>
#include <string>
#include <string_view>
#include <vector>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

/// A 3 x 3 ConvInteger (padding 1) and a 1 x 1 one, added.
const Case& convCase() {
    static const Case c{"conv-integer-lanes",
                        DType::UInt8,
                        {1, 8, 14, 14},
                        0,
                        [](onnxio::ModelBuilder& m, Seeded& r) {
                            m.addInlineInitializer("w", DType::UInt8, {16, 8, 3, 3},
                                                   bytesOf(r.ints<uint8_t>(16 * 8 * 9, 0, 255)));
                            m.addInlineInitializer("v", DType::UInt8, {16, 8, 1, 1},
                                                   bytesOf(r.ints<uint8_t>(16 * 8, 0, 255)));
                            scalar(m, "xz", DType::UInt8, 3);
                            scalar(m, "wz", DType::UInt8, 131);
                            scalar(m, "vz", DType::UInt8, 250);
                            m.addNode("ConvInteger", {"x", "w", "xz", "wz"}, {"y1"})
                                .attr("pads", std::vector<int64_t>{1, 1, 1, 1});
                            m.addNode("ConvInteger", {"x", "v", "xz", "vz"}, {"y2"});
                            m.addNode("Add", {"y1", "y2"}, {"y"});
                            output(m, "y", DType::Int32, {1, 16, 14, 14});
                        }};
    return c;
}

/// A MatMulInteger of s8 weights, both zero points per tensor.
const Case& matmulCase() {
    static const Case c{"matmul-integer-lanes",
                        DType::UInt8,
                        {2, 16, 40},
                        0,
                        [](onnxio::ModelBuilder& m, Seeded& r) {
                            s8Weight(m, r, "b", {40, 48});
                            scalar(m, "az", DType::UInt8, 200);
                            scalar(m, "bz", DType::Int8, 7);
                            m.addNode("MatMulInteger", {"x", "b", "az", "bz"}, {"y"});
                            output(m, "y", DType::Int32, {2, 16, 48});
                        }};
    return c;
}

/// As matmulCase with the row factor's zero point per column: its lanes
/// would subtract different zero points, so it stays scalar.
const Case& perColumnCase() {
    static const Case c{"matmul-integer-per-column",
                        DType::UInt8,
                        {2, 16, 40},
                        0,
                        [](onnxio::ModelBuilder& m, Seeded& r) {
                            s8Weight(m, r, "b", {40, 48});
                            scalar(m, "az", DType::UInt8, 17);
                            m.addInlineInitializer("bz", DType::Int8, {48},
                                                   bytesOf(r.ints<int8_t>(48, -9, 9)));
                            m.addNode("MatMulInteger", {"x", "b", "az", "bz"}, {"y"});
                            output(m, "y", DType::Int32, {2, 16, 48});
                        }};
    return c;
}

/// QLinearConv (3 x 3, padding 1, per-channel weight scales, a bias) and
/// QLinearMatMul (a weight of 48 columns): the sums requantized to u8.
const Case& requantizedCase() {
    static const Case c{
        "qlinear-lanes", DType::UInt8, {1, 8, 12, 12}, 0, [](onnxio::ModelBuilder& m, Seeded& r) {
            scalar(m, "xs", DType::Float32, 0.05);
            scalar(m, "xz", DType::UInt8, 120);
            m.addInlineInitializer("w", DType::Int8, {16, 8, 3, 3},
                                   bytesOf(r.ints<int8_t>(16 * 72, -127, 127)));
            m.addFloatInitializer("ws", {16}, r.floats(16, 0.01));
            m.addInlineInitializer("wz", DType::Int8, {16}, bytesOf(std::vector<int8_t>(16, 0)));
            scalar(m, "ys", DType::Float32, 0.2);
            scalar(m, "yz", DType::UInt8, 100);
            m.addInlineInitializer("bias", DType::Int32, {16},
                                   bytesOf(r.ints<int32_t>(16, -2000, 2000)));
            m.addNode("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "bias"}, {"c"})
                .attr("pads", std::vector<int64_t>{1, 1, 1, 1});
            m.addInlineInitializer("b", DType::UInt8, {12, 48},
                                   bytesOf(r.ints<uint8_t>(12 * 48, 0, 255)));
            scalar(m, "bs", DType::Float32, 0.03);
            scalar(m, "bz", DType::UInt8, 125);
            scalar(m, "ms", DType::Float32, 0.5);
            scalar(m, "mz", DType::UInt8, 128);
            m.addNode("QLinearMatMul", {"c", "ys", "yz", "b", "bs", "bz", "ms", "mz"}, {"y"});
            output(m, "y", DType::UInt8, {1, 16, 12, 48});
        }};
    return c;
}

/// A MatMulInteger of an s8 weight by u8 rows of zero point 200, the
/// weight's zero point \p weightZero (0 counts as none; it is given all the
/// same, as ONNX Runtime's x64quantprecision rewrite on CPUs without VNNI
/// reads the node's fourth input and aborts without it). With none the host
/// stores the weight with 4 reduction steps interleaved and sums byte dot
/// products (GlobalTensor::hostBlockGroup); 512 steps run in reduction
/// chunks (the later ones start from the sums stored, the zero point's
/// share taken off in each).
Case byteDotsModel(const char* name, int weightZero) {
    return {name, DType::UInt8, {1, 64, 512}, 0, [weightZero](onnxio::ModelBuilder& m, Seeded& r) {
                s8Weight(m, r, "b", {512, 128});
                scalar(m, "az", DType::UInt8, 200);
                scalar(m, "bz", DType::Int8, weightZero);
                m.addNode("MatMulInteger", {"x", "b", "az", "bz"}, {"y"});
                output(m, "y", DType::Int32, {1, 64, 128});
            }};
}

const Case& byteDotsCase() {
    static const Case c = byteDotsModel("matmul-byte-dots", 0);
    return c;
}

/// As byteDotsCase with a weight zero point of 7: not grouped.
const Case& weightZeroCase() {
    static const Case c = byteDotsModel("matmul-weight-zero", 7);
    return c;
}

/// QLinearMatMul of u8 rows (zero point 131) by an s8 weight of zero point
/// 0, requantized: byte dot products too.
const Case& requantizedDotsCase() {
    static const Case c{
        "qlinear-byte-dots", DType::UInt8, {1, 64, 128}, 0, [](onnxio::ModelBuilder& m, Seeded& r) {
            scalar(m, "xs", DType::Float32, 0.05);
            scalar(m, "xz", DType::UInt8, 131);
            s8Weight(m, r, "w", {128, 256});
            scalar(m, "ws", DType::Float32, 0.02);
            scalar(m, "wz", DType::Int8, 0);
            scalar(m, "ys", DType::Float32, 0.4);
            scalar(m, "yz", DType::UInt8, 120);
            m.addNode("QLinearMatMul", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz"}, {"y"});
            output(m, "y", DType::UInt8, {1, 64, 256});
        }};
    return c;
}

/// QLinearConvs of u8 inputs of zero point 0 (after a Relu) by s8 weights
/// of zero point 0, 3 x 3 with padding: rows of 14 in 16 lanes, then of
/// stride 2 into 7 x 7, flattened to 49 positions (their strided rows
/// gathered once per segment, blocked_kept_rows.cpp).
/// The host stores their weights with 4 input channels grouped and sums
/// byte dot products of 4 input channels' vectors interleaved.
const Case& convDotsCase() {
    static const Case c{
        "qlinear-conv-byte-dots",
        DType::UInt8,
        {1, 16, 14, 14},
        0,
        [](onnxio::ModelBuilder& m, Seeded& r) {
            scalar(m, "xs", DType::Float32, 0.05);
            scalar(m, "xz", DType::UInt8, 0);
            s8Weight(m, r, "w", {32, 16, 3, 3});
            m.addFloatInitializer("ws", {32}, r.floats(32, 0.002));
            m.addInlineInitializer("wz", DType::Int8, {32}, bytesOf(std::vector<int8_t>(32, 0)));
            scalar(m, "cs", DType::Float32, 0.3);
            scalar(m, "cz", DType::UInt8, 0);
            m.addInlineInitializer("bias", DType::Int32, {32},
                                   bytesOf(r.ints<int32_t>(32, -3000, 3000)));
            m.addNode("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "cs", "cz", "bias"}, {"c"})
                .attr("pads", std::vector<int64_t>{1, 1, 1, 1});
            s8Weight(m, r, "v", {16, 32, 3, 3});
            scalar(m, "vs", DType::Float32, 0.004);
            scalar(m, "vz", DType::Int8, 0);
            scalar(m, "ys", DType::Float32, 0.2);
            scalar(m, "yz", DType::UInt8, 110);
            m.addNode("QLinearConv", {"c", "cs", "cz", "v", "vs", "vz", "ys", "yz"}, {"y"})
                .attr("strides", std::vector<int64_t>{2, 2})
                .attr("pads", std::vector<int64_t>{1, 1, 1, 1});
            output(m, "y", DType::UInt8, {1, 16, 7, 7});
        }};
    return c;
}

/// A padded 3 x 3 QLinearConv over rows of 28 (4 vectors of 8 lanes) of
/// 32 output channels: without VNNI its tile holds 2 row vectors by 4
/// accumulators in AVX2's 16 registers, each row vector and weight
/// broadcast split into two words'.
const Case& wideRowDotsCase() {
    static const Case c{"qlinear-conv-wide-row-dots",
                        DType::UInt8,
                        {1, 16, 28, 28},
                        0,
                        [](onnxio::ModelBuilder& m, Seeded& r) {
                            scalar(m, "xs", DType::Float32, 0.05);
                            scalar(m, "xz", DType::UInt8, 0);
                            s8Weight(m, r, "w", {32, 16, 3, 3});
                            scalar(m, "ws", DType::Float32, 0.002);
                            scalar(m, "wz", DType::Int8, 0);
                            scalar(m, "ys", DType::Float32, 0.3);
                            scalar(m, "yz", DType::UInt8, 100);
                            m.addNode("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz"},
                                      {"y"})
                                .attr("pads", std::vector<int64_t>{1, 1, 1, 1});
                            output(m, "y", DType::UInt8, {1, 32, 28, 28});
                        }};
    return c;
}

/// 1 x 1 QLinearConvs (no padding) of u8 inputs of zero point 128 (a
/// residual sum's) by s8 weights of zero point 0, of stride 1 and 2: byte
/// dot products too, each tile row's weight sums taking the input's zero
/// point off.
const Case& shiftedConvDotsCase() {
    static const Case c{
        "qlinear-conv-shifted-dots",
        DType::UInt8,
        {1, 32, 14, 14},
        0,
        [](onnxio::ModelBuilder& m, Seeded& r) {
            scalar(m, "xs", DType::Float32, 0.05);
            scalar(m, "xz", DType::UInt8, 128);
            s8Weight(m, r, "w", {64, 32, 1, 1});
            scalar(m, "ws", DType::Float32, 0.003);
            scalar(m, "wz", DType::Int8, 0);
            scalar(m, "cs", DType::Float32, 0.4);
            scalar(m, "cz", DType::UInt8, 128);
            m.addNode("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "cs", "cz"}, {"c"});
            s8Weight(m, r, "v", {32, 64, 1, 1});
            scalar(m, "vs", DType::Float32, 0.002);
            scalar(m, "vz", DType::Int8, 0);
            scalar(m, "ys", DType::Float32, 0.3);
            scalar(m, "yz", DType::UInt8, 125);
            m.addNode("QLinearConv", {"c", "cs", "cz", "v", "vs", "vz", "ys", "yz"}, {"y"})
                .attr("strides", std::vector<int64_t>{2, 2});
            output(m, "y", DType::UInt8, {1, 32, 7, 7});
        }};
    return c;
}

/// ConvIntegers (3 x 3, padding 1, of stride 1 and 2) of a float input
/// quantized at run time (DynamicQuantizeLinear: its zero point unknown
/// when compiling) by u8 weights of zero point 128, as ONNX Runtime's
/// quantizer writes them: the import stores the weights as s8 (less 128),
/// and the host sums byte dot products, the padding lanes and taps read as
/// the input's zero point; rows of 17 (past 16 lanes, a lane that reads
/// no tap at the right edge), then 9.
const Case& centredConvDotsCase() {
    static const Case c{"conv-integer-centred-dots",
                        DType::Float32,
                        {1, 8, 17, 17},
                        4.0,
                        [](onnxio::ModelBuilder& m, Seeded& r) {
                            m.addNode("DynamicQuantizeLinear", {"x"}, {"q", "qs", "qz"});
                            for (const char* w : {"w", "v"})
                                m.addInlineInitializer(
                                    w, DType::UInt8, {16, 8, 3, 3},
                                    bytesOf(r.ints<uint8_t>(16 * 8 * 9, 0, 255)));
                            scalar(m, "wz", DType::UInt8, 128);
                            m.addNode("ConvInteger", {"q", "w", "qz", "wz"}, {"y"})
                                .attr("pads", std::vector<int64_t>{1, 1, 1, 1});
                            m.addNode("ConvInteger", {"q", "v", "qz", "wz"}, {"z"})
                                .attr("strides", std::vector<int64_t>{2, 2})
                                .attr("pads", std::vector<int64_t>{1, 1, 1, 1});
                            output(m, "y", DType::Int32, {1, 16, 17, 17});
                            output(m, "z", DType::Int32, {1, 16, 9, 9});
                        }};
    return c;
}

/// An image's 3 channels (fewer than a group of 4): a QLinearConv by s8
/// weights and a ConvInteger by u8 weights of zero point 128 (stored as s8),
/// 7 x 7 of stride 2 over padding 3 (ResNet-50's stem), of a u8 input of
/// zero point 114. The host stores the weights padded with zeros to 4
/// channels and sums byte dot products, the missing channel's lanes any bytes.
const Case& imageConvDotsCase() {
    static const Case c{
        "conv-image-dots", DType::UInt8, {1, 3, 22, 22}, 0, [](onnxio::ModelBuilder& m, Seeded& r) {
            scalar(m, "xs", DType::Float32, 0.02);
            scalar(m, "xz", DType::UInt8, 114);
            s8Weight(m, r, "w", {8, 3, 7, 7});
            m.addFloatInitializer("ws", {8}, r.floats(8, 0.002));
            m.addInlineInitializer("wz", DType::Int8, {8}, bytesOf(std::vector<int8_t>(8, 0)));
            scalar(m, "ys", DType::Float32, 0.1);
            scalar(m, "yz", DType::UInt8, 0);
            m.addInlineInitializer("bias", DType::Int32, {8},
                                   bytesOf(r.ints<int32_t>(8, -3000, 3000)));
            const std::vector<int64_t> stride2{2, 2}, pads3{3, 3, 3, 3};
            m.addNode("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "bias"}, {"y"})
                .attr("strides", stride2)
                .attr("pads", pads3);
            m.addInlineInitializer("v", DType::UInt8, {8, 3, 7, 7},
                                   bytesOf(r.ints<uint8_t>(8 * 3 * 49, 0, 255)));
            scalar(m, "vz", DType::UInt8, 128);
            m.addNode("ConvInteger", {"x", "v", "xz", "vz"}, {"z"})
                .attr("strides", stride2)
                .attr("pads", pads3);
            output(m, "y", DType::UInt8, {1, 8, 11, 11});
            output(m, "z", DType::Int32, {1, 8, 11, 11});
        }};
    return c;
}

/// Byte dot products (AVX-512 VNNI), of 512 and of 256 bits (test_small_kept_rows.cpp
/// checks the 256-bit ones).
constexpr const char* kByteDot = "@llvm.x86.avx512.vpdpbusd.";

/// The int32 multiply-adds of the lanes: vpdpwssd (AVX-512 VNNI), vpmaddwd
/// (AVX-512 BW, AVX2) or a multiply elsewhere.
constexpr std::array<const char*, 4> kIntegerMultiplyAdds{"@llvm.x86.avx512.vpdpwssd.512(",
                                                          "@llvm.x86.avx512.pmaddw.d.512(",
                                                          "@llvm.x86.avx2.pmadd.wd(", "= mul <"};

/// x86 CPUs of each multiply-add (emitProgram's --cpu) and the feature it needs.
struct CpuCase {
    const char* cpu;
    const char* feature;
    const char* multiplyAdd;
};
constexpr std::array<CpuCase, 4> kCpus{{{"icelake-server", "avx512vnni", kIntegerMultiplyAdds[0]},
                                        {"skylake-avx512", "avx512bw", kIntegerMultiplyAdds[1]},
                                        {"haswell", "avx2", kIntegerMultiplyAdds[2]},
                                        {"x86-64", "sse2", kIntegerMultiplyAdds[3]}}};

int64_t integerMultiplyAdds(const Case& c, const char* strategy, const std::filesystem::path& dir) {
    int64_t count = 0;
    for (const char* form : kIntegerMultiplyAdds)
        count += countInKernels(c, strategy, dir, form);
    return count;
}

const std::array<const Case*, 12>& cases() {
    static const std::array<const Case*, 12> all{&convCase(),
                                                 &matmulCase(),
                                                 &perColumnCase(),
                                                 &requantizedCase(),
                                                 &byteDotsCase(),
                                                 &requantizedDotsCase(),
                                                 &weightZeroCase(),
                                                 &convDotsCase(),
                                                 &shiftedConvDotsCase(),
                                                 &centredConvDotsCase(),
                                                 &imageConvDotsCase(),
                                                 &wideRowDotsCase()};
    return all;
}

} // namespace

class IntegersMatchOnnxRuntime : public ::testing::TestWithParam<const char*> {};

TEST_P(IntegersMatchOnnxRuntime, integerLanesMatchOnnxRuntime) {
    for (const Case* c : cases())
        expectMatchesOnnxRuntime(*c, GetParam());
}

INSTANTIATE_TEST_SUITE_P(TestIntegers, IntegersMatchOnnxRuntime,
                         ::testing::Values("tvm", "graphturbo"));

// Each multiply-add this machine can run, compiled for a CPU that has it
// and no later one, gives ONNX Runtime's outputs too.
TEST(TestIntegers, everyMultiplyAddMatchesOnnxRuntime) {
    const std::string host = "," + codegen::targetInfo(codegen::Target::Host).features + ",";
    for (const CpuCase& cpu : kCpus) {
        if (host.find(",+" + std::string(cpu.feature) + ",") == std::string::npos) {
            test::info("this machine has no %s: %s not run", cpu.feature, cpu.cpu);
            continue;
        }
        SCOPED_TRACE(cpu.cpu);
        for (const Case* c : cases())
            expectMatchesOnnxRuntime(*c, "graphturbo", cpu.cpu);
    }
}

// The blocked cases multiply-add int32 vectors, in word or byte dot
// products (the QLinear ones round theirs in lanes); the per-column one none.
TEST(TestIntegers, integerContractionsRunInInt32Lanes) {
    TempDir dir;
    for (const char* strategy : {"tvm", "graphturbo"}) {
        EXPECT_GT(countInKernels(convCase(), strategy, dir.path(), " i32> "), 0) << strategy;
        EXPECT_GT(integerMultiplyAdds(convCase(), strategy, dir.path()), 0) << strategy;
        EXPECT_GT(integerMultiplyAdds(matmulCase(), strategy, dir.path()), 0) << strategy;
        EXPECT_EQ(integerMultiplyAdds(perColumnCase(), strategy, dir.path()), 0) << strategy;
        EXPECT_GE(integerMultiplyAdds(requantizedCase(), strategy, dir.path()) +
                      countInKernels(requantizedCase(), strategy, dir.path(), kByteDot),
                  2)
            << strategy; // both ops
        EXPECT_GT(countInKernels(requantizedCase(), strategy, dir.path(), "@llvm.roundeven.v"), 0)
            << strategy;
    }
}

// The multiply-add follows the CPU compiled for: VNNI's vpdpwssd, else
// vpmaddwd at 512 or 256 bits, else a multiply (SSE2).
TEST(TestIntegers, multiplyAddsFollowTheCpu) {
    TempDir dir;
    for (const CpuCase& cpu : kCpus) {
        const std::string ir = optimizedKernels(convCase(), "graphturbo", dir.path(), cpu.cpu);
        EXPECT_GT(test::countText(ir, cpu.multiplyAdd), 0) << cpu.cpu;
        for (const char* other : kIntegerMultiplyAdds) {
            if (std::string_view(other) != cpu.multiplyAdd && other != kIntegerMultiplyAdds[3]) {
                EXPECT_EQ(test::countText(ir, other), 0) << cpu.cpu << " " << other;
            }
        }
    }
}

/// A byte dot product by two word dot products (no VNNI): the s8 bytes'
/// odd ones sign-extended to words, in 512- and 256-bit vectors.
constexpr std::array<const char*, 2> kOddSignedWords{"= ashr <32 x i16> ", "= ashr <16 x i16> "};

// An s8 weight of zero point 0 by u8 rows (a Conv's by a u8 input of any
// zero point, padded or not; a u8 weight of zero point 128 so stored) sums
// byte dot products: VNNI's where the CPU compiled for has AVX-512 VNNI,
// else two word dot products each (vpmaddwd on AVX-512 BW and AVX2, the
// bytes split into words); with a weight zero point of 7 the weight is not
// grouped and each lane multiplies one word (vpdpwssd, vpmaddwd). Each
// gives ONNX Runtime's outputs (everyMultiplyAddMatchesOnnxRuntime).
TEST(TestIntegers, byteDotsWhereTheCpuHasThem) {
    TempDir dir;
    for (const Case* c :
         {&byteDotsCase(), &requantizedDotsCase(), &convDotsCase(), &shiftedConvDotsCase(),
          &centredConvDotsCase(), &imageConvDotsCase(), &wideRowDotsCase()}) {
        const std::string vnni = optimizedKernels(*c, "graphturbo", dir.path(), "icelake-server");
        EXPECT_GT(test::countText(vnni, kByteDot), 0) << c->name;
        EXPECT_EQ(test::countText(vnni, kIntegerMultiplyAdds[0]), 0) << c->name;
        const std::string bw = optimizedKernels(*c, "graphturbo", dir.path(), "skylake-avx512");
        EXPECT_EQ(test::countText(bw, kByteDot), 0) << c->name;
        EXPECT_GT(test::countText(bw, kIntegerMultiplyAdds[1]), 0) << c->name;
        EXPECT_GT(test::countText(bw, kOddSignedWords[0]), 0) << c->name;
        const std::string avx2 = optimizedKernels(*c, "graphturbo", dir.path(), "haswell");
        EXPECT_GT(test::countText(avx2, kIntegerMultiplyAdds[2]), 0) << c->name;
        EXPECT_GT(test::countText(avx2, kOddSignedWords[1]), 0) << c->name;
    }
    const std::string other =
        optimizedKernels(weightZeroCase(), "graphturbo", dir.path(), "icelake-server");
    EXPECT_EQ(test::countText(other, kByteDot), 0);
    EXPECT_GT(test::countText(other, kIntegerMultiplyAdds[0]), 0);
    const std::string otherAvx2 =
        optimizedKernels(weightZeroCase(), "graphturbo", dir.path(), "haswell");
    EXPECT_GT(test::countText(otherAvx2, kIntegerMultiplyAdds[2]), 0);
    EXPECT_EQ(test::countText(otherAvx2, kOddSignedWords[1]), 0);
    // A padded QLinearConv of input zero point 120 sums byte dots; ConvIntegers
    // of u8 weights of zero points 131 and 250 keep the word dot product.
    EXPECT_GT(test::countText(
                  optimizedKernels(requantizedCase(), "graphturbo", dir.path(), "icelake-server"),
                  kByteDot),
              0);
    const std::string word =
        optimizedKernels(convCase(), "graphturbo", dir.path(), "icelake-server");
    EXPECT_EQ(test::countText(word, kByteDot), 0);
    EXPECT_GT(test::countText(word, kIntegerMultiplyAdds[0]), 0);
}

// Byte dot products in words take two registers per row vector and weight
// broadcast, and AVX2's tiles are sized so: 2 row vectors by 4
// accumulators. Sized as a float tile (3 by 4) this case's inner loops
// spilled or reloaded 44 vectors; 2 by 4 leaves LLVM's scheduler 12 (it
// loads the next tap's rows early); 2 by 3 spilled none but ran ResNet-50
// i8 and BERT-base i8 1.1x as long.
TEST(TestIntegers, byteDotsInWordsFitTheRegisters) {
    TempDir dir;
    for (const char* strategy : {"tvm", "graphturbo"})
        EXPECT_LE(innerLoopVectorSpills(wideRowDotsCase(), strategy, dir.path(), "haswell"), 16)
            << strategy;
}
