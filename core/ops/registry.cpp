// The op registry: op type -> category and nest builder, and semanticsOf(),
// which every later stage calls (docs/op-semantics.md).
//
// Categories follow TVM §3's patterns: Elementwise and Injective (fusable
// into anything), Reduction, Complex (Conv, ConvTranspose, MatMul, Gemm:
// TVM's complex-out-fusable) and Opaque. Types are matched in the default
// ONNX domain only ("" or "ai.onnx"); anything else is Opaque with `full`
// accesses. The table is indexed by ir::OpKind and holds every kind once.

#include "ops/internal/builders.h"
#include "ops/internal/cost.h"
#include "ops/semantics.h"

namespace stagecraft::ops {

namespace {

using detail::NestBuilder;

struct OpInfo {
    ir::OpKind kind;
    Category category;
    NestBuilder build;
};

using enum ir::OpKind;

/// Elementwise kinds; each broadcasts its inputs (elementwise.cpp).
// clang-format off
constexpr ir::OpKind kElementwiseOps[] = {
    Abs, Acos, Acosh, Add, And, Asin, Asinh, Atan, Atanh, BitShift, BitwiseAnd, BitwiseNot,
    BitwiseOr, BitwiseXor, Cast, Ceil, Celu, Clip, Cos, Cosh, Div, Dropout, Elu, Equal, Erf, Exp, Floor, Gelu,
    Greater, GreaterOrEqual, HardSigmoid, HardSwish, Identity, IsInf, IsNaN, LeakyRelu, Less,
    LessOrEqual, Log, Max, Mean, Min, Mish, Mod, Mul, Neg, Not, Or, PRelu, Pow, Reciprocal, Relu,
    Round, Selu, Shrink, Sigmoid, Sign, Sin, Sinh, Softplus, Softsign, Sqrt, Sub, Sum, Tan, Tanh,
    ThresholdedRelu, Trilu, Where, Xor,
};
// clang-format on

std::vector<OpInfo> registrations() {
    using namespace detail;
    constexpr auto E = Category::Elementwise, I = Category::Injective, R = Category::Reduction,
                   C = Category::Complex, O = Category::Opaque;
    std::vector<OpInfo> table;
    for (ir::OpKind kind : kElementwiseOps)
        table.push_back({kind, E, buildElementwise});
    for (ir::OpKind kind : {ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp, ReduceMax,
                            ReduceMean, ReduceMin, ReduceProd, ReduceSum, ReduceSumSquare})
        table.push_back({kind, R, buildReduce});
    for (ir::OpKind kind : {Reshape, Flatten, Squeeze, Unsqueeze})
        table.push_back({kind, I, buildReshape});
    for (ir::OpKind kind : {MaxPool, AveragePool, LpPool})
        table.push_back({kind, R, buildPool});
    for (ir::OpKind kind : {GlobalAveragePool, GlobalMaxPool, GlobalLpPool})
        table.push_back({kind, R, buildGlobalPool});
    for (ir::OpKind kind : {Softmax, LogSoftmax, Hardmax})
        table.push_back({kind, R, buildSoftmax});
    table.insert(table.end(), {
                                  {BatchNormalization, E, buildBatchNormalization},
                                  {Conv, C, buildConv},
                                  {ConvTranspose, C, buildConvTranspose},
                                  {MatMul, C, buildMatMul},
                                  {ConvInteger, C, buildConvInteger},
                                  {QLinearConv, C, buildQLinearConv},
                                  {MatMulInteger, C, buildMatMulInteger},
                                  {QLinearMatMul, C, buildQLinearMatMul},
                                  {QuantizeLinear, E, buildQuantize},
                                  {DequantizeLinear, E, buildQuantize},
                                  {Gemm, C, buildGemm},
                                  {ArgMax, R, buildArgReduce},
                                  {ArgMin, R, buildArgReduce},
                                  {LayerNormalization, R, buildLayerNormalization},
                                  {InstanceNormalization, R, buildInstanceNormalization},
                                  {Transpose, I, buildTranspose},
                                  {Concat, I, buildConcat},
                                  {Split, I, buildSplit},
                                  {Expand, I, buildExpand},
                                  {Tile, I, buildTile},
                                  {Slice, I, buildSlice},
                                  {Pad, I, buildPad},
                                  {DepthToSpace, I, buildDepthToSpace},
                                  {SpaceToDepth, I, buildSpaceToDepth},
                                  {Gather, I, buildGather},
                                  {GatherElements, I, buildGatherElements},
                                  {GatherND, I, buildGatherNd},
                                  {CumSum, R, buildCumSum},
                                  {OneHot, I, buildOneHot},
                                  {ScatterElements, O, buildScatter},
                                  {ScatterND, O, buildScatter},
                                  {Resize, I, buildResize},
                                  {GridSample, I, buildGridSample},
                                  {TopK, O, buildTopK},
                              });
    return table;
}

/// The registry indexed by kind: every kind but Unknown registered once.
const std::vector<OpInfo>& registry() {
    static const std::vector<OpInfo> table = [] {
        std::vector<OpInfo> byKind(ir::opKinds().size() + 1,
                                   OpInfo{Unknown, Category::Opaque, nullptr});
        for (const OpInfo& info : registrations()) {
            OpInfo& slot = byKind[static_cast<size_t>(info.kind)];
            SC_ASSERT(slot.build == nullptr, "op kinds are registered once");
            slot = info;
        }
        for (ir::OpKind kind : ir::opKinds())
            SC_ASSERT(byKind[static_cast<size_t>(kind)].build != nullptr,
                      "every op kind is registered");
        return byKind;
    }();
    return table;
}

const OpInfo* findOp(ir::OpKind kind) {
    return kind == Unknown ? nullptr : &registry()[static_cast<size_t>(kind)];
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
    static constexpr std::string_view names[] = {"conv", "conv_transpose", "matmul",
                                                 "normalization", "transcendental"};
    return names;
}

std::string_view familyOf(ir::OpKind kind, Category category) {
    switch (kind) {
    case Conv:
    case ConvInteger:
    case QLinearConv:
        return "conv";
    case ConvTranspose:
        return "conv_transpose";
    case MatMul:
    case MatMulInteger:
    case QLinearMatMul:
    case Gemm:
        return "matmul";
    case Softmax:
    case LogSoftmax:
    case LayerNormalization:
    case InstanceNormalization:
        return "normalization";
    case Acos:
    case Acosh:
    case Asin:
    case Asinh:
    case Atan:
    case Atanh:
    case Celu:
    case Cos:
    case Cosh:
    case Elu:
    case Erf:
    case Exp:
    case Gelu:
    case Log:
    case Mish:
    case Pow:
    case Selu:
    case Sigmoid:
    case Sin:
    case Sinh:
    case Softplus:
    case Sqrt:
    case Tan:
    case Tanh:
        return "transcendental";
    default:
        return categoryName(category);
    }
}

ir::DType computeTypeOf(const ir::Graph& graph, ir::OpId op) {
    const ir::Op& o = graph.op(op);
    if (o.outputs.empty())
        return ir::DType::Float32;
    bool integer = o.kind == ConvInteger || o.kind == MatMulInteger || o.kind == QLinearConv ||
                   o.kind == QLinearMatMul;
    if (!integer || o.inputs.empty())
        return graph.tensor(o.outputs.front()).dtype;
    ir::DType operand = graph.tensor(o.inputs.front()).dtype;
    return operand == ir::DType::UInt8 ? ir::DType::Int8 : operand;
}

Category categoryOf(ir::OpKind kind) {
    const OpInfo* info = findOp(kind);
    return info ? info->category : Category::Opaque;
}

Category categoryOf(std::string_view opType, std::string_view domain) {
    return categoryOf(ir::opKindOf(opType, domain));
}

bool isKnownOp(std::string_view opType, std::string_view domain) {
    return ir::opKindOf(opType, domain) != Unknown;
}

std::vector<std::string_view> knownOpTypes() {
    std::vector<std::string_view> types;
    for (ir::OpKind kind : ir::opKinds())
        types.push_back(ir::opKindName(kind));
    return types;
}

Expected<OpSemantics> semanticsOf(const ir::Graph& graph, ir::OpId id) {
    SC_ASSERT(graph.hasOp(id), "op id out of range");
    detail::OpContext ctx(graph, id);
    const OpInfo* info = findOp(ctx.op().kind);
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
