#pragma once
// Internal to core/kernel: layers of one sub-graph instance (§4.1), their
// anchors, tiles and work.

#include "arch/arch.h"
#include "kernel/plan.h"
#include "partition/partition.h"
#include "partition/slices.h"

#include <span>
#include <vector>

namespace stagecraft::kernel::detail {

/// The ops of \p groupOps (graph order) split into layers: runs of the same
/// TVM fusion group (\p layerOf, by op id), in a topological order of their
/// dependencies, ties broken by the earliest first op.
std::vector<std::vector<ir::OpId>> layersOf(const ir::Graph& graph,
                                            std::span<const ir::OpId> groupOps,
                                            const partition::Assignment& layerOf);

/// §4.1: the conv/matmul of the layer, else its last op.
ir::OpId anchorOf(std::span<const ir::OpId> layerOps, const partition::SemanticsCache& semantics);

/// The unit of the first core group that runs \p op fastest, or
/// kFallbackUnit (always when \p onHost: the user put it there); an error
/// naming the op when nothing can run it.
Expected<int32_t> unitFor(const ir::Graph& graph, const arch::Arch& arch, ir::OpId op,
                          ops::Category category, bool onHost = false);

/// The share of \p unit's array of multiply-accumulators \p op fills, in
/// (0, 1]; 1 for units without an array and ops that are no contraction
/// (array_fill.cpp).
double arrayFill(const ir::Graph& graph, const arch::ComputeUnit& unit, ir::OpId op);

/// Work and unit time of \p op for the slice in \p slices.
Expected<OpWork> opWork(const ir::Graph& graph, const arch::Arch& arch,
                        const partition::SemanticsCache& semantics, const partition::BoxMap& slices,
                        ir::OpId op, bool onHost = false);

/// §4.1: tiles of the anchor's two outer loops (the first \p tileable of
/// them, tile_rule.h), divisors whose share of the layer's \p layerBytes
/// fits \p capacityBytes. The \p cores of the kernel take the tiles in
/// turn, so the count that keeps them busiest wins (the least
/// ceil(count / cores) / count), then the fewest, largest tiles.
std::vector<TileLoop> chooseTiles(const ops::LoopNest& anchorNest, const partition::Box& anchorBox,
                                  int tileable, int64_t layerBytes, int64_t capacityBytes,
                                  int64_t cores);

/// How many cores' worth of work a layer of \p tiles tiles gets done at once
/// on \p cores cores that take the tiles in turn: tiles / ceil(tiles / cores).
double parallelShare(int64_t tiles, int64_t cores);

/// Allocates \p program's buffers (its kernels and buffers built, taskCount
/// set): both passes, placements, the GB weight cache's room per task and
/// the reuse waits (program_memory.cpp).
Status allocateBuffers(Program& program, const arch::Arch& arch);

/// Bytes of \p tensor's box in \p slices (the whole tensor when absent).
int64_t sliceBytes(const ir::Graph& graph, const partition::BoxMap& slices, ir::TensorId tensor);

} // namespace stagecraft::kernel::detail
