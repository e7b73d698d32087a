// validateCodePlan: the invariants code generation relies on, checked apart
// from planning (as validateAllocation checks the allocator).

#include "codegen/code_plan.h"

#include <map>

namespace stagecraft::codegen {

namespace {

bool inside(const partition::Box& inner, const partition::Box& outer) {
    if (inner.size() != outer.size())
        return false;
    for (size_t d = 0; d < inner.size(); ++d)
        if (!inner[d].empty() && (inner[d].lo < outer[d].lo || inner[d].hi > outer[d].hi))
            return false;
    return true;
}

struct Span {
    int64_t lo, hi;
    int first, last;
    ir::TensorId tensor;
};

Status checkView(const ir::Graph& graph, const KernelCode& k, const LayerCode& layer,
                 const View& v) {
    const ir::Tensor& t = graph.tensor(v.tensor);
    auto fail = [&](const std::string& what) {
        return Error("kernel " + k.symbol + ": tensor '" + t.name + "' " + what);
    };
    if (!inside(v.box, partition::fullBox(t.shape)))
        return fail("is viewed outside its shape");
    int64_t bytes = v.storageBytes(graph, layer.tileSizes());
    switch (v.home) {
    case Home::Global:
        if (!(v.box == partition::fullBox(t.shape)))
            return fail("is global but not whole");
        break;
    case Home::Stitched:
        if (v.offset < 0 || v.offset + bytes > k.arenaBytes)
            return fail("lies outside the arena");
        break;
    case Home::Fused:
    case Home::Promoted:
        if (v.offset < 0 || v.offset + bytes > layer.scratchBytes ||
            layer.scratchBytes > k.scratchBytes)
            return fail("lies outside the core's scratch");
        break;
    }
    return Status::success();
}

Status checkOps(const ir::Graph& graph, const KernelCode& k, const LayerCode& layer) {
    for (const OpStep& step : layer.ops) {
        const ir::Op& o = graph.op(step.op);
        for (ir::TensorId in : o.inputs)
            if (in != ir::kNoTensor && layer.viewOf(in) == nullptr)
                return Error("kernel " + k.symbol + ": op '" + o.name + "' reads '" +
                             graph.tensor(in).name + "' without a view");
        for (size_t i = 0; i < o.outputs.size(); ++i) {
            const View* v = layer.viewOf(o.outputs[i]);
            if (v == nullptr || i >= step.regions.size() || !inside(step.regions[i], v->box))
                return Error("kernel " + k.symbol + ": op '" + o.name +
                             "' writes outside the view of '" + graph.tensor(o.outputs[i]).name +
                             "'");
        }
    }
    return Status::success();
}

/// Stitched buffers that are live in the same layers use disjoint bytes.
Status checkArena(const ir::Graph& graph, const KernelCode& k) {
    std::map<ir::TensorId, Span> spans;
    for (size_t l = 0; l < k.layers.size(); ++l)
        for (const View& v : k.layers[l].views) {
            if (v.home != Home::Stitched)
                continue;
            int64_t bytes = v.storageBytes(graph, {});
            auto [it, fresh] =
                spans.emplace(v.tensor, Span{v.offset, v.offset + bytes, static_cast<int>(l),
                                             static_cast<int>(l), v.tensor});
            if (!fresh)
                it->second.last = static_cast<int>(l);
        }
    for (auto a = spans.begin(); a != spans.end(); ++a)
        for (auto b = std::next(a); b != spans.end(); ++b) {
            const Span& x = a->second;
            const Span& y = b->second;
            bool together = x.first <= y.last && y.first <= x.last;
            bool overlap = x.lo < y.hi && y.lo < x.hi;
            if (together && overlap)
                return Error("kernel " + k.symbol + ": stitched buffers '" +
                             graph.tensor(x.tensor).name + "' and '" + graph.tensor(y.tensor).name +
                             "' overlap while both are live");
        }
    return Status::success();
}

} // namespace

Status validateCodePlan(const ir::Graph& graph, const CodePlan& plan) {
    for (const KernelCode& k : plan.kernels) {
        for (const LayerCode& layer : k.layers) {
            for (const View& v : layer.views)
                SC_RETURN_IF_ERROR(checkView(graph, k, layer, v));
            SC_RETURN_IF_ERROR(checkOps(graph, k, layer));
        }
        SC_RETURN_IF_ERROR(checkArena(graph, k));
    }
    return Status::success();
}

} // namespace stagecraft::codegen
