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
// Which elements each op computes, and in which order it sums, do not
// change, so neither do the bits. The riscv64 objects keep the plan's
// layers.

#include "codegen/code_plan.h"
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

} // namespace

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
