#pragma once
// Internal to core/schedule: the algorithm trace of the `ago` and `dla`
// groupings (partition/trace.h), for --explain and Studio's step-through.

#include "partition/ago_partition.h"
#include "partition/dla_extraction.h"
#include "partition/trace.h"

#include <vector>

namespace stagecraft::schedule::detail {

/// CLUSTER's merges over the whole graph, in order.
std::vector<partition::AgoStep> agoTrace(const ir::Graph& graph,
                                         const partition::AgoPartition& ago);

/// Every extracted sub-graph, in order of first op, with its parts.
std::vector<partition::DlaStep> dlaTrace(const ir::Graph& graph,
                                         const partition::DlaExtraction& extraction);

} // namespace stagecraft::schedule::detail
