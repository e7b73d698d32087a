#pragma once
// The words of the timeline: a bar's label and its tool tip (task kind, op,
// instance, bytes, duration, start-end). Without a result (synthetic data)
// they fall back to ids.

#include "common/pipeline_result.h"
#include "timeline/timeline_data.h"

#include <QString>

namespace stagecraft::views {

/// "Conv conv1" for a task with an op, else its kind ("launch").
QString barOpName(const TimelineBar& bar, const PipelineResult* result);
/// "a1 (group a)", or "none".
QString barInstanceName(const TimelineBar& bar, const PipelineResult* result);
/// The text drawn inside a wide bar.
QString barLabel(const TimelineBar& bar, const PipelineResult* result);
/// The tool tip of a bar on \p lane.
QString barToolTip(const TimelineBar& bar, const TimelineLane& lane, const PipelineResult* result);

} // namespace stagecraft::views
