#include "ops/model_stats.h"

#include <algorithm>
#include <map>

namespace stagecraft::ops {

namespace {

bool isStatistic(const ir::Graph& graph, const ir::Use& use) {
    const ir::Op& op = graph.op(use.op);
    return op.kind == ir::OpKind::BatchNormalization && (use.slot == 3 || use.slot == 4);
}

void addConstants(const ir::Graph& graph, ModelStats& stats) {
    for (const ir::Tensor& t : graph.tensors()) {
        if (!t.isConstant() || t.uses.empty())
            continue;
        stats.constantBytes += t.byteSize();
        bool statistic = std::all_of(t.uses.begin(), t.uses.end(),
                                     [&](const ir::Use& use) { return isStatistic(graph, use); });
        if (ir::isFloatingPoint(t.dtype) && !statistic) {
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
