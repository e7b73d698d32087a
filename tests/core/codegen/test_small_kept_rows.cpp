// Kept rows (blocked_kept_rows.cpp, issue 65): a QLinearConv's or
// ConvInteger's byte dot products along the row interleave 4 input
// channels' vectors into one; a segment stores each such vector once,
// before its tiles, and every tile loads it. Against ONNX Runtime under tvm
// and graphturbo (exact: integer sums): a padded 3 x 3 QLinearConv of an
// input zero point of 128 (its padding read as that zero point) into more
// output channels than a tile, then a 1 x 1 one of stride 2; and padded
// ConvIntegers of stride 1 and 2 of an input quantized at run time; and
// ones whose weight is too large to read once per output row: into rows of
// 9, whose segments keep the rows of every output row their tiles run
// over, and of stride 2 into 7 x 7, flattened. Every
// input zero point is other than 0: the kept rows are whole, the padding
// read as the zero point and each tile row's weight sums those of its
// channel's whole weight. And a check that their kernels take the path
// (the kept loads are named "keptrow", the weight spans "weightspan"),
// where the CPU has AVX-512 VNNI; 6 positions in 8 lanes of 256-bit dot
// products. And ResNet-50's f32 stem, whose stride-2 rows over 49 taps are
// gathered by shuffles: kept where its tiles merge (one thread), gathered
// per tile where they do not (the model library's 8 cores). And a 1 x 1
// Conv over 7 x 7 planes (196 bytes, no whole number of vectors) with its
// bias, a residual Add and a Relu, whose segments keep their rows aligned
// (planKeptStrips), against one over 8 x 8 planes (256 bytes), which reads
// them in place.

#include "codegen/codegen.h"
#include "coretestsupport.h"
#include "small_model_case.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

/// Tensor \p t's u8 scale and zero point, named t + "s" and t + "z".
void quantized(onnxio::ModelBuilder& m, const std::string& t, double scale, double zero) {
    scalar(m, t + "s", DType::Float32, scale);
    scalar(m, t + "z", DType::UInt8, zero);
}

/// A QLinearConv \p y of \p x (both quantized) by seeded s8 weight \p w
/// of \p shape ([oc, ic, kh, kw]), its scale \p scale and zero point 0.
onnxio::NodeBuilder qlinearConv(onnxio::ModelBuilder& m, Seeded& r, const std::string& x,
                                const std::string& w, const ir::Shape& shape, double scale,
                                const std::string& y) {
    s8Weight(m, r, w, shape);
    scalar(m, w + "s", DType::Float32, scale);
    scalar(m, w + "z", DType::Int8, 0);
    return m.addNode("QLinearConv", {x, x + "s", x + "z", w, w + "s", w + "z", y + "s", y + "z"},
                     {y});
}

const std::vector<int64_t> kStride2{2, 2}, kPads1{1, 1, 1, 1};

void paddedThenStrided(onnxio::ModelBuilder& m, Seeded& r) {
    quantized(m, "x", 0.05, 128);
    quantized(m, "c", 0.3, 3);
    qlinearConv(m, r, "x", "w", {40, 16, 3, 3}, 0.002, "c").attr("pads", kPads1);
    quantized(m, "y", 0.2, 120);
    qlinearConv(m, r, "c", "v", {48, 40, 1, 1}, 0.003, "y").attr("strides", kStride2);
    output(m, "y", DType::UInt8, {1, 48, 7, 7});
}

void dynamicConvs(onnxio::ModelBuilder& m, Seeded& r) {
    m.addNode("DynamicQuantizeLinear", {"x"}, {"q", "qs", "qz"});
    for (const char* w : {"w", "v"})
        m.addInlineInitializer(w, DType::UInt8, {36, 12, 3, 3},
                               bytesOf(r.ints<uint8_t>(36 * 12 * 9, 0, 255)));
    scalar(m, "wz", DType::UInt8, 128);
    m.addNode("ConvInteger", {"q", "w", "qz", "wz"}, {"y"}).attr("pads", kPads1);
    m.addNode("ConvInteger", {"q", "v", "qz", "wz"}, {"z"})
        .attr("strides", kStride2)
        .attr("pads", kPads1);
    output(m, "y", DType::Int32, {1, 36, 19, 19});
    output(m, "z", DType::Int32, {1, 36, 10, 10});
}

/// A padded 3 x 3 QLinearConv whose 1.8 MB weight exceeds half of a host
/// core's L2 share, into rows of 9 (not flattened): on one thread its tiles
/// run over the output rows, and a segment keeps the rows of all 9.
void wideRows(onnxio::ModelBuilder& m, Seeded& r) {
    quantized(m, "x", 0.05, 128);
    quantized(m, "y", 0.5, 100);
    qlinearConv(m, r, "x", "w", {512, 384, 3, 3}, 0.0005, "y").attr("pads", kPads1);
    output(m, "y", DType::UInt8, {1, 512, 9, 9});
}

/// The same of stride 2 into 7 x 7 (ResNet-50's layer4.0.conv2, 2.4 MB):
/// its strided rows flattened to 49 positions.
void wideStrided(onnxio::ModelBuilder& m, Seeded& r) {
    quantized(m, "x", 0.05, 128);
    quantized(m, "y", 0.5, 100);
    qlinearConv(m, r, "x", "w", {512, 512, 3, 3}, 0.0005, "y")
        .attr("strides", kStride2)
        .attr("pads", kPads1);
    output(m, "y", DType::UInt8, {1, 512, 7, 7});
}

/// A padded 3 x 3 QLinearConv into 2 x 3 positions: 8 lanes, 256-bit dot
/// products.
void eightLanes(onnxio::ModelBuilder& m, Seeded& r) {
    quantized(m, "x", 0.05, 77);
    quantized(m, "y", 0.3, 90);
    qlinearConv(m, r, "x", "w", {24, 8, 3, 3}, 0.002, "y").attr("pads", kPads1);
    output(m, "y", DType::UInt8, {1, 24, 2, 3});
}

/// ResNet-50's stem: a 7 x 7 Conv of stride 2 from 3 into 64 channels,
/// padded by 3, with its Relu, into 112 x 112.
void floatStem(onnxio::ModelBuilder& m, Seeded& r) {
    m.addInlineInitializer("w", DType::Float32, {64, 3, 7, 7}, bytesOf(r.floats(64 * 3 * 49, 0.3)));
    m.addInlineInitializer("b", DType::Float32, {64}, bytesOf(r.floats(64, 0.5)));
    m.addNode("Conv", {"x", "w", "b"}, {"c"})
        .attr("strides", kStride2)
        .attr("pads", std::vector<int64_t>{3, 3, 3, 3});
    m.addNode("Relu", {"c"}, {"y"});
    output(m, "y", DType::Float32, {1, 64, 112, 112});
}

/// A residual block's end: a 1 x 1 Conv of 512 into 512 channels (the
/// reduction depth of ResNet-50's layer4 conv3) with its bias, the residual
/// Add of its input and a Relu, over planes of \p side x \p side.
void residualPointwise(onnxio::ModelBuilder& m, Seeded& r, int64_t side) {
    m.addInlineInitializer("w", DType::Float32, {512, 512, 1, 1},
                           bytesOf(r.floats(512 * 512, 0.05)));
    m.addInlineInitializer("b", DType::Float32, {512}, bytesOf(r.floats(512, 0.5)));
    m.addNode("Conv", {"x", "w", "b"}, {"c"});
    m.addNode("Add", {"c", "x"}, {"s"});
    m.addNode("Relu", {"s"}, {"y"});
    output(m, "y", DType::Float32, {1, 512, side, side});
}

/// The residual block's end over \p side x \p side planes, as case \p name.
Case residualPointwiseCase(const char* name, int64_t side) {
    return {name,
            DType::Float32,
            {1, 512, side, side},
            1.0,
            [side](onnxio::ModelBuilder& m, Seeded& r) {
                residualPointwise(m, r, side);
            }};
}

const Case kMisalignedPlanes = residualPointwiseCase("conv-1x1-kept-strips", 7);
const Case kAlignedPlanes = residualPointwiseCase("conv-1x1-aligned-planes", 8);

const Case kFloatStem{"conv-stem-kept-gathers", DType::Float32, {1, 3, 224, 224}, 1.0, floatStem};

const std::vector<Case>& keptRowCases() {
    static const std::vector<Case> all = {
        {"qlinear-conv-kept-rows", DType::UInt8, {1, 16, 14, 14}, 0, paddedThenStrided},
        {"conv-integer-kept-rows", DType::Float32, {1, 12, 19, 19}, 4.0, dynamicConvs},
        {"qlinear-conv-kept-output-rows", DType::UInt8, {1, 384, 9, 9}, 0, wideRows},
        {"qlinear-conv-wide-strided", DType::UInt8, {1, 512, 14, 14}, 0, wideStrided},
        {"qlinear-conv-eight-lanes", DType::UInt8, {1, 8, 2, 3}, 0, eightLanes},
    };
    return all;
}

/// Whether the host runs byte dot products: VNNI's, or two word dot
/// products in their place (AVX2, AVX-512 BW).
bool hasByteDots() {
    const std::string features = "," + codegen::targetInfo(codegen::Target::Host).features + ",";
    return features.find(",+avx512vnni,") != std::string::npos ||
           features.find(",+avx2,") != std::string::npos;
}

} // namespace

class KeptRowsMatchOnnxRuntime : public ::testing::TestWithParam<StrategyRow> {};

TEST_P(KeptRowsMatchOnnxRuntime, keptRowsMatchOnnxRuntime) {
    expectMatchesOnnxRuntime(keptRowCases()[GetParam().index], GetParam().strategy);
}

INSTANTIATE_TEST_SUITE_P(TestKeptRows, KeptRowsMatchOnnxRuntime,
                         ::testing::ValuesIn(strategyRows(keptRowCases())), test::RowName{});

// On one thread a kernel's tiles merge (as `stagecraft run` on one CPU):
// the wide Convs' tiles then read all 512 output channels' weights, and the
// segments of the one of rows of 9 keep the rows of every output row.
TEST(TestKeptRows, keptRowsOfMergedTilesMatchOnnxRuntime) {
    for (const char* strategy : {"tvm", "graphturbo"})
        for (const Case& c : keptRowCases())
            expectMatchesOnnxRuntime(c, strategy, "", 1);
}

// Where the host has byte dot products (VNNI's, or AVX2's in words), every
// case's tiles load kept rows, whole ones (their input zero points are not 0).
TEST(TestKeptRows, tilesLoadKeptRows) {
    if (!hasByteDots())
        GTEST_SKIP() << "this machine has neither AVX-512 VNNI nor AVX2";
    TempDir dir;
    for (const char* strategy : {"tvm", "graphturbo"})
        for (const Case& c : keptRowCases()) {
            EXPECT_GT(countInKernels(c, strategy, dir.path(), "%keptrow"), 0)
                << c.name << " under " << strategy;
            // Every case's input zero point is not 0: whole rows, the
            // weight sums over each channel's span.
            EXPECT_GT(countInKernels(c, strategy, dir.path(), "%weightspan"), 0)
                << c.name << " under " << strategy;
        }
    // 6 positions in 8 lanes: 256-bit dot products.
    const std::string narrow =
        optimizedKernels(keptRowCases().back(), "graphturbo", dir.path(), "icelake-server");
    EXPECT_GT(test::countText(narrow, "@llvm.x86.avx512.vpdpbusd.256("), 0);
}

// On one thread the stem's 8 core tiles merge into one of 64 channels (its
// sums stay in registers: host_layer.cpp), whose 16 tiles of 4 channels
// load the stride-2 rows each segment gathered once; with the model
// library's 8 cores each core's 8 channels run as 2 tiles, too few to keep
// them (blocked_kept_rows.cpp). The same outputs either way.
TEST(TestKeptRows, floatStemKeepsGatheredRowsWhereItsTilesMerge) {
    TempDir dir;
    for (const char* strategy : {"tvm", "graphturbo"}) {
        expectMatchesOnnxRuntime(kFloatStem, strategy, "", 1);
        expectMatchesOnnxRuntime(kFloatStem, strategy);
        EXPECT_GT(countInKernels(kFloatStem, strategy, dir.path(), "%keptrow", 1), 0) << strategy;
        EXPECT_EQ(countInKernels(kFloatStem, strategy, dir.path(), "%keptrow"), 0) << strategy;
    }
}

// A 1 x 1 Conv's rows step by a plane: 196 bytes over 7 x 7, no whole
// number of 16-, 32- or 64-byte vectors, so every segment (of the model
// library's 64 channels per core, or all 512 on one thread) loads its rows
// once into an aligned buffer its tiles read; 256 bytes over 8 x 8 are
// read in place. The same sums either way, through the epilogue.
TEST(TestKeptRows, pointwiseRowsOverMisalignedPlanesAreKept) {
    TempDir dir;
    for (const char* strategy : {"tvm", "graphturbo"}) {
        expectMatchesOnnxRuntime(kMisalignedPlanes, strategy);
        expectMatchesOnnxRuntime(kMisalignedPlanes, strategy, "", 1);
        EXPECT_GT(countInKernels(kMisalignedPlanes, strategy, dir.path(), "%keptrow"), 0)
            << strategy;
        EXPECT_GT(countInKernels(kMisalignedPlanes, strategy, dir.path(), "%keptrow", 1), 0)
            << strategy;
        EXPECT_EQ(countInKernels(kAlignedPlanes, strategy, dir.path(), "%keptrow"), 0) << strategy;
    }
}
