#pragma once
/// \file
/// Internal to core/ops: the cost model of an op (docs/op-semantics.md has
/// the table of per-element costs).

#include "ops/internal/op_context.h"
#include "ops/semantics.h"

#include <cstdint>
#include <vector>

namespace stagecraft::ops::detail {

/// MACs, FLOPs and bytes of the op in \p ctx from its category and nests.
OpCost computeCost(const OpContext& ctx, Category category, const std::vector<LoopNest>& nests);

/// Operations per output element of an elementwise op; 0 for other types.
int64_t elementwiseCost(const ir::Op& op);

/// Operations per output element of a normalization (Softmax family,
/// LayerNormalization, InstanceNormalization); 0 for other types.
int64_t normalizationCost(ir::OpKind kind);

} // namespace stagecraft::ops::detail
