// Ops against ONNX Runtime on small generated models. The quantization ops (issue 23, item 1):
// QuantizeLinear per tensor and per axis (saturating), DequantizeLinear per axis,
// DynamicQuantizeLinear (its ONNX function body, with runtime scale and zero point), ConvInteger
// with padding, stride and zero points, MatMulInteger with both zero points, QLinearConv with
// per-channel weight scales and a bias, QLinearMatMul over a batch, a Dequantize-Relu-Quantize
// chain, and the QDQ patterns the import folds into QLinearConv (with a Relu and an int32 bias) and
// QLinearMatMul (there ONNX Runtime runs with its graph optimizations, which fold them the same
// way). Clip with bounds computed at run time (issue 23, item 2: the log-mel floor max(x) - 80 of
// audio front ends) and a Pad whose value is computed at run time. Exp and Erf, computed inline in
// f32 (math_f32.cpp), over [-6, 6] and [-4.5, 4.5]. GridSample (issue 23, item 5) in each mode and
// padding, with and without align_corners, in 2 and 3 spatial dims, at grid points reaching past
// [-1, 1] so that the padding decides. Trilu (both triangles, k off the diagonal), CumSum
// (exclusive, reverse), Mod (integer, and fmod on floats), BitShift both ways, OneHot with negative
// indices, Einsum (a batched contraction and a diagonal sum), NegativeLogLikelihoodLoss with
// weights and SoftmaxCrossEntropyLoss with an ignored index (issue 23, item 5; the losses run as
// their function bodies). A MatMul by a weight with a bias and a Relu, tiled as a dense: rows ×
// output features (issue 61). Each is scheduled by graphturbo on stcp920 (small_model_case.h).

#include "coretestsupport.h"
#include "small_model_case.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

/// GridSample of x at a seeded grid of shape \p grid with points in
/// [-1.4, 1.4], past the borders, so that the padding mode decides.
void gridSample(onnxio::ModelBuilder& m, Seeded& r, const ir::Shape& grid, const ir::Shape& out,
                const char* mode, const char* padding, int64_t alignCorners) {
    m.addFloatInitializer("grid", grid, r.floats(ir::elementCount(grid), 1.4));
    m.addNode("GridSample", {"x", "grid"}, {"y"})
        .attr("mode", mode)
        .attr("padding_mode", padding)
        .attr("align_corners", alignCorners);
    output(m, "y", DType::Float32, out);
}

Case gridSampleCase(const char* name, ir::Shape x, ir::Shape grid, const char* mode,
                    const char* padding, int64_t alignCorners, int64_t opset = 16) {
    ir::Shape out = {x[0], x[1]};
    out.insert(out.end(), grid.begin() + 1, grid.end() - 1);
    return {name,
            DType::Float32,
            x,
            2.0,
            [=](onnxio::ModelBuilder& m, Seeded& r) {
                gridSample(m, r, grid, out, mode, padding, alignCorners);
            },
            nullptr,
            opset};
}

const std::vector<Case>& cases() {
    static const std::vector<Case> all = {
        {"quantize-per-tensor-u8",
         DType::Float32,
         {2, 3, 4, 5},
         3.0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             scalar(m, "s", DType::Float32, 0.02);
             scalar(m, "z", DType::UInt8, 128);
             m.addNode("QuantizeLinear", {"x", "s", "z"}, {"y"});
             output(m, "y", DType::UInt8, {2, 3, 4, 5});
         }},
        {"quantize-per-axis-i8",
         DType::Float32,
         {2, 3, 4, 5},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addFloatInitializer("s", {3}, {0.01f, 0.02f, 0.05f});
             m.addInlineInitializer("z", DType::Int8, {3}, bytesOf(std::vector<int8_t>{-3, 0, 7}));
             m.addNode("QuantizeLinear", {"x", "s", "z"}, {"y"}).attr("axis", 1);
             output(m, "y", DType::Int8, {2, 3, 4, 5});
         }},
        {"dequantize-per-axis",
         DType::UInt8,
         {2, 4, 3},
         0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addFloatInitializer("s", {3}, {0.5f, 0.125f, 3.0f});
             m.addInlineInitializer("z", DType::UInt8, {3},
                                    bytesOf(std::vector<uint8_t>{0, 128, 255}));
             m.addNode("DequantizeLinear", {"x", "s", "z"}, {"y"}).attr("axis", -1);
             output(m, "y", DType::Float32, {2, 4, 3});
         }},
        {"dynamic-quantize",
         DType::Float32,
         {3, 7},
         4.0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addNode("DynamicQuantizeLinear", {"x"}, {"y", "y_scale", "y_zero"});
             output(m, "y", DType::UInt8, {3, 7});
             output(m, "y_scale", DType::Float32, {});
             output(m, "y_zero", DType::UInt8, {});
         }},
        {"conv-integer",
         DType::UInt8,
         {1, 4, 9, 9},
         0,
         [](onnxio::ModelBuilder& m, Seeded& r) {
             m.addInlineInitializer("w", DType::UInt8, {6, 4, 3, 3},
                                    bytesOf(r.ints<uint8_t>(6 * 4 * 9, 0, 255)));
             scalar(m, "xz", DType::UInt8, 3);
             scalar(m, "wz", DType::UInt8, 131); // ONNX Runtime: per tensor only
             m.addNode("ConvInteger", {"x", "w", "xz", "wz"}, {"y"})
                 .attr("pads", std::vector<int64_t>{1, 1, 1, 1})
                 .attr("strides", std::vector<int64_t>{2, 2});
             output(m, "y", DType::Int32, {1, 6, 5, 5});
         }},
        {"matmul-integer",
         DType::UInt8,
         {2, 5, 8},
         0,
         [](onnxio::ModelBuilder& m, Seeded& r) {
             s8Weight(m, r, "b", {8, 6});
             scalar(m, "az", DType::UInt8, 17);
             m.addInlineInitializer("bz", DType::Int8, {6},
                                    bytesOf(std::vector<int8_t>{0, 3, -3, 9, -9, 1}));
             m.addNode("MatMulInteger", {"x", "b", "az", "bz"}, {"y"});
             output(m, "y", DType::Int32, {2, 5, 6});
         }},
        {"qlinear-conv",
         DType::UInt8,
         {1, 3, 10, 10},
         0,
         [](onnxio::ModelBuilder& m, Seeded& r) {
             scalar(m, "xs", DType::Float32, 0.05);
             scalar(m, "xz", DType::UInt8, 120);
             m.addInlineInitializer("w", DType::Int8, {8, 3, 3, 3},
                                    bytesOf(r.ints<int8_t>(8 * 27, -127, 127)));
             m.addFloatInitializer("ws", {8}, r.floats(8, 0.01));
             m.addInlineInitializer("wz", DType::Int8, {8}, bytesOf(std::vector<int8_t>(8, 0)));
             scalar(m, "ys", DType::Float32, 0.1);
             scalar(m, "yz", DType::UInt8, 100);
             m.addInlineInitializer("bias", DType::Int32, {8},
                                    bytesOf(r.ints<int32_t>(8, -2000, 2000)));
             m.addNode("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "bias"}, {"y"})
                 .attr("pads", std::vector<int64_t>{1, 1, 1, 1});
             output(m, "y", DType::UInt8, {1, 8, 10, 10});
         }},
        {"qlinear-matmul",
         DType::UInt8,
         {2, 4, 8},
         0,
         [](onnxio::ModelBuilder& m, Seeded& r) {
             scalar(m, "as", DType::Float32, 0.02);
             scalar(m, "az", DType::UInt8, 130);
             m.addInlineInitializer("b", DType::UInt8, {8, 5},
                                    bytesOf(r.ints<uint8_t>(40, 0, 255)));
             scalar(m, "bs", DType::Float32, 0.03);
             scalar(m, "bz", DType::UInt8, 125);
             scalar(m, "ys", DType::Float32, 0.05);
             scalar(m, "yz", DType::UInt8, 128);
             m.addNode("QLinearMatMul", {"x", "as", "az", "b", "bs", "bz", "ys", "yz"}, {"y"});
             output(m, "y", DType::UInt8, {2, 4, 5});
         }},
        {"dequantize-relu-quantize",
         DType::Int8,
         {2, 3, 6},
         0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             scalar(m, "s", DType::Float32, 0.1);
             scalar(m, "z", DType::Int8, -5);
             m.addNode("DequantizeLinear", {"x", "s", "z"}, {"d"});
             m.addNode("Relu", {"d"}, {"r"});
             scalar(m, "s2", DType::Float32, 0.07);
             scalar(m, "z2", DType::Int8, -128);
             m.addNode("QuantizeLinear", {"r", "s2", "z2"}, {"y"});
             output(m, "y", DType::Int8, {2, 3, 6});
         }},
        {"clip-runtime-min",
         DType::Float32,
         {2, 3, 8},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             // The log-mel floor of audio front ends: max(x) - 80, here - 1.
             m.addNode("ReduceMax", {"x"}, {"top"}).attr("keepdims", 0);
             scalar(m, "depth", DType::Float32, 1.0);
             m.addNode("Sub", {"top", "depth"}, {"floor"});
             scalar(m, "ceiling", DType::Float32, 1.5);
             m.addNode("Clip", {"x", "floor", "ceiling"}, {"y"});
             output(m, "y", DType::Float32, {2, 3, 8});
         }},
        {"clip-runtime-max-int32",
         DType::Int32,
         {20},
         0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addInt64Initializer("first", {}, {0});
             m.addNode("Gather", {"x", "first"}, {"head"});
             scalar(m, "lift", DType::Int32, 50);
             m.addNode("Add", {"head", "lift"}, {"bound"});
             m.addNode("Clip", {"x", "", "bound"}, {"y"});
             output(m, "y", DType::Int32, {20});
         }},
        {"pad-runtime-value",
         DType::Float32,
         {2, 3, 5},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             // The pad value, the input's mean, decides no shape: computed at run time.
             m.addNode("ReduceMean", {"x"}, {"mean"}).attr("keepdims", 0);
             m.addInt64Initializer("pads", {6}, {0, 1, 2, 0, 2, 1});
             m.addNode("Pad", {"x", "pads", "mean"}, {"y"});
             output(m, "y", DType::Float32, {2, 6, 8});
         }},
        {"qdq-conv-relu",
         DType::UInt8,
         {1, 3, 8, 8},
         0,
         [](onnxio::ModelBuilder& m, Seeded& r) {
             const float xs = 0.04f;
             std::vector<float> ws = r.floats(4, 0.02);
             for (float& w : ws)
                 w = std::abs(w) + 0.001f;
             scalar(m, "xs", DType::Float32, xs);
             scalar(m, "xz", DType::UInt8, 128);
             m.addNode("DequantizeLinear", {"x", "xs", "xz"}, {"xf"});
             m.addInlineInitializer("w", DType::Int8, {4, 3, 3, 3},
                                    bytesOf(r.ints<int8_t>(4 * 27, -127, 127)));
             m.addFloatInitializer("ws", {4}, ws);
             m.addInlineInitializer("wz", DType::Int8, {4}, bytesOf(std::vector<int8_t>(4, 0)));
             m.addNode("DequantizeLinear", {"w", "ws", "wz"}, {"wf"}).attr("axis", 0);
             std::vector<float> bs;
             for (float w : ws)
                 bs.push_back(xs * w);
             m.addInlineInitializer("b", DType::Int32, {4},
                                    bytesOf(r.ints<int32_t>(4, -3000, 3000)));
             m.addFloatInitializer("bs", {4}, bs);
             m.addNode("DequantizeLinear", {"b", "bs"}, {"bf"}).attr("axis", 0);
             m.addNode("Conv", {"xf", "wf", "bf"}, {"c"})
                 .attr("pads", std::vector<int64_t>{1, 1, 1, 1});
             m.addNode("Relu", {"c"}, {"r"});
             scalar(m, "ys", DType::Float32, 0.03);
             scalar(m, "yz", DType::UInt8, 0);
             m.addNode("QuantizeLinear", {"r", "ys", "yz"}, {"y"});
             output(m, "y", DType::UInt8, {1, 4, 8, 8});
         },
         "QLinearConv"},
        {"qdq-matmul",
         DType::UInt8,
         {3, 6},
         0,
         [](onnxio::ModelBuilder& m, Seeded& r) {
             scalar(m, "as", DType::Float32, 0.02);
             scalar(m, "az", DType::UInt8, 120);
             m.addNode("DequantizeLinear", {"x", "as", "az"}, {"af"});
             m.addInlineInitializer("b", DType::Int8, {6, 5},
                                    bytesOf(r.ints<int8_t>(30, -127, 127)));
             scalar(m, "bs", DType::Float32, 0.01);
             scalar(m, "bz", DType::Int8, 0);
             m.addNode("DequantizeLinear", {"b", "bs", "bz"}, {"bf"});
             m.addNode("MatMul", {"af", "bf"}, {"c"});
             scalar(m, "ys", DType::Float32, 0.015);
             scalar(m, "yz", DType::Int8, 3);
             m.addNode("QuantizeLinear", {"c", "ys", "yz"}, {"y"});
             output(m, "y", DType::Int8, {3, 5});
         },
         "QLinearMatMul"},
        gridSampleCase("grid-sample-linear-zeros", {2, 3, 5, 6}, {2, 4, 7, 2}, "bilinear", "zeros",
                       0),
        gridSampleCase("grid-sample-linear-reflection-corners", {1, 2, 5, 6}, {1, 4, 3, 2},
                       "bilinear", "reflection", 1),
        gridSampleCase("grid-sample-nearest-reflection", {1, 2, 5, 6}, {1, 4, 3, 2}, "nearest",
                       "reflection", 0),
        gridSampleCase("grid-sample-nearest-border", {1, 2, 5, 6}, {1, 4, 3, 2}, "nearest",
                       "border", 1),
        gridSampleCase("grid-sample-cubic-border", {1, 2, 5, 6}, {1, 4, 3, 2}, "bicubic", "border",
                       0),
        gridSampleCase("grid-sample-cubic-reflection-corners", {1, 2, 5, 6}, {1, 4, 3, 2},
                       "bicubic", "reflection", 1),
        gridSampleCase("grid-sample-volumetric-linear", {1, 2, 3, 4, 5}, {1, 2, 3, 4, 3}, "linear",
                       "zeros", 0, 20),
        {"exp",
         DType::Float32,
         {3, 500},
         6.0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addNode("Exp", {"x"}, {"y"});
             output(m, "y", DType::Float32, {3, 500});
         }},
        {"erf",
         DType::Float32,
         {3, 500},
         4.5,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addNode("Erf", {"x"}, {"y"});
             output(m, "y", DType::Float32, {3, 500});
         }},
        // Elementwise rows of 9 run joined with the rows above (the bias
        // broadcast along them), not so a factor that changes per row.
        {"elementwise-joined-rows",
         DType::Float32,
         {2, 3, 7, 9},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded& r) {
             m.addFloatInitializer("a", {1, 3, 1, 1}, r.floats(3, 1.0));
             m.addFloatInitializer("c", {1, 1, 7, 1}, r.floats(7, 1.0));
             m.addNode("Add", {"x", "a"}, {"s"});
             m.addNode("Mul", {"s", "c"}, {"p"});
             m.addNode("Relu", {"p"}, {"y"});
             output(m, "y", DType::Float32, {2, 3, 7, 9});
         }},
        // Rows folded in vector lanes: a last partial vector, then whole ones.
        {"softmax-rows-with-a-tail",
         DType::Float32,
         {2, 5, 37},
         30.0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addNode("Softmax", {"x"}, {"y"}).attr("axis", -1);
             output(m, "y", DType::Float32, {2, 5, 37});
         }},
        {"log-softmax-whole-vectors",
         DType::Float32,
         {3, 48},
         30.0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addNode("LogSoftmax", {"x"}, {"y"}).attr("axis", 1);
             output(m, "y", DType::Float32, {3, 48});
         }},
        // The op families of issue 23, item 5, that the ONNX test data
        // checks against its own reference: here against ONNX Runtime.
        {"trilu-upper",
         DType::Float32,
         {2, 5, 6},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addInt64Initializer("k", {}, {1});
             m.addNode("Trilu", {"x", "k"}, {"y"}).attr("upper", int64_t{1});
             output(m, "y", DType::Float32, {2, 5, 6});
         },
         nullptr,
         14},
        {"trilu-lower-below-the-diagonal",
         DType::Float32,
         {2, 6, 5},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addInt64Initializer("k", {}, {-2});
             m.addNode("Trilu", {"x", "k"}, {"y"}).attr("upper", int64_t{0});
             output(m, "y", DType::Float32, {2, 6, 5});
         },
         nullptr,
         14},
        {"cumsum-exclusive-reverse",
         DType::Float32,
         {3, 4, 5},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addInt64Initializer("axis", {}, {1});
             m.addNode("CumSum", {"x", "axis"}, {"y"})
                 .attr("exclusive", int64_t{1})
                 .attr("reverse", int64_t{1});
             output(m, "y", DType::Float32, {3, 4, 5});
         },
         nullptr,
         14},
        {"mod-integer",
         DType::Int32,
         {4, 6},
         0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addInlineInitializer("d", DType::Int32, {6},
                                    bytesOf(std::vector<int32_t>{-7, -3, 2, 5, 9, -1}));
             m.addNode("Mod", {"x", "d"}, {"y"});
             output(m, "y", DType::Int32, {4, 6});
         }},
        {"mod-fmod-float",
         DType::Float32,
         {4, 6},
         10.0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addFloatInitializer("d", {6}, {2.5f, -3.0f, 1.5f, -0.75f, 4.0f, 7.0f});
             m.addNode("Mod", {"x", "d"}, {"y"}).attr("fmod", int64_t{1});
             output(m, "y", DType::Float32, {4, 6});
         }},
        {"bitshift-left",
         DType::UInt8,
         {3, 8},
         0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addInlineInitializer("s", DType::UInt8, {8},
                                    bytesOf(std::vector<uint8_t>{0, 1, 2, 3, 4, 5, 6, 7}));
             m.addNode("BitShift", {"x", "s"}, {"y"}).attr("direction", std::string("LEFT"));
             output(m, "y", DType::UInt8, {3, 8});
         }},
        {"bitshift-right",
         DType::UInt8,
         {3, 8},
         0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addInlineInitializer("s", DType::UInt8, {8},
                                    bytesOf(std::vector<uint8_t>{7, 6, 5, 4, 3, 2, 1, 0}));
             m.addNode("BitShift", {"x", "s"}, {"y"}).attr("direction", std::string("RIGHT"));
             output(m, "y", DType::UInt8, {3, 8});
         }},
        {"onehot-negative-indices",
         DType::Int32,
         {5, 3},
         0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             // Indices in [-128, 127]; a negative one counts from depth.
             m.addInlineInitializer("depth", DType::Int32, {}, bytesOf(std::vector<int32_t>{200}));
             m.addFloatInitializer("values", {2}, {-1.0f, 3.0f});
             m.addNode("OneHot", {"x", "depth", "values"}, {"y"}).attr("axis", int64_t{1});
             output(m, "y", DType::Float32, {5, 200, 3});
         },
         nullptr,
         11},
        {"einsum-batched-contraction",
         DType::Float32,
         {2, 3, 4},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded& r) {
             m.addFloatInitializer("w", {4, 5}, r.floats(20, 1.0));
             m.addNode("Einsum", {"x", "w"}, {"y"}).attr("equation", std::string("bij,jk->bik"));
             output(m, "y", DType::Float32, {2, 3, 5});
         },
         nullptr,
         12},
        {"einsum-diagonal-sum",
         DType::Float32,
         {3, 4, 4},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addNode("Einsum", {"x"}, {"y"}).attr("equation", std::string("bii->b"));
             output(m, "y", DType::Float32, {3});
         },
         nullptr,
         12},
        {"nll-loss-weighted-mean",
         DType::Float32,
         {4, 5},
         3.0,
         [](onnxio::ModelBuilder& m, Seeded& r) {
             m.addInt64Initializer("target", {4}, {3, 0, 4, 1});
             m.addFloatInitializer("weight", {5}, r.floats(5, 1.0));
             m.addNode("NegativeLogLikelihoodLoss", {"x", "target", "weight"}, {"y"})
                 .attr("reduction", std::string("mean"));
             output(m, "y", DType::Float32, {});
         }},
        {"dense-rows-by-features",
         DType::Float32,
         {2, 48, 64},
         2.0,
         [](onnxio::ModelBuilder& m, Seeded& r) {
             m.addFloatInitializer("w", {64, 96}, r.floats(64 * 96, 0.2));
             m.addFloatInitializer("b", {96}, r.floats(96, 0.5));
             m.addNode("MatMul", {"x", "w"}, {"xw"});
             m.addNode("Add", {"xw", "b"}, {"biased"});
             m.addNode("Relu", {"biased"}, {"y"});
             output(m, "y", DType::Float32, {2, 48, 96});
         }},
        {"softmax-cross-entropy-ignore-index",
         DType::Float32,
         {4, 5},
         3.0,
         [](onnxio::ModelBuilder& m, Seeded&) {
             m.addInt64Initializer("labels", {4}, {2, 4, 1, 0});
             m.addNode("SoftmaxCrossEntropyLoss", {"x", "labels"}, {"y"})
                 .attr("reduction", std::string("sum"))
                 .attr("ignore_index", int64_t{1});
             output(m, "y", DType::Float32, {});
         }},
    };
    return all;
}

struct QuantizedRow {
    std::string rowLabel;
    size_t index;
};

std::vector<QuantizedRow> quantizedRows() {
    std::vector<QuantizedRow> rows;
    for (size_t i = 0; i < cases().size(); ++i)
        rows.push_back({cases()[i].name, i});
    return rows;
}

} // namespace

class QuantizedOpsMatchOnnxRuntime : public ::testing::TestWithParam<QuantizedRow> {};

TEST_P(QuantizedOpsMatchOnnxRuntime, quantizedOpsMatchOnnxRuntime) {
    expectMatchesOnnxRuntime(cases()[GetParam().index], "graphturbo");
}

INSTANTIATE_TEST_SUITE_P(TestQuantizedOps, QuantizedOpsMatchOnnxRuntime,
                         ::testing::ValuesIn(quantizedRows()), test::RowName{});
