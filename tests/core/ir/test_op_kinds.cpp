// ir::OpKind against the op registry and the importer: every kind named
// once and found by its name, the registry holding exactly the kinds, the
// kind set by Graph::addOp from type and domain, and following the
// importer's Upsample-to-Resize rewrite.

#include "coretestsupport.h"
#include "ir/graph.h"
#include "ir/op_kind.h"
#include "onnx/importer.h"
#include "onnx/model_builder.h"
#include "ops/semantics.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace stagecraft {
namespace {

using ir::OpKind;

TEST(OpKinds, EveryKindIsFoundByItsName) {
    ASSERT_FALSE(ir::opKinds().empty());
    std::vector<std::string_view> names;
    for (OpKind kind : ir::opKinds()) {
        ASSERT_NE(kind, OpKind::Unknown);
        std::string_view name = ir::opKindName(kind);
        EXPECT_EQ(ir::opKindOf(name), kind) << name;
        EXPECT_EQ(ir::opKindOf(name, "ai.onnx"), kind) << name;
        EXPECT_EQ(ir::opKindOf(name, "com.microsoft"), OpKind::Unknown) << name;
        names.push_back(name);
    }
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
    EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
    EXPECT_EQ(ir::opKindName(OpKind::Unknown), "Unknown");
}

TEST(OpKinds, UnknownTypesHaveNoKind) {
    for (std::string_view type : {"Constant", "Shape", "NonMaxSuppression", "conv", "", "Unknown"})
        EXPECT_EQ(ir::opKindOf(type), OpKind::Unknown) << type;
    EXPECT_EQ(ir::opKindOf("Conv"), OpKind::Conv);
    EXPECT_EQ(ir::opKindOf("MatMul"), OpKind::MatMul);
}

TEST(OpKinds, TheRegistryHoldsExactlyTheKinds) {
    std::vector<std::string_view> kindNames;
    for (OpKind kind : ir::opKinds())
        kindNames.push_back(ir::opKindName(kind));
    EXPECT_EQ(ops::knownOpTypes(), kindNames);
    for (OpKind kind : ir::opKinds()) {
        std::string_view name = ir::opKindName(kind);
        EXPECT_TRUE(ops::isKnownOp(name)) << name;
        EXPECT_EQ(ops::categoryOf(kind), ops::categoryOf(name)) << name;
    }
    EXPECT_EQ(ops::categoryOf(OpKind::Unknown), ops::Category::Opaque);
    EXPECT_EQ(ops::categoryOf(OpKind::Conv), ops::Category::Complex);
    EXPECT_EQ(ops::familyOf(OpKind::Gemm, ops::Category::Complex), "matmul");
    EXPECT_EQ(ops::familyOf(OpKind::Tanh, ops::Category::Elementwise), "transcendental");
    EXPECT_EQ(ops::familyOf(OpKind::Relu, ops::Category::Elementwise), "elementwise");
    EXPECT_EQ(ops::familyOf(OpKind::ConvTranspose, ops::Category::Complex), "conv_transpose");
}

ir::OpId addUnary(ir::Graph& graph, const std::string& type, const std::string& domain) {
    ir::TensorId x = graph.addTensor(type + domain + ".x", ir::DType::Float32, {2});
    ir::TensorId y = graph.addTensor(type + domain + ".y", ir::DType::Float32, {2});
    ir::Op op;
    op.name = type + domain;
    op.type = type;
    op.domain = domain;
    op.kind = OpKind::Conv; // whatever the caller says, addOp decides
    op.inputs = {x};
    op.outputs = {y};
    return graph.addOp(std::move(op));
}

TEST(OpKinds, AddOpSetsTheKindFromTypeAndDomain) {
    ir::Graph graph;
    EXPECT_EQ(graph.op(addUnary(graph, "Relu", "")).kind, OpKind::Relu);
    EXPECT_EQ(graph.op(addUnary(graph, "Sigmoid", "ai.onnx")).kind, OpKind::Sigmoid);
    EXPECT_EQ(graph.op(addUnary(graph, "Relu", "com.example")).kind, OpKind::Unknown);
    EXPECT_EQ(graph.op(addUnary(graph, "Frobnicate", "")).kind, OpKind::Unknown);
}

TEST(OpKinds, ImportedOpsCarryTheirKindAfterRewrites) {
    test::TempDir temp;
    ASSERT_TRUE(temp.isValid());
    const std::filesystem::path& dir = temp.path();
    onnxio::ModelBuilder model("upsample", 9);
    model.addInput("x", ir::DType::Float32, {1, 2, 3, 4});
    model.addFloatInitializer("scales", {4}, {1, 1, 2, 2});
    model.addNode("Upsample", {"x", "scales"}, {"u"}).attr("mode", "nearest");
    model.addNode("Relu", {"u"}, {"y"});
    model.addOutput("y", ir::DType::Float32, {}, false);
    ASSERT_TRUE(model.save(dir / "m.onnx").ok());
    auto imported = onnxio::importModel(dir / "m.onnx", {});
    ASSERT_TRUE(imported.ok()) << imported.error().message();
    std::vector<std::pair<std::string, OpKind>> seen;
    for (const ir::Op& op : imported->graph.ops())
        seen.emplace_back(op.type, op.kind);
    std::vector<std::pair<std::string, OpKind>> expected{{"Resize", OpKind::Resize},
                                                         {"Relu", OpKind::Relu}};
    EXPECT_EQ(seen, expected);
}

} // namespace
} // namespace stagecraft
