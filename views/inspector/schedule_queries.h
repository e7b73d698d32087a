#pragma once
// Questions the inspector asks of a pipeline result about its selection:
// which group it belongs to, which tensor a scope pin would name. What may be
// merged, ungrouped or split is core/schedule/edits.h's to answer, by the
// rules the pipeline applies to the edit.

#include "common/pipeline_result.h"
#include "common/selection.h"
#include "schedule/edits.h"

#include <optional>
#include <vector>

namespace stagecraft::views::inspector {

/// The selection when its id indexes \p result, else an empty selection
/// (a view may still hold the selection of an older result).
Selection validSelection(const PipelineResult& result, const Selection& selection);

/// The group an op, group, instance or produced tensor belongs to.
std::optional<schedule::GroupId> groupOf(const PipelineResult& result, const Selection& selection);

/// The group whose output \p tensor is, if any.
std::optional<schedule::GroupId> groupWithOutput(const PipelineResult& result, ir::TensorId tensor);

/// The tensor a scope pin for \p selection names: a selected group output, or
/// the output of the selected group or instance's group.
std::optional<ir::TensorId> pinnableTensor(const PipelineResult& result,
                                           const Selection& selection);

/// Needed-edge producers and consumers of an instance, ascending.
std::vector<schedule::InstanceId> predecessors(const schedule::Schedule& schedule,
                                               schedule::InstanceId instance);
std::vector<schedule::InstanceId> successors(const schedule::Schedule& schedule,
                                             schedule::InstanceId instance);

} // namespace stagecraft::views::inspector
