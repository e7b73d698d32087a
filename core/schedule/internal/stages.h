#pragma once
// Internal to core/schedule: the pipeline's stages after grouping.

#include "arch/arch.h"
#include "schedule/edits.h"
#include "schedule/schedule.h"

#include <map>
#include <span>
#include <utility>
#include <vector>

namespace stagecraft::schedule::detail {

/// Which dim of an input tensor each output dim of a group corresponds to
/// (match_dim of Algorithm 1, used by binding inference, Algorithm 4).
class DimMatcher {
public:
    DimMatcher(const ir::Graph& graph, const partition::SemanticsCache& semantics,
               const Schedule& schedule)
        : graph_(graph)
        , semantics_(semantics)
        , schedule_(schedule) {}

    /// For each dim of \p group's output (its split output), the dim of
    /// \p tensor it maps to, or -1.
    const std::vector<int>& map(GroupId group, ir::TensorId tensor);

    /// The shape of \p instance's piece of \p tensor (an output of its
    /// group): its slice of the split output, the propagated box of another
    /// output, the whole tensor when the group is not split.
    ir::Shape pieceShape(InstanceId instance, ir::TensorId tensor);
    /// \p instance's binding (over its group output's dims) carried onto the
    /// dims of \p tensor through map().
    Binding bindingOn(InstanceId instance, ir::TensorId tensor);
    /// A binding of \p tensor carried back onto the dims of \p group's output.
    Binding toOutputDims(GroupId group, ir::TensorId tensor, const Binding& onTensor);
    /// sharedTensors(), computed once per pair of groups.
    const std::vector<ir::TensorId>& shared(GroupId producer, GroupId consumer);

private:
    const ir::Graph& graph_;
    const partition::SemanticsCache& semantics_;
    const Schedule& schedule_;
    std::map<std::pair<GroupId, ir::TensorId>, std::vector<int>> cache_;
    std::map<std::pair<GroupId, GroupId>, std::vector<ir::TensorId>> shared_;
};

/// §3.3: the instances of every group (its split) and the edges inherited
/// from the group edges, redundant ones flagged. Refuses splits that would
/// make more instances or instance pairs than the memory cap allows.
Status buildInstances(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                      Schedule& schedule);

/// Boxes of every tensor instance \p index (0-based) of group \p g touches.
partition::BoxMap sliceOf(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                          const Schedule& s, GroupId g, int64_t index);

/// Fig. 7a: breadth-first order of the instance DAG.
std::vector<InstanceId> bfsOrder(const Schedule& schedule, const Adjacency& adjacency);

/// Algorithm 3 with the BFS order as its visit list (as Fig. 7 assumes);
/// records every step in \p trace when given.
std::vector<InstanceId> dfsOrder(const Schedule& schedule, const Adjacency& adjacency,
                                 partition::Trace* trace);

struct MemoryUse {
    /// Mean of min(used, capacity) / capacity over the order's steps.
    double utilization = 0;
    /// Bytes above capacity summed over the steps (what would have to spill).
    int64_t overflow = 0;
};
/// LB use when \p order runs: an instance's output stays from its execution
/// until its last consumer instance ran, next to the running instance's own
/// footprint (docs/scheduling.md).
MemoryUse memoryUse(const ir::Graph& graph, const Schedule& schedule, const Adjacency& adjacency,
                    std::span<const InstanceId> order);

/// Algorithm 4 (§3.4) and the scope rules around it: bindings and scopes of
/// every instance.
void bindAndScope(const ir::Graph& graph, const arch::Arch& arch,
                  const partition::SemanticsCache& semantics, DimMatcher& matcher,
                  const Adjacency& adjacency, Schedule& schedule, partition::Trace* trace);

/// The binding a consumer instance needs for \p tensor, inferred from its
/// own binding (infer_binding of Algorithm 4), one factor per dim of
/// \p tensor (\p rank dims); all 1s when nothing matches.
Binding inferBinding(DimMatcher& matcher, const Schedule& schedule, InstanceId consumer,
                     ir::TensorId tensor, size_t rank);

/// §3.5: concat, copy and redistribute ops between instances.
void insertDataMoves(DimMatcher& matcher, const Adjacency& adjacency, Schedule& schedule);

/// The tensors \p producer makes that \p consumer reads, the producer's
/// primary output first when it is one of them, then in output order.
std::vector<ir::TensorId> sharedTensors(const Schedule& schedule, GroupId producer,
                                        GroupId consumer);

} // namespace stagecraft::schedule::detail
