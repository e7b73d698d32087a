#pragma once
// The timeline as plain data: one lane per simulated resource slot (control,
// then compute units, then DMA channels) and, per lane, its bars sorted by
// start. Range queries and hit tests use binary search, so the view's
// painting and hovering cost O(log n + bars shown), never O(all events).

#include "codegen/profile.h"
#include "common/pipeline_result.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace stagecraft::views {

/// One task's run on one lane.
struct TimelineBar {
    double start = 0;
    double end = 0;
    /// Index into the result's task graph (and sim events).
    kernel::TaskId task = kernel::kNoTask;
    kernel::TaskKind kind = kernel::TaskKind::Compute;
    /// Sub-graph instance of the task's kernel, its group; none for a
    /// launch or sync task (kNoInstance, group -1).
    schedule::InstanceId instance = schedule::kNoInstance;
    partition::GroupId group = partition::kNoGroup;
    /// The layer's anchor op, or -1 (launch, sync).
    int32_t op = -1;
    int64_t bytes = 0;
    /// A whole kernel (the simulated and measured kernel lanes) rather than a task.
    bool kernelSpan = false;

    double duration() const { return end - start; }
};

enum class LaneKind : uint8_t { Control, Unit, Channel };

struct TimelineLane {
    std::string name;
    LaneKind kind = LaneKind::Unit;
    /// The sim resource and slot the lane shows (-1 for synthetic lanes).
    int32_t resource = -1;
    int32_t slot = 0;
    /// Sorted by start.
    std::vector<TimelineBar> bars;
    /// A lane of one core under an expanded unit lane ("core 3 MME"): the
    /// unit's tasks whose cores include it; -1 for every other lane.
    int32_t core = -1;
    /// A unit lane shared by several cores, which can expand into a lane per core.
    bool expandable = false;
};

/// Where a bar is: lane and index in its bars.
struct BarRef {
    int32_t lane = -1;
    int32_t index = -1;
    bool operator==(const BarRef&) const = default;
};

/// A contiguous run [begin, end) of a lane's bars.
struct BarRange {
    size_t begin = 0;
    size_t end = 0;
    size_t size() const { return end - begin; }
};

class TimelineData {
public:
    TimelineData() = default;
    /// Takes \p lanes as they are (each lane's bars are sorted by start here)
    /// over [0, makespanNs]; used by the builder and by synthetic benchmarks.
    TimelineData(std::vector<TimelineLane> lanes, double makespanNs);

    /// The timeline of \p result's simulation. With \p profile (measured
    /// on this host for the same kernels) two lanes come first: each kernel
    /// as simulated, and as measured, laid end to end at its median. Each
    /// expandable unit lane whose resource is in \p expanded is followed by
    /// a lane per core.
    static TimelineData fromResult(const PipelineResult& result,
                                   const codegen::Profile* profile = nullptr,
                                   const std::set<int32_t>& expanded = {});

    const std::vector<TimelineLane>& lanes() const { return lanes_; }
    int32_t laneCount() const { return static_cast<int32_t>(lanes_.size()); }
    const TimelineLane& lane(int32_t index) const { return lanes_[static_cast<size_t>(index)]; }
    const TimelineBar& bar(const BarRef& ref) const;
    double makespanNs() const { return makespanNs_; }
    size_t barCount() const;

    /// The bars of \p lane worth scanning for [t0, t1]: from the first bar
    /// whose running maximum end reaches t0 to the last one starting by t1.
    /// On a lane without overlaps (every simulated lane) they are exactly the
    /// bars intersecting [t0, t1]; intersecting() filters the others.
    BarRange candidates(int32_t lane, double t0, double t1) const;
    /// The indices of the bars of \p lane with start <= t1 and end >= t0.
    std::vector<size_t> intersecting(int32_t lane, double t0, double t1) const;
    /// The first bar index >= \p from whose end reaches \p t (bars.size() when none).
    size_t firstEndingAtOrAfter(int32_t lane, double t, size_t from = 0) const;
    /// The bar of \p lane under time \p t, or the nearest one within
    /// \p toleranceNs (for bars thinner than a pixel).
    std::optional<BarRef> hitTest(int32_t lane, double t, double toleranceNs = 0) const;

private:
    std::vector<TimelineLane> lanes_;
    /// Per lane, the running maximum of bar ends (sorted, for binary search).
    std::vector<std::vector<double>> maxEnds_;
    double makespanNs_ = 0;
};

} // namespace stagecraft::views
