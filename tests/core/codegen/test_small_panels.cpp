// Row factors stored in blocks on the host (GlobalTensor::hostBlock along
// the row, issue 65): a 2-D weight a contraction reads as its row factor —
// MatMul's B along dim 1, Gemm's B with transB along dim 0 — is stored in
// blocks of 16 columns, [n / 16][k][16], so that a reduction step's vectors
// of a segment stream from a few contiguous blocks instead of one strided
// row per step. Against ONNX Runtime under tvm and graphturbo, with a bias
// and Relu as the epilogue; and the stored bytes block by block.

#include "codegen/model_library.h"
#include "coretestsupport.h"
#include "small_model_case.h"

#include <cstring>
#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

/// x (16 x 40) by a MatMul weight (40 x 128) plus a bias, Relu; and by a
/// Gemm weight read transposed (128 x 40), added: 128 columns, so that 8
/// cores' tiles hold whole blocks of 16.
const Case& panelsCase() {
    static const Case c{"matmul-gemm-row-blocks",
                        DType::Float32,
                        {16, 40},
                        2.0,
                        [](onnxio::ModelBuilder& m, Seeded& r) {
                            m.addFloatInitializer("w", {40, 128}, r.floats(40 * 128, 0.5));
                            m.addFloatInitializer("b", {128}, r.floats(128, 1.0));
                            m.addFloatInitializer("v", {128, 40}, r.floats(128 * 40, 0.5));
                            m.addNode("MatMul", {"x", "w"}, {"p"});
                            m.addNode("Add", {"p", "b"}, {"q"});
                            m.addNode("Relu", {"q"}, {"y1"});
                            m.addNode("Gemm", {"x", "v"}, {"y2"}).attr("transB", 1);
                            m.addNode("Add", {"y1", "y2"}, {"y"});
                            output(m, "y", DType::Float32, {16, 128});
                        }};
    return c;
}

} // namespace

class PanelsMatchOnnxRuntime : public ::testing::TestWithParam<const char*> {};

TEST_P(PanelsMatchOnnxRuntime, blockedRowFactorsMatchOnnxRuntime) {
    expectMatchesOnnxRuntime(panelsCase(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(TestPanels, PanelsMatchOnnxRuntime,
                         ::testing::Values("tvm", "graphturbo"));

// Both weights are blocked along the dim their readers' rows run along (w
// along 1, v along 0), 16 per block: element (k, n) of the logical k x n
// factor at (n / 16 * k_count + k) * 16 + n % 16, the same bytes in all.
TEST(TestPanels, rowFactorsHoldColumnsInBlocksOf16) {
    TempDir dir;
    Seeded r;
    ModelFile file = saveCase(panelsCase(), dir.path() / "panels.onnx", r);
    for (const char* strategy : {"tvm", "graphturbo"}) {
        auto planned = plan(file, "stcp920", strategy);
        ASSERT_TRUE(planned.ok()) << (planned.ok() ? "" : planned.error().message().c_str());
        const ir::Graph& g = (*planned)->graph;
        std::vector<std::string> blocked;
        for (const codegen::GlobalTensor& global : (*planned)->plan.globals) {
            const ir::Tensor& t = g.tensor(global.tensor);
            if (global.hostBlock == 0)
                continue;
            blocked.push_back(t.name + "@" + std::to_string(global.hostBlockDim));
            ASSERT_EQ(global.hostBlock, 16) << t.name;
            ASSERT_FALSE(global.hostTransposed || global.hostRowPitch > 0) << t.name;
            auto bytes = t.data->bytes();
            ASSERT_TRUE(bytes.ok());
            const AlignedBytes stored = codegen::hostStoredWeight(g, global, *bytes);
            ASSERT_EQ(stored.size(), bytes->size()) << t.name;
            // The kernels load its blocks as 64-byte vectors: each one line.
            EXPECT_EQ(reinterpret_cast<uintptr_t>(stored.data()) % 64, 0u) << t.name;
            const bool alongRows = global.hostBlockDim == 0; // [n][k], read transposed
            const int64_t columns = t.shape[alongRows ? 0 : 1], steps = t.shape[alongRows ? 1 : 0];
            for (int64_t n = 0; n < columns; ++n)
                for (int64_t k = 0; k < steps; ++k) {
                    const int64_t at = (n / 16 * steps + k) * 16 + n % 16;
                    const int64_t from = alongRows ? n * steps + k : k * columns + n;
                    ASSERT_EQ(std::memcmp(&stored[static_cast<size_t>(at * 4)],
                                          &(*bytes)[static_cast<size_t>(from * 4)], 4),
                              0)
                        << t.name << " column " << n << " step " << k << " (" << strategy << ")";
                }
        }
        std::sort(blocked.begin(), blocked.end());
        EXPECT_EQ(blocked, (std::vector<std::string>{"v@0", "w@1"})) << strategy;
    }
}
