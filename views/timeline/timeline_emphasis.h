#pragma once
// Which bars the shared selection emphasizes: the bars of a selected
// instance, of a selected group's instances, or the tasks of the layers a
// selected op belongs to. The view draws them over the dimmed others.

#include "common/pipeline_result.h"
#include "common/selection.h"
#include "timeline/timeline_data.h"

#include <optional>

namespace stagecraft::views {

/// Whether \p bar is part of \p selection (\p result resolves fused ops; without
/// it, an op selects the bars whose anchor op it is).
class EmphasisRule {
public:
    EmphasisRule(const Selection& selection, const PipelineResult* result);
    bool matches(const TimelineBar& bar) const;

private:
    Selection selection_;
    /// For an op: by computation task (layer), whether the layer holds the op.
    std::vector<bool> layerHoldsOp_;
    const PipelineResult* result_ = nullptr;
};

/// The emphasized bars of \p data as a timeline with the same lanes, or
/// nullopt when the selection matches no bar (nothing is dimmed then).
std::optional<TimelineData> emphasizedBars(const TimelineData& data, const Selection& selection,
                                           const PipelineResult* result);

} // namespace stagecraft::views
