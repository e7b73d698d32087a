// The range summary (timeline_range.h): per lane, the bars intersecting the
// range by binary search (TimelineData::intersecting), each clipped to it.

#include "timeline/timeline_range.h"

#include "common/byte_text.h"
#include "common/time_axis.h"

#include <algorithm>
#include <utility>

namespace stagecraft::views {

namespace {

bool counted(const TimelineLane& lane) {
    return lane.core < 0 && lane.resource >= 0;
}

} // namespace

RangeSummary summarizeRange(const TimelineData& data, double t0, double t1) {
    if (t1 < t0)
        std::swap(t0, t1);
    RangeSummary summary;
    summary.startNs = t0;
    summary.endNs = t1;
    for (int32_t l = 0; l < data.laneCount(); ++l) {
        const TimelineLane& lane = data.lane(l);
        if (!counted(lane))
            continue;
        double busy = 0;
        for (size_t index : data.intersecting(l, t0, t1)) {
            const TimelineBar& bar = lane.bars[index];
            const double inside = std::min(bar.end, t1) - std::max(bar.start, t0);
            if (inside <= 0 && bar.duration() > 0)
                continue;
            ++summary.tasks;
            busy += std::max(0.0, inside);
            if (bar.bytes > 0 && bar.duration() > 0)
                summary.dmaBytes +=
                    static_cast<int64_t>(static_cast<double>(bar.bytes) * inside / bar.duration());
        }
        if (lane.kind == LaneKind::Unit) {
            summary.computeNs += busy;
            summary.computeLanes += busy > 0 ? 1 : 0;
        } else if (lane.kind == LaneKind::Channel) {
            summary.dmaNs += busy;
        }
    }
    return summary;
}

QString rangeText(const RangeSummary& s) {
    const double span = s.durationNs();
    QString text = QObject::tr("%1 selected (%2–%3): %4 tasks")
                       .arg(formatNs(span), formatNs(s.startNs), formatNs(s.endNs))
                       .arg(s.tasks);
    if (s.computeLanes > 0 && span > 0)
        text += QObject::tr(" · compute %1 on %2 lanes (%3 % busy)")
                    .arg(formatNs(s.computeNs))
                    .arg(s.computeLanes)
                    .arg(100 * s.computeNs / (span * s.computeLanes), 0, 'f', 0);
    if (s.dmaNs > 0)
        text += QObject::tr(" · DMA %1, %2").arg(formatNs(s.dmaNs), formatBytes(s.dmaBytes));
    return text;
}

} // namespace stagecraft::views
