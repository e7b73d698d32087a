// Memory views of a simulation: when each computation task (layer) computed,
// when each buffer piece occupied which memory (from its placements: a piece
// is resident from its writer's first compute to its last reader's last
// compute, and leaves a pool when a spill moves it), and the occupancy of
// every LB and of the GB over time.

#include "sim/internal/memory_views.h"

#include <algorithm>
#include <map>

namespace stagecraft::sim::detail {

namespace {

using kernel::PoolId;

/// Compute start and end of every layer.
std::vector<std::pair<double, double>> computeSpans(const kernel::Program& program,
                                                    const kernel::TaskGraph& graph,
                                                    const SimResult& result) {
    std::vector<std::pair<double, double>> spans(static_cast<size_t>(program.taskCount),
                                                 {-1.0, -1.0});
    for (kernel::TaskId t : graph.tasks.ids()) {
        const kernel::Task& task = graph.tasks[t];
        if (task.kind != kernel::TaskKind::Compute || task.layer < 0)
            continue;
        auto& span = spans[static_cast<size_t>(task.layer)];
        const Event& e = result.events[t];
        span.first = span.first < 0 ? e.start : std::min(span.first, e.start);
        span.second = std::max(span.second, e.end);
    }
    return spans;
}

void addResidencies(const kernel::Program& program, SimResult& result) {
    const auto& spans = result.layerSpans;
    for (kernel::BufferId b : program.buffers.ids()) {
        const kernel::Buffer& buffer = program.buffers[b];
        const auto& placements = buffer.placements;
        double end = spans[static_cast<size_t>(buffer.lastTask)].second;
        for (size_t i = 0; i < placements.size(); ++i) {
            const kernel::Placement& p = placements[i];
            double start = spans[static_cast<size_t>(p.fromTask)].first;
            double until = i + 1 < placements.size()
                               ? spans[static_cast<size_t>(placements[i + 1].fromTask)].first
                               : end;
            if (p.fromTask == buffer.firstTask && i + 1 < placements.size() &&
                placements[i + 1].fromTask == buffer.firstTask)
                continue; // placed and spilled at once: never resident here
            Residency r;
            r.buffer = b;
            r.pool = p.pool;
            r.cores = p.pool == kernel::kLbPool ? static_cast<int32_t>(buffer.cores) : 1;
            r.firstCore = p.pool == kernel::kLbPool ? static_cast<int32_t>(buffer.firstCore) : 0;
            r.offset = p.offset;
            r.bytes = p.pool == kernel::kLbPool ? buffer.pieceBytes : buffer.bytes;
            r.start = start;
            r.end = std::max(start, until);
            result.residencies.push_back(r);
        }
    }
}

Occupancy series(const std::string& memory, int32_t core, int64_t capacity,
                 const std::vector<Residency>& residencies, PoolId pool) {
    Occupancy occ{memory, core, capacity, {}};
    std::map<double, int64_t> delta;
    for (const Residency& r : residencies) {
        if (r.pool != pool ||
            (core >= 0 && (core < r.firstCore || r.firstCore + r.cores <= core)) || r.bytes == 0)
            continue;
        delta[r.start] += r.bytes;
        delta[r.end] -= r.bytes;
    }
    int64_t level = 0;
    occ.points.push_back({0, 0});
    for (auto [time, change] : delta) {
        level += change;
        if (occ.points.back().time == time)
            occ.points.back().bytes = level;
        else
            occ.points.push_back({time, level});
    }
    return occ;
}

} // namespace

void addMemoryViews(const arch::Arch& arch, const kernel::Program& program,
                    const kernel::TaskGraph& graph, SimResult& result) {
    result.layerSpans = computeSpans(program, graph, result);
    addResidencies(program, result);
    const auto& group = arch.cluster.coreGroups.front();
    if (group.localBuffer)
        for (int64_t c = 0; c < group.count; ++c)
            result.occupancy.push_back(series(group.localBuffer->name, static_cast<int32_t>(c),
                                              group.localBuffer->activationBytes(),
                                              result.residencies, kernel::kLbPool));
    if (arch.cluster.globalBuffer)
        result.occupancy.push_back(series(arch.cluster.globalBuffer->name, -1,
                                          arch.cluster.globalBuffer->bytes, result.residencies,
                                          kernel::kGbPool));
}

} // namespace stagecraft::sim::detail
