#pragma once
/// \file
/// The baselines' groupings, on the same op categories as GraphTurbo's.
/// `tvm` (TVM §3, operator fusion): injective ops fuse into one another, a
/// reduction fuses the injective ops feeding it, a complex-out-fusable op
/// (Conv, MatMul) fuses the elementwise ops after it, opaque ops stay alone.
/// `astitch` (GraphTurbo §5.2's reproduction of AStitch): TVM's groups, then
/// memory-intensive groups (no complex op) stitched along producer-consumer
/// edges into larger kernels; compute-intensive groups stay single kernels.
/// docs/baselines.md gives the exact rules.

#include "partition/partition.h"
#include "partition/slices.h"

namespace stagecraft::partition {

/// TVM's fused groups of \p graph.
Partition groupTvm(const ir::Graph& graph, const SemanticsCache& semantics);

/// AStitch's stitched groups of \p graph.
Partition groupAStitch(const ir::Graph& graph, const SemanticsCache& semantics);

} // namespace stagecraft::partition
