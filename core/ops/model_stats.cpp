#include "ops/model_stats.h"

#include <algorithm>
#include <map>

namespace stagecraft::ops {

namespace {

bool isStatistic(const ir::Graph& graph, const ir::Use& use) {
    const ir::Op& op = graph.op(use.op);
    return op.kind == ir::OpKind::BatchNormalization && (use.slot == 3 || use.slot == 4);
}

/// A scale or zero point of a quantization op (not a parameter).
bool isQuantizationParameter(const ir::Graph& graph, const ir::Use& use) {
    switch (graph.op(use.op).kind) {
    case ir::OpKind::QuantizeLinear:
    case ir::OpKind::DequantizeLinear:
        return use.slot == 1 || use.slot == 2;
    case ir::OpKind::QLinearConv:
    case ir::OpKind::QLinearMatMul:
        return use.slot == 1 || use.slot == 2 || (use.slot >= 4 && use.slot <= 7);
    case ir::OpKind::ConvInteger:
    case ir::OpKind::MatMulInteger:
        return use.slot == 2 || use.slot == 3;
    default:
        return false;
    }
}

/// Integer weights read as values by a quantized op: int8 weights, int32 biases.
bool isQuantizedValue(const ir::Graph& graph, const ir::Use& use) {
    switch (graph.op(use.op).kind) {
    case ir::OpKind::DequantizeLinear:
        return use.slot == 0;
    case ir::OpKind::QLinearConv:
        return use.slot == 3 || use.slot == 8;
    case ir::OpKind::QLinearMatMul:
        return use.slot == 0 || use.slot == 3;
    case ir::OpKind::ConvInteger:
    case ir::OpKind::MatMulInteger:
        return use.slot == 0 || use.slot == 1;
    default:
        return false;
    }
}

/// Learnable parameters: floating-point constants other than BatchNorm's
/// running statistics and quantization scales, and the integer weights of
/// quantized ops.
bool isParameter(const ir::Graph& graph, const ir::Tensor& t) {
    auto all = [&](auto predicate) {
        return std::all_of(t.uses.begin(), t.uses.end(),
                           [&](const ir::Use& use) { return predicate(graph, use); });
    };
    if (ir::isFloatingPoint(t.dtype))
        return !all(isStatistic) && !all(isQuantizationParameter);
    return std::any_of(t.uses.begin(), t.uses.end(),
                       [&](const ir::Use& use) { return isQuantizedValue(graph, use); });
}

void addConstants(const ir::Graph& graph, ModelStats& stats) {
    for (const ir::Tensor& t : graph.tensors()) {
        if (!t.isConstant() || t.uses.empty())
            continue;
        stats.constantBytes += t.byteSize();
        if (isParameter(graph, t)) {
            stats.params += t.elementCount();
            stats.paramBytes += t.byteSize();
        }
    }
}

} // namespace

Expected<ModelStats> computeModelStats(const ir::Graph& graph) {
    ModelStats stats;
    stats.ops = static_cast<int64_t>(graph.opCount());
    stats.tensors = static_cast<int64_t>(graph.tensorCount());
    addConstants(graph, stats);
    for (const ir::Tensor& t : graph.tensors())
        if (!t.isConstant())
            stats.activationBytes += t.byteSize();
    std::map<std::string, OpTypeCount> histogram;
    for (ir::OpId id : graph.opIds()) {
        SC_ASSIGN_OR_RETURN(OpSemantics semantics, semanticsOf(graph, id));
        stats.macs += semantics.cost.macs;
        stats.flops += semantics.cost.flops;
        const ir::Op& op = graph.op(id);
        std::string type = op.domain.empty() ? op.type : op.domain + "." + op.type;
        OpTypeCount& entry = histogram[type];
        entry.type = type;
        entry.category = semantics.category;
        ++entry.count;
        if (semantics.category == Category::Opaque)
            stats.opaqueOps.push_back(id);
    }
    for (auto& [type, entry] : histogram)
        stats.opTypes.push_back(entry);
    std::stable_sort(stats.opTypes.begin(), stats.opTypes.end(),
                     [](const OpTypeCount& a, const OpTypeCount& b) { return a.count > b.count; });
    return stats;
}

} // namespace stagecraft::ops
