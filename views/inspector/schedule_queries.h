#pragma once
// Questions the inspector asks of a pipeline result: which group a selection
// belongs to, which groups border it, where an op may ungroup, which tensor a
// scope pin would name. Plain functions, so the models, the edit panel and
// the tests agree on the answers.

#include "common/pipeline_result.h"
#include "common/selection.h"

#include <optional>
#include <vector>

namespace stagecraft::views::inspector {

/// The selection when its id indexes \p result, else an empty selection
/// (a view may still hold the selection of an older result).
Selection validSelection(const PipelineResult& result, const Selection& selection);

/// The group an op, group, instance or produced tensor belongs to.
std::optional<schedule::GroupId> groupOf(const PipelineResult& result, const Selection& selection);

/// The tensor Algorithm 1 splits the group by: its output for scope pins.
ir::TensorId groupOutput(const schedule::Schedule& schedule, schedule::GroupId group);

/// The group whose output \p tensor is, if any.
std::optional<schedule::GroupId> groupWithOutput(const PipelineResult& result, ir::TensorId tensor);

/// The tensor a scope pin for \p selection names: a selected group output, or
/// the output of the selected group or instance's group.
std::optional<ir::TensorId> pinnableTensor(const PipelineResult& result,
                                           const Selection& selection);

/// Producer and consumer groups of \p group in the group DAG, ascending.
std::vector<schedule::GroupId> adjacentGroups(const schedule::Schedule& schedule,
                                              schedule::GroupId group);

/// True when ungrouping at \p op splits something off: its group has other
/// ops, and not all of them follow \p op inside the group.
bool canUngroupAt(const ir::Graph& graph, const schedule::Schedule& schedule, ir::OpId op);

/// Needed-edge producers and consumers of an instance, ascending.
std::vector<schedule::InstanceId> predecessors(const schedule::Schedule& schedule,
                                               schedule::InstanceId instance);
std::vector<schedule::InstanceId> successors(const schedule::Schedule& schedule,
                                             schedule::InstanceId instance);

/// Whether running \p group whole (factor 1) fits the schedule's capacity:
/// the pipeline refuses a factor-1 override otherwise.
bool unsplitFits(const PipelineResult& result, schedule::GroupId group);

/// The splits the inspector offers for \p group: for each dim of
/// Algorithm 1's candidates, its smallest fitting factor (instanceBytes as
/// Algorithm 1 computed it) and every larger factor that divides the dim
/// (instanceBytes 0: not computed), at most kMaxFactorsPerDim per dim;
/// factor-1 entries are left out ("unsplit" gives the same schedule).
inline constexpr int kMaxFactorsPerDim = 12;
std::vector<partition::SplitCandidate> splitChoices(const PipelineResult& result,
                                                    schedule::GroupId group);

} // namespace stagecraft::views::inspector
