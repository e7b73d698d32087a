#pragma once
// Internal to core/schedule: IOS (ios-inter-operator-scheduler.txt) over a
// whole model, and the order and cores of its stages.

#include "arch/arch.h"
#include "partition/grouping.h"
#include "partition/ios_scheduler.h"
#include "partition/trace.h"
#include "schedule/schedule.h"

namespace stagecraft::schedule::detail {

/// IOS's grouping of \p graph: the model cut into blocks at its joints,
/// where no unit before can run beside one after (§4.2: "optimize each
/// block separately"), a block too wide
/// for the DP's bound halved; each block scheduled by Algorithm 1 over its
/// schedule units (§6) with \p pruning. A merged stage is one group, each
/// group of a concurrent stage another; result.iosStage holds every op's
/// stage; its stages, each with its block's DP, into \p trace when given.
Expected<partition::GroupingResult> iosGrouping(const ir::Graph& graph,
                                                const partition::IosCostModel& cost,
                                                const partition::IosPruning& pruning,
                                                partition::Trace* trace);

/// The instances by stage (the stage of a group is its first op's), a
/// stage's instances together, every edge kept (Kahn's algorithm with the
/// stage, then the group, as priority).
std::vector<InstanceId> stageOrder(const Schedule& schedule, const Adjacency& adjacency,
                                   const partition::GroupingResult& grouping);

/// Concurrent execution (§3): consecutive instances in the order of one
/// stage with no edge between them share the cluster's \p cores evenly
/// (the first ones one more when they do not divide), each from its own
/// first core, its binding cut to its share; the second and later join the
/// stage.
void shareStageCores(Schedule& schedule, const Adjacency& adjacency,
                     const partition::GroupingResult& grouping, int64_t cores);

} // namespace stagecraft::schedule::detail
