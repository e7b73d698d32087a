// Vectors along output channels over blocked weights (blocked_plan.cpp's
// planChannels, GlobalTensor::hostBlock, issue 65): a Conv whose rows read
// strided lanes and no padding (a stride-2 1 x 1 Conv, as ResNet-50's
// downsampling ones) has its weight stored on the host in blocks of 16
// channels, and the register-blocked lowering runs its vectors along them,
// each position's input broadcast and the sums scattered to the channels.
// Against ONNX Runtime under tvm and graphturbo, with a bias and a residual
// Add and Relu as the epilogue; and a check that the kernels take the path
// (a scatter per tile), which a padded stride-2 Conv does not.

#include "codegen/model_library.h"
#include "coretestsupport.h"
#include "small_model_case.h"

#include <cstring>
#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

/// Two stride-2 1 x 1 Convs of \p pads 0 over x, added, then Relu: 128
/// channels, so that 8 cores' tiles hold whole blocks of 16.
void stridedPair(onnxio::ModelBuilder& m, Seeded& r, int64_t pad) {
    m.addFloatInitializer("w", {128, 8, 1 + 2 * pad, 1 + 2 * pad},
                          r.floats(128 * 8 * (1 + 2 * pad) * (1 + 2 * pad), 0.5));
    m.addFloatInitializer("b", {128}, r.floats(128, 1.0));
    m.addFloatInitializer("v", {128, 8, 1, 1}, r.floats(128 * 8, 0.5));
    m.addNode("Conv", {"x", "w", "b"}, {"y1"})
        .attr("strides", std::vector<int64_t>{2, 2})
        .attr("pads", std::vector<int64_t>{pad, pad, pad, pad});
    m.addNode("Conv", {"x", "v"}, {"y2"}).attr("strides", std::vector<int64_t>{2, 2});
    m.addNode("Add", {"y1", "y2"}, {"s"});
    m.addNode("Relu", {"s"}, {"y"});
    output(m, "y", DType::Float32, {1, 128, 7, 7});
}

const Case& channelsCase() {
    static const Case c{"conv1x1-stride2-channels",
                        DType::Float32,
                        {1, 8, 13, 13},
                        2.0,
                        [](onnxio::ModelBuilder& m, Seeded& r) {
                            stridedPair(m, r, 0);
                        }};
    return c;
}

/// The first Conv padded (3 x 3): its rows read padding, so its weight stays
/// as stored and its vectors run along the row.
const Case& paddedCase() {
    static const Case c{"conv3x3-stride2-rows",
                        DType::Float32,
                        {1, 8, 13, 13},
                        2.0,
                        [](onnxio::ModelBuilder& m, Seeded& r) {
                            stridedPair(m, r, 1);
                        }};
    return c;
}

} // namespace

class ChannelsMatchOnnxRuntime : public ::testing::TestWithParam<const char*> {};

TEST_P(ChannelsMatchOnnxRuntime, channelsMatchOnnxRuntime) {
    expectMatchesOnnxRuntime(channelsCase(), GetParam());
    expectMatchesOnnxRuntime(paddedCase(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(TestChannels, ChannelsMatchOnnxRuntime,
                         ::testing::Values("tvm", "graphturbo"));

// The unpadded strided Convs scatter their sums along channels (both, the
// second unbiased); with the first padded, only the second does.
TEST(TestChannels, stridedConvsRunAlongBlockedChannels) {
    TempDir dir;
    for (const char* strategy : {"tvm", "graphturbo"}) {
        const int64_t both =
            countInKernels(channelsCase(), strategy, dir.path(), "@llvm.masked.scatter");
        const int64_t one =
            countInKernels(paddedCase(), strategy, dir.path(), "@llvm.masked.scatter");
        EXPECT_GT(both, one) << strategy;
        EXPECT_GT(one, 0) << strategy;
    }
}

// The blocked weight (GlobalTensor::hostBlock) as the host stores it:
// channel c of element i at (c / 16 * inner + i) * 16 + c % 16.
TEST(TestChannels, blockedWeightsHoldChannelsInBlocksOf16) {
    TempDir dir;
    Seeded r;
    ModelFile file = saveCase(channelsCase(), dir.path() / "channels.onnx", r);
    auto planned = plan(file, "stcp920", "tvm");
    ASSERT_TRUE(planned.ok()) << (planned.ok() ? "" : planned.error().message().c_str());
    const ir::Graph& g = (*planned)->graph;
    int blocked = 0;
    for (const codegen::GlobalTensor& global : (*planned)->plan.globals) {
        if (global.hostBlock == 0)
            continue;
        ++blocked;
        const ir::Tensor& t = g.tensor(global.tensor);
        auto bytes = t.data->bytes();
        ASSERT_TRUE(bytes.ok());
        const std::vector<std::byte> stored = codegen::hostStoredWeight(g, global, *bytes);
        ASSERT_EQ(stored.size(), bytes->size()) << t.name;
        const int64_t inner = t.elementCount() / t.shape[0];
        for (int64_t c = 0; c < t.shape[0]; ++c)
            for (int64_t i = 0; i < inner; ++i) {
                const int64_t at = (c / 16 * inner + i) * 16 + c % 16;
                ASSERT_EQ(std::memcmp(&stored[static_cast<size_t>(at * 4)],
                                      &(*bytes)[static_cast<size_t>((c * inner + i) * 4)], 4),
                          0)
                    << t.name << " channel " << c << " element " << i;
            }
    }
    EXPECT_EQ(blocked, 2); // w and v
}
