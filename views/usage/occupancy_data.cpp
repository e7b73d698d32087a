// Occupancy rectangles from the simulator's residencies: each residency of
// the chosen memory becomes a rectangle named after its tensor and producing
// group; the total series is rebuilt from the rectangles the same way the
// simulator builds its occupancy, so the two can be compared.

#include "usage/occupancy_data.h"

#include <algorithm>
#include <map>

namespace stagecraft::views {

namespace {

OccupancyRect rectOf(const PipelineResult& result, int32_t index) {
    const sim::Residency& r = result.eval.sim.residencies[static_cast<size_t>(index)];
    const kernel::Program& program = result.eval.program;
    const kernel::Buffer& buffer = program.buffers[r.buffer];
    OccupancyRect rect;
    rect.buffer = r.buffer;
    rect.residency = index;
    rect.tensor = buffer.tensor;
    rect.tensorName = result.graph && buffer.tensor != ir::kNoTensor
                          ? result.graph->tensor(buffer.tensor).name
                          : buffer.name;
    if (buffer.kernel >= 0 && static_cast<size_t>(buffer.kernel) < program.kernels.size()) {
        rect.instance = program.kernels[static_cast<size_t>(buffer.kernel)].instance;
        rect.group = result.eval.schedule.instances[rect.instance].group;
    }
    rect.start = r.start;
    rect.end = r.end;
    rect.offset = r.offset;
    rect.bytes = r.bytes;
    return rect;
}

std::vector<BytesPoint> totalSeries(const std::vector<OccupancyRect>& rects) {
    std::map<double, int64_t> delta;
    for (const OccupancyRect& r : rects) {
        delta[r.start] += r.bytes;
        delta[r.end] -= r.bytes;
    }
    std::vector<BytesPoint> points{{0, 0}};
    int64_t level = 0;
    for (const auto& [time, change] : delta) {
        level += change;
        if (points.back().time == time)
            points.back().bytes = level;
        else
            points.push_back({time, level});
    }
    return points;
}

MemoryUsage collect(const PipelineResult& result, MemoryUsage usage) {
    const auto& residencies = result.eval.sim.residencies;
    for (size_t i = 0; i < residencies.size(); ++i) {
        const sim::Residency& r = residencies[i];
        if (r.pool != usage.pool || r.bytes == 0 ||
            (usage.core >= 0 && (usage.core < r.firstCore || r.firstCore + r.cores <= usage.core)))
            continue;
        usage.rects.push_back(rectOf(result, static_cast<int32_t>(i)));
        usage.highestAddress = std::max(usage.highestAddress, r.offset + r.bytes);
    }
    std::stable_sort(usage.rects.begin(), usage.rects.end(),
                     [](const OccupancyRect& a, const OccupancyRect& b) {
                         return a.start != b.start ? a.start < b.start : a.offset < b.offset;
                     });
    usage.total = totalSeries(usage.rects);
    return usage;
}

} // namespace

int32_t lbCoreCount(const PipelineResult& result) {
    const auto& groups = result.arch.cluster.coreGroups;
    if (groups.empty() || !groups.front().localBuffer)
        return 0;
    return static_cast<int32_t>(groups.front().count);
}

MemoryUsage lbUsage(const PipelineResult& result, int32_t core) {
    MemoryUsage usage;
    usage.pool = kernel::kLbPool;
    usage.core = std::max(core, 0);
    const auto& groups = result.arch.cluster.coreGroups;
    if (groups.empty() || !groups.front().localBuffer)
        return usage;
    usage.memory = groups.front().localBuffer->name;
    usage.capacityBytes = groups.front().localBuffer->activationBytes();
    usage.reservedBytes = groups.front().localBuffer->weightReserveBytes;
    return collect(result, std::move(usage));
}

MemoryUsage gbUsage(const PipelineResult& result) {
    MemoryUsage usage;
    usage.pool = kernel::kGbPool;
    usage.core = -1;
    if (!result.arch.cluster.globalBuffer)
        return usage;
    usage.memory = result.arch.cluster.globalBuffer->name;
    usage.capacityBytes = result.arch.cluster.globalBuffer->bytes;
    return collect(result, std::move(usage));
}

int64_t bytesAt(const std::vector<BytesPoint>& series, double time) {
    auto after = std::upper_bound(series.begin(), series.end(), time,
                                  [](double t, const BytesPoint& p) { return t < p.time; });
    return after == series.begin() ? 0 : std::prev(after)->bytes;
}

int64_t residentBytesAt(const MemoryUsage& usage, double time) {
    int64_t bytes = 0;
    for (const OccupancyRect& r : usage.rects)
        if (r.start <= time && time < r.end)
            bytes += r.bytes;
    return bytes;
}

std::string poolName(kernel::PoolId pool) {
    if (pool == kernel::kLbPool)
        return "LB";
    if (pool == kernel::kGbPool)
        return "GB";
    if (pool == kernel::kDdrPool)
        return "DDR";
    return "?";
}

} // namespace stagecraft::views
