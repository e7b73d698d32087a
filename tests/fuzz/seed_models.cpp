// Small ONNX models for the ONNX harness's seeds, built with ModelBuilder:
// each covers a few op families of the importer's shape inference so that
// the fuzzer mutates real attributes, initializers and opsets.

#include "seed_models.h"

#include "onnx/model_builder.h"

#include <cstdint>

namespace stagecraft::fuzz {

namespace {

using ir::DType;
using onnxio::ModelBuilder;
using Ints = std::vector<int64_t>;

std::vector<float> ramp(int64_t count) {
    std::vector<float> values;
    for (int64_t i = 0; i < count; ++i)
        values.push_back(0.01f * static_cast<float>(i % 17) - 0.08f);
    return values;
}

void addRamp(ModelBuilder& m, const std::string& name, const ir::Shape& shape) {
    m.addFloatInitializer(name, shape, ramp(ir::elementCount(shape)));
}

std::string convBlock() {
    ModelBuilder m("conv-block", 13);
    m.addInput("x", DType::Float32, {1, 3, 16, 16});
    addRamp(m, "w", {8, 3, 3, 3});
    for (const char* name : {"b", "scale", "bias", "mean", "var"})
        addRamp(m, name, {8});
    addRamp(m, "wg", {4, 8});
    addRamp(m, "bg", {4});
    m.addNode("Conv", {"x", "w", "b"}, {"c"}).attr("pads", Ints{1, 1, 1, 1});
    m.addNode("BatchNormalization", {"c", "scale", "bias", "mean", "var"}, {"n"});
    m.addNode("Relu", {"n"}, {"r"});
    m.addNode("MaxPool", {"r"}, {"p"}).attr("kernel_shape", Ints{2, 2}).attr("strides", Ints{2, 2});
    m.addNode("GlobalAveragePool", {"p"}, {"g"});
    m.addNode("Flatten", {"g"}, {"f"});
    m.addNode("Gemm", {"f", "wg", "bg"}, {"l"}).attr("transB", 1);
    m.addNode("Softmax", {"l"}, {"y"}).attr("axis", 1);
    m.addOutput("y", DType::Float32, {1, 4});
    return m.serialize();
}

std::string attention() {
    ModelBuilder m("attention", 13);
    m.addInput("x", DType::Float32, {2, 4, 8});
    addRamp(m, "wq", {8, 8});
    m.addInt64Initializer("heads", {4}, {2, 4, 2, 4});
    m.addInt64Initializer("back", {3}, {2, 4, 8});
    m.addFloatInitializer("scale", {}, {2.0f});
    m.addFloatInitializer("eps", {}, {1e-5f});
    m.addNode("MatMul", {"x", "wq"}, {"q"});
    m.addNode("Reshape", {"q", "heads"}, {"h"});
    m.addNode("Transpose", {"h"}, {"t"}).attr("perm", Ints{0, 2, 1, 3});
    m.addNode("Transpose", {"h"}, {"k"}).attr("perm", Ints{0, 2, 3, 1});
    m.addNode("MatMul", {"t", "k"}, {"s"});
    m.addNode("Div", {"s", "scale"}, {"d"});
    m.addNode("Softmax", {"d"}, {"p"}).attr("axis", -1);
    m.addNode("MatMul", {"p", "t"}, {"o"});
    m.addNode("Transpose", {"o"}, {"ot"}).attr("perm", Ints{0, 2, 1, 3});
    m.addNode("Reshape", {"ot", "back"}, {"r"});
    m.addNode("ReduceMean", {"r"}, {"mu"}).attr("axes", Ints{-1});
    m.addNode("Sub", {"r", "mu"}, {"c"});
    m.addNode("Mul", {"c", "c"}, {"c2"});
    m.addNode("ReduceMean", {"c2"}, {"v"}).attr("axes", Ints{-1});
    m.addNode("Add", {"v", "eps"}, {"ve"});
    m.addNode("Sqrt", {"ve"}, {"sd"});
    m.addNode("Div", {"c", "sd"}, {"n"});
    m.addNode("Erf", {"n"}, {"e"});
    m.addNode("Mul", {"n", "e"}, {"y"});
    m.addOutput("y", DType::Float32, {2, 4, 8});
    return m.serialize();
}

std::string shapeChain() {
    ModelBuilder m("shape-chain", 13);
    m.addInput("x", DType::Float32, {2, 3, 4, 5});
    m.addInt64Initializer("zero", {}, {0});
    m.addInt64Initializer("axis0", {1}, {0});
    m.addInt64Initializer("minus1", {1}, {-1});
    m.addInt64Initializer("three", {1}, {3});
    m.addInt64Initializer("six", {1}, {6});
    m.addInt64Initializer("start", {}, {0});
    m.addInt64Initializer("limit", {}, {6});
    m.addInt64Initializer("delta", {}, {1});
    m.addNode("Shape", {"x"}, {"s"});
    m.addNode("Gather", {"s", "zero"}, {"n"}).attr("axis", 0);
    m.addNode("Unsqueeze", {"n", "axis0"}, {"nu"});
    m.addNode("Concat", {"nu", "minus1"}, {"target"}).attr("axis", 0);
    m.addNode("Reshape", {"x", "target"}, {"flat"});
    m.addNode("Concat", {"nu", "three"}, {"filled"}).attr("axis", 0);
    m.addNode("ConstantOfShape", {"filled"}, {"ones"});
    m.addNode("Range", {"start", "limit", "delta"}, {"range"});
    m.addNode("Cast", {"range"}, {"rf"}).attr("to", 1);
    m.addNode("Size", {"x"}, {"size"});
    m.addNode("Concat", {"nu", "six"}, {"wide"}).attr("axis", 0);
    m.addNode("Expand", {"rf", "wide"}, {"y"});
    m.addOutput("flat", DType::Float32, {}, false);
    m.addOutput("y", DType::Float32, {}, false);
    m.addOutput("size", DType::Int64, {}, false);
    m.addOutput("ones", DType::Float32, {}, false);
    return m.serialize();
}

std::string movement() {
    ModelBuilder m("movement", 13);
    m.addInput("x", DType::Float32, {1, 4, 6, 6});
    m.addInt64Initializer("starts", {2}, {1, 0});
    m.addInt64Initializer("ends", {2}, {5, -1});
    m.addInt64Initializer("axes", {2}, {2, 3});
    m.addInt64Initializer("steps", {2}, {2, 1});
    m.addInt64Initializer("pads", {8}, {0, 0, 1, 1, 0, 0, 1, 1});
    m.addInt64Initializer("split", {2}, {1, 3});
    m.addInt64Initializer("repeats", {4}, {1, 1, 2, 1});
    m.addFloatInitializer("scales", {4}, {1, 1, 2, 2});
    m.addNode("Slice", {"x", "starts", "ends", "axes", "steps"}, {"sl"});
    m.addNode("Pad", {"sl", "pads"}, {"pd"}).attr("mode", "reflect");
    m.addNode("Split", {"x", "split"}, {"a", "b"}).attr("axis", 1);
    m.addNode("Concat", {"b", "a"}, {"cat"}).attr("axis", 1);
    m.addNode("Resize", {"cat", "", "scales"}, {"up"}).attr("mode", "nearest");
    m.addNode("DepthToSpace", {"cat"}, {"d2s"}).attr("blocksize", 2);
    m.addNode("SpaceToDepth", {"d2s"}, {"s2d"}).attr("blocksize", 2);
    m.addNode("Tile", {"s2d", "repeats"}, {"tile"});
    m.addOutput("pd", DType::Float32, {}, false);
    m.addOutput("up", DType::Float32, {}, false);
    m.addOutput("tile", DType::Float32, {}, false);
    return m.serialize();
}

std::string reduceSelect() {
    ModelBuilder m("reduce-select", 13);
    m.addInput("x", DType::Float32, {3, 5});
    m.addInt64Initializer("axes", {1}, {1});
    m.addInt64Initializer("k", {1}, {2});
    m.addInt64Initializer("rows", {2}, {2, 0});
    m.addFloatInitializer("zero", {}, {0});
    m.addFloatInitializer("hi", {}, {0.5f});
    m.addNode("ReduceSum", {"x", "axes"}, {"sum"});
    m.addNode("ReduceMax", {"x"}, {"max"}).attr("axes", Ints{0}).attr("keepdims", 0);
    m.addNode("ArgMax", {"x"}, {"arg"}).attr("axis", 1);
    m.addNode("TopK", {"x", "k"}, {"top", "idx"});
    m.addNode("Greater", {"x", "zero"}, {"pos"});
    m.addNode("Where", {"pos", "x", "zero"}, {"w"});
    m.addNode("Gather", {"w", "rows"}, {"g"}).attr("axis", 0);
    m.addNode("Clip", {"g", "zero", "hi"}, {"cl"});
    m.addNode("Cast", {"cl"}, {"h"}).attr("to", 10);
    m.addNode("IsNaN", {"x"}, {"nan"});
    m.addNode("Not", {"nan"}, {"ok"});
    for (const char* out : {"sum", "max", "top"})
        m.addOutput(out, DType::Float32, {}, false);
    m.addOutput("arg", DType::Int64, {}, false);
    m.addOutput("h", DType::Float16, {}, false);
    m.addOutput("ok", DType::Bool, {}, false);
    return m.serialize();
}

std::string opset9() {
    ModelBuilder m("opset9", 9);
    m.addInput("x", DType::Float32, {1, 2, 4, 4});
    m.addFloatInitializer("scales", {4}, {1, 1, 2, 2});
    m.addInt64Initializer("shape", {2}, {1, -1});
    m.addNode("Slice", {"x"}, {"sl"})
        .attr("starts", Ints{1})
        .attr("ends", Ints{INT64_MAX})
        .attr("axes", Ints{3});
    m.addNode("Pad", {"sl"}, {"pd"}).attr("pads", Ints{0, 0, 0, 1, 0, 0, 0, 0});
    m.addNode("Clip", {"pd"}, {"cl"}).attr("min", 0.0f).attr("max", 6.0f);
    m.addNode("Upsample", {"cl", "scales"}, {"up"});
    m.addNode("Dropout", {"up"}, {"dr"});
    m.addNode("Identity", {"dr"}, {"id"});
    m.addNode("Reshape", {"id", "shape"}, {"y"});
    m.addOutput("y", DType::Float32, {}, false);
    return m.serialize();
}

std::string opset7() {
    ModelBuilder m("opset7", 7);
    m.addInput("x", DType::Float32, {2, 3});
    addRamp(m, "w", {3, 4});
    addRamp(m, "b", {4});
    m.addNode("Gemm", {"x", "w", "b"}, {"g"});
    m.addNode("Relu", {"g"}, {"y"});
    m.addOutput("y", DType::Float32, {2, 4});
    return m.serialize();
}

std::string convTranspose() {
    ModelBuilder m("conv-transpose", 11);
    m.addInput("x", DType::Float32, {1, 2, 5, 5});
    addRamp(m, "w", {2, 3, 3, 3});
    addRamp(m, "slope", {3, 1, 1});
    addRamp(m, "scale", {3});
    addRamp(m, "bias", {3});
    m.addNode("ConvTranspose", {"x", "w"}, {"ct"}).attr("strides", Ints{2, 2});
    m.addNode("InstanceNormalization", {"ct", "scale", "bias"}, {"in"});
    m.addNode("PRelu", {"in", "slope"}, {"pr"});
    m.addNode("AveragePool", {"pr"}, {"ap"}).attr("kernel_shape", Ints{3, 3});
    m.addNode("LeakyRelu", {"ap"}, {"y"}).attr("alpha", 0.1f);
    m.addOutput("y", DType::Float32, {}, false);
    return m.serialize();
}

std::string customOp() {
    ModelBuilder m("custom-op", 13);
    m.addOpsetImport("com.example", 1);
    m.addInput("x", DType::Float32, {4, 4});
    m.addNode("FancyOp", {"x"}, {"f"}).domain("com.example").attr("mode", "fast");
    m.addValueInfo("f", DType::Float32, {4, 4});
    m.addNode("Tanh", {"f"}, {"y"});
    m.addOutput("y", DType::Float32, {4, 4});
    return m.serialize();
}

std::string symbolicDim() {
    ModelBuilder m("symbolic-dim", 13);
    m.addInput("x", DType::Float32, {std::string("batch"), 3});
    m.addNode("Sigmoid", {"x"}, {"y"});
    m.addOutput("y", DType::Float32, {std::string("batch"), 3});
    return m.serialize();
}

} // namespace

std::vector<std::pair<std::string, std::string>> seedModels() {
    return {{"conv-block", convBlock()},
            {"attention", attention()},
            {"shape-chain", shapeChain()},
            {"movement", movement()},
            {"reduce-select", reduceSelect()},
            {"opset9", opset9()},
            {"opset7", opset7()},
            {"conv-transpose", convTranspose()},
            {"custom-op", customOp()},
            {"symbolic-dim", symbolicDim()}};
}

} // namespace stagecraft::fuzz
