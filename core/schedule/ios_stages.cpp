// IOS over a whole model (internal/ios_stages.h). The paper schedules one
// block at a time (§4.2, Table 1: "optimize each block separately"); a model
// is cut into blocks at its joints, where every unit before reaches one unit
// whose output every unit after depends on (between stacked blocks). A block with
// more units than the DP's bit sets hold, or whose DP passes the bound on
// endings, is halved at its middle unit (units are in graph order, so a
// prefix is closed under predecessors) and each half scheduled alone.
// Stages become groups; the order keeps a stage's instances together and
// they share the cluster's cores (concurrent execution, §3).

#include "schedule/internal/ios_stages.h"

#include "support/strings.h"

#include <queue>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <tuple>

namespace stagecraft::schedule::detail {

namespace {

using Units = std::vector<std::vector<ir::OpId>>;

/// Each unit's successor units, ascending, and whether it has a predecessor.
struct UnitGraph {
    std::vector<std::vector<size_t>> succs;
    std::vector<char> hasPred;
};

UnitGraph unitGraph(const ir::Graph& graph, const Units& units) {
    IdVector<ir::OpId, int> unitOf(graph.opCount(), -1);
    for (size_t i = 0; i < units.size(); ++i)
        for (ir::OpId op : units[i])
            unitOf[op] = static_cast<int>(i);
    UnitGraph g{std::vector<std::vector<size_t>>(units.size()), std::vector<char>(units.size(), 0)};
    for (size_t i = 0; i < units.size(); ++i)
        for (ir::OpId op : units[i])
            for (ir::TensorId t : graph.op(op).outputs)
                for (const ir::Use& use : graph.tensor(t).uses)
                    if (int j = unitOf[use.op]; j > static_cast<int>(i)) {
                        g.succs[i].push_back(static_cast<size_t>(j));
                        g.hasPred[static_cast<size_t>(j)] = 1;
                    }
    for (auto& list : g.succs) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    return g;
}

/// After which units (by index) the model may be cut without losing a
/// stage: every unit before the cut reaches one unit u, every unit after
/// it is reached from u, so no unit on one side can run beside one on the
/// other. That holds when every unit before the cut but u feeds one before
/// it, and every unit after it is fed (units only feed later ones, and u's
/// edges alone cross).
std::vector<char> jointsAfter(const ir::Graph& graph, const Units& units) {
    UnitGraph g = unitGraph(graph, units);
    size_t n = units.size();
    std::vector<char> joint(n, 0);
    std::vector<char> sourceFrom(n + 1, 0); // a unit without predecessors at or after i
    for (size_t i = n; i-- > 0;)
        sourceFrom[i] = sourceFrom[i + 1] || !g.hasPred[i] ? 1 : 0;
    for (size_t p = 0; p + 1 < n; ++p) {
        if (sourceFrom[p + 1])
            continue;
        std::vector<size_t> crossing;
        for (size_t i = 0; i <= p && crossing.size() < 2; ++i)
            if (!g.succs[i].empty() && g.succs[i].back() > p)
                crossing.push_back(i);
        if (crossing.size() != 1)
            continue;
        bool reachesU = true;
        for (size_t i = 0; i <= p && reachesU; ++i)
            reachesU = i == crossing[0] || (!g.succs[i].empty() && g.succs[i].front() <= p);
        joint[p] = reachesU ? 1 : 0;
    }
    return joint;
}

/// Stages of the model in order, each with the DP of its block.
struct Scheduled {
    std::vector<partition::IosStage> stages;
    std::vector<partition::IosStep> steps;
};

Status scheduleBlock(const ir::Graph& graph, const Units& block,
                     const partition::IosCostModel& cost, const partition::IosPruning& pruning,
                     Scheduled& out) {
    if (block.size() <= partition::kIosMaxBlockOps) {
        auto started = std::chrono::steady_clock::now();
        SC_ASSIGN_OR_RETURN(partition::IosSchedule s,
                            partition::scheduleIosUnits(graph, block, cost, pruning));
        double searchMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
                .count();
        if (!s.boundReached) {
            int64_t index = out.steps.empty() ? 0 : out.steps.back().block + 1;
            for (const partition::IosStage& stage : s.stages) {
                partition::IosStep step;
                step.block = index;
                step.units = static_cast<int64_t>(block.size());
                step.states = s.states;
                step.transitions = s.transitions;
                step.merged = stage.merged;
                step.latencyNs = stage.latency;
                step.stateUnits = stage.stateUnits;
                step.stateCostNs = stage.stateCost;
                step.endings = stage.endings;
                step.runnerUpNs = std::isfinite(stage.runnerUpCost) ? stage.runnerUpCost : -1;
                step.searchMs = searchMs;
                for (const auto& group : stage.groups) {
                    step.groups.push_back(group.front());
                    step.groupSizes.push_back(static_cast<int64_t>(group.size()));
                }
                out.steps.push_back(std::move(step));
            }
            out.stages.insert(out.stages.end(), s.stages.begin(), s.stages.end());
            return Status::success();
        }
    }
    auto middle = block.begin() + static_cast<std::ptrdiff_t>(block.size() / 2);
    SC_RETURN_IF_ERROR(scheduleBlock(graph, Units(block.begin(), middle), cost, pruning, out));
    return scheduleBlock(graph, Units(middle, block.end()), cost, pruning, out);
}

/// The DP's decision at the state the stage ends: the cheapest of its
/// endings, and by how much.
std::string stateText(const partition::IosStep& step) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "the last stage of the state of %lld units, cost[S] = %.3f ms, the cheapest of "
                  "its %lld endings",
                  static_cast<long long>(step.stateUnits), step.stateCostNs / 1e6,
                  static_cast<long long>(step.endings));
    std::string out = text;
    if (step.runnerUpNs >= 0) {
        std::snprintf(text, sizeof text, " (the next best gives %.3f ms)", step.runnerUpNs / 1e6);
        out += text;
    }
    return out;
}

std::string explain(const ir::Graph& graph, const partition::IosStep& step) {
    char latency[32];
    std::snprintf(latency, sizeof latency, "%.3f ms", step.latencyNs / 1e6);
    std::string text = "IOS Algorithm 1, block " + std::to_string(step.block + 1) + " (" +
                       std::to_string(step.units) + " schedule units, " +
                       std::to_string(step.states) + " states, " +
                       std::to_string(step.transitions) + " (S, S') pairs): ";
    std::vector<std::string> groups;
    for (size_t i = 0; i < step.groups.size(); ++i)
        groups.push_back(quote(graph.op(step.groups[i]).name) + " (" +
                         std::to_string(step.groupSizes[i]) +
                         (step.groupSizes[i] == 1 ? " op)" : " ops)"));
    if (step.merged)
        text += "a stage merging " + join(groups, ", ") + " into one operator (§3)";
    else if (groups.size() == 1)
        text += "a stage of one group, " + groups.front();
    else
        text += "a stage of " + std::to_string(groups.size()) + " groups run at once on " +
                "their share of the cores (§3), " + join(groups, ", ");
    return text + ", " + latency + "; " + stateText(step);
}

/// Stage of each group: the stage of its first op (0 without stages).
IdVector<GroupId, int32_t> groupStages(const Schedule& s,
                                       const partition::GroupingResult& grouping) {
    IdVector<GroupId, int32_t> stage(s.partition.groupIds().size(), 0);
    if (grouping.iosStage.empty())
        return stage;
    for (GroupId g : s.partition.groupIds())
        stage[g] = grouping.iosStage[s.partition.ops(g).front()];
    return stage;
}

} // namespace

Expected<partition::GroupingResult> iosGrouping(const ir::Graph& graph,
                                                const partition::IosCostModel& cost,
                                                const partition::IosPruning& pruning,
                                                partition::Trace* trace) {
    std::vector<ir::OpId> all(graph.opIds().begin(), graph.opIds().end());
    Units units = partition::iosScheduleUnits(graph, all);
    std::vector<char> joint = jointsAfter(graph, units);
    Scheduled scheduled;
    Units block;
    for (size_t i = 0; i < units.size(); ++i) {
        block.push_back(units[i]);
        if (joint[i] || i + 1 == units.size()) {
            SC_RETURN_IF_ERROR(scheduleBlock(graph, block, cost, pruning, scheduled));
            block.clear();
        }
    }
    if (trace != nullptr) {
        for (partition::IosStep& step : scheduled.steps)
            step.explanation = explain(graph, step);
        trace->ios = std::move(scheduled.steps);
    }
    const std::vector<partition::IosStage>& stages = scheduled.stages;
    partition::GroupingResult result;
    partition::Assignment groupOf(graph.opCount(), GroupId::at(0));
    result.iosStage.assign(graph.opCount(), 0);
    size_t groups = 0;
    for (size_t st = 0; st < stages.size(); ++st) {
        for (size_t k = 0; k < stages[st].groups.size(); ++k) {
            for (ir::OpId op : stages[st].groups[k]) {
                groupOf[op] = GroupId::at(groups);
                result.iosStage[op] = static_cast<int32_t>(st);
            }
            if (!stages[st].merged || k + 1 == stages[st].groups.size())
                ++groups;
        }
    }
    SC_ASSIGN_OR_RETURN(result.partition,
                        partition::Partition::fromAssignment(graph, std::move(groupOf)));
    return result;
}

std::vector<InstanceId> stageOrder(const Schedule& schedule, const Adjacency& adjacency,
                                   const partition::GroupingResult& grouping) {
    IdVector<GroupId, int32_t> stage = groupStages(schedule, grouping);
    using Key = std::tuple<int32_t, GroupId, InstanceId>;
    std::priority_queue<Key, std::vector<Key>, std::greater<>> ready;
    IdVector<InstanceId, size_t> waiting(schedule.instances.size(), 0);
    auto keyOf = [&](InstanceId id) {
        GroupId g = schedule.instances[id].group;
        return Key{stage[g], g, id};
    };
    for (InstanceId id : schedule.instances.ids()) {
        waiting[id] = adjacency.preds[id].size();
        if (waiting[id] == 0)
            ready.push(keyOf(id));
    }
    std::vector<InstanceId> order;
    while (!ready.empty()) {
        InstanceId id = std::get<2>(ready.top());
        ready.pop();
        order.push_back(id);
        for (InstanceId next : adjacency.succs[id])
            if (--waiting[next] == 0)
                ready.push(keyOf(next));
    }
    return order;
}

namespace {

/// \p binding with its factors cut (largest first, by their smallest prime)
/// until it uses at most \p cores cores.
Binding cutTo(Binding binding, int64_t cores) {
    while (coresUsed(binding) > cores) {
        auto largest = std::max_element(binding.begin(), binding.end());
        int64_t prime = 2;
        while (*largest % prime != 0)
            ++prime;
        *largest /= prime;
    }
    return binding;
}

void shareCores(Schedule& s, const std::vector<InstanceId>& stage, int64_t cores) {
    auto n = static_cast<int64_t>(stage.size());
    int64_t first = 0;
    for (int64_t i = 0; i < n; ++i) {
        Instance& inst = s.instances[stage[static_cast<size_t>(i)]];
        int64_t share = cores / n + (i < cores % n ? 1 : 0);
        inst.bind = cutTo(inst.bind, std::max<int64_t>(share, 1));
        inst.firstCore = first;
        inst.joinsStage = i > 0;
        first += share;
    }
}

} // namespace

void shareStageCores(Schedule& s, const Adjacency& adjacency,
                     const partition::GroupingResult& grouping, int64_t cores) {
    IdVector<GroupId, int32_t> stage = groupStages(s, grouping);
    std::vector<InstanceId> current;
    auto flush = [&] {
        if (current.size() > 1)
            shareCores(s, current, cores);
        current.clear();
    };
    for (InstanceId id : s.order) {
        bool joins = !current.empty() &&
                     stage[s.instances[id].group] == stage[s.instances[current[0]].group] &&
                     static_cast<int64_t>(current.size()) < cores;
        for (InstanceId pred : adjacency.preds[id])
            joins = joins && std::find(current.begin(), current.end(), pred) == current.end();
        if (!joins)
            flush();
        current.push_back(id);
    }
    flush();
}

} // namespace stagecraft::schedule::detail
