#pragma once
/// \file
/// Which of a layer's anchor loops tiles may cut (GraphTurbo §4.1). The
/// kernel plan tiles only those, and code generation checks the same rule,
/// so the tiles the simulator charges are the tiles the emitted code runs.

#include "partition/slices.h"

#include <span>
#include <string>
#include <vector>

namespace stagecraft::kernel {

/// True when \p expr is loop \p loop itself (stride 1, no offset).
bool isIdentityOf(const ops::IndexExpr& expr, int loop);

/// Why tiling the anchor's first \p tiledDims output loops (its output box
/// \p anchorBox) cannot serve the layer's \p ops, or "" when it can: every
/// op must compute the anchor's range on those dims and read what the layer
/// produces with the identity on them, so that a tile needs only what the
/// same tile computed.
std::string tilingProblem(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                          const partition::BoxMap& slices, std::span<const ir::OpId> ops,
                          const partition::Box& anchorBox, int tiledDims);

/// How many of the anchor's leading output loops (at most \p outer) tiles
/// may cut: the longest prefix with no tilingProblem.
int tileableDims(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                 const partition::BoxMap& slices, std::span<const ir::OpId> ops,
                 const partition::Box& anchorBox, int outer);

/// Per dim of \p weight: the tiled output dim (one of \p tiledDims) its
/// range follows, -1 where it does not. A dim follows a tiled dim when every
/// op of \p ops that reads the weight indexes it with the identity on that
/// loop, so that a tile reads only its part of the weight (the code promotes
/// that part per tile, the plan hoists it so).
std::vector<int> weightTileDims(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                                std::span<const ir::OpId> ops, std::span<const int> tiledDims,
                                ir::TensorId weight);

} // namespace stagecraft::kernel
