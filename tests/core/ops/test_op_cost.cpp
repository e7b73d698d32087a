// Op costs against hand formulas: MACs of complex ops, FLOPs of elementwise
// ops, reductions and normalizations, bytes read and written.

#include "coretestsupport.h"
#include "ops_testing.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test;
using ir::Shape;

namespace {

OpGraph conv(Shape x, Shape w, Shape out, int64_t group, int64_t pad, bool transposed = false,
             int64_t stride = 1) {
    OpBuilder b(transposed ? "ConvTranspose" : "Conv", "conv");
    b.input(x).input(w).input({out[1]}).output(out);
    b.ints("kernel_shape", Shape(w.begin() + 2, w.end()))
        .ints("strides", {stride, stride})
        .ints("dilations", {1, 1})
        .ints("pads", {pad, pad, pad, pad})
        .i("group", group);
    if (transposed)
        b.ints("output_padding", {1, 1});
    return b.build();
}

ops::OpCost costOf(const OpGraph& g) {
    return semantics(g).cost;
}

} // namespace

TEST(TestOpCost, convMacs) {
    // N*Cout*OH*OW * Cin*KH*KW
    ops::OpCost cost = costOf(conv({1, 3, 8, 8}, {16, 3, 3, 3}, {1, 16, 8, 8}, 1, 1));
    ASSERT_EQ(cost.macs, int64_t(1 * 16 * 8 * 8 * 3 * 3 * 3));
    ASSERT_EQ(cost.flops, 2 * cost.macs);
}

TEST(TestOpCost, groupedConvMacs) {
    // N*Cout*OH*OW * (Cin/G)*KH*KW with G = 4
    ops::OpCost cost = costOf(conv({2, 8, 6, 6}, {8, 2, 3, 3}, {2, 8, 6, 6}, 4, 1));
    ASSERT_EQ(cost.macs, int64_t(2 * 8 * 6 * 6 * 2 * 3 * 3));
    // depthwise: one input channel per output channel
    ops::OpCost depthwise = costOf(conv({1, 8, 6, 6}, {8, 1, 3, 3}, {1, 8, 6, 6}, 8, 1));
    ASSERT_EQ(depthwise.macs, int64_t(8 * 6 * 6 * 3 * 3));
}

TEST(TestOpCost, matmulMacsWithBroadcast) {
    // [2,1,3,4] x [5,4,6] -> [2,5,3,6]: batch 2*5, M 3, N 6, K 4
    OpGraph g =
        OpBuilder("MatMul").input({2, 1, 3, 4}).input({5, 4, 6}).output({2, 5, 3, 6}).build();
    ops::OpCost cost = costOf(g);
    ASSERT_EQ(cost.macs, int64_t(2 * 5 * 3 * 6 * 4));
    ASSERT_EQ(cost.flops, int64_t(2 * 2 * 5 * 3 * 6 * 4));
}

TEST(TestOpCost, gemmMacs) {
    OpGraph g = OpBuilder("Gemm")
                    .input({7, 5})
                    .input({3, 7})
                    .input({1, 3})
                    .output({5, 3})
                    .i("transA", 1)
                    .i("transB", 1)
                    .build();
    ASSERT_EQ(costOf(g).macs, int64_t(5 * 3 * 7));
}

TEST(TestOpCost, convTransposeCountsRealMultiplies) {
    // N*Cin*H*W * (Cout/G)*KH*KW; out = 2*(3-1) + 1 + 3 - 2 = 6
    OpGraph g = conv({1, 4, 3, 3}, {4, 2, 3, 3}, {1, 4, 6, 6}, 2, 1, true, 2);
    ops::OpSemantics s = semantics(g);
    ASSERT_EQ(s.cost.macs, int64_t(1 * 4 * 3 * 3 * 2 * 3 * 3));
    int64_t loopPoints = 1;
    for (const ops::LoopDim& loop : s.nests[0].loops)
        loopPoints *= loop.extent;
    ASSERT_TRUE(loopPoints > s.cost.macs); // the gather form overcounts strided outputs
    ASSERT_EQ(s.cost.flops, 2 * s.cost.macs);
}

struct ElementwiseFlopsRow {
    std::string rowLabel;
    std::string type;
    int64_t perElement;
};

std::vector<ElementwiseFlopsRow> elementwiseFlopsRows() {
    std::vector<ElementwiseFlopsRow> rows;
    rows.push_back({"Relu", std::string("Relu"), int64_t(1)});
    rows.push_back({"Clip", std::string("Clip"), int64_t(1)});
    rows.push_back({"Cast", std::string("Cast"), int64_t(1)});
    rows.push_back({"Exp", std::string("Exp"), int64_t(4)});
    rows.push_back({"Sigmoid", std::string("Sigmoid"), int64_t(4)});
    rows.push_back({"Erf", std::string("Erf"), int64_t(4)});
    rows.push_back({"HardSwish", std::string("HardSwish"), int64_t(5)});
    rows.push_back({"Gelu", std::string("Gelu"), int64_t(8)});
    return rows;
}

class ElementwiseFlopsRows : public ::testing::TestWithParam<ElementwiseFlopsRow> {};

TEST_P(ElementwiseFlopsRows, elementwiseFlops) {
    std::string type = GetParam().type;
    int64_t perElement = GetParam().perElement;
    OpGraph g = OpBuilder(type).input({2, 3, 4}).output({2, 3, 4}).build();
    ASSERT_EQ(costOf(g).flops, 24 * perElement);
    ASSERT_EQ(costOf(g).macs, int64_t(0));
}

INSTANTIATE_TEST_SUITE_P(TestOpCost, ElementwiseFlopsRows,
                         ::testing::ValuesIn(elementwiseFlopsRows()), test::RowName{});

TEST(TestOpCost, broadcastAddCountsOutputElements) {
    OpGraph g = OpBuilder("Add").input({2, 1, 4}).input({3, 1}).output({2, 3, 4}).build();
    ASSERT_EQ(costOf(g).flops, int64_t(24));
    OpGraph sum = OpBuilder("Sum").input({4}).input({4}).input({4}).output({4}).build();
    ASSERT_EQ(costOf(sum).flops, int64_t(4 * 2)); // two additions per element
}

TEST(TestOpCost, reductionFlops) {
    // one operation per element visited: the product of all loop extents
    OpGraph mean = OpBuilder("ReduceMean")
                       .input({2, 3, 4})
                       .output({2, 4})
                       .ints("axes", {1})
                       .i("keepdims", 0)
                       .build();
    ASSERT_EQ(costOf(mean).flops, int64_t(2 * 3 * 4));
    OpGraph pool = OpBuilder("MaxPool")
                       .input({1, 2, 8, 8})
                       .output({1, 2, 4, 4})
                       .ints("kernel_shape", {2, 2})
                       .ints("strides", {2, 2})
                       .ints("dilations", {1, 1})
                       .ints("pads", {0, 0, 0, 0})
                       .i("ceil_mode", 0)
                       .build();
    ASSERT_EQ(costOf(pool).flops, int64_t(2 * 4 * 4 * 2 * 2));
    ASSERT_EQ(costOf(pool).macs, int64_t(0));
}

TEST(TestOpCost, normalizationFlopsPerElement) {
    OpGraph softmax = OpBuilder("Softmax").input({2, 10}).output({2, 10}).ints("axes", {1}).build();
    ASSERT_EQ(costOf(softmax).flops, int64_t(20 * 8));
    OpGraph ln = OpBuilder("LayerNormalization")
                     .input({2, 10})
                     .input({10})
                     .output({2, 10})
                     .i("axis", 1)
                     .build();
    ASSERT_EQ(costOf(ln).flops, int64_t(20 * 7));
}

TEST(TestOpCost, injectiveAndOpaqueCostNoFlops) {
    OpGraph t = OpBuilder("Transpose").input({2, 3}).output({3, 2}).ints("perm", {1, 0}).build();
    ASSERT_EQ(costOf(t).flops, int64_t(0));
    OpGraph unknown = OpBuilder("NonMaxSuppression").input({2, 3}).output({5}).build();
    ASSERT_EQ(costOf(unknown).flops, int64_t(0));
    ASSERT_EQ(costOf(unknown).bytesRead, int64_t(2 * 3 * 4));
}

TEST(TestOpCost, bytesCountEachTensorOnce) {
    // x + x reads x once
    OpGraph twice = OpBuilder("Add").input({2, 3}).repeatInput(0).output({2, 3}).build();
    ops::OpCost cost = costOf(twice);
    ASSERT_EQ(cost.bytesRead, int64_t(2 * 3 * 4));
    ASSERT_EQ(cost.bytesWritten, int64_t(2 * 3 * 4));
    // Conv: X (f16) + W (f16) + B (f32), output f16
    OpGraph g = OpBuilder("Conv")
                    .input({1, 3, 4, 4}, ir::DType::Float16)
                    .input({2, 3, 1, 1}, ir::DType::Float16)
                    .input({2})
                    .output({1, 2, 4, 4}, ir::DType::Float16)
                    .ints("kernel_shape", {1, 1})
                    .ints("strides", {1, 1})
                    .ints("dilations", {1, 1})
                    .ints("pads", {0, 0, 0, 0})
                    .i("group", 1)
                    .build();
    cost = costOf(g);
    ASSERT_EQ(cost.bytesRead, int64_t(48 * 2 + 6 * 2 + 2 * 4));
    ASSERT_EQ(cost.bytesWritten, int64_t(32 * 2));
    // Split: every output counted
    OpGraph split = OpBuilder("Split")
                        .input({4, 6})
                        .output({4, 2})
                        .output({4, 4})
                        .i("axis", 1)
                        .ints("split", {2, 4})
                        .build();
    ASSERT_EQ(costOf(split).bytesWritten, int64_t(24 * 4));
}
