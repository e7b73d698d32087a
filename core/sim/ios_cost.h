#pragma once
/// \file
/// Stage latencies for IOS's scheduler (partition/ios_scheduler.h) on one
/// cluster of a DSA. IOS measures each stage on the device (§4.1); here a
/// stage is priced by the simulator's own rates: every op's work at the
/// rate and efficiency of the unit the simulator runs it on
/// (kernel/op_time.h), the cluster's cores shared evenly by the stage's
/// concurrent groups, the stage's DDR traffic at the cluster's share of the
/// DDR bandwidth when that takes longer, plus one kernel launch and one sync.
/// docs/baselines.md states the rules; docs/decisions.md why.

#include "arch/arch.h"
#include "partition/ios_scheduler.h"
#include "partition/slices.h"

namespace stagecraft::sim {

/// The cost model; ops no unit can run make a stage infinitely slow.
/// \p graph, \p arch and \p semantics must outlive it.
partition::IosCostModel iosStageCost(const ir::Graph& graph, const arch::Arch& arch,
                                     const partition::SemanticsCache& semantics);

/// True when \p ops can be one operator (IOS §3): two or more Convs of one
/// input with the same strides, dilations and output size, none grouped,
/// and ops that read only what these ops produce (the units' activations).
bool iosMergeable(const ir::Graph& graph, const std::vector<ir::OpId>& ops);

} // namespace stagecraft::sim
