#pragma once
/// \file
/// The data of a hierarchical roofline chart (docs/simulator.md, "Roofline
/// chart"): the chip's compute ceiling at the precision simulated, one
/// bandwidth ceiling per memory level (DDR, GB, LB: the paths that start or
/// end at the level, summed over their sharing domains), and each kernel
/// and group of a simulated run as a point per level it moves bytes to or
/// from: x its arithmetic intensity at that level (operations per byte), y
/// its achieved throughput (operations over the time from its first task's
/// start to its last task's end, so overlaps with its neighbours count for
/// both and no point rises above a ceiling).
/// Operations are counted in the unit of ops_per_cycle (MACs of complex ops
/// on matrix units, element operations otherwise), like the ceiling.

#include "sim/compare.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::sim {

/// A kernel or a group of the run.
struct RooflinePoint {
    /// The instance's label ("a3") or the group's ("a").
    std::string label;
    schedule::GroupId group;
    /// The kernel's index, -1 for a group.
    int32_t kernel = -1;
    /// Operations over the whole batch.
    double ops = 0;
    /// Bytes moved to or from each level (DDR, GB, LB) over the whole batch;
    /// a hop within one level (LB to LB) counts there once.
    std::array<double, 3> bytes{};
    /// Seconds from its first task's start to its last task's end, times the
    /// iterations; a group's: the sum over its kernels.
    double seconds = 0;

    /// Operations per second achieved.
    double opsPerSecond() const { return seconds > 0 ? ops / seconds : 0; }
    /// Operations per byte at level \p level (0 DDR, 1 GB, 2 LB); 0 without
    /// traffic there.
    double intensity(size_t level) const { return bytes[level] > 0 ? ops / bytes[level] : 0; }
};

struct RooflineChart {
    std::string strategy;
    std::string precision;
    /// Operations per second of the whole chip at the precision simulated:
    /// every unit at the rate the simulator runs it, and the fallback CPU.
    double peakOpsPerSecond = 0;
    /// Bytes per second of the chip at DDR, GB, LB; 0 where no path reaches
    /// the level.
    std::array<double, 3> bandwidth{};
    std::vector<RooflinePoint> kernels;
    std::vector<RooflinePoint> groups;
};

/// "DDR", "GB", "LB" for level 0, 1, 2.
std::string_view rooflineLevelName(size_t level);

/// The roofline chart of \p eval on \p arch.
RooflineChart rooflineChart(const arch::Arch& arch, const Evaluation& eval);

} // namespace stagecraft::sim
