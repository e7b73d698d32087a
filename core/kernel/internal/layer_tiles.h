#pragma once
// Internal to core/kernel: a layer's tiles (§4.1), its weight hoists
// (Fig. 11) and whether it double-buffers them (latency hiding inside a
// layer, every strategy alike): layer_tiles.cpp.

#include "arch/arch.h"
#include "kernel/plan.h"
#include "partition/slices.h"

#include <span>

namespace stagecraft::kernel::detail {

/// What the planner knows of a layer when it tiles it.
struct TileContext {
    const ir::Graph& graph;
    const partition::SemanticsCache& semantics;
    const arch::Arch& arch;
    /// The buffers the layer's operands and outputs name (their declared scopes).
    const IdVector<BufferId, Buffer>& buffers;
    std::span<const ir::OpId> ops;
    const partition::BoxMap& slices;
    /// Cores of the kernel, which take the tiles in turn.
    int64_t cores = 1;
    /// Bytes of one core's LB the tiles may fill.
    int64_t capacityBytes = 0;
    /// The layer's outputs and outside inputs, the bytes its tiles divide.
    int64_t layerBytes = 0;
    /// Whether double buffering may be chosen (PlanOptions::doubleBuffering).
    bool doubleBuffering = true;
    /// PlanOptions::acrossLayer.
    bool acrossLayer = false;
};

/// The estimated time of a layer's transfers and compute for one choice of
/// tiles, from the architecture's rates (no other layer in flight): what
/// the planner weighs (docs/simulator.md, "Double buffering").
struct LayerEstimate {
    /// Compute over the kernel's cores, as the streams charge it.
    double computeNs = 0;
    /// Loads and the hoists that follow the tiles, then stores, each as if
    /// alone on its paths.
    double loadNs = 0;
    double storeNs = 0;
    /// Hoists of the weights kept whole, before the first tile.
    double hoistOnceNs = 0;
    /// The busiest path's data time over the layer.
    double busiestPathNs = 0;
    /// Tiles each core runs in turn.
    int64_t tilesPerCore = 1;

    /// One tile at a time: load, compute, store.
    double serialNs() const;
    /// Double-buffered: the busiest of compute and the paths, plus filling
    /// and draining the pipeline over its first and last chunk.
    double pipelinedNs() const;
};

/// True when \p op is a MatMul or Gemm whose second operand is a weight:
/// its layer is tiled as a dense (dense_tiles.cpp).
bool isDenseAnchor(const ir::Graph& graph, ir::OpId op);

/// Dense-form tiles of \p layer (its anchor's output box \p anchorBox): one
/// loop per output dim, the rows (every dim but the last) cut by a divisor
/// of their flattened extent that keeps a box, the features (the last dim)
/// by a divisor of theirs when \p tileFeatures, else whole; the tile's bytes
/// fit \p capacityBytes (dense_tiles.cpp).
std::vector<TileLoop> chooseDenseTiles(const Layer& layer, const TileContext& context,
                                       const partition::Box& anchorBox, bool tileFeatures,
                                       int64_t capacityBytes);

/// Tiles, hoists and double buffering of \p layer (its ops, inputs and
/// outputs filled in).
void planTiles(Layer& layer, const TileContext& context);

} // namespace stagecraft::kernel::detail
