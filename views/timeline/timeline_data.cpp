// Queries over the timeline data: binary searches on start and on the
// running maximum of ends, so that a lane's bars in a window are found in
// O(log n) even if a synthetic lane has overlapping bars.

#include "timeline/timeline_data.h"

#include <algorithm>

namespace stagecraft::views {

TimelineData::TimelineData(std::vector<TimelineLane> lanes, double makespanNs)
    : lanes_(std::move(lanes))
    , makespanNs_(makespanNs) {
    maxEnds_.reserve(lanes_.size());
    for (TimelineLane& lane : lanes_) {
        std::stable_sort(
            lane.bars.begin(), lane.bars.end(),
            [](const TimelineBar& a, const TimelineBar& b) { return a.start < b.start; });
        std::vector<double> ends;
        ends.reserve(lane.bars.size());
        double running = -1e300;
        for (const TimelineBar& bar : lane.bars) {
            running = std::max(running, bar.end);
            ends.push_back(running);
        }
        maxEnds_.push_back(std::move(ends));
    }
}

const TimelineBar& TimelineData::bar(const BarRef& ref) const {
    return lane(ref.lane).bars[static_cast<size_t>(ref.index)];
}

size_t TimelineData::barCount() const {
    size_t count = 0;
    for (const TimelineLane& lane : lanes_)
        count += lane.bars.size();
    return count;
}

size_t TimelineData::firstEndingAtOrAfter(int32_t lane, double t, size_t from) const {
    const std::vector<double>& ends = maxEnds_[static_cast<size_t>(lane)];
    from = std::min(from, ends.size());
    return static_cast<size_t>(
        std::lower_bound(ends.begin() + static_cast<std::ptrdiff_t>(from), ends.end(), t) -
        ends.begin());
}

BarRange TimelineData::candidates(int32_t lane, double t0, double t1) const {
    const std::vector<TimelineBar>& bars = this->lane(lane).bars;
    const size_t begin = firstEndingAtOrAfter(lane, t0);
    const auto stop =
        std::upper_bound(bars.begin() + static_cast<std::ptrdiff_t>(begin), bars.end(), t1,
                         [](double t, const TimelineBar& bar) { return t < bar.start; });
    return {begin, static_cast<size_t>(stop - bars.begin())};
}

std::vector<size_t> TimelineData::intersecting(int32_t lane, double t0, double t1) const {
    std::vector<size_t> found;
    const BarRange range = candidates(lane, t0, t1);
    const std::vector<TimelineBar>& bars = this->lane(lane).bars;
    for (size_t i = range.begin; i < range.end; ++i)
        if (bars[i].end >= t0)
            found.push_back(i);
    return found;
}

std::optional<BarRef> TimelineData::hitTest(int32_t lane, double t, double toleranceNs) const {
    if (lane < 0 || lane >= laneCount())
        return std::nullopt;
    const std::vector<TimelineBar>& bars = this->lane(lane).bars;
    std::optional<BarRef> best;
    double bestDistance = toleranceNs;
    for (size_t i : intersecting(lane, t - toleranceNs, t + toleranceNs)) {
        const double distance = std::max({0.0, bars[i].start - t, t - bars[i].end});
        if (distance <= bestDistance) { // later bars win ties: they are drawn on top
            bestDistance = distance;
            best = BarRef{lane, static_cast<int32_t>(i)};
        }
    }
    return best;
}

} // namespace stagecraft::views
