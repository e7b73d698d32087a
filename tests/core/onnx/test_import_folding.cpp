// ONNX import: shape-computation chains, constant folding, BatchNorm folding,
// Identity/Dropout removal, u8 weights of zero point 128 stored as s8 (each
// switchable), lazy and external weights.

#include "import_helpers.h"

#include <cmath>
#include <cstring>

using namespace stagecraft;
using namespace stagecraft::onnxio;
using ir::DType;
using stagecraft::test::contains;
using stagecraft::test::opHistogram;
using stagecraft::test::tensorNamed;

namespace {

std::vector<float> floats(const ir::Tensor& t) {
    auto bytes = t.data->bytes();
    if (!bytes.ok())
        test::fatal("cannot read %s: %s", t.name.c_str(), bytes.error().message().c_str());
    std::vector<float> values(static_cast<size_t>(t.elementCount()));
    std::memcpy(values.data(), bytes->data(), values.size() * sizeof(float));
    return values;
}

/// x[N,12,64] -> Reshape to [N, 768] with the shape computed from Shape(x),
/// the way PyTorch exports a dynamic batch.
ModelBuilder shapeChainModel() {
    ModelBuilder m("chain", 13);
    m.addInput("x", DType::Float32, {std::string("N"), int64_t{12}, int64_t{64}});
    m.addNode("Shape", {"x"}, {"shape"});
    m.addConstantInt64("zero", {}, {0});
    m.addNode("Gather", {"shape", "zero"}, {"n"}).attr("axis", int64_t{0});
    m.addConstantInt64("axes0", {1}, {0});
    m.addNode("Unsqueeze", {"n", "axes0"}, {"n1"});
    m.addConstantInt64("hidden", {1}, {768});
    m.addNode("Concat", {"n1", "hidden"}, {"target"}).attr("axis", int64_t{0});
    m.addNode("Cast", {"target"}, {"target64"}).attr("to", int64_t{7});
    m.addNode("Reshape", {"x", "target64"}, {"y"});
    m.addOutput("y", DType::Float32, {std::string("N"), int64_t{768}});
    return m;
}

} // namespace

test::ImportFixture fixture;
TEST(TestImportFolding, shapeChainsFoldAway) {
    ImportOptions options;
    options.dims["N"] = 4;
    auto r = fixture.import(shapeChainModel(), options);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    ASSERT_EQ(r->graph.opCount(), size_t(1));
    const ir::Op& reshape = r->graph.op(ir::OpId(0));
    ASSERT_EQ(reshape.type, std::string("Reshape"));
    ASSERT_EQ(reshape.inputs.size(), size_t(1));
    ASSERT_EQ(reshape.attrs.getInts("shape"), (std::vector<int64_t>{4, 768}));
    ASSERT_EQ(tensorNamed(r->graph, "y").shape, (ir::Shape{4, 768}));
    ASSERT_TRUE(ir::validateGraph(r->graph).ok());
}

TEST(TestImportFolding, shapeChainsResolveEvenWithoutFolding) {
    ImportOptions options;
    options.dims["N"] = 2;
    options.foldConstants = false;
    auto r = fixture.import(shapeChainModel(), options);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    ASSERT_EQ(tensorNamed(r->graph, "y").shape, (ir::Shape{2, 768}));
    // The chain is dead once Reshape took its shape as an attribute.
    ASSERT_EQ(r->graph.opCount(), size_t(1));
}

TEST(TestImportFolding, constantSubgraphsFoldLazily) {
    ModelBuilder m("fold", 13);
    m.addInput("x", DType::Float32, {1, 2});
    m.addFloatInitializer("w", {3, 2}, {1, 2, 3, 4, 5, 6});
    m.addNode("Transpose", {"w"}, {"wt"}, "transpose_w");
    m.addNode("MatMul", {"x", "wt"}, {"y"});
    m.addOutput("y", DType::Float32, {1, 3});
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    ASSERT_EQ(opHistogram(r->graph), (std::map<std::string, int>{{"MatMul", 1}}));
    const ir::Tensor& wt = tensorNamed(r->graph, "wt");
    ASSERT_TRUE(wt.isConstant());
    ASSERT_EQ(wt.shape, (ir::Shape{2, 3}));
    ASSERT_EQ(floats(wt), (std::vector<float>{1, 3, 5, 2, 4, 6}));

    ImportOptions keep;
    keep.foldConstants = false;
    auto kept = fixture.import(m, keep, "kept");
    ASSERT_TRUE(kept.ok());
    ASSERT_EQ(opHistogram(kept->graph),
              (std::map<std::string, int>{{"MatMul", 1}, {"Transpose", 1}}));
}

TEST(TestImportFolding, batchNormFoldsIntoConv) {
    ModelBuilder m("bn", 13);
    m.addInput("x", DType::Float32, {1, 1, 2, 2});
    m.addFloatInitializer("w", {2, 1, 1, 1}, {2.0f, -1.0f});
    m.addFloatInitializer("b", {2}, {0.5f, 1.0f});
    m.addNode("Conv", {"x", "w", "b"}, {"c"}, "conv");
    m.addFloatInitializer("scale", {2}, {3.0f, 1.0f});
    m.addFloatInitializer("beta", {2}, {0.25f, -2.0f});
    m.addFloatInitializer("mean", {2}, {1.0f, 0.0f});
    m.addFloatInitializer("var", {2}, {4.0f, 0.25f});
    m.addNode("BatchNormalization", {"c", "scale", "beta", "mean", "var"}, {"y"}, "bn")
        .attr("epsilon", 0.0f);
    m.addOutput("y", DType::Float32, {1, 2, 2, 2});
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    ASSERT_EQ(opHistogram(r->graph), (std::map<std::string, int>{{"Conv", 1}}));
    const ir::Op& conv = r->graph.op(ir::OpId(0));
    ASSERT_EQ(conv.name, std::string("conv"));
    ASSERT_EQ(r->graph.tensor(conv.outputs[0]).name, std::string("y"));
    // factor = scale / sqrt(var + eps) = {1.5, 2}; w' = w * factor;
    // b' = (b - mean) * factor + beta = {-0.5, 0}
    ASSERT_EQ(floats(r->graph.tensor(conv.inputs[1])), (std::vector<float>{3.0f, -2.0f}));
    ASSERT_EQ(floats(r->graph.tensor(conv.inputs[2])), (std::vector<float>{-0.5f, 0.0f}));

    ImportOptions keep;
    keep.foldBatchNorm = false;
    auto kept = fixture.import(m, keep, "kept");
    ASSERT_TRUE(kept.ok());
    ASSERT_EQ(opHistogram(kept->graph),
              (std::map<std::string, int>{{"BatchNormalization", 1}, {"Conv", 1}}));
}

namespace {

/// A ConvInteger of a u8 weight whose zero point is \p weightZero.
ModelBuilder convIntegerModel(uint8_t weightZero) {
    ModelBuilder m("centred", 13);
    m.addInput("x", DType::UInt8, {1, 1, 2, 2});
    m.addInlineInitializer("w", DType::UInt8, {3, 1, 1, 1},
                           {std::byte{0}, std::byte{128}, std::byte{255}});
    m.addInlineInitializer("xz", DType::UInt8, {}, {std::byte{3}});
    m.addInlineInitializer("wz", DType::UInt8, {}, {std::byte{weightZero}});
    m.addNode("ConvInteger", {"x", "w", "xz", "wz"}, {"y"}, "conv");
    m.addOutput("y", DType::Int32, {1, 3, 2, 2});
    return m;
}

std::vector<std::byte> storedBytes(const ir::Tensor& t) {
    auto bytes = t.data->bytes();
    if (!bytes.ok())
        test::fatal("cannot read %s: %s", t.name.c_str(), bytes.error().message().c_str());
    return {bytes->begin(), bytes->end()};
}

} // namespace

TEST(TestImportFolding, centredU8WeightsBecomeSigned) {
    auto r = fixture.import(convIntegerModel(128));
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    const ir::Op& conv = r->graph.op(ir::OpId(0));
    const ir::Tensor& w = r->graph.tensor(conv.inputs[1]);
    const ir::Tensor& wz = r->graph.tensor(conv.inputs[3]);
    ASSERT_EQ(w.dtype, DType::Int8);
    ASSERT_EQ(wz.dtype, DType::Int8);
    // w - 128 as s8: -128, 0, 127; the zero point 0.
    ASSERT_EQ(storedBytes(w),
              (std::vector<std::byte>{std::byte{0x80}, std::byte{0}, std::byte{0x7f}}));
    ASSERT_EQ(storedBytes(wz), std::vector<std::byte>{std::byte{0}});
    ASSERT_EQ(r->graph.tensor(conv.inputs[2]).dtype, DType::UInt8); // the input's stays

    auto other = fixture.import(convIntegerModel(127), {}, "other");
    ASSERT_TRUE(other.ok());
    ASSERT_EQ(other->graph.tensor(other->graph.op(ir::OpId(0)).inputs[1]).dtype, DType::UInt8);
    ImportOptions keep;
    keep.signWeights = false;
    auto kept = fixture.import(convIntegerModel(128), keep, "kept");
    ASSERT_TRUE(kept.ok());
    ASSERT_EQ(kept->graph.tensor(kept->graph.op(ir::OpId(0)).inputs[1]).dtype, DType::UInt8);
}

TEST(TestImportFolding, batchNormFoldsIntoGroupedConvTranspose) {
    // W [Cin=2, Cout/g=1, 1, 1] with group 2: output channel c reads input channel c.
    ModelBuilder m("bnt", 13);
    m.addInput("x", DType::Float32, {1, 2, 2, 2});
    m.addFloatInitializer("w", {2, 1, 1, 1}, {1.0f, 1.0f});
    m.addNode("ConvTranspose", {"x", "w"}, {"c"}).attr("group", int64_t{2});
    m.addFloatInitializer("scale", {2}, {2.0f, 4.0f});
    m.addFloatInitializer("beta", {2}, {0.0f, 1.0f});
    m.addFloatInitializer("mean", {2}, {0.0f, 0.0f});
    m.addFloatInitializer("var", {2}, {1.0f, 1.0f});
    m.addNode("BatchNormalization", {"c", "scale", "beta", "mean", "var"}, {"y"})
        .attr("epsilon", 0.0f);
    m.addOutput("y", DType::Float32, {1, 2, 2, 2});
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    const ir::Op& conv = r->graph.op(ir::OpId(0));
    ASSERT_EQ(conv.type, std::string("ConvTranspose"));
    ASSERT_EQ(floats(r->graph.tensor(conv.inputs[1])), (std::vector<float>{2.0f, 4.0f}));
    ASSERT_EQ(floats(r->graph.tensor(conv.inputs[2])), (std::vector<float>{0.0f, 1.0f}));
}

TEST(TestImportFolding, batchNormStaysWhenTheConvOutputIsShared) {
    ModelBuilder m("bnshared", 13);
    m.addInput("x", DType::Float32, {1, 1, 2, 2});
    m.addFloatInitializer("w", {1, 1, 1, 1}, {2.0f});
    m.addNode("Conv", {"x", "w"}, {"c"});
    for (const char* p : {"s", "b", "m", "v"})
        m.addFloatInitializer(p, {1}, {1.0f});
    m.addNode("BatchNormalization", {"c", "s", "b", "m", "v"}, {"y"});
    m.addNode("Relu", {"c"}, {"z"});
    m.addOutput("y", DType::Float32, {1, 1, 2, 2});
    m.addOutput("z", DType::Float32, {1, 1, 2, 2});
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(opHistogram(r->graph)["BatchNormalization"], 1);
}

TEST(TestImportFolding, identityAndDropoutDisappearKeepingOutputNames) {
    ModelBuilder m("ident", 13);
    m.addInput("x", DType::Float32, {2});
    m.addNode("Relu", {"x"}, {"r"});
    m.addNode("Dropout", {"r"}, {"d"});
    m.addNode("Identity", {"d"}, {"out"});
    m.addOutput("out", DType::Float32, {2});
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    ASSERT_EQ(opHistogram(r->graph), (std::map<std::string, int>{{"Relu", 1}}));
    ASSERT_EQ(r->graph.tensor(r->graph.outputs()[0]).name, std::string("out"));
    ASSERT_EQ(r->graph.tensor(r->graph.op(ir::OpId(0)).outputs[0]).name, std::string("out"));

    ImportOptions keep;
    keep.dropIdentity = false;
    auto kept = fixture.import(m, keep, "kept");
    ASSERT_TRUE(kept.ok());
    ASSERT_EQ(kept->graph.opCount(), size_t(3));
}

TEST(TestImportFolding, identityOfAnInputThatIsAnOutputStays) {
    ModelBuilder m("passthrough", 13);
    m.addInput("x", DType::Float32, {2});
    m.addNode("Identity", {"x"}, {"y"});
    m.addOutput("y", DType::Float32, {2});
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->graph.opCount(), size_t(1));
}

TEST(TestImportFolding, deadOpsAreRemoved) {
    ModelBuilder m("dead", 13);
    m.addInput("x", DType::Float32, {2});
    m.addNode("Relu", {"x"}, {"used"});
    m.addNode("Sigmoid", {"x"}, {"unused"});
    m.addOutput("used", DType::Float32, {2});
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(opHistogram(r->graph), (std::map<std::string, int>{{"Relu", 1}}));
}

TEST(TestImportFolding, externalWeightsAreReferencedNotRead) {
    ModelBuilder m("external", 13);
    m.addInput("x", DType::Float32, {1, 4});
    m.addExternalInitializer("w", DType::Float32, {4, 8});
    m.addExternalInitializer("scale", DType::Float32, {8}, ValueRange::Positive);
    m.addNode("MatMul", {"x", "w"}, {"xw"});
    m.addNode("Mul", {"xw", "scale"}, {"y"});
    m.addOutput("y", DType::Float32, {1, 8});
    auto file = fixture.path("external.onnx");
    ASSERT_TRUE(m.save(file, WeightFill::Seeded).ok());
    auto r = importModel(file);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    const ir::Tensor& w = tensorNamed(r->graph, "w");
    ASSERT_EQ(w.data->storage(), ir::WeightStorage::External);
    ASSERT_TRUE(contains(w.data->describe(), "external.weights@0+128"));
    auto values = floats(w);
    ASSERT_EQ(values.size(), size_t(32));
    ASSERT_TRUE(std::any_of(values.begin(), values.end(), [](float v) { return v != 0.0f; }));
    ASSERT_TRUE(
        std::all_of(values.begin(), values.end(), [](float v) { return std::fabs(v) <= 0.5f; }));
}

TEST(TestImportFolding, constantNodeValueForms) {
    ModelBuilder m("constants", 13);
    m.addInput("x", DType::Float32, {2, 3});
    m.addConstantFloat("k", {3}, {1, 2, 3});
    m.addNode("Add", {"x", "k"}, {"y"});
    m.addNode("Constant", {}, {"two"}).attr("value_float", 2.0f);
    m.addNode("Mul", {"y", "two"}, {"z"});
    m.addOutput("z", DType::Float32, {2, 3});
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    ASSERT_EQ(floats(tensorNamed(r->graph, "k")), (std::vector<float>{1, 2, 3}));
    ASSERT_EQ(floats(tensorNamed(r->graph, "two")), (std::vector<float>{2}));
    ASSERT_EQ(tensorNamed(r->graph, "two").shape, ir::Shape{});
}
