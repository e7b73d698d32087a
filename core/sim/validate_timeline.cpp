// validateTimeline (simulator.h): an independent check of a simulation —
// every task ran once, after its dependencies; no resource slot and no
// path's data pipe ran two tasks at once; every memory's occupancy stayed
// within its capacity.

#include "sim/simulator.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

namespace stagecraft::sim {

namespace {

constexpr double kSlackNs = 1e-6;

std::string describe(const kernel::TaskGraph& graph, kernel::TaskId task) {
    const kernel::Task& t = graph.tasks[task];
    return "task " + std::to_string(task.value()) + " (" +
           std::string(kernel::taskKindName(t.kind)) + ", kernel " + std::to_string(t.kernel) + ")";
}

Status checkDependencies(const kernel::TaskGraph& graph, const SimResult& result) {
    if (result.events.size() != graph.tasks.size())
        return Error("timeline has " + std::to_string(result.events.size()) + " events for " +
                     std::to_string(graph.tasks.size()) + " tasks");
    for (kernel::TaskId t : graph.tasks.ids()) {
        const Event& e = result.events[t];
        if (e.task != t || e.end < e.start)
            return Error(describe(graph, t) + " did not run");
        const kernel::Task& task = graph.tasks[t];
        for (int32_t d = task.depBegin; d < task.depEnd; ++d) {
            kernel::TaskId dep = graph.deps[static_cast<size_t>(d)];
            if (e.start + kSlackNs < result.events[dep].end)
                return Error(describe(graph, t) + " starts before " + describe(graph, dep) +
                             " ends");
        }
    }
    return Status::success();
}

/// A task's time on a resource slot or a pipe: [start, end).
struct Interval {
    double start = 0;
    double end = 0;
    kernel::TaskId task;
    bool operator<(const Interval& o) const {
        return std::tie(start, end, task) < std::tie(o.start, o.end, o.task);
    }
};
using Intervals = std::map<std::pair<int32_t, int32_t>, std::vector<Interval>>;

/// Intervals keyed by (resource, slot) or by path pipe must not overlap.
/// Sorted by start, then end: a zero-length task that ran at the instant
/// another one started on the same slot comes first, and sorted intervals
/// are disjoint when each starts after the previous one ends.
Status checkExclusive(const kernel::TaskGraph& graph, Intervals intervals, const SimResult& result,
                      bool pipes) {
    for (auto& [key, list] : intervals) {
        std::sort(list.begin(), list.end());
        for (size_t i = 1; i < list.size(); ++i)
            if (list[i].start + kSlackNs < list[i - 1].end)
                return Error(std::string(pipes ? "data pipe of " : "") + "resource '" +
                             result.resources[static_cast<size_t>(key.first)].name + "' slot " +
                             std::to_string(key.second) + " runs " +
                             describe(graph, list[i - 1].task) + " and " +
                             describe(graph, list[i].task) + " at once");
    }
    return Status::success();
}

Status checkResources(const kernel::TaskGraph& graph, const SimResult& result) {
    Intervals slots, pipes;
    for (const Event& e : result.events) {
        slots[{e.resource, e.slot}].push_back({e.start, e.end, e.task});
        if (graph.tasks[e.task].isTransfer())
            pipes[{e.resource, 0}].push_back({e.dataStart, e.end, e.task});
    }
    SC_RETURN_IF_ERROR(checkExclusive(graph, std::move(slots), result, false));
    // The data phase of a transfer is [dataStart, end): one pipe per path.
    return checkExclusive(graph, std::move(pipes), result, true);
}

Status checkOccupancy(const SimResult& result) {
    for (const Occupancy& occ : result.occupancy)
        for (const OccupancyPoint& p : occ.points)
            if (p.bytes > occ.capacityBytes || p.bytes < 0)
                return Error("memory '" + occ.memory +
                             (occ.core >= 0 ? "' of core " + std::to_string(occ.core) : "'") +
                             " holds " + std::to_string(p.bytes) + " bytes at " +
                             std::to_string(p.time) + " ns, capacity " +
                             std::to_string(occ.capacityBytes));
    return Status::success();
}

} // namespace

Status validateTimeline(const kernel::TaskGraph& graph, const SimResult& result) {
    SC_RETURN_IF_ERROR(checkDependencies(graph, result));
    SC_RETURN_IF_ERROR(checkResources(graph, result));
    return checkOccupancy(result);
}

} // namespace stagecraft::sim
