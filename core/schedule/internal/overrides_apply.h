#pragma once
// Internal to core/schedule: applying user overrides at their pipeline steps.

#include "schedule/pipeline.h"

namespace stagecraft::schedule::detail {

/// Forced splits replace the best split of their groups.
Status applySplits(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                   const Overrides& overrides, Schedule& schedule);

/// The user's order as instance ids, checked to be a topological permutation.
Expected<std::vector<InstanceId>> userOrder(const Schedule& schedule,
                                            const std::vector<std::string>& labels);

/// The ops of Overrides::host marked by op id (empty when none); an unknown
/// op, or an architecture without a fallback CPU, is refused.
Expected<IdVector<ir::OpId, char>> hostOps(const ir::Graph& graph, const arch::Arch& arch,
                                           const Overrides& overrides);

/// Scope pins on sub-graph outputs, applied after Algorithm 4.
Status applyScopePins(const ir::Graph& graph, const Overrides& overrides, Schedule& schedule);

} // namespace stagecraft::schedule::detail
