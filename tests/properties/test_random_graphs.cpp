// The random graph generator itself: every graph it builds is a valid static
// graph in canonical form (ir::validateGraph, ops::semanticsOf, exactly the
// attributes docs/ir.md lists), the kinds have the structure their names
// promise, the same seed gives the same graph, and syntheticGraph has the
// requested op count with a per-op size that does not grow.

#include "coretestsupport.h"
#include "ops/semantics.h"
#include "random_graphs.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace stagecraft;

namespace {

/// Canonical attribute names per op type, from the table in docs/ir.md (and
/// what the importer writes: Reshape keeps its target `shape`, Flatten `axis`).
const std::map<std::string, std::set<std::string>>& canonicalAttributes() {
    static const std::map<std::string, std::set<std::string>> table = {
        {"Conv", {"kernel_shape", "strides", "dilations", "pads", "group"}},
        {"MaxPool", {"kernel_shape", "strides", "dilations", "pads", "ceil_mode"}},
        {"AveragePool",
         {"kernel_shape", "strides", "dilations", "pads", "ceil_mode", "count_include_pad"}},
        {"GlobalAveragePool", {}},
        {"BatchNormalization", {"epsilon"}},
        {"MatMul", {}},
        {"Gemm", {"alpha", "beta", "transA", "transB"}},
        {"Relu", {}},
        {"Sigmoid", {}},
        {"Add", {}},
        {"Mul", {}},
        {"Reshape", {"shape"}},
        {"Flatten", {"axis"}},
        {"Transpose", {"perm"}},
        {"Concat", {"axis"}},
        {"Split", {"axis", "split"}},
        {"Slice", {"starts", "ends", "steps"}},
        {"Softmax", {"axes"}},
        {"ReduceMean", {"axes", "keepdims"}},
        {"Resize",
         {"mode", "coordinate_transformation_mode", "nearest_mode", "cubic_coeff_a",
          "exclude_outside", "extrapolation_value", "scales"}},
    };
    return table;
}

/// Everything a generated graph promises; the first problem, or empty.
std::string graphProblem(const ir::Graph& g) {
    if (Status valid = ir::validateGraph(g); !valid.ok())
        return valid.error().message();
    if (g.opCount() == 0 || g.outputs().empty())
        return "no ops or no outputs";
    for (ir::TensorId id : g.tensorIds()) {
        const ir::Tensor& t = g.tensor(id);
        if (t.dtype != ir::DType::Float32 || t.shape.empty())
            return "tensor " + t.name + " has no float type or a scalar shape";
        for (int64_t dim : t.shape)
            if (dim < 1)
                return "tensor " + t.name + " has an empty dim";
        if (t.isConstant() && t.data->byteSize() != t.byteSize())
            return "weight " + t.name + " has the wrong byte size";
        if (t.producer != ir::kNoOp && t.uses.empty() && !g.isGraphOutput(id))
            return "unread tensor " + t.name + " is not a graph output";
    }
    for (ir::OpId id : g.opIds()) {
        const ir::Op& op = g.op(id);
        auto semantics = ops::semanticsOf(g, id);
        if (!semantics.ok())
            return semantics.error().message();
        if (semantics->category == ops::Category::Opaque)
            return "op " + op.name + " is opaque";
        auto expected = canonicalAttributes().find(op.type);
        if (expected == canonicalAttributes().end())
            return "op " + op.name + " has a type outside the generator's list";
        std::set<std::string> names;
        for (const auto& [name, value] : op.attrs.entries())
            names.insert(name);
        if (names != expected->second)
            return "op " + op.name + " does not carry exactly the canonical attributes";
    }
    return {};
}

/// Non-constant tensors read by two or more ops.
int forks(const ir::Graph& g) {
    int count = 0;
    for (const ir::Tensor& t : g.tensors()) {
        std::set<ir::OpId> readers;
        for (const ir::Use& use : t.uses)
            readers.insert(use.op);
        count += !t.isConstant() && readers.size() >= 2;
    }
    return count;
}

/// Ops reading two or more distinct non-constant tensors.
int joins(const ir::Graph& g) {
    int count = 0;
    for (const ir::Op& op : g.ops()) {
        std::set<ir::TensorId> activations;
        for (ir::TensorId in : op.inputs)
            if (!g.tensor(in).isConstant())
                activations.insert(in);
        count += activations.size() >= 2;
    }
    return count;
}

bool sameGraph(const ir::Graph& a, const ir::Graph& b) {
    if (a.opCount() != b.opCount() || a.tensorCount() != b.tensorCount() ||
        a.inputs() != b.inputs() || a.outputs() != b.outputs())
        return false;
    for (ir::OpId id : a.opIds()) {
        const ir::Op& x = a.op(id);
        const ir::Op& y = b.op(id);
        if (x.name != y.name || x.type != y.type || !(x.attrs == y.attrs) || x.inputs != y.inputs ||
            x.outputs != y.outputs)
            return false;
    }
    for (ir::TensorId id : a.tensorIds()) {
        const ir::Tensor& x = a.tensor(id);
        const ir::Tensor& y = b.tensor(id);
        if (x.name != y.name || x.shape != y.shape || x.isConstant() != y.isConstant())
            return false;
    }
    return true;
}

int64_t largestTensor(const ir::Graph& g) {
    int64_t largest = 0;
    for (const ir::Tensor& t : g.tensors())
        largest = std::max(largest, t.elementCount());
    return largest;
}

/// A row of graphsAreValidAndCanonical.
struct GraphRow {
    std::string rowLabel;
    test::GraphKind kind;
    uint64_t seed;
    int ops;
};

std::vector<GraphRow> graphRows() {
    std::vector<GraphRow> rows;
    for (test::GraphKind kind : test::graphKinds())
        for (uint64_t seed = 1; seed <= 120; ++seed) {
            int ops = 1 + static_cast<int>((seed * 7) % 60);
            rows.push_back({test::rowName("%s-%llu", test::graphKindName(kind).data(),
                                          static_cast<unsigned long long>(seed)),
                            kind, seed, ops});
        }
    return rows;
}

/// A row of syntheticGraphHasTheRequestedSize: the op count.
struct SizeRow {
    std::string rowLabel;
    int ops;
};

std::vector<SizeRow> sizeRows() {
    std::vector<SizeRow> rows;
    for (int ops : {1, 3, 4, 5, 50, 107, 1000, 5000})
        rows.push_back({test::rowName("%d", ops), ops});
    return rows;
}

} // namespace

TEST(TestRandomGraphs, rngIsTheStandardEngine) {
    // The standard fixes the 10000th output of a default-seeded mt19937_64.
    std::mt19937_64 reference;
    reference.discard(9999);
    ASSERT_EQ(reference(), uint64_t{9981545732273789042ull});
    // For a power-of-two range nothing is rejected: the draw is the engine's
    // output modulo the range.
    std::mt19937_64 engine(42);
    test::Rng rng(42);
    for (int i = 0; i < 1000; ++i)
        ASSERT_EQ(rng.uniform(0, 7), static_cast<int64_t>(engine() % 8));
}

TEST(TestRandomGraphs, uniformStaysInRangeAndHitsEveryValue) {
    test::Rng rng(7);
    std::map<int64_t, int> histogram;
    for (int i = 0; i < 60000; ++i) {
        int64_t v = rng.uniform(-3, 2);
        ASSERT_TRUE(v >= -3 && v <= 2);
        ++histogram[v];
    }
    ASSERT_EQ(histogram.size(), size_t(6));
    for (const auto& [value, count] : histogram)
        ASSERT_TRUE(count > 9000 && count < 11000) << count;
    ASSERT_EQ(rng.uniform(5, 5), int64_t{5});
    [[maybe_unused]] int64_t full = rng.uniform(INT64_MIN, INT64_MAX);
}

class GraphRows : public ::testing::TestWithParam<GraphRow> {};

TEST_P(GraphRows, graphsAreValidAndCanonical) {
    test::GraphKind kind = GetParam().kind;
    uint64_t seed = GetParam().seed;
    int ops = GetParam().ops;
    ir::Graph g = test::randomGraph(seed, {kind, ops});
    std::string problem = graphProblem(g);
    ASSERT_TRUE(problem.empty()) << problem;
    ASSERT_EQ(g.opCount(), static_cast<size_t>(ops));
    ASSERT_TRUE(sameGraph(g, test::randomGraph(seed, {kind, ops})));
}

INSTANTIATE_TEST_SUITE_P(TestRandomGraphs, GraphRows, ::testing::ValuesIn(graphRows()),
                         test::RowName{});

TEST(TestRandomGraphs, kindsHaveTheirStructure) {
    int chainForks = 0, diamonds = 0, branches = 0, splits = 0;
    for (uint64_t seed = 1; seed <= 50; ++seed) {
        chainForks += forks(test::randomGraph(seed, {test::GraphKind::Chain, 30}));
        ir::Graph d = test::randomGraph(seed, {test::GraphKind::Diamond, 30});
        diamonds += forks(d) >= 1 && joins(d) >= 1;
        ir::Graph b = test::randomGraph(seed, {test::GraphKind::Branch, 30});
        branches += forks(b) >= 1 && joins(b) >= 1;
        ir::Graph m = test::randomGraph(seed, {test::GraphKind::MultiOutput, 30});
        for (const ir::Op& op : m.ops())
            if (op.type == "Split" && op.outputs.size() >= 2) {
                ++splits;
                break;
            }
    }
    ASSERT_EQ(chainForks, 0);
    ASSERT_TRUE(diamonds >= 45) << diamonds;
    ASSERT_TRUE(branches >= 45) << branches;
    ASSERT_TRUE(splits >= 45) << splits;
}

TEST(TestRandomGraphs, everyOpTypeAndConvVariantAppears) {
    std::set<std::string> types;
    std::set<std::string> variants;
    for (test::GraphKind kind : test::graphKinds())
        for (uint64_t seed = 1; seed <= 60; ++seed) {
            ir::Graph g = test::randomGraph(seed, {kind, 60});
            for (const ir::Op& op : g.ops()) {
                types.insert(op.type);
                if (op.type != "Conv")
                    continue;
                int64_t group = op.attrs.getInt("group", 0);
                int64_t channels = g.tensor(op.inputs[0]).shape[1];
                variants.insert("k" + std::to_string(op.attrs.getInts("kernel_shape")[0]));
                variants.insert("s" + std::to_string(op.attrs.getInts("strides")[0]));
                variants.insert(group == 1 ? "dense" : group == channels ? "depthwise" : "grouped");
            }
        }
    std::set<std::string> expectedTypes;
    for (const auto& [type, attributes] : canonicalAttributes())
        expectedTypes.insert(type);
    ASSERT_EQ(types, expectedTypes);
    ASSERT_EQ(variants,
              (std::set<std::string>{"k1", "k3", "s1", "s2", "dense", "depthwise", "grouped"}));
}

TEST(TestRandomGraphs, seedsGiveDifferentGraphs) {
    std::set<std::string> signatures;
    for (uint64_t seed = 1; seed <= 50; ++seed) {
        ir::Graph g = test::randomGraph(seed, {test::GraphKind::Mix, 20});
        std::string signature;
        for (const ir::Tensor& t : g.tensors())
            signature += ir::formatShape(t.shape) + ";";
        signatures.insert(signature);
    }
    ASSERT_TRUE(signatures.size() >= 48);
}

class SizeRows : public ::testing::TestWithParam<SizeRow> {};

TEST_P(SizeRows, syntheticGraphHasTheRequestedSize) {
    int ops = GetParam().ops;
    ir::Graph g = test::syntheticGraph(ops, 1);
    ASSERT_EQ(g.opCount(), static_cast<size_t>(ops));
    std::string problem = graphProblem(g);
    ASSERT_TRUE(problem.empty()) << problem;
}

INSTANTIATE_TEST_SUITE_P(TestRandomGraphs, SizeRows, ::testing::ValuesIn(sizeRows()),
                         test::RowName{});

TEST(TestRandomGraphs, syntheticGraphIsRealisticAndScalesLinearly) {
    ir::Graph small = test::syntheticGraph(1000, 3);
    ir::Graph large = test::syntheticGraph(10000, 3);
    std::map<std::string, int> types;
    int strided = 0;
    for (const ir::Op& op : small.ops()) {
        ++types[op.type];
        strided += op.type == "Conv" && op.attrs.getInts("strides")[0] == 2;
    }
    for (const char* type : {"Conv", "BatchNormalization", "Relu", "Add", "MatMul", "Softmax",
                             "Transpose", "Reshape", "Resize", "MaxPool"})
        ASSERT_TRUE(types[type] > 0) << type;
    ASSERT_TRUE(strided >= 10);
    ASSERT_TRUE(joins(small) >= 50);
    // Shapes do not grow with the size: the largest tensor is the same and
    // tensors per op stay within a few percent.
    ASSERT_EQ(largestTensor(large), largestTensor(small));
    double perOpSmall = static_cast<double>(small.tensorCount()) / 1000.0;
    double perOpLarge = static_cast<double>(large.tensorCount()) / 10000.0;
    ASSERT_TRUE(std::abs(perOpLarge / perOpSmall - 1.0) < 0.05) << perOpLarge / perOpSmall;
    ASSERT_TRUE(sameGraph(small, test::syntheticGraph(1000, 3)));
}
