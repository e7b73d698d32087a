#pragma once
// A time range of the timeline summed up, as Perfetto does for an area
// selection: how many tasks run in it, how long the compute units and the
// DMA channels are busy within it, and how many bytes the transfers move
// in it (a transfer's bytes prorated by the part of it inside the range).
// Lanes of single cores (expanded unit lanes) repeat their unit's bars and
// are not counted; nor are the kernel lanes of a profile.

#include "timeline/timeline_data.h"

#include <QString>

#include <cstddef>
#include <cstdint>

namespace stagecraft::views {

struct RangeSummary {
    double startNs = 0;
    double endNs = 0;
    /// Tasks with some part inside the range.
    size_t tasks = 0;
    /// Busy time inside the range, summed over lanes.
    double computeNs = 0;
    double dmaNs = 0;
    /// Compute lanes busy at some point of the range.
    int computeLanes = 0;
    int64_t dmaBytes = 0;

    double durationNs() const { return endNs - startNs; }
};

/// \p data summed over [t0, t1] (swapped when t1 < t0).
RangeSummary summarizeRange(const TimelineData& data, double t0, double t1);
/// "0.52 ms selected (1.20–1.72 ms): 148 tasks · compute 0.61 ms on 3
/// lanes (39 % busy) · DMA 0.40 ms, 12.4 MB": busy times summed over lanes.
QString rangeText(const RangeSummary& summary);

} // namespace stagecraft::views
