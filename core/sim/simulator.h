#pragma once
/// \file
/// The discrete-event DSA simulator. It runs one cluster's task graph
/// (kernel/streams.h): compute tasks occupy a compute unit (on each of the
/// kernel's cores), transfers take a DMA channel of their path for the path's
/// latency and then its data pipe for bytes / bandwidth, launch and sync take
/// the cluster's control. The clusters of the chip run the same program on
/// their own samples (data parallelism, §2.1), so one cluster is simulated
/// and paths shared by the chip give it 1/clusters of their bandwidth and
/// channels (docs/simulator.md). Resources serve waiting tasks first come,
/// first served (ties by task id), so the result is deterministic.

#include "arch/arch.h"
#include "kernel/streams.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::sim {

enum class ResourceKind : uint8_t { Unit, Channel, Control };

/// A resource of the simulated cluster; `slotCount` of them run at once.
struct Resource {
    std::string name;
    ResourceKind kind = ResourceKind::Unit;
    /// Unit index (kernel::kFallbackUnit for the fallback CPU) or path index.
    int32_t index = 0;
    int32_t slotCount = 1;
    /// A unit: the first core of the kernels whose tasks it runs (IOS's
    /// concurrent kernels start at other cores than 0).
    int32_t firstCore = 0;
};

/// One task's run on one slot of a resource.
struct Event {
    kernel::TaskId task;
    int32_t resource = 0;
    int32_t slot = 0;
    double start = 0;
    double end = 0;
    /// Transfers: when the data phase began (after the channel latency).
    double dataStart = 0;
};

/// A tensor piece resident in a memory during [start, end) (by tensor, for
/// the occupancy views).
struct Residency {
    kernel::BufferId buffer;
    kernel::PoolId pool = kernel::kLbPool;
    /// Cores [firstCore, firstCore + cores) hold a piece (LB); 1 for GB and DDR.
    int32_t cores = 1;
    int32_t firstCore = 0;
    int64_t offset = 0;
    int64_t bytes = 0;
    double start = 0;
    double end = 0;
};

struct OccupancyPoint {
    double time = 0;
    int64_t bytes = 0;
};

/// Occupancy over time of one memory: each core's LB, the cluster's GB.
struct Occupancy {
    std::string memory;
    int32_t core = -1;
    int64_t capacityBytes = 0;
    std::vector<OccupancyPoint> points;
};

struct SimResult {
    std::vector<Resource> resources;
    /// One per task, by task id.
    IdVector<kernel::TaskId, Event> events;
    /// Start and end of each computation task (layer), by task index.
    std::vector<std::pair<double, double>> layerSpans;
    std::vector<Residency> residencies;
    std::vector<Occupancy> occupancy;
    /// Nanoseconds of one cluster running the program once.
    double makespanNs = 0;
};

/// Simulates \p graph on \p arch. Fails when a transfer has no path in the
/// architecture.
Expected<SimResult> simulate(const arch::Arch& arch, const kernel::Program& program,
                             const kernel::TaskGraph& graph);

/// Checks that no resource slot runs two tasks at once, no path's data pipe
/// carries two transfers at once, every task starts after its dependencies
/// end, and every memory's occupancy stays within its capacity.
Status validateTimeline(const kernel::TaskGraph& graph, const SimResult& result);

} // namespace stagecraft::sim
