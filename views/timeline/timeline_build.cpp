// Builds the timeline of a pipeline result: one lane per resource slot of the
// simulation, ordered control / compute units / DMA channels (as the Chrome
// trace export orders its threads, core/io/chrome_trace.cpp), and one bar per
// simulated event with the task's kind, op, bytes, instance and group.

#include "timeline/timeline_data.h"

#include <algorithm>

namespace stagecraft::views {

namespace {

int kindRank(sim::ResourceKind kind) {
    switch (kind) {
    case sim::ResourceKind::Control:
        return 0;
    case sim::ResourceKind::Unit:
        return 1;
    case sim::ResourceKind::Channel:
        return 2;
    }
    return 3;
}

LaneKind laneKind(sim::ResourceKind kind) {
    switch (kind) {
    case sim::ResourceKind::Control:
        return LaneKind::Control;
    case sim::ResourceKind::Unit:
        return LaneKind::Unit;
    case sim::ResourceKind::Channel:
        break;
    }
    return LaneKind::Channel;
}

/// "core 0-3 cube" for a unit every core has (a compute task occupies it on
/// each of its kernel's cores), "core 2+ cube" for the unit of the kernels
/// that start at core 2 (IOS's concurrent kernels), "DDR-GB DMA 1" for a
/// channel slot.
std::string laneName(const arch::Arch& arch, const sim::Resource& resource, int32_t slot) {
    if (resource.kind == sim::ResourceKind::Unit && resource.index != kernel::kFallbackUnit &&
        !arch.cluster.coreGroups.empty()) {
        const arch::CoreGroup& group = arch.cluster.coreGroups.front();
        const arch::ComputeUnit& unit = group.units[static_cast<size_t>(resource.index)];
        if (resource.firstCore > 0)
            return group.name + " " + std::to_string(resource.firstCore) + "+ " + unit.name;
        const std::string cores = group.count > 1 ? "0-" + std::to_string(group.count - 1) : "0";
        return group.name + " " + cores + " " + unit.name;
    }
    if (resource.slotCount > 1)
        return resource.name + " " + std::to_string(slot);
    return resource.name;
}

std::vector<TimelineLane> emptyLanes(const PipelineResult& result,
                                     std::vector<std::vector<int32_t>>& laneOfSlot) {
    const std::vector<sim::Resource>& resources = result.eval.sim.resources;
    std::vector<int32_t> order(resources.size());
    for (size_t r = 0; r < order.size(); ++r)
        order[r] = static_cast<int32_t>(r);
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        return kindRank(resources[static_cast<size_t>(a)].kind) <
               kindRank(resources[static_cast<size_t>(b)].kind);
    });
    std::vector<TimelineLane> lanes;
    laneOfSlot.assign(resources.size(), {});
    for (int32_t r : order) {
        const sim::Resource& resource = resources[static_cast<size_t>(r)];
        for (int32_t slot = 0; slot < resource.slotCount; ++slot) {
            laneOfSlot[static_cast<size_t>(r)].push_back(static_cast<int32_t>(lanes.size()));
            lanes.push_back(
                {laneName(result.arch, resource, slot), laneKind(resource.kind), r, slot, {}});
        }
    }
    return lanes;
}

TimelineBar barOf(const PipelineResult& result, const sim::Event& event) {
    const kernel::Task& task = result.eval.tasks.tasks[event.task];
    TimelineBar bar;
    bar.start = event.start;
    bar.end = event.end;
    bar.task = event.task;
    bar.kind = task.kind;
    bar.op = task.op.value();
    bar.bytes = task.isTransfer() ? task.bytes : 0;
    const std::vector<kernel::Kernel>& kernels = result.eval.program.kernels;
    if (task.kernel >= 0 && static_cast<size_t>(task.kernel) < kernels.size()) {
        bar.instance = kernels[static_cast<size_t>(task.kernel)].instance;
        bar.group = result.eval.schedule.instances[bar.instance].group;
    }
    return bar;
}

/// True when \p profile timed \p result's kernels: as many, in the same
/// order, with the same instance labels.
bool profileMatches(const PipelineResult& result, const codegen::Profile& profile) {
    const auto& kernels = result.eval.program.kernels;
    if (profile.kernels.size() != kernels.size())
        return false;
    for (size_t k = 0; k < kernels.size(); ++k)
        if (profile.kernels[k].instance != kernels[k].label)
            return false;
    return true;
}

TimelineBar kernelBar(const PipelineResult& result, size_t k, double start, double end) {
    TimelineBar bar;
    bar.start = start;
    bar.end = end;
    bar.kind = kernel::TaskKind::Launch;
    bar.kernelSpan = true;
    bar.instance = result.eval.program.kernels[k].instance;
    bar.group = result.eval.schedule.instances[bar.instance].group;
    return bar;
}

/// The simulated and the measured kernel lanes; returns the measured end.
double kernelLanes(const PipelineResult& result, const codegen::Profile& profile,
                   std::vector<TimelineLane>& lanes) {
    const size_t count = result.eval.program.kernels.size();
    std::vector<std::pair<double, double>> spans(count, {-1, 0});
    for (const sim::Event& e : result.eval.sim.events) {
        int32_t k = result.eval.tasks.tasks[e.task].kernel;
        if (k < 0)
            continue;
        auto& [start, end] = spans[static_cast<size_t>(k)];
        start = start < 0 ? e.start : std::min(start, e.start);
        end = std::max(end, e.end);
    }
    TimelineLane simulated{"kernels, simulated", LaneKind::Control, -1, 0, {}};
    TimelineLane measured{"kernels, measured on this host", LaneKind::Control, -1, 0, {}};
    double at = 0;
    for (size_t k = 0; k < count; ++k) {
        if (spans[k].first >= 0)
            simulated.bars.push_back(kernelBar(result, k, spans[k].first, spans[k].second));
        measured.bars.push_back(kernelBar(result, k, at, at + profile.kernels[k].medianNs));
        at += profile.kernels[k].medianNs;
    }
    lanes.insert(lanes.begin(), {std::move(simulated), std::move(measured)});
    return at;
}

/// The cores a unit lane's tasks may run on: from its resource's first
/// core to the end of the core group; empty for a lane of one core.
std::pair<int32_t, int32_t> coresOf(const PipelineResult& result, const TimelineLane& lane) {
    const auto& groups = result.arch.cluster.coreGroups;
    if (lane.kind != LaneKind::Unit || lane.resource < 0 || groups.empty())
        return {0, 0};
    const sim::Resource& resource = result.eval.sim.resources[static_cast<size_t>(lane.resource)];
    if (resource.index == kernel::kFallbackUnit)
        return {0, 0};
    const auto count = static_cast<int32_t>(groups.front().count);
    return count - resource.firstCore > 1 ? std::pair{resource.firstCore, count} : std::pair{0, 0};
}

std::string coreLaneName(const PipelineResult& result, const TimelineLane& lane, int32_t core) {
    const arch::CoreGroup& group = result.arch.cluster.coreGroups.front();
    const sim::Resource& resource = result.eval.sim.resources[static_cast<size_t>(lane.resource)];
    return "  " + group.name + " " + std::to_string(core) + " " +
           group.units[static_cast<size_t>(resource.index)].name;
}

/// \p lanes with a lane per core after each expanded unit lane, holding the
/// unit's bars whose task runs on that core.
std::vector<TimelineLane> withCoreLanes(const PipelineResult& result,
                                        std::vector<TimelineLane> lanes,
                                        const std::set<int32_t>& expanded) {
    std::vector<TimelineLane> out;
    for (TimelineLane& lane : lanes) {
        const auto [first, end] = coresOf(result, lane);
        lane.expandable = end > first;
        const bool open = lane.expandable && expanded.contains(lane.resource);
        out.push_back(std::move(lane));
        if (!open)
            continue;
        const TimelineLane& unit = out.back();
        std::vector<TimelineLane> cores;
        for (int32_t core = first; core < end; ++core)
            cores.push_back({coreLaneName(result, unit, core),
                             LaneKind::Unit,
                             unit.resource,
                             unit.slot,
                             {},
                             core,
                             false});
        for (const TimelineBar& bar : unit.bars) {
            const kernel::Task& task = result.eval.tasks.tasks[bar.task];
            for (int32_t core = std::max(first, task.firstCore);
                 core < std::min(end, task.firstCore + task.cores); ++core)
                cores[static_cast<size_t>(core - first)].bars.push_back(bar);
        }
        for (TimelineLane& core : cores)
            out.push_back(std::move(core));
    }
    return out;
}

} // namespace

TimelineData TimelineData::fromResult(const PipelineResult& result, const codegen::Profile* profile,
                                      const std::set<int32_t>& expanded) {
    std::vector<std::vector<int32_t>> laneOfSlot;
    std::vector<TimelineLane> lanes = emptyLanes(result, laneOfSlot);
    for (const sim::Event& event : result.eval.sim.events) {
        const int32_t lane =
            laneOfSlot[static_cast<size_t>(event.resource)][static_cast<size_t>(event.slot)];
        lanes[static_cast<size_t>(lane)].bars.push_back(barOf(result, event));
    }
    lanes = withCoreLanes(result, std::move(lanes), expanded);
    double end = result.eval.sim.makespanNs;
    if (profile != nullptr && profileMatches(result, *profile))
        end = std::max(end, kernelLanes(result, *profile, lanes));
    return TimelineData(std::move(lanes), end);
}

} // namespace stagecraft::views
