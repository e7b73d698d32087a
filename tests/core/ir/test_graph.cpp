// Graph IR: links, stable topological order, cycles, rewriting, validation.

#include "coretestsupport.h"
#include "ir/graph.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::ir;

namespace {

TensorId tensor(Graph& g, const std::string& name) {
    return g.addTensor(name, DType::Float32, {2, 3});
}

OpId op(Graph& g, const std::string& name, std::vector<TensorId> in, std::vector<TensorId> out) {
    Op o;
    o.name = name;
    o.type = "Relu";
    o.inputs = std::move(in);
    o.outputs = std::move(out);
    return g.addOp(std::move(o));
}

std::vector<std::string> opNames(const Graph& g, const std::vector<OpId>& order) {
    std::vector<std::string> names;
    for (OpId id : order)
        names.push_back(g.op(id).name);
    return names;
}

} // namespace

TEST(TestGraph, linksBothWays) {
    Graph g;
    TensorId x = tensor(g, "x"), y = tensor(g, "y"), z = tensor(g, "z");
    g.setInputs({x});
    OpId a = op(g, "a", {x}, {y});
    OpId b = op(g, "b", {y, x}, {z});
    g.setOutputs({z});
    ASSERT_EQ(g.tensor(y).producer, a);
    ASSERT_EQ(g.tensor(x).uses.size(), size_t(2));
    ASSERT_EQ(g.tensor(x).uses[1].op, b);
    ASSERT_EQ(g.tensor(x).uses[1].slot, 1);
    ASSERT_TRUE(validateGraph(g).ok());
}

TEST(TestGraph, topologicalOrderIsStableAndRespectsDependencies) {
    // Ops added out of order: c reads b's output, b reads a's.
    Graph g;
    TensorId x = tensor(g, "x"), t1 = tensor(g, "t1"), t2 = tensor(g, "t2"), t3 = tensor(g, "t3"),
             t4 = tensor(g, "t4");
    g.setInputs({x});
    op(g, "c", {t2}, {t3});
    op(g, "b", {t1}, {t2});
    op(g, "a", {x}, {t1});
    op(g, "d", {x}, {t4}); // independent: keeps its place among ready ops
    auto order = topologicalOrder(g);
    ASSERT_TRUE(order.ok());
    ASSERT_EQ(opNames(g, *order), (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST(TestGraph, compactRenumbersInTopologicalOrder) {
    Graph g;
    TensorId x = tensor(g, "x"), t1 = tensor(g, "t1"), t2 = tensor(g, "t2");
    g.setInputs({x});
    op(g, "second", {t1}, {t2});
    op(g, "first", {x}, {t1});
    g.setOutputs({t2});
    ASSERT_TRUE(!validateGraph(g).ok()); // consumer before producer
    ASSERT_TRUE(g.compact().ok());
    ASSERT_EQ(g.op(OpId(0)).name, std::string("first"));
    ASSERT_EQ(g.op(OpId(1)).name, std::string("second"));
    ASSERT_TRUE(validateGraph(g).ok());
}

TEST(TestGraph, cycleIsReportedWithItsOps) {
    Graph g;
    TensorId x = tensor(g, "x"), t1 = tensor(g, "t1"), t2 = tensor(g, "t2"), t3 = tensor(g, "t3");
    g.setInputs({x});
    op(g, "entry", {x}, {t3});
    op(g, "p", {t3, t2}, {t1});
    op(g, "q", {t1}, {t2});
    auto order = topologicalOrder(g);
    ASSERT_TRUE(!order.ok());
    const std::string& message = order.error().message();
    ASSERT_TRUE(message.find("cycle") != std::string::npos) << message.c_str();
    ASSERT_TRUE(message.find("'p' (Relu)") != std::string::npos) << message.c_str();
    ASSERT_TRUE(message.find("'q' (Relu)") != std::string::npos) << message.c_str();
    ASSERT_TRUE(message.find("entry") == std::string::npos) << message.c_str();
    ASSERT_TRUE(!g.compact().ok());
}

TEST(TestGraph, removeAndReplaceUses) {
    // x -> a -> t1 -> identity -> t2 -> b -> t3 ; drop identity.
    Graph g;
    TensorId x = tensor(g, "x"), t1 = tensor(g, "t1"), t2 = tensor(g, "t2"), t3 = tensor(g, "t3");
    g.setInputs({x});
    op(g, "a", {x}, {t1});
    OpId identity = op(g, "identity", {t1}, {t2});
    op(g, "b", {t2}, {t3});
    g.setOutputs({t3});
    g.replaceUses(t2, t1);
    g.removeOp(identity);
    ASSERT_TRUE(g.compact().ok());
    ASSERT_EQ(g.opCount(), size_t(2));
    ASSERT_EQ(g.tensorCount(), size_t(3)); // t2 is gone
    ASSERT_TRUE(!g.findTensor("t2"));
    auto t1id = g.findTensor("t1");
    ASSERT_TRUE(t1id);
    ASSERT_EQ(g.tensor(*t1id).uses.size(), size_t(1));
    ASSERT_EQ(g.op(g.tensor(*t1id).uses[0].op).name, std::string("b"));
    ASSERT_TRUE(validateGraph(g).ok());
}

TEST(TestGraph, replaceUsesRedirectsGraphOutputs) {
    Graph g;
    TensorId x = tensor(g, "x"), y = tensor(g, "y");
    g.setInputs({x});
    OpId a = op(g, "a", {x}, {y});
    g.setOutputs({y});
    g.replaceUses(y, x);
    g.removeOp(a);
    ASSERT_TRUE(g.compact().ok());
    ASSERT_EQ(g.outputs().size(), size_t(1));
    ASSERT_EQ(g.tensor(g.outputs()[0]).name, std::string("x"));
}

TEST(TestGraph, validateRejectsDynamicShapesAndMissingWriters) {
    Graph g;
    TensorId x = g.addTensor("x", DType::Float32, {-1, 3});
    g.setInputs({x});
    ASSERT_TRUE(!validateGraph(g).ok());

    Graph h;
    h.addTensor("orphan", DType::Float32, {1});
    auto status = validateGraph(h);
    ASSERT_TRUE(!status.ok());
    ASSERT_TRUE(status.error().message().find("'orphan'") != std::string::npos);
}

TEST(TestGraph, validateChecksWeightSizes) {
    Graph g;
    std::vector<std::byte> bytes(8);
    g.addTensor("w", DType::Float32, {3}, makeInlineWeight(bytes));
    auto status = validateGraph(g);
    ASSERT_TRUE(!status.ok());
    ASSERT_TRUE(status.error().message().find("8 bytes of data for 12") != std::string::npos);
}
