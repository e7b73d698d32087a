#pragma once
/// \file
/// Hardware-aware grouping (GraphTurbo §3.2, Algorithm 2): sub-graphs start as
/// single ops and merge along straight, diamond and branch patterns (Fig. 4)
/// while Rules (i) and (ii) on their splitting factors hold, until no pattern
/// merges any more. SplitInfo (Algorithm 1) is recomputed after every merge.

#include "partition/partition.h"
#include "partition/split_info.h"
#include "partition/trace.h"

#include <vector>

namespace stagecraft::partition {

struct GroupingResult {
    Partition partition;
    /// SplitInfo of every group, by group id.
    IdVector<GroupId, SplitInfo> splits;
    /// IOS: the stage (§3, counted over the model) each op runs in, by op;
    /// empty for every other grouping.
    IdVector<ir::OpId, int32_t> iosStage;
};

/// Algorithm 2 over \p graph. \p trace, when given, receives every merge
/// attempt with its pattern and rule outcome.
Expected<GroupingResult> groupGraphTurbo(const ir::Graph& graph, const SemanticsCache& semantics,
                                         const SplitParams& params, Trace* trace = nullptr);

} // namespace stagecraft::partition
