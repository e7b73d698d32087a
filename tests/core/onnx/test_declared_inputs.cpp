// The declared graph inputs of a model file (the studio's dimension dialog):
// fixed, symbolic and unknown dims as the file declares them, initializers
// listed as inputs left out, bad files refused naming the file.

#include "coretestsupport.h"
#include "import_helpers.h"
#include "onnx/declared_inputs.h"
#include "support/strings.h"
#include "zoo/zoo.h"

#include <fstream>

using namespace stagecraft;
using namespace stagecraft::onnxio;
using ir::DType;

namespace {

DeclaredDim fixed(int64_t value) {
    return {value, ""};
}
DeclaredDim named(const std::string& param) {
    return {std::nullopt, param};
}
DeclaredDim unknown() {
    return {};
}

/// Two inputs sharing the symbolic dim "batch", an unknown dim (an empty
/// dim_param, as some exporters write), and a weight that older exporters
/// list among the graph inputs.
ModelBuilder dynamicModel() {
    ModelBuilder m("dynamic", 13);
    m.addInput("x", DType::Float32, {std::string("batch"), int64_t{3}, std::string(), int64_t{8}});
    m.addInput("mask", DType::Int64, {std::string("batch"), std::string("seq")});
    m.addInput("w", DType::Float32, {int64_t{3}});
    m.addFloatInitializer("w", {3}, {1, 2, 3});
    m.addNode("Relu", {"x"}, {"y"});
    m.addOutput("y", DType::Float32, {}, false);
    return m;
}

std::string qs(const std::string& text) {
    return text;
}

} // namespace

test::ImportFixture fixture;
TEST(TestDeclaredInputs, zooModelIsStatic) {
    auto written = zoo::writeZooModel("fig3-chain", {.batch = 2}, fixture.path("fig3.onnx"));
    ASSERT_TRUE(written.ok()) << (written.ok() ? "" : written.error().message().c_str());
    auto inputs = declaredInputs(written->modelPath);
    ASSERT_TRUE(inputs.ok()) << (inputs.ok() ? "" : inputs.error().message().c_str());
    ASSERT_EQ(inputs->size(), size_t(1));
    const DeclaredInput& input = inputs->front();
    ASSERT_EQ(qs(input.name), std::string("input"));
    ASSERT_EQ(qs(input.dtype), std::string("f32"));
    ASSERT_TRUE(input.hasShape);
    ASSERT_TRUE((input.dims == std::vector{fixed(2), fixed(8), fixed(32), fixed(32)}));
    ASSERT_TRUE(!needsBinding(*inputs));
}

TEST(TestDeclaredInputs, symbolicAndUnknownDims) {
    auto file = fixture.path("dynamic.onnx");
    ASSERT_TRUE(dynamicModel().save(file).ok());
    auto inputs = declaredInputs(file);
    ASSERT_TRUE(inputs.ok()) << (inputs.ok() ? "" : inputs.error().message().c_str());
    ASSERT_EQ(inputs->size(), size_t(2));
    const DeclaredInput& x = (*inputs)[0];
    ASSERT_EQ(qs(x.name), std::string("x"));
    ASSERT_TRUE((x.dims == std::vector{named("batch"), fixed(3), unknown(), fixed(8)}));
    ASSERT_TRUE(x.dims[0].symbolic() && x.dims[2].unknown() && x.dims[1].fixed());
    const DeclaredInput& mask = (*inputs)[1];
    ASSERT_EQ(qs(mask.dtype), std::string("i64"));
    ASSERT_TRUE((mask.dims == std::vector{named("batch"), named("seq")}));
    ASSERT_TRUE(needsBinding(*inputs));
}

// A real exporter's symbolic dims (PaddleOCR via paddle2onnx).
TEST(TestDeclaredInputs, fetchedModelDims) {
    auto path = test::fetchedModel("ppocr/ch_PP-OCRv4_rec_infer.onnx");
    if (path.empty())
        return;
    auto inputs = declaredInputs(path);
    ASSERT_TRUE(inputs.ok()) << (inputs.ok() ? "" : inputs.error().message().c_str());
    ASSERT_EQ(inputs->size(), size_t(1));
    const DeclaredInput& x = inputs->front();
    ASSERT_EQ(qs(x.name), std::string("x"));
    ASSERT_EQ(x.dims.size(), size_t(4));
    ASSERT_EQ(qs(x.dims[0].param), std::string("p2o.DynamicDimension.0"));
    ASSERT_TRUE((x.dims[1] == fixed(3) && x.dims[2] == fixed(48)));
    ASSERT_TRUE(x.dims[3].symbolic());
    ASSERT_TRUE(needsBinding(*inputs));
}

TEST(TestDeclaredInputs, errorsNameTheFile) {
    auto garbage = fixture.path("notes.onnx");
    std::ofstream(garbage, std::ios::binary) << "\xff\xff not a model";
    auto empty = fixture.path("empty.onnx");
    std::ofstream(empty, std::ios::binary).flush();
    const std::pair<std::filesystem::path, std::string> cases[] = {
        {garbage, ": cannot parse the ONNX protobuf (not an ONNX model, or truncated)"},
        {empty, ": empty file, not an ONNX model"},
        {fixture.path("absent.onnx"), ": cannot open: No such file or directory"},
        {fixture.path("dir"), ": is a directory, not a regular file"},
    };
    std::filesystem::create_directory(fixture.path("dir"));
    for (const auto& [path, message] : cases) {
        auto inputs = declaredInputs(path);
        ASSERT_TRUE(!inputs.ok());
        ASSERT_EQ(qs(inputs.error().message()), qs(path.string() + message));
    }
}
