// Exact maps of Conv (the group formula, halos), ConvTranspose, MatMul, Gemm,
// the quantized ops (parameters per tensor or along their loop),
// pools, reductions, normalizations and elementwise broadcasting.

#include "map_cases.h"

namespace stagecraft::test {

using ir::Shape;

namespace {

OpGraph conv(Shape x, Shape w, Shape out, std::vector<int64_t> strides, std::vector<int64_t> pads,
             std::vector<int64_t> dilations, int64_t group, bool bias, bool transposed = false) {
    OpBuilder b(transposed ? "ConvTranspose" : "Conv", "conv1");
    b.input(x).input(w);
    if (bias)
        b.input({out[1]});
    b.output(out)
        .ints("kernel_shape", Shape(w.begin() + 2, w.end()))
        .ints("strides", strides)
        .ints("pads", pads)
        .ints("dilations", dilations)
        .i("group", group);
    if (transposed)
        b.ints("output_padding", std::vector<int64_t>(strides.size(), 1));
    return b.build();
}

} // namespace

std::vector<MapCase> computeMapCases() {
    std::vector<MapCase> c;
    // Conv: stride 2, pad 1, dilation 2, groups 2 (Cin/G = 2, Cout/G = 3).
    c.push_back(
        {"Conv grouped strided dilated",
         conv({1, 4, 7, 8}, {6, 2, 3, 3}, {1, 6, 3, 4}, {2, 2}, {1, 1, 1, 2}, {2, 2}, 2, true),
         0,
         "n co oh ow | ci kh kw",
         {{0, "n, co/3*2 + ci, 2*oh + 2*kh - 1, 2*ow + 2*kw - 1"},
          {1, "co, ci, kh, kw"},
          {2, "co"}},
         ""});
    c.push_back(
        {"Conv depthwise",
         conv({1, 3, 5, 5}, {3, 1, 3, 3}, {1, 3, 5, 5}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 3, false),
         0,
         "n co oh ow | ci kh kw",
         {{0, "n, co + ci, oh + kh - 1, ow + kw - 1"}, {1, "co, ci, kh, kw"}},
         ""});
    c.push_back({"Conv 1-D",
                 conv({2, 3, 9}, {4, 3, 3}, {2, 4, 4}, {2}, {1, 0}, {1}, 1, false),
                 0,
                 "n co ol | ci kl",
                 {{0, "n, ci, 2*ol + kl - 1"}, {1, "co, ci, kl"}},
                 ""});
    c.push_back({"Conv 3-D",
                 conv({1, 2, 4, 4, 4}, {3, 2, 1, 3, 3}, {1, 3, 4, 4, 4}, {1, 1, 1},
                      {0, 1, 1, 0, 1, 1}, {1, 1, 1}, 1, false),
                 0,
                 "n co od oh ow | ci kd kh kw",
                 {{0, "n, ci, od + kd, oh + kh - 1, ow + kw - 1"}, {1, "co, ci, kd, kh, kw"}},
                 ""});
    c.push_back({"ConvTranspose",
                 conv({1, 4, 3, 3}, {4, 2, 3, 3}, {1, 4, 6, 6}, {2, 2}, {1, 1, 1, 1}, {1, 1}, 2,
                      false, true),
                 0,
                 "n co oh ow | ci kh kw",
                 {{0, "n, co/2*2 + ci, (oh - kh + 1)/2, (ow - kw + 1)/2"},
                  {1, "co/2*2 + ci, co % 2, kh, kw"}},
                 ""});
    c.push_back(
        {"MatMul batch broadcast",
         OpBuilder("MatMul").input({2, 1, 3, 4}).input({5, 4, 6}).output({2, 5, 3, 6}).build(),
         0,
         "b0 b1 m n | k",
         {{0, "b0, 0, m, k"}, {1, "b1, k, n"}},
         ""});
    c.push_back({"MatMul 1-D A",
                 OpBuilder("MatMul").input({4}).input({4, 3}).output({3}).build(),
                 0,
                 "n | k",
                 {{0, "k"}, {1, "k, n"}},
                 ""});
    c.push_back({"MatMul 1-D both",
                 OpBuilder("MatMul").input({4}).input({4}).output({}).build(),
                 0,
                 "| k",
                 {{0, "k"}, {1, "k"}},
                 ""});
    // The quantized ops: parameters per tensor (index 0) or along their loop.
    c.push_back({"QuantizeLinear per axis",
                 OpBuilder("QuantizeLinear")
                     .input({2, 3, 4})
                     .input({3})
                     .input({3}, ir::DType::Int8)
                     .output({2, 3, 4}, ir::DType::Int8)
                     .i("axis", 1)
                     .build(),
                 0,
                 "d0 d1 d2",
                 {{0, "d0, d1, d2"}, {1, "d1"}, {2, "d1"}},
                 ""});
    c.push_back({"DequantizeLinear per tensor",
                 OpBuilder("DequantizeLinear")
                     .input({2, 3}, ir::DType::UInt8)
                     .input({})
                     .input({1}, ir::DType::UInt8)
                     .output({2, 3})
                     .i("axis", 1)
                     .build(),
                 0,
                 "d0 d1",
                 {{0, "d0, d1"}, {1, ""}, {2, "0"}},
                 ""});
    c.push_back({"QLinearConv per channel",
                 OpBuilder("QLinearConv")
                     .input({1, 3, 5, 5}, ir::DType::UInt8)
                     .input({})
                     .input({}, ir::DType::UInt8)
                     .input({4, 3, 3, 3}, ir::DType::Int8)
                     .input({4})
                     .input({4}, ir::DType::Int8)
                     .input({})
                     .input({}, ir::DType::UInt8)
                     .input({4}, ir::DType::Int32)
                     .output({1, 4, 5, 5}, ir::DType::UInt8)
                     .ints("kernel_shape", {3, 3})
                     .ints("strides", {1, 1})
                     .ints("dilations", {1, 1})
                     .ints("pads", {1, 1, 1, 1})
                     .i("group", 1)
                     .build(),
                 0,
                 "n co oh ow | ci kh kw",
                 {{0, "n, ci, oh + kh - 1, ow + kw - 1"},
                  {1, ""},
                  {2, ""},
                  {3, "co, ci, kh, kw"},
                  {4, "co"},
                  {5, "co"},
                  {6, ""},
                  {7, ""},
                  {8, "co"}},
                 ""});
    c.push_back({"MatMulInteger per row and column",
                 OpBuilder("MatMulInteger")
                     .input({2, 3, 4}, ir::DType::UInt8)
                     .input({4, 5}, ir::DType::Int8)
                     .input({3}, ir::DType::UInt8)
                     .input({5}, ir::DType::Int8)
                     .output({2, 3, 5}, ir::DType::Int32)
                     .build(),
                 0,
                 "b0 m n | k",
                 {{0, "b0, m, k"}, {1, "k, n"}, {2, "m"}, {3, "n"}},
                 ""});
    c.push_back({"Gemm transposed",
                 OpBuilder("Gemm")
                     .input({5, 3})
                     .input({4, 5})
                     .input({4})
                     .output({3, 4})
                     .i("transA", 1)
                     .i("transB", 1)
                     .build(),
                 0,
                 "m n | k",
                 {{0, "k, m"}, {1, "n, k"}, {2, "n"}},
                 ""});
    c.push_back({"MaxPool",
                 OpBuilder("MaxPool")
                     .input({1, 2, 8, 8})
                     .output({1, 2, 4, 4})
                     .ints("kernel_shape", {3, 3})
                     .ints("strides", {2, 2})
                     .ints("dilations", {1, 1})
                     .ints("pads", {1, 1, 1, 1})
                     .i("ceil_mode", 0)
                     .build(),
                 0,
                 "n c oh ow | kh kw",
                 {{0, "n, c, 2*oh + kh - 1, 2*ow + kw - 1"}},
                 ""});
    c.push_back({"GlobalAveragePool",
                 unaryOp("GlobalAveragePool", {1, 3, 4, 5}, {1, 3, 1, 1}),
                 0,
                 "n c oh ow | kh kw",
                 {{0, "n, c, kh, kw"}},
                 ""});
    c.push_back({"ReduceMean keepdims 0",
                 OpBuilder("ReduceMean")
                     .input({2, 3, 4})
                     .output({2, 4})
                     .ints("axes", {1})
                     .i("keepdims", 0)
                     .build(),
                 0,
                 "d0 d1 | r1",
                 {{0, "d0, r1, d1"}},
                 ""});
    c.push_back({"ReduceSum keepdims 1",
                 OpBuilder("ReduceSum")
                     .input({2, 3, 4})
                     .output({1, 3, 1})
                     .ints("axes", {0, 2})
                     .i("keepdims", 1)
                     .build(),
                 0,
                 "d0 d1 d2 | r0 r2",
                 {{0, "r0, d1, r2"}},
                 ""});
    c.push_back({"ReduceMax noop",
                 OpBuilder("ReduceMax")
                     .input({2, 3})
                     .output({2, 3})
                     .ints("axes", {})
                     .i("keepdims", 1)
                     .build(),
                 0,
                 "d0 d1",
                 {{0, "d0, d1"}},
                 ""});
    c.push_back({"ArgMax",
                 OpBuilder("ArgMax")
                     .input({2, 3, 4})
                     .output({2, 3, 1}, ir::DType::Int64)
                     .i("axis", 2)
                     .i("keepdims", 1)
                     .i("select_last_index", 0)
                     .build(),
                 0,
                 "d0 d1 d2 | r2",
                 {{0, "d0, d1, r2"}},
                 ""});
    c.push_back({"Softmax",
                 OpBuilder("Softmax").input({2, 3, 4}).output({2, 3, 4}).ints("axes", {2}).build(),
                 0,
                 "d0 d1 d2",
                 {{0, "d0, d1, all"}},
                 "d2"});
    c.push_back(
        {"LogSoftmax opset 11 axes",
         OpBuilder("LogSoftmax").input({2, 3, 4}).output({2, 3, 4}).ints("axes", {1, 2}).build(),
         0,
         "d0 d1 d2",
         {{0, "d0, all, all"}},
         "d1 d2"});
    c.push_back({"LayerNormalization",
                 OpBuilder("LayerNormalization")
                     .input({2, 3, 4})
                     .input({3, 4})
                     .input({4})
                     .output({2, 3, 4})
                     .i("axis", 1)
                     .f("epsilon", 1e-5)
                     .build(),
                 0,
                 "d0 d1 d2",
                 {{0, "d0, all, all"}, {1, "d1, d2"}, {2, "d2"}},
                 "d1 d2"});
    c.push_back({"InstanceNormalization",
                 OpBuilder("InstanceNormalization")
                     .input({2, 3, 4, 5})
                     .input({3})
                     .input({3})
                     .output({2, 3, 4, 5})
                     .f("epsilon", 1e-5)
                     .build(),
                 0,
                 "d0 d1 d2 d3",
                 {{0, "d0, d1, all, all"}, {1, "d1"}, {2, "d1"}},
                 "d2 d3"});
    c.push_back({"BatchNormalization",
                 OpBuilder("BatchNormalization")
                     .input({2, 3, 4, 4})
                     .input({3})
                     .input({3})
                     .input({3})
                     .input({3})
                     .output({2, 3, 4, 4})
                     .f("epsilon", 1e-5)
                     .build(),
                 0,
                 "d0 d1 d2 d3",
                 {{0, "d0, d1, d2, d3"}, {1, "d1"}, {2, "d1"}, {3, "d1"}, {4, "d1"}},
                 ""});
    c.push_back({"Add broadcast",
                 OpBuilder("Add").input({2, 1, 4}).input({3, 1}).output({2, 3, 4}).build(),
                 0,
                 "d0 d1 d2",
                 {{0, "d0, 0, d2"}, {1, "d1, 0"}},
                 ""});
    return c;
}

} // namespace stagecraft::test
