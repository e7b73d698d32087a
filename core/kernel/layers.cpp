// Layers of a sub-graph instance (GraphTurbo §4.1, Fig. 10–11): a layer is
// what TVM's fusion puts in one kernel, restricted to the instance; its anchor
// is the conv/matmul, else its last (elementwise) op; the anchor's two outer
// loops are tiled with the largest divisors whose tiles fit LB, the other ops
// fused into the anchor's loops. Work is counted for the instance's slice.

#include "kernel/internal/layers.h"

#include "ops/semantics.h"
#include "support/divisors.h"

#include <queue>

#include <algorithm>
#include <functional>
#include <unordered_map>

namespace stagecraft::kernel::detail {

std::vector<std::vector<ir::OpId>> layersOf(const ir::Graph& graph,
                                            std::span<const ir::OpId> groupOps,
                                            const partition::Assignment& layerOf) {
    std::unordered_map<int32_t, size_t> index; // by the layer's fusion group
    std::vector<std::vector<ir::OpId>> layers;
    for (ir::OpId op : groupOps) {
        auto [it, fresh] = index.emplace(layerOf[op].value(), layers.size());
        if (fresh)
            layers.emplace_back();
        layers[it->second].push_back(op);
    }
    // A layer may start before a layer it reads from (a residual Add fused
    // after conv3 reads the shortcut conv, whose op comes later): order the
    // layers topologically (Kahn's algorithm), the one with the earliest
    // first op (the lowest index) among ready ones.
    std::vector<std::vector<size_t>> succs(layers.size());
    std::vector<size_t> waitingFor(layers.size(), 0);
    for (size_t l = 0; l < layers.size(); ++l) {
        std::vector<size_t> preds;
        for (ir::OpId op : layers[l])
            for (ir::TensorId in : graph.op(op).inputs) {
                if (in == ir::kNoTensor || graph.tensor(in).producer == ir::kNoOp)
                    continue;
                auto it = index.find(layerOf[graph.tensor(in).producer].value());
                if (it != index.end() && it->second != l)
                    preds.push_back(it->second);
            }
        std::sort(preds.begin(), preds.end());
        preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
        waitingFor[l] = preds.size();
        for (size_t p : preds)
            succs[p].push_back(l);
    }
    std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
    for (size_t l = 0; l < layers.size(); ++l)
        if (waitingFor[l] == 0)
            ready.push(l);
    std::vector<std::vector<ir::OpId>> ordered;
    ordered.reserve(layers.size());
    while (!ready.empty()) {
        size_t next = ready.top();
        ready.pop();
        ordered.push_back(std::move(layers[next]));
        for (size_t s : succs[next])
            if (--waitingFor[s] == 0)
                ready.push(s);
    }
    SC_ASSERT(ordered.size() == layers.size(), "the layers of an instance form a DAG");
    return ordered;
}

ir::OpId anchorOf(std::span<const ir::OpId> layerOps, const partition::SemanticsCache& semantics) {
    for (ir::OpId op : layerOps)
        if (semantics.of(op).category == ops::Category::Complex)
            return op;
    return layerOps.back();
}

namespace {

double bestRate(const arch::ComputeUnit& unit, ir::DType dtype) {
    auto it = unit.opsPerCycle.find(dtype);
    if (it != unit.opsPerCycle.end())
        return it->second;
    // A dtype the unit has no entry for (index arithmetic in i64, say) runs
    // at the unit's slowest listed rate (docs/simulator.md).
    double slowest = 0;
    for (const auto& [type, rate] : unit.opsPerCycle)
        slowest = slowest == 0 ? rate : std::min(slowest, rate);
    return slowest;
}

} // namespace

Expected<int32_t> unitFor(const ir::Graph& graph, const arch::Arch& arch, ir::OpId op,
                          ops::Category category, bool onHost) {
    const auto& units = arch.cluster.coreGroups.front().units;
    ir::DType dtype = ops::computeTypeOf(graph, op);
    int32_t best = kFallbackUnit;
    double bestOps = 0;
    bool listed = !onHost && arch::supportsOpKind(arch, graph.op(op).kind);
    for (size_t u = 0; listed && u < units.size(); ++u) {
        const auto& cats = units[u].categories;
        if (std::find(cats.begin(), cats.end(), category) == cats.end())
            continue;
        // Units with a native rate for the dtype come first.
        double rate = bestRate(units[u], dtype) * (units[u].opsPerCycle.count(dtype) ? 1 : 1e-6);
        if (rate > bestOps) {
            bestOps = rate;
            best = static_cast<int32_t>(u);
        }
    }
    if (best == kFallbackUnit && !arch.fallbackCpu)
        return Error("op '" + graph.op(op).name + "' (" + std::string(ops::categoryName(category)) +
                     "): no compute unit of '" + arch.name +
                     "' runs it and it has no fallback CPU");
    return best;
}

int64_t sliceBytes(const ir::Graph& graph, const partition::BoxMap& slices, ir::TensorId tensor) {
    const ir::Tensor& t = graph.tensor(tensor);
    const partition::Box* box = slices.find(tensor);
    int64_t elements = box != nullptr ? partition::boxElements(*box) : t.elementCount();
    return elements * ir::dtypeSize(t.dtype);
}

Expected<OpWork> opWork(const ir::Graph& graph, const arch::Arch& arch,
                        const partition::SemanticsCache& semantics, const partition::BoxMap& slices,
                        ir::OpId op, bool onHost) {
    const ops::OpSemantics& sem = semantics.of(op);
    OpWork work;
    work.op = op;
    SC_ASSIGN_OR_RETURN(work.unit, unitFor(graph, arch, op, sem.category, onHost));
    const ir::Op& o = graph.op(op);
    double fraction = 1;
    if (!o.outputs.empty()) {
        const ir::Tensor& out = graph.tensor(o.outputs.front());
        if (out.elementCount() > 0)
            fraction = static_cast<double>(sliceBytes(graph, slices, o.outputs.front())) /
                       static_cast<double>(out.byteSize());
    }
    double whole = sem.category == ops::Category::Complex ? static_cast<double>(sem.cost.macs)
                   : sem.cost.flops > 0                   ? static_cast<double>(sem.cost.flops)
                                                          : 0;
    if (whole == 0)
        for (ir::TensorId out : o.outputs)
            whole += static_cast<double>(graph.tensor(out).elementCount());
    work.work = whole * fraction;
    if (work.unit == kFallbackUnit) {
        work.unitNs = work.work / arch.fallbackCpu->gflops;
    } else {
        const auto& unit = arch.cluster.coreGroups.front().units[static_cast<size_t>(work.unit)];
        double efficiency =
            unit.efficiencyFor(ops::familyOf(graph.op(op).kind, sem.category), sem.category);
        work.unitNs = work.work / (bestRate(unit, ops::computeTypeOf(graph, op)) * arch.clockGhz *
                                   efficiency * arrayFill(graph, unit, op));
    }
    return work;
}

namespace {

std::vector<int64_t> divisorsDescending(int64_t n) {
    std::vector<int64_t> all = divisors(n);
    std::reverse(all.begin(), all.end());
    return all;
}

} // namespace

double parallelShare(int64_t tiles, int64_t cores) {
    tiles = std::max<int64_t>(tiles, 1);
    cores = std::max<int64_t>(cores, 1);
    return static_cast<double>(tiles) / static_cast<double>((tiles + cores - 1) / cores);
}

std::vector<TileLoop> chooseTiles(const ops::LoopNest& anchorNest, const partition::Box& anchorBox,
                                  int tileable, int64_t layerBytes, int64_t capacityBytes,
                                  int64_t cores) {
    std::vector<TileLoop> loops;
    int outer = std::min({anchorNest.outputRank, 2, tileable});
    for (int i = 0; i < outer && static_cast<size_t>(i) < anchorBox.size(); ++i)
        loops.push_back({anchorNest.loops[static_cast<size_t>(i)].name,
                         std::max<int64_t>(anchorBox[static_cast<size_t>(i)].size(), 1), 1});
    if (loops.empty())
        return loops;
    int64_t e0 = loops[0].extent;
    int64_t e1 = loops.size() > 1 ? loops[1].extent : 1;
    auto fits = [&](int64_t t0, int64_t t1) {
        double share = static_cast<double>(t0 * t1) / static_cast<double>(e0 * e1);
        return static_cast<double>(layerBytes) * share <= static_cast<double>(capacityBytes);
    };
    // Better: more cores busy, then fewer tiles.
    auto better = [&](int64_t t0, int64_t t1, int64_t b0, int64_t b1) {
        int64_t count = (e0 / t0) * (e1 / t1), bestCount = (e0 / b0) * (e1 / b1);
        double share = parallelShare(count, cores), bestShare = parallelShare(bestCount, cores);
        return share != bestShare ? share > bestShare : count < bestCount;
    };
    int64_t best0 = 1, best1 = 1;
    std::vector<int64_t> d1 = divisorsDescending(e1);
    for (int64_t t0 : divisorsDescending(e0))
        for (int64_t t1 : d1)
            if (fits(t0, t1) && better(t0, t1, best0, best1)) {
                best0 = t0;
                best1 = t1;
            }
    loops[0].tile = best0;
    if (loops.size() > 1)
        loops[1].tile = best1;
    return loops;
}

} // namespace stagecraft::kernel::detail
