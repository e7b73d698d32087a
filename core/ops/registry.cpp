// The op registry: op type -> category and nest builder, and semanticsOf(),
// which every later stage calls (docs/op-semantics.md).
//
// Categories follow TVM §3's patterns: Elementwise and Injective (fusable
// into anything), Reduction, Complex (Conv, ConvTranspose, MatMul, Gemm:
// TVM's complex-out-fusable) and Opaque. Types are matched in the default
// ONNX domain only ("" or "ai.onnx"); anything else is Opaque with `full`
// accesses. The table is sorted once, so lookups and knownOpTypes() are
// deterministic.

#include "ops/internal/builders.h"
#include "ops/internal/cost.h"
#include "ops/semantics.h"

#include <algorithm>

namespace stagecraft::ops {

namespace {

using detail::NestBuilder;

struct OpInfo {
    std::string_view type;
    Category category;
    NestBuilder build;
};

/// Elementwise types; each broadcasts its inputs (elementwise.cpp).
// clang-format off
constexpr std::string_view kElementwiseOps[] = {
    "Abs", "Acos", "Acosh", "Add", "And", "Asin", "Asinh", "Atan", "Atanh", "BitwiseAnd",
    "BitwiseNot", "BitwiseOr", "BitwiseXor", "Cast", "Ceil", "Celu", "Clip", "Cos", "Cosh", "Div",
    "Dropout", "Elu", "Equal", "Erf", "Exp", "Floor", "Gelu", "Greater", "GreaterOrEqual",
    "HardSigmoid", "HardSwish", "Identity", "IsInf", "IsNaN", "LeakyRelu", "Less", "LessOrEqual",
    "Log", "Max", "Mean", "Min", "Mish", "Mod", "Mul", "Neg", "Not", "Or", "PRelu", "Pow",
    "Reciprocal", "Relu", "Round", "Selu", "Shrink", "Sigmoid", "Sign", "Sin", "Sinh", "Softplus",
    "Softsign", "Sqrt", "Sub", "Sum", "Tan", "Tanh", "ThresholdedRelu", "Where", "Xor",
};
// clang-format on

std::vector<OpInfo> unsortedTable() {
    using namespace detail;
    constexpr auto E = Category::Elementwise, I = Category::Injective, R = Category::Reduction,
                   C = Category::Complex, O = Category::Opaque;
    std::vector<OpInfo> table;
    for (std::string_view type : kElementwiseOps)
        table.push_back({type, E, buildElementwise});
    for (std::string_view type :
         {"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean",
          "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare"})
        table.push_back({type, R, buildReduce});
    for (std::string_view type : {"Reshape", "Flatten", "Squeeze", "Unsqueeze"})
        table.push_back({type, I, buildReshape});
    for (std::string_view type : {"MaxPool", "AveragePool", "LpPool"})
        table.push_back({type, R, buildPool});
    for (std::string_view type : {"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"})
        table.push_back({type, R, buildGlobalPool});
    for (std::string_view type : {"Softmax", "LogSoftmax", "Hardmax"})
        table.push_back({type, R, buildSoftmax});
    table.insert(table.end(), {
                                  {"BatchNormalization", E, buildBatchNormalization},
                                  {"Conv", C, buildConv},
                                  {"ConvTranspose", C, buildConvTranspose},
                                  {"MatMul", C, buildMatMul},
                                  {"Gemm", C, buildGemm},
                                  {"ArgMax", R, buildArgReduce},
                                  {"ArgMin", R, buildArgReduce},
                                  {"LayerNormalization", R, buildLayerNormalization},
                                  {"InstanceNormalization", R, buildInstanceNormalization},
                                  {"Transpose", I, buildTranspose},
                                  {"Concat", I, buildConcat},
                                  {"Split", I, buildSplit},
                                  {"Expand", I, buildExpand},
                                  {"Tile", I, buildTile},
                                  {"Slice", I, buildSlice},
                                  {"Pad", I, buildPad},
                                  {"DepthToSpace", I, buildDepthToSpace},
                                  {"SpaceToDepth", I, buildSpaceToDepth},
                                  {"Gather", I, buildGather},
                                  {"GatherElements", I, buildGatherElements},
                                  {"Resize", I, buildResize},
                                  {"TopK", O, buildTopK},
                              });
    return table;
}

const std::vector<OpInfo>& registry() {
    static const std::vector<OpInfo> table = [] {
        std::vector<OpInfo> sorted = unsortedTable();
        std::sort(sorted.begin(), sorted.end(),
                  [](const OpInfo& a, const OpInfo& b) { return a.type < b.type; });
        SC_ASSERT(std::adjacent_find(sorted.begin(), sorted.end(),
                                     [](const OpInfo& a, const OpInfo& b) {
                                         return a.type == b.type;
                                     }) == sorted.end(),
                  "op types are registered once");
        return sorted;
    }();
    return table;
}

bool isDefaultDomain(std::string_view domain) {
    return domain.empty() || domain == "ai.onnx";
}

const OpInfo* findOp(std::string_view type, std::string_view domain) {
    if (!isDefaultDomain(domain))
        return nullptr;
    const std::vector<OpInfo>& table = registry();
    auto it =
        std::lower_bound(table.begin(), table.end(), type,
                         [](const OpInfo& info, std::string_view key) { return info.type < key; });
    return it != table.end() && it->type == type ? &*it : nullptr;
}

/// Builder bugs, not user errors: every map must fit its input and its nest.
void checkNest(const detail::OpContext& ctx, const LoopNest& nest) {
    SC_ASSERT(nest.outputRank >= 0 && static_cast<size_t>(nest.outputRank) <= nest.loops.size(),
              "the output loops lie inside the nest");
    for (const AccessMap& map : nest.inputs) {
        SC_ASSERT(ctx.hasInput(map.operand), "access maps read present inputs");
        SC_ASSERT(map.dims.size() == ctx.inputShape(map.operand).size(),
                  "an access map has one index per input dim");
        for (const IndexExpr& expr : map.dims) {
            SC_ASSERT(expr.div >= 1 && expr.mod >= 0, "index divisors are positive");
            for (const IndexTerm& term : expr.terms)
                SC_ASSERT(term.loop >= 0 && static_cast<size_t>(term.loop) < nest.loops.size() &&
                              term.div >= 1 && term.mod >= 0,
                          "index terms name loops of their nest");
        }
    }
}

} // namespace

std::span<const std::string_view> familyNames() {
    static constexpr std::string_view names[] = {"conv", "matmul", "normalization",
                                                 "transcendental"};
    return names;
}

std::string_view familyOf(std::string_view opType, Category category) {
    static constexpr std::string_view transcendental[] = {
        "Acos",    "Acosh", "Asin", "Asinh",    "Atan", "Atanh", "Cos",  "Cosh",
        "Elu",     "Erf",   "Exp",  "Gelu",     "Log",  "Mish",  "Pow",  "Selu",
        "Sigmoid", "Sin",   "Sinh", "Softplus", "Sqrt", "Tan",   "Tanh", "Celu"};
    if (opType == "Conv" || opType == "ConvTranspose")
        return "conv";
    if (opType == "MatMul" || opType == "Gemm")
        return "matmul";
    if (opType == "Softmax" || opType == "LogSoftmax" || opType == "LayerNormalization" ||
        opType == "InstanceNormalization")
        return "normalization";
    if (category == Category::Elementwise &&
        std::find(std::begin(transcendental), std::end(transcendental), opType) !=
            std::end(transcendental))
        return "transcendental";
    return categoryName(category);
}

Category categoryOf(std::string_view opType, std::string_view domain) {
    const OpInfo* info = findOp(opType, domain);
    return info ? info->category : Category::Opaque;
}

bool isKnownOp(std::string_view opType, std::string_view domain) {
    return findOp(opType, domain) != nullptr;
}

std::vector<std::string_view> knownOpTypes() {
    std::vector<std::string_view> types;
    for (const OpInfo& info : registry())
        types.push_back(info.type);
    return types;
}

Expected<OpSemantics> semanticsOf(const ir::Graph& graph, ir::OpId id) {
    SC_ASSERT(id >= 0 && static_cast<size_t>(id) < graph.opCount(), "op id out of range");
    detail::OpContext ctx(graph, id);
    const OpInfo* info = findOp(ctx.op().type, ctx.op().domain);
    OpSemantics semantics;
    semantics.category = info ? info->category : Category::Opaque;
    SC_ASSIGN_OR_RETURN(semantics.nests, info ? info->build(ctx) : detail::buildOpaque(ctx));
    SC_ASSERT(semantics.nests.size() == ctx.op().outputs.size(), "one loop nest per output");
    for (const LoopNest& nest : semantics.nests)
        checkNest(ctx, nest);
    semantics.cost = detail::computeCost(ctx, semantics.category, semantics.nests);
    return semantics;
}

} // namespace stagecraft::ops
