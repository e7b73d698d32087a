#pragma once
// What the occupancy view draws, as plain data: the tensor pieces resident in
// one memory (a core's LB or the cluster's GB) as rectangles time x address
// in the allocator's layout (GraphTurbo Fig. 3b, Fig. 12), the total
// occupancy step series and the memory's capacity.

#include "common/pipeline_result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::views {

/// One tensor piece resident in a memory during [start, end) at addresses
/// [offset, offset + bytes).
struct OccupancyRect {
    kernel::BufferId buffer;
    /// Index into result->eval.sim.residencies.
    int32_t residency = 0;
    ir::TensorId tensor = ir::kNoTensor;
    std::string tensorName;
    /// The schedule group whose kernel writes the tensor, and its instance.
    partition::GroupId group = partition::kNoGroup;
    schedule::InstanceId instance = schedule::kNoInstance;
    double start = 0;
    double end = 0;
    int64_t offset = 0;
    int64_t bytes = 0;
};

/// A point of a step series: \p bytes from \p time until the next point.
struct BytesPoint {
    double time = 0;
    int64_t bytes = 0;
};

struct MemoryUsage {
    /// The memory's name in the architecture ("L1", "LLB"; poolName(pool)
    /// gives the paper's).
    std::string memory;
    kernel::PoolId pool = kernel::kLbPool;
    /// The core whose LB this is; -1 for the GB.
    int32_t core = -1;
    /// Bytes the allocator may fill (an LB's activation bytes, the GB's bytes).
    int64_t capacityBytes = 0;
    /// Bytes held back for weights, not in capacityBytes (an LB's reserve).
    int64_t reservedBytes = 0;
    /// Sorted by start, then offset.
    std::vector<OccupancyRect> rects;
    /// Total resident bytes over time, starting at (0, 0).
    std::vector<BytesPoint> total;
    /// The highest address end of any rectangle.
    int64_t highestAddress = 0;
};

/// Cores whose LB the simulator tracks (the first core group), 0 without LB.
int32_t lbCoreCount(const PipelineResult& result);

/// The residencies of core \p core's LB (a residency covers cores [firstCore, firstCore + cores)).
MemoryUsage lbUsage(const PipelineResult& result, int32_t core);
/// The residencies of the cluster's GB.
MemoryUsage gbUsage(const PipelineResult& result);

/// The step series' value at \p time.
int64_t bytesAt(const std::vector<BytesPoint>& series, double time);
/// The bytes of the rectangles resident at \p time (start <= time < end).
int64_t residentBytesAt(const MemoryUsage& usage, double time);

/// "LB", "GB", "DDR" for kLbPool, kGbPool, kDdrPool.
std::string poolName(kernel::PoolId pool);

} // namespace stagecraft::views
