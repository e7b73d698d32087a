#pragma once
// What a user may change in a schedule: merge two groups, ungroup at an op,
// force a split, pin a scope. Each check is the rule the pipeline applies to
// the override (overrides.cpp calls these), and each question a front end
// asks before offering an edit replays the override the edit adds, so a
// front end offers an edit exactly when the pipeline accepts it.

#include "schedule/pipeline.h"
#include "schedule/schedule.h"
#include "support/expected.h"

#include <optional>
#include <vector>

namespace stagecraft::schedule {

/// The primary output tensor of \p group (the one Algorithm 1 splits it by).
ir::TensorId groupOutput(const Schedule& schedule, GroupId group);

/// The group whose primary output \p tensor is, if any: the tensors a scope
/// pin may name.
std::optional<GroupId> groupWithOutput(const ir::Graph& graph, const Schedule& schedule,
                                       ir::TensorId tensor);

/// The name an edit gives \p group by: its first op.
const std::string& firstOpName(const ir::Graph& graph, const Schedule& schedule, GroupId group);

/// \p base regrouped by the merges of \p overrides, then its ungroups, each
/// in the order given (the pipeline's regrouping step).
Expected<partition::Partition> regroup(const ir::Graph& graph, const partition::Partition& base,
                                       const Overrides& overrides);

/// \p partition with groups \p a and \p b merged. Fails when they are one
/// group or when a third group lies on a path between them (a cycle).
Expected<partition::Partition> mergedPartition(const ir::Graph& graph,
                                               const partition::Partition& partition, GroupId a,
                                               GroupId b);

/// \p partition with the group of \p op split into the ops reachable from
/// \p op inside the group and the rest. Fails when nothing would be split
/// off or when the two parts would form a cycle.
Expected<partition::Partition>
ungroupedPartition(const ir::Graph& graph, const partition::Partition& partition, ir::OpId op);

/// \p group run as \p factor instances along \p dim of its output. Fails
/// when the factor does not divide the dim, the split cannot divide every
/// output, or an instance is over the schedule's capacity. Factor 1 runs
/// the group whole ("unsplit").
Expected<partition::SplitCandidate> forcedSplit(const ir::Graph& graph,
                                                const partition::SemanticsCache& semantics,
                                                const Schedule& schedule, GroupId group, int dim,
                                                int64_t factor);

// The questions a front end asks before offering an edit of \p schedule,
// built with \p overrides. A merge or ungroup is answered by regrouping
// Algorithm 2's partition with the overrides plus the edit, as the pipeline
// will: a merge offered after an ungroup is applied before it.

/// Producer and consumer groups of \p group the pipeline would merge it
/// with, ascending.
std::vector<GroupId> mergeableGroups(const ir::Graph& graph, const Schedule& schedule,
                                     const Overrides& overrides, GroupId group);

/// Whether the pipeline would ungroup at \p op.
bool canUngroupAt(const ir::Graph& graph, const Schedule& schedule, const Overrides& overrides,
                  ir::OpId op);

/// Whether the group may run whole (a forced split of factor 1).
bool unsplitFits(const ir::Graph& graph, const Schedule& schedule, GroupId group);

/// The splits offered for \p group: for each dim of Algorithm 1's
/// candidates, the divisors of the dim from its best factor up (at least 2),
/// at most kMaxFactorsPerDim per dim, each accepted by forcedSplit and
/// carrying its instance bytes. Factor 1 is left out (see unsplitFits).
inline constexpr int kMaxFactorsPerDim = 12;
std::vector<partition::SplitCandidate> splitChoices(const ir::Graph& graph,
                                                    const Schedule& schedule, GroupId group);

} // namespace stagecraft::schedule
