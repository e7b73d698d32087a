// Vectors along output channels over blocked weights (blocked_plan.cpp's
// planChannels, GlobalTensor::hostBlock, issue 65): a Conv whose rows read
// strided lanes (a stride-2 1 x 1 Conv, as ResNet-50's downsampling ones)
// or padding (its 3 x 3 ones: the padding taps left out when compiling, or
// tested once per tile) has its weight stored on the host in blocks of 16
// channels, and the register-blocked lowering runs its vectors along them,
// each position's input broadcast, and a tile's sums transposed in
// registers to rows of positions, one store per channel
// (blocked_transposed.cpp). Against ONNX Runtime under tvm and graphturbo,
// with a bias and a residual Add and Relu as the epilogue, per core, on one
// thread (a tile of every channel: a 1 x 1 Conv's segments of 4 vectors),
// compiled for AVX2 (tiles transposed in vectors of 8 lanes, not 16) and
// for SSE2 (tiles of 6 positions in 4 lanes: scattered); which weights
// the host blocks; and a Conv whose tiles start at half blocks (64
// channels on 8 cores) stored in blocks of 8, its vectors 8 lanes wide.

#include "codegen/model_library.h"
#include "coretestsupport.h"
#include "small_model_case.h"

#include <algorithm>
#include <cstring>
#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

/// Two Convs of stride \p stride over x, the first \p kernel x \p kernel
/// with \p pad, the second 1 x 1, added, then Relu, into \p side x \p side:
/// 128 channels, so that 8 cores' tiles hold whole blocks of 16.
void convPair(onnxio::ModelBuilder& m, Seeded& r, int64_t kernel, int64_t stride, int64_t pad,
              int64_t side) {
    m.addFloatInitializer("w", {128, 8, kernel, kernel}, r.floats(128 * 8 * kernel * kernel, 0.5));
    m.addFloatInitializer("b", {128}, r.floats(128, 1.0));
    m.addFloatInitializer("v", {128, 8, 1, 1}, r.floats(128 * 8, 0.5));
    m.addNode("Conv", {"x", "w", "b"}, {"y1"})
        .attr("strides", std::vector<int64_t>{stride, stride})
        .attr("pads", std::vector<int64_t>{pad, pad, pad, pad});
    m.addNode("Conv", {"x", "v"}, {"y2"}).attr("strides", std::vector<int64_t>{stride, stride});
    m.addNode("Add", {"y1", "y2"}, {"s"});
    m.addNode("Relu", {"s"}, {"y"});
    output(m, "y", DType::Float32, {1, 128, side, side});
}

/// A case of convPair over a 1 x 8 x \p input x \p input input.
Case pairCase(const char* name, int64_t kernel, int64_t stride, int64_t pad, int64_t input = 13) {
    const int64_t side = (input + 2 * pad - kernel) / stride + 1;
    return Case{
        name, DType::Float32, {1, 8, input, input}, 2.0, [=](onnxio::ModelBuilder& m, Seeded& r) {
            convPair(m, r, kernel, stride, pad, side);
        }};
}

/// Both stride-2 1 x 1 (no padding): both weights blocked.
const Case& channelsCase() {
    static const Case c = pairCase("conv1x1-stride2-channels", 1, 2, 0);
    return c;
}

/// Both stride-2 1 x 1 into 19 x 19: more positions than channels and
/// small weights, so the block's tiles run outside the segments
/// (BlockedPlan::blocksOutside). Both weights blocked.
const Case& tilesOutsideCase() {
    static const Case c = pairCase("conv1x1-stride2-tiles-outside", 1, 2, 0, 37);
    return c;
}

/// The first a padded 3 x 3 into 7 x 7: its positions flattened and every
/// padding tap (top and left; bottom and right: 2 * 6 + 1 = 13) known per
/// position when compiling. Both weights blocked.
const Case& paddedCase() {
    static const Case c = pairCase("conv3x3-stride2-channels", 3, 2, 1);
    return c;
}

/// The first a padded 3 x 3 of stride 1 into 13 x 13 (past
/// kMaxFlatPaddedPositions): its rows' padding taps tested once per tile at
/// run time; its weight blocked, the stride-1 1 x 1's not (rows).
const Case& rowsPaddedCase() {
    static const Case c = pairCase("conv3x3-stride1-channels", 3, 1, 1);
    return c;
}

/// The first a padded 5 x 5 (25 taps, past kMaxPaddedChannelTaps): its
/// weight stays as stored and its vectors run along rows.
const Case& manyTapsCase() {
    static const Case c = pairCase("conv5x5-stride2-rows", 5, 2, 2);
    return c;
}

/// A padded 3 x 3 Conv of stride 1 alone (with its bias) from 8 into
/// \p channels channels over \p side x \p side.
Case lonePadded(const char* name, int64_t channels, int64_t side) {
    return Case{
        name, DType::Float32, {1, 8, side, side}, 2.0, [=](onnxio::ModelBuilder& m, Seeded& r) {
            m.addFloatInitializer("w", {channels, 8, 3, 3}, r.floats(channels * 8 * 9, 0.5));
            m.addFloatInitializer("b", {channels}, r.floats(channels, 1.0));
            m.addNode("Conv", {"x", "w", "b"}, {"y"})
                .attr("pads", std::vector<int64_t>{1, 1, 1, 1});
            output(m, "y", DType::Float32, {1, channels, side, side});
        }};
}

/// Into 128 channels over 12 x 12: along channels over taps (AVX2: two
/// tiles of 6 positions per row), its rows' padding taps tested once per
/// tile.
const Case& lonePaddedCase() {
    static const Case c = lonePadded("conv3x3-stride1-alone", 128, 12);
    return c;
}

/// Into 64 channels over 13 x 13, so that 8 cores' tiles hold 8 channels,
/// half a block: its weight stored in blocks of 8 (host_layer.cpp, half
/// blocks).
const Case& halfBlocksCase() {
    static const Case c = lonePadded("conv3x3-stride1-half-blocks", 64, 13);
    return c;
}

/// The weights of \p c the host stores blocked, under tvm.
int blockedWeights(const Case& c, const std::filesystem::path& dir) {
    Seeded r;
    ModelFile file = saveCase(c, dir / (std::string(c.name) + ".onnx"), r);
    auto planned = plan(file, "stcp920", "tvm");
    EXPECT_TRUE(planned.ok()) << (planned.ok() ? "" : planned.error().message().c_str());
    if (!planned.ok())
        return -1;
    const auto& globals = (*planned)->plan.globals;
    return static_cast<int>(std::count_if(globals.begin(), globals.end(),
                                          [](const auto& g) { return g.hostBlock > 0; }));
}

} // namespace

class ChannelsMatchOnnxRuntime : public ::testing::TestWithParam<const char*> {};

TEST_P(ChannelsMatchOnnxRuntime, channelsMatchOnnxRuntime) {
    expectMatchesOnnxRuntime(channelsCase(), GetParam());
    expectMatchesOnnxRuntime(tilesOutsideCase(), GetParam());
    expectMatchesOnnxRuntime(paddedCase(), GetParam());
    expectMatchesOnnxRuntime(rowsPaddedCase(), GetParam());
    expectMatchesOnnxRuntime(manyTapsCase(), GetParam());
    for (const char* cpu : {"", "x86-64-v3", "x86-64"}) {
        expectMatchesOnnxRuntime(channelsCase(), GetParam(), cpu, 1);
        expectMatchesOnnxRuntime(rowsPaddedCase(), GetParam(), cpu, 1);
    }
}

INSTANTIATE_TEST_SUITE_P(TestChannels, ChannelsMatchOnnxRuntime,
                         ::testing::Values("tvm", "graphturbo"));

// The weights blocked as the cases say; and the kernels store their sums
// along channels transposed, each tile's positions being consecutive
// elements of the output, not scattered.
TEST(TestChannels, stridedAndPaddedConvsRunAlongBlockedChannels) {
    TempDir dir;
    EXPECT_EQ(blockedWeights(channelsCase(), dir.path()), 2);
    EXPECT_EQ(blockedWeights(tilesOutsideCase(), dir.path()), 2);
    EXPECT_EQ(blockedWeights(paddedCase(), dir.path()), 2);
    EXPECT_EQ(blockedWeights(rowsPaddedCase(), dir.path()), 1);
    EXPECT_EQ(blockedWeights(manyTapsCase(), dir.path()), 1);
    for (const char* strategy : {"tvm", "graphturbo"})
        for (const Case* c : {&channelsCase(), &tilesOutsideCase(), &paddedCase(),
                              &rowsPaddedCase(), &manyTapsCase()}) {
            EXPECT_GT(countInKernels(*c, strategy, dir.path(), "%transposed"), 0)
                << strategy << " " << c->name;
            EXPECT_EQ(countInKernels(*c, strategy, dir.path(), "@llvm.masked.scatter"), 0)
                << strategy << " " << c->name;
        }
}

namespace {

/// Checks that every weight of case \p c the host stores blocked (under
/// tvm) is stored in blocks of \p block channels: channel c of element i
/// at (c / block * inner + i) * block + c % block. Returns how many are.
int expectBlocksOf(const Case& c, int64_t block, const std::filesystem::path& dir) {
    Seeded r;
    ModelFile file = saveCase(c, dir / (std::string(c.name) + ".onnx"), r);
    auto planned = plan(file, "stcp920", "tvm");
    EXPECT_TRUE(planned.ok()) << (planned.ok() ? "" : planned.error().message().c_str());
    if (!planned.ok())
        return -1;
    const ir::Graph& g = (*planned)->graph;
    int blocked = 0;
    for (const codegen::GlobalTensor& global : (*planned)->plan.globals) {
        if (global.hostBlock == 0)
            continue;
        ++blocked;
        const ir::Tensor& t = g.tensor(global.tensor);
        EXPECT_EQ(global.hostBlock, block) << t.name;
        auto bytes = t.data->bytes();
        EXPECT_TRUE(bytes.ok());
        const AlignedBytes stored = codegen::hostStoredWeight(g, global, *bytes);
        EXPECT_EQ(stored.size(), bytes->size()) << t.name;
        if (global.hostBlock != block || stored.size() != bytes->size())
            continue;
        const int64_t inner = t.elementCount() / t.shape[0];
        for (int64_t ch = 0; ch < t.shape[0]; ++ch)
            for (int64_t i = 0; i < inner; ++i) {
                const int64_t at = (ch / block * inner + i) * block + ch % block;
                if (std::memcmp(&stored[static_cast<size_t>(at * 4)],
                                &(*bytes)[static_cast<size_t>((ch * inner + i) * 4)], 4) != 0) {
                    ADD_FAILURE() << t.name << " channel " << ch << " element " << i;
                    return blocked;
                }
            }
    }
    return blocked;
}

} // namespace

// The blocked weight (GlobalTensor::hostBlock) as the host stores it, in
// blocks of 16 where 8 cores' tiles start at whole ones.
TEST(TestChannels, blockedWeightsHoldChannelsInBlocksOf16) {
    TempDir dir;
    EXPECT_EQ(expectBlocksOf(channelsCase(), 16, dir.path()), 2); // w and v
}

// A Conv of 64 channels, tiled by 8 on stcp920's 8 cores, has its weight
// stored in half blocks of 8 (not rows); its vectors along channels take
// 8 lanes where the target's hold 16 (AVX-512: a vector of 16 would read
// two blocks' channels), and 4 of them a segment (the 2 of 16 lanes' 32
// channels); its sums equal ONNX Runtime's on this machine on one thread
// and on 8 (tiles of one half block each), and compiled for AVX2.
TEST(TestChannels, halfBlocksKeepVectorsWithinABlock) {
    TempDir dir;
    EXPECT_EQ(expectBlocksOf(halfBlocksCase(), 8, dir.path()), 1);
    const std::string avx512 =
        optimizedKernels(halfBlocksCase(), "tvm", dir.path(), "skylake-avx512");
    ASSERT_FALSE(avx512.empty());
    EXPECT_NE(avx512.find("@llvm.fmuladd.v8f32"), std::string::npos);
    EXPECT_EQ(avx512.find("@llvm.fmuladd.v16f32"), std::string::npos);
    for (const char* strategy : {"tvm", "graphturbo"}) {
        expectMatchesOnnxRuntime(halfBlocksCase(), strategy, "", 1);
        expectMatchesOnnxRuntime(halfBlocksCase(), strategy, "", 8);
    }
    expectMatchesOnnxRuntime(halfBlocksCase(), "tvm", "x86-64-v3", 1);
}

// A padded 3 x 3 Conv along channels broadcasts input elements that its
// taps along a row share (position p's second tap reads p + 1's first):
// emitted apart (BlockedPlan::tapsApart), each tap loads its own, and the
// tile's accumulators, weight vectors and one broadcast fit the registers
// on AVX2 and AVX-512; kept alive across taps they spilled (AVX2: 2 by 6
// with 8 broadcasts, 120 spills and reloads). Its weight blocked, its sums
// equal ONNX Runtime's as compiled for AVX2. (SSE2's 2 by 6 takes all 16
// registers with the product's, and spills around the rows' tested taps.)
TEST(TestChannels, tapsAlongChannelsKeepTheirVectorsInRegisters) {
    TempDir dir;
    EXPECT_EQ(blockedWeights(lonePaddedCase(), dir.path()), 1);
    for (const char* cpu : {"x86-64-v3", "skylake-avx512"})
        EXPECT_EQ(innerLoopVectorSpills(lonePaddedCase(), "graphturbo", dir.path(), cpu), 0) << cpu;
    expectMatchesOnnxRuntime(lonePaddedCase(), "graphturbo", "x86-64-v3");
}
