#pragma once
// What the compute-unit overlap view draws, as plain data (GraphTurbo §4.4,
// Fig. 16/17): per kind of compute unit (matrix, vector, scalar, the fallback
// CPU), how many units of the cluster are busy over time, and the kind's
// utilization over the whole run and over each group's span.

#include "common/pipeline_result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::views {

/// A point of a step series: \p busy units from \p time until the next point.
struct BusyPoint {
    double time = 0;
    int32_t busy = 0;
};

struct UnitKindUsage {
    /// "matrix", "vector", "scalar" (arch::unitKindName) or "fallback".
    std::string kind;
    /// Units of this kind over the cluster's cores (the fallback CPU: 1).
    int32_t units = 0;
    /// Busy units over time, starting at (0, 0).
    std::vector<BusyPoint> busy;
    /// Busy unit-time / (units x makespan).
    double utilization = 0;
};

/// The utilization of every kind while one group of the schedule runs.
struct GroupUtilization {
    partition::GroupId group;
    /// "a", "b", … (partition::Partition::label).
    std::string label;
    /// First start and last end of the events of the group's kernels.
    double start = 0;
    double end = 0;
    /// Busy unit-time of the group's compute tasks / (units x (end - start)),
    /// indexed like OverlapData::kinds.
    std::vector<double> utilization;
};

struct OverlapData {
    /// Kinds present in the cluster, in the order matrix, vector, scalar, fallback.
    std::vector<UnitKindUsage> kinds;
    /// Groups with at least one kernel, by group id.
    std::vector<GroupUtilization> groups;
    double makespanNs = 0;
};

OverlapData overlapData(const PipelineResult& result);

/// The step series' value at \p time.
int32_t busyAt(const std::vector<BusyPoint>& series, double time);

/// The kind of the simulator's unit resource index \p unit ("fallback" for
/// kernel::kFallbackUnit).
std::string unitKindOf(const arch::Arch& arch, int32_t unit);

} // namespace stagecraft::views
