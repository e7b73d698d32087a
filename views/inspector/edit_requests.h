#pragma once
// The edits the inspector offers, as EditRequests: the complete overrides
// after the edit (starting from the result's) and a one-line description for
// the undo history. Whether the pipeline accepts them is its decision.
//
// Edits that change groups or instance counts (split, merge, ungroup) drop
// the user order: it names instances by label, and those labels change.
// Merges and ungroups also drop split overrides of the groups they touch,
// whose dims and factors were chosen for the old groups.

#include "common/edit_request.h"
#include "common/pipeline_result.h"

#include <QStringList>

#include <optional>

namespace stagecraft::views::inspector {

/// Forces \p group's split to \p candidate, or runs it whole (factor 1) when
/// \p candidate is empty: any split override naming an op of the group is
/// replaced by {first op of the group, dim, factor}.
EditRequest splitRequest(const PipelineResult& result, schedule::GroupId group,
                         const std::optional<partition::SplitCandidate>& candidate);

/// Merges \p group with \p other (named by their first ops).
EditRequest mergeRequest(const PipelineResult& result, schedule::GroupId group,
                         schedule::GroupId other);

/// Splits \p op's group into the ops reachable from \p op inside it and the rest.
EditRequest ungroupRequest(const PipelineResult& result, ir::OpId op);

/// Puts \p op on the fallback CPU (Overrides::host) when \p onHost, else
/// back on the accelerator. Under dla the parts change, so the user order is
/// dropped.
EditRequest hostRequest(const PipelineResult& result, ir::OpId op, bool onHost);

/// Pins the scope of \p tensor (a group output), replacing an earlier pin.
EditRequest scopePinRequest(const PipelineResult& result, ir::TensorId tensor,
                            schedule::Scope scope);

/// Runs the instances in the order of \p labels.
EditRequest orderRequest(const PipelineResult& result, const QStringList& labels,
                         const QString& description);

} // namespace stagecraft::views::inspector
