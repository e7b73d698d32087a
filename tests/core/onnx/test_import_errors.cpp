// ONNX import of bad or unusual input: each problem is one clear line that
// names the file and what is wrong, never a crash. Also dimension binding,
// unknown ops and opset warnings.

#include "import_helpers.h"

#include <fstream>

using namespace stagecraft;
using namespace stagecraft::onnxio;
using ir::DType;
using stagecraft::test::contains;
using stagecraft::test::tensorNamed;

namespace {

ModelBuilder dynamicModel() {
    ModelBuilder m("dynamic", 13);
    m.addInput("x", DType::Float32,
               {std::string("batch"), int64_t{3}, std::string("h"), std::string("w")});
    m.addNode("Relu", {"x"}, {"y"});
    m.addOutput("y", DType::Float32, {}, false);
    return m;
}

void expectError(const Expected<ImportResult>& r, const std::vector<std::string>& parts) {
    ASSERT_TRUE(!r.ok());
    const std::string& message = r.error().message();
    ASSERT_TRUE(message.find('\n') == std::string::npos) << message.c_str();
    for (const std::string& part : parts)
        ASSERT_TRUE(contains(message, part)) << ((message + "  [missing: " + part + "]").c_str());
}

} // namespace

test::ImportFixture fixture;

std::filesystem::path writeBytes(const std::string& name, const std::string& bytes) {
    auto file = fixture.path(name);
    std::ofstream(file, std::ios::binary) << bytes;
    return file;
}
TEST(TestImportErrors, notAnOnnxFile) {
    auto file = writeBytes("notes.onnx", "this is a text file, not a model\n");
    expectError(importModel(file), {"notes.onnx", "not an ONNX model"});
}

TEST(TestImportErrors, emptyAndMissingFiles) {
    expectError(importModel(writeBytes("empty.onnx", "")), {"empty.onnx", "empty file"});
    expectError(importModel(fixture.path("absent.onnx")), {"absent.onnx", "cannot open"});
    expectError(importModel(std::filesystem::path(fixture.path("."))), {"directory"});
}

TEST(TestImportErrors, truncatedFile) {
    ModelBuilder m("t", 13);
    m.addInput("x", DType::Float32, {2, 3});
    m.addFloatInitializer("w", {3, 3}, std::vector<float>(9, 1.0f));
    m.addNode("MatMul", {"x", "w"}, {"y"});
    m.addOutput("y", DType::Float32, {2, 3});
    std::string bytes = m.serialize();
    for (size_t cut : {bytes.size() / 3, bytes.size() / 2, bytes.size() - 5}) {
        auto file = writeBytes("cut" + std::to_string(cut) + ".onnx", bytes.substr(0, cut));
        auto r = importModel(file);
        ASSERT_TRUE(!r.ok()) << "a truncated file imported";
        ASSERT_TRUE(contains(r.error().message(), "cut" + std::to_string(cut) + ".onnx"))
            << (r.error().message().c_str());
        ASSERT_TRUE(contains(r.error().message(), "truncated")) << (r.error().message().c_str());
    }
}

TEST(TestImportErrors, missingExternalDataFile) {
    ModelBuilder m("ext", 13);
    m.addInput("x", DType::Float32, {1, 4});
    m.addExternalInitializer("w", DType::Float32, {4, 4});
    m.addNode("MatMul", {"x", "w"}, {"y"});
    m.addOutput("y", DType::Float32, {1, 4});
    auto file = fixture.path("ext.onnx");
    ASSERT_TRUE(m.save(file).ok());
    std::filesystem::remove(fixture.path("ext.weights"));
    expectError(importModel(file),
                {"ext.onnx", "initializer 'w'", "external data file 'ext.weights' is missing"});
}

TEST(TestImportErrors, shortExternalDataFile) {
    ModelBuilder m("short", 13);
    m.addInput("x", DType::Float32, {1, 4});
    m.addExternalInitializer("w", DType::Float32, {4, 4});
    m.addNode("MatMul", {"x", "w"}, {"y"});
    m.addOutput("y", DType::Float32, {1, 4});
    auto file = fixture.path("short.onnx");
    ASSERT_TRUE(m.save(file).ok());
    std::filesystem::resize_file(fixture.path("short.weights"), 10);
    expectError(importModel(file), {"short.onnx", "too short"});
}

TEST(TestImportErrors, graphWithACycle) {
    ModelBuilder m("cycle", 13);
    m.addInput("x", DType::Float32, {2});
    m.addNode("Add", {"x", "b"}, {"a"}, "first");
    m.addNode("Relu", {"a"}, {"b"}, "second");
    m.addOutput("b", DType::Float32, {2});
    expectError(fixture.import(m), {"model.onnx", "cycle", "'first' (Add)", "'second' (Relu)"});
}

TEST(TestImportErrors, undefinedTensor) {
    ModelBuilder m("undefined", 13);
    m.addInput("x", DType::Float32, {2});
    m.addNode("Add", {"x", "ghost"}, {"y"}, "adder");
    m.addOutput("y", DType::Float32, {2});
    expectError(fixture.import(m),
                {"tensor 'ghost' read by op 'adder' (Add)", "defined by no node"});
}

TEST(TestImportErrors, unboundDynamicDimensionsNamedAllAtOnceWithTheFlags) {
    expectError(fixture.import(dynamicModel()),
                {"model.onnx", "input 'x'", "unbound dynamic dimensions 'batch', 'h', 'w'",
                 "--dim batch=N --dim h=N --dim w=N", "--input x:Nx3xNxN"});
    ImportOptions partial;
    partial.dims["batch"] = 2;
    expectError(fixture.import(dynamicModel(), partial),
                {"unbound dynamic dimensions 'h', 'w'", "--dim h=N --dim w=N"});
    partial.dims["w"] = 4;
    expectError(fixture.import(dynamicModel(), partial),
                {"unbound dynamic dimension 'h' (shape ?x3x?x?)", "pass --dim h=N or"});
}

TEST(TestImportErrors, bindingByDimAndByInput) {
    ImportOptions byDim;
    ASSERT_TRUE(addDimBinding(byDim, "batch=2").ok());
    ASSERT_TRUE(addDimBinding(byDim, "h=5").ok());
    ASSERT_TRUE(addDimBinding(byDim, "w=7").ok());
    auto r = fixture.import(dynamicModel(), byDim);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    ASSERT_EQ(tensorNamed(r->graph, "y").shape, (ir::Shape{2, 3, 5, 7}));

    ImportOptions byInput;
    ASSERT_TRUE(addInputBinding(byInput, "x:1x3x8x8").ok());
    auto s = fixture.import(dynamicModel(), byInput);
    ASSERT_TRUE(s.ok());
    ASSERT_EQ(tensorNamed(s->graph, "y").shape, (ir::Shape{1, 3, 8, 8}));
}

TEST(TestImportErrors, badBindings) {
    ImportOptions options;
    ASSERT_TRUE(!addDimBinding(options, "batch").ok());
    ASSERT_TRUE(!addDimBinding(options, "batch=-1").ok());
    ASSERT_TRUE(!addDimBinding(options, "=3").ok());
    ASSERT_TRUE(!addInputBinding(options, "x:1xAx3").ok());
    ASSERT_TRUE(!addInputBinding(options, "1x3").ok());

    ImportOptions typo;
    typo.dims["bach"] = 2;
    typo.inputShapes["x"] = {1, 3, 4, 4};
    expectError(fixture.import(dynamicModel(), typo), {"--dim names 'bach'", "batch, h, w"});

    ImportOptions noInput;
    noInput.inputShapes["y"] = {1};
    noInput.inputShapes["x"] = {1, 3, 4, 4};
    expectError(fixture.import(dynamicModel(), noInput), {"--input names 'y'", "inputs: x"});

    ImportOptions rank;
    rank.inputShapes["x"] = {1, 3};
    expectError(fixture.import(dynamicModel(), rank), {"has rank 2", "input 'x' has rank 4"});

    ImportOptions fixed;
    fixed.inputShapes["x"] = {1, 4, 8, 8};
    expectError(fixture.import(dynamicModel(), fixed), {"dimension 1 to 4", "fixes it to 3"});
}

TEST(TestImportErrors, unknownOpWithDeclaredShapeStaysOpaque) {
    ModelBuilder m("custom", 13);
    m.addOpsetImport("com.example", 1);
    m.addInput("x", DType::Float32, {2, 3});
    m.addNode("FancyOp", {"x"}, {"f"}, "fancy").domain("com.example");
    m.addValueInfo("f", DType::Float32, {int64_t{2}, int64_t{6}});
    m.addNode("Relu", {"f"}, {"y"});
    m.addOutput("y", DType::Float32, {}, false);
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    ASSERT_EQ(tensorNamed(r->graph, "y").shape, (ir::Shape{2, 6}));
    bool warned = std::any_of(r->warnings.begin(), r->warnings.end(), [](const std::string& w) {
        return contains(w, "op 'fancy' (com.example.FancyOp) is unknown") && contains(w, "opaque");
    });
    ASSERT_TRUE(warned);
}

TEST(TestImportErrors, unknownOpWithoutShapeIsAnError) {
    ModelBuilder m("custom", 13);
    m.addOpsetImport("com.example", 1);
    m.addInput("x", DType::Float32, {2, 3});
    m.addNode("FancyOp", {"x"}, {"f"}, "fancy").domain("com.example");
    m.addOutput("f", DType::Float32, {}, false);
    expectError(fixture.import(m),
                {"op 'fancy' (com.example.FancyOp)", "output 'f'", "cannot be made static"});
}

TEST(TestImportErrors, newerOpsetLoadsWithAWarning) {
    ModelBuilder m("new", 18);
    m.addInput("x", DType::Float32, {2, 3});
    m.addInt64Initializer("axes", {1}, {1});
    m.addNode("ReduceMean", {"x", "axes"}, {"y"});
    m.addOutput("y", DType::Float32, {}, false);
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    ASSERT_EQ(tensorNamed(r->graph, "y").shape, (ir::Shape{2, 1}));
    ASSERT_TRUE(std::any_of(r->warnings.begin(), r->warnings.end(),
                            [](const std::string& w) { return contains(w, "opset 18 is newer"); }));
}

TEST(TestImportErrors, olderOpsetIsConverted) {
    ModelBuilder m("old", 7);
    m.addInput("x", DType::Float32, {2, 3});
    m.addNode("Relu", {"x"}, {"y"});
    m.addOutput("y", DType::Float32, {2, 3});
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    ASSERT_TRUE(std::any_of(r->warnings.begin(), r->warnings.end(), [](const std::string& w) {
        return contains(w, "from opset 7 to opset 9");
    }));
}
