// The layers of a kernel as the host target runs them (docs/decisions.md,
// "Host tiles"). The DSA's tiles and weight promotions are sized to its
// local buffers (§4.1); a host core has caches instead, and the register-
// blocked contraction lowering blocks output channels only within one tile
// (ResNet-50's Conv tiles of 1 or 2 output channels at the GB level left it
// one). So on the host:
// - a promoted weight slice is read where the weight is (the copy holds the
//   same values);
// - consecutive tiles of the last tile loop run as one tile: the most that
//   still leaves every core of the binding a tile, unless a view outside the
//   core's scratch follows that loop. The fused intermediates in the scratch
//   grow with the tile, so every scratch offset, and the layer's scratch,
//   are scaled by the same factor (disjoint ranges stay disjoint).
// - a 2-D weight read along its dim 0 by the output's last loop (Gemm's B
//   with transB) is stored transposed, packed once when the program is set
//   up, so that the contraction lowering loads it as vectors.
// Which elements each op computes, and in which order it sums, do not
// change, so neither do the bits. The riscv64 objects keep the plan's
// layers and the weights as stored.

#include "codegen/code_plan.h"
#include "ops/semantics.h"
#include "partition/slices.h"

#include <algorithm>

namespace stagecraft::codegen {

namespace {

/// Consecutive tiles of the last tile loop that run as one, or 1.
int64_t mergedTiles(const LayerCode& layer, int64_t cores) {
    if (layer.tiles.empty())
        return 1;
    const int last = static_cast<int>(layer.tiles.size()) - 1;
    for (const View& v : layer.views)
        if (v.home != Home::Fused &&
            std::find(v.tileLoop.begin(), v.tileLoop.end(), last) != v.tileLoop.end())
            return 1;
    const int64_t count = layer.tiles.back().count();
    const int64_t others = layer.tileCount() / count;
    for (int64_t m = count; m > 1; --m)
        if (count % m == 0 && others * (count / m) >= cores)
            return m;
    return 1;
}

/// Whether \p nest reads its input \p slot's dim 0 as the output's last loop
/// and its dim 1 along reduction loops alone.
bool readsTransposed(const ops::LoopNest& nest, int slot) {
    const ops::AccessMap* map = nest.accessFor(slot);
    if (map == nullptr || map->dims.size() != 2 || nest.outputRank < 1)
        return false;
    const ops::IndexExpr& along = map->dims[0];
    const ops::IndexExpr& reduced = map->dims[1];
    const ops::IndexTerm row{nest.outputRank - 1, 1, 1, 0};
    if (along.full || reduced.full || along.terms != std::vector<ops::IndexTerm>{row} ||
        along.div != 1 || along.mod != 0 || reduced.terms.empty())
        return false;
    return std::all_of(reduced.terms.begin(), reduced.terms.end(),
                       [&](const ops::IndexTerm& t) { return t.loop >= nest.outputRank; });
}

} // namespace

void markHostTransposed(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                        std::vector<GlobalTensor>& globals) {
    for (GlobalTensor& g : globals) {
        const ir::Tensor& t = graph.tensor(g.tensor);
        if (g.role != TensorRole::Weight || t.shape.size() != 2 || t.uses.empty() ||
            (t.dtype != ir::DType::Float32 && t.dtype != ir::DType::Float64))
            continue;
        g.hostTransposed = std::all_of(t.uses.begin(), t.uses.end(), [&](const ir::Use& use) {
            const ops::OpSemantics& op = semantics.of(use.op);
            return op.nests.size() == 1 && readsTransposed(op.nests[0], use.slot);
        });
    }
}

LayerCode hostLayer(const ir::Graph& graph, const LayerCode& layer, int64_t cores) {
    LayerCode host = layer;
    for (const Promotion& p : layer.promotions)
        host.views[static_cast<size_t>(p.view)] = View{
            p.weight, Home::Global, p.slot, partition::fullBox(graph.tensor(p.weight).shape), {}};
    host.promotions.clear();
    const int64_t merged = mergedTiles(host, cores);
    if (merged == 1)
        return host;
    host.tiles.back().tile *= merged;
    for (View& v : host.views)
        if (v.home == Home::Fused)
            v.offset *= merged;
    host.scratchBytes *= merged;
    return host;
}

int64_t hostScratchBytes(const ir::Graph& graph, const KernelCode& kernel) {
    int64_t bytes = kernel.scratchBytes;
    for (const LayerCode& layer : kernel.layers)
        bytes = std::max(bytes, hostLayer(graph, layer, kernel.cores).scratchBytes);
    return bytes;
}

} // namespace stagecraft::codegen
