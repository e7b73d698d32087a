// Busy units per kind from the simulator's events: a compute task occupies
// its unit on each of its `cores` cores (the fallback CPU once), so the busy
// count steps up by `cores` at its start and down at its end. Utilization is
// busy unit-time over units x time, for the run and per group span.

#include "usage/overlap_data.h"

#include <algorithm>
#include <map>

namespace stagecraft::views {

namespace {

constexpr const char* kFallbackKind = "fallback";

/// Unit-instances a compute task occupies.
int32_t unitsTaken(const kernel::Task& task) {
    return task.unit == kernel::kFallbackUnit ? 1 : task.cores;
}

int32_t kindIndex(const OverlapData& data, const std::string& kind) {
    for (size_t k = 0; k < data.kinds.size(); ++k)
        if (data.kinds[k].kind == kind)
            return static_cast<int32_t>(k);
    return -1;
}

void addKinds(const PipelineResult& result, OverlapData& data) {
    const auto& groups = result.arch.cluster.coreGroups;
    const int32_t cores = groups.empty() ? 0 : static_cast<int32_t>(groups.front().count);
    for (arch::UnitKind kind :
         {arch::UnitKind::Matrix, arch::UnitKind::Vector, arch::UnitKind::Scalar}) {
        UnitKindUsage usage{std::string(arch::unitKindName(kind)), 0, {}, 0};
        for (const sim::Resource& res : result.eval.sim.resources) // a unit once, on every core
            if (res.kind == sim::ResourceKind::Unit && res.index != kernel::kFallbackUnit &&
                res.firstCore == 0 && unitKindOf(result.arch, res.index) == usage.kind)
                usage.units += cores;
        if (usage.units > 0)
            data.kinds.push_back(std::move(usage));
    }
    for (const sim::Resource& res : result.eval.sim.resources)
        if (res.kind == sim::ResourceKind::Unit && res.index == kernel::kFallbackUnit)
            data.kinds.push_back({kFallbackKind, 1, {}, 0});
}

void addBusySeries(const PipelineResult& result, OverlapData& data) {
    std::vector<std::map<double, int32_t>> deltas(data.kinds.size());
    std::vector<double> busyTime(data.kinds.size(), 0);
    const auto& tasks = result.eval.tasks.tasks;
    for (const sim::Event& e : result.eval.sim.events) {
        const kernel::Task& task = tasks[e.task];
        if (task.kind != kernel::TaskKind::Compute)
            continue;
        const int32_t k = kindIndex(data, unitKindOf(result.arch, task.unit));
        if (k < 0)
            continue;
        deltas[static_cast<size_t>(k)][e.start] += unitsTaken(task);
        deltas[static_cast<size_t>(k)][e.end] -= unitsTaken(task);
        busyTime[static_cast<size_t>(k)] += (e.end - e.start) * unitsTaken(task);
    }
    for (size_t k = 0; k < data.kinds.size(); ++k) {
        UnitKindUsage& usage = data.kinds[k];
        usage.busy.push_back({0, 0});
        int32_t level = 0;
        for (const auto& [time, change] : deltas[k]) {
            level += change;
            if (usage.busy.back().time == time)
                usage.busy.back().busy = level;
            else
                usage.busy.push_back({time, level});
        }
        const double denominator = usage.units * data.makespanNs;
        usage.utilization = denominator > 0 ? busyTime[k] / denominator : 0;
    }
}

/// The group of every kernel of the program.
std::vector<partition::GroupId> kernelGroups(const PipelineResult& result) {
    std::vector<partition::GroupId> groups;
    for (const kernel::Kernel& k : result.eval.program.kernels)
        groups.push_back(result.eval.schedule.instances[k.instance].group);
    return groups;
}

void addGroups(const PipelineResult& result, OverlapData& data) {
    const std::vector<partition::GroupId> groupOf = kernelGroups(result);
    std::map<partition::GroupId, GroupUtilization> byGroup;
    std::map<partition::GroupId, std::vector<double>> busy;
    const auto& tasks = result.eval.tasks.tasks;
    for (const sim::Event& e : result.eval.sim.events) {
        const kernel::Task& task = tasks[e.task];
        if (task.kernel < 0 || static_cast<size_t>(task.kernel) >= groupOf.size())
            continue;
        const partition::GroupId group = groupOf[static_cast<size_t>(task.kernel)];
        auto [it, fresh] = byGroup.try_emplace(group);
        GroupUtilization& g = it->second;
        g.start = fresh ? e.start : std::min(g.start, e.start);
        g.end = fresh ? e.end : std::max(g.end, e.end);
        std::vector<double>& groupBusy = busy[group];
        groupBusy.resize(data.kinds.size(), 0);
        const int32_t k = kindIndex(data, unitKindOf(result.arch, task.unit));
        if (task.kind == kernel::TaskKind::Compute && k >= 0)
            groupBusy[static_cast<size_t>(k)] += (e.end - e.start) * unitsTaken(task);
    }
    for (auto& [group, g] : byGroup) {
        g.group = group;
        g.label = partition::Partition::label(group);
        for (size_t k = 0; k < data.kinds.size(); ++k) {
            const double denominator = data.kinds[k].units * (g.end - g.start);
            g.utilization.push_back(denominator > 0 ? busy[group][k] / denominator : 0);
        }
        data.groups.push_back(std::move(g));
    }
}

} // namespace

OverlapData overlapData(const PipelineResult& result) {
    OverlapData data;
    data.makespanNs = result.eval.sim.makespanNs;
    addKinds(result, data);
    addBusySeries(result, data);
    addGroups(result, data);
    return data;
}

int32_t busyAt(const std::vector<BusyPoint>& series, double time) {
    auto after = std::upper_bound(series.begin(), series.end(), time,
                                  [](double t, const BusyPoint& p) { return t < p.time; });
    return after == series.begin() ? 0 : std::prev(after)->busy;
}

std::string unitKindOf(const arch::Arch& arch, int32_t unit) {
    if (unit == kernel::kFallbackUnit)
        return kFallbackKind;
    const auto& groups = arch.cluster.coreGroups;
    if (groups.empty() || unit < 0 || static_cast<size_t>(unit) >= groups.front().units.size())
        return {};
    return std::string(arch::unitKindName(groups.front().units[static_cast<size_t>(unit)].kind));
}

} // namespace stagecraft::views
