// Converting a graph's precision (ir/precision.h): float tensors change type,
// weights are converted when read (values rounded as the narrow type
// rounds), integer tensors stay, graph inputs and outputs keep their type
// behind Casts, the graph stays valid; parsing and the model's own precision.

#include "coretestsupport.h"
#include "ir/const_tensor.h"
#include "ir/precision.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::ir;

namespace {

/// x[1,4] f32 -> Mul by w[4] f32 = {1, 1/3, 65504, 1e-8} -> Cast to i64 -> y,
/// and Mul's result also out as z.
Graph smallGraph() {
    Graph g;
    TensorId x = g.addTensor("x", DType::Float32, {1, 4});
    ConstTensor values = ConstTensor::fromDoubles(DType::Float32, {4},
                                                  std::vector<double>{1.0, 1.0 / 3, 65504.0, 1e-8});
    auto bytes = values.bytes();
    TensorId w = g.addTensor("w", DType::Float32, {4},
                             makeInlineWeight(std::vector<std::byte>(bytes.begin(), bytes.end())));
    TensorId z = g.addTensor("z", DType::Float32, {1, 4});
    TensorId y = g.addTensor("y", DType::Int64, {1, 4});
    Op mul{"mul", "Mul", "", {}, {x, w}, {z}};
    g.addOp(mul);
    Op cast{"cast", "Cast", "", {}, {z}, {y}};
    cast.attrs.set("to", int64_t{7});
    g.addOp(cast);
    g.setInputs({x});
    g.setOutputs({y, z});
    return g;
}

} // namespace

TEST(TestPrecision, parsesTheThreeChoices) {
    ASSERT_EQ(*parsePrecision("f16"), DType::Float16);
    ASSERT_EQ(*parsePrecision("bf16"), DType::BFloat16);
    ASSERT_EQ(*parsePrecision("f32"), DType::Float32);
    Expected<DType> bad = parsePrecision("fp8");
    ASSERT_TRUE(!bad.ok());
    ASSERT_EQ(bad.error().message(),
              std::string("unknown precision 'fp8' (expected f32, f16 or bf16)"));
}

TEST(TestPrecision, convertsFloatsKeepingTheBoundary) {
    Graph g = smallGraph();
    ASSERT_EQ(modelPrecision(g), std::optional<DType>(DType::Float32));
    auto converted = convertPrecision(g, DType::Float16);
    ASSERT_TRUE(converted.ok()) << (converted.ok() ? "" : converted.error().message().c_str());
    const Graph& h = *converted;
    ASSERT_TRUE(validateGraph(h).ok());
    // The boundary keeps its types; inside everything float is f16.
    ASSERT_EQ(h.tensor(h.inputs().front()).dtype, DType::Float32);
    ASSERT_EQ(h.tensor(*h.findTensor("z")).dtype, DType::Float32);
    ASSERT_EQ(h.tensor(*h.findTensor("y")).dtype, DType::Int64);
    ASSERT_EQ(h.tensor(*h.findTensor("w")).dtype, DType::Float16);
    ASSERT_EQ(h.tensor(*h.findTensor("x/f16")).dtype, DType::Float16);
    ASSERT_EQ(h.tensor(*h.findTensor("z/f16")).dtype, DType::Float16);
    // Two Casts added (x -> f16, z/f16 -> z); the model's Cast to i64 stays.
    int casts = 0;
    for (const Op& op : h.ops())
        casts += op.type == "Cast";
    ASSERT_EQ(casts, 3);
    const Op& mul = h.op(*h.findOp("mul"));
    ASSERT_EQ(h.tensor(mul.inputs[0]).name, std::string("x/f16"));
    ASSERT_EQ(h.tensor(mul.outputs[0]).name, std::string("z/f16"));
    ASSERT_EQ(h.op(*h.findOp("x/f16/Cast")).attrs.getInt("to", 0), int64_t{10});
    ASSERT_EQ(h.op(*h.findOp("z/Cast")).attrs.getInt("to", 0), int64_t{1});
    ASSERT_EQ(h.op(*h.findOp("cast")).attrs.getInt("to", 0), int64_t{7});
    ASSERT_EQ(modelPrecision(h), std::optional<DType>(DType::Float16));
    // Weights are f16 when read: 1/3 and 1e-8 round as half does.
    auto bytes = h.tensor(*h.findTensor("w")).data->bytes();
    ASSERT_TRUE(bytes.ok());
    ASSERT_EQ(static_cast<int64_t>(bytes->size()), int64_t{8});
    ASSERT_FUZZY_EQ(readDouble(DType::Float16, *bytes, 0), 1.0);
    ASSERT_FUZZY_EQ(readDouble(DType::Float16, *bytes, 1), 0.333251953125);
    ASSERT_FUZZY_EQ(readDouble(DType::Float16, *bytes, 2), 65504.0);
    ASSERT_FUZZY_EQ(readDouble(DType::Float16, *bytes, 3), 0.0);
}

TEST(TestPrecision, bf16RoundsItsOwnWay) {
    auto converted = convertPrecision(smallGraph(), DType::BFloat16);
    ASSERT_TRUE(converted.ok());
    auto bytes = converted->tensor(*converted->findTensor("w")).data->bytes();
    ASSERT_TRUE(bytes.ok());
    ASSERT_FUZZY_EQ(readDouble(DType::BFloat16, *bytes, 1), 0.333984375);
    ASSERT_FUZZY_EQ(readDouble(DType::BFloat16, *bytes, 2), 65536.0);
    ASSERT_TRUE(readDouble(DType::BFloat16, *bytes, 3) > 0); // bf16 keeps f32's range
}

TEST(TestPrecision, convertingToTheSamePrecisionChangesNothing) {
    Graph g = smallGraph();
    auto same = convertPrecision(g, DType::Float32);
    ASSERT_TRUE(same.ok());
    ASSERT_EQ(same->opCount(), g.opCount());
    ASSERT_EQ(same->tensorCount(), g.tensorCount());
    ASSERT_TRUE(!convertPrecision(g, DType::Int8).ok());
}
