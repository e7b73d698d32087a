#pragma once
// The properties of the selected op, group, instance or tensor as a tree of
// rows (property_tree.h), read from a pipeline result.

#include "common/pipeline_result.h"
#include "common/selection.h"
#include "inspector/property_tree.h"

#include <memory>

namespace stagecraft::views::inspector {

/// The invisible root whose children are the top-level rows; for no (or a
/// stale) selection, the overview of the schedule.
std::unique_ptr<PropertyNode> buildProperties(const PipelineResult& result,
                                              const Selection& selection);

/// Per kind; \p id must index the result.
void addOpProperties(const PipelineResult& result, ir::OpId op, PropertyNode& root);
void addTensorProperties(const PipelineResult& result, ir::TensorId tensor, PropertyNode& root);
void addGroupProperties(const PipelineResult& result, schedule::GroupId group, PropertyNode& root);
void addInstanceProperties(const PipelineResult& result, schedule::InstanceId instance,
                           PropertyNode& root);

/// What the schedule is as a whole (model, strategy, level and why, counts,
/// simulated time, the level's capacity), with a hint to select something.
void addOverviewProperties(const PipelineResult& result, PropertyNode& root);
/// "LB (L1) of the cluster: 448 KiB, 8 cores × 56 KiB (+ 8 KiB each for
/// weights)" or "GB (LLB): 8 MiB": what Algorithm 1 filled (§3.1, §3.6).
QString levelCapacityText(const PipelineResult& result);

/// "LB", or "LB 6, GB 2" when the group's instances differ.
QString scopeSummary(const schedule::Schedule& schedule, schedule::GroupId group);

} // namespace stagecraft::views::inspector
