// The discrete-event simulator (simulator.h). Events are (time, sequence)
// ordered; a task becomes ready when its last dependency ends, waits in its
// resource's first-come-first-served queue, runs, and on completion releases
// the resource and readies its dependents. A transfer holds a channel of its
// path from start to end and the path's data pipe for its data phase, which
// follows the path latency.

#include "sim/simulator.h"

#include "sim/internal/memory_views.h"

#include <queue>

#include <algorithm>
#include <deque>
#include <map>
#include <string>

namespace stagecraft::sim {

namespace {

using kernel::Task;
using kernel::TaskId;

struct PendingEvent {
    double time = 0;
    uint64_t seq = 0;
    TaskId task;
    /// 0: ready, 1: latency over (wants the pipe), 2: done.
    uint8_t phase = 0;
    bool operator>(const PendingEvent& o) const {
        return time != o.time ? time > o.time : seq > o.seq;
    }
};

struct ResourceState {
    std::deque<TaskId> waiting;
    std::vector<bool> busy;
};

struct PipeState {
    std::deque<TaskId> waiting;
    bool busy = false;
};

class Simulator {
public:
    Simulator(const arch::Arch& arch, const kernel::TaskGraph& graph)
        : arch_(arch)
        , graph_(graph)
        , pending_(graph.tasks.size(), 0)
        , dependents_(graph.tasks.size()) {}

    Expected<SimResult> run() {
        makeResources();
        SC_RETURN_IF_ERROR(bindTasks());
        for (TaskId t : graph_.tasks.ids()) {
            const Task& task = graph_.tasks[t];
            pending_[t] = task.depEnd - task.depBegin;
            for (int32_t d = task.depBegin; d < task.depEnd; ++d)
                dependents_[graph_.deps[static_cast<size_t>(d)]].push_back(t);
            if (pending_[t] == 0)
                push(0, t, 0);
        }
        result_.events.resize(graph_.tasks.size());
        while (!queue_.empty()) {
            PendingEvent e = queue_.top();
            queue_.pop();
            now_ = e.time;
            if (e.phase == 0)
                ready(e.task);
            else if (e.phase == 1)
                wantPipe(e.task);
            else
                done(e.task);
        }
        for (const Event& e : result_.events)
            result_.makespanNs = std::max(result_.makespanNs, e.end);
        return std::move(result_);
    }

private:
    void makeResources() {
        const auto& units = arch_.cluster.coreGroups.front().units;
        for (size_t u = 0; u < units.size(); ++u)
            result_.resources.push_back(
                {units[u].name, ResourceKind::Unit, static_cast<int32_t>(u), 1});
        if (arch_.fallbackCpu)
            result_.resources.push_back(
                {arch_.fallbackCpu->name, ResourceKind::Unit, kernel::kFallbackUnit, 1});
        for (size_t p = 0; p < arch_.paths.size(); ++p) {
            const arch::Path& path = arch_.paths[p];
            int64_t slots = path.channels;
            if (path.sharedBy == arch::Sharing::Chip)
                slots = std::max<int64_t>(1, slots / arch_.clusters);
            std::string name = std::string(arch::memoryName(path.from)) + "-" +
                               std::string(arch::memoryName(path.to)) + " DMA";
            result_.resources.push_back({name, ResourceKind::Channel, static_cast<int32_t>(p),
                                         static_cast<int32_t>(slots)});
        }
        control_ = static_cast<int32_t>(result_.resources.size());
        result_.resources.push_back({"control", ResourceKind::Control, 0, 1});
        states_.resize(result_.resources.size());
        for (size_t r = 0; r < states_.size(); ++r)
            states_[r].busy.assign(static_cast<size_t>(result_.resources[r].slotCount), false);
        pipes_.resize(arch_.paths.size());
    }

    /// The resource of every task; an error for a transfer without a path.
    Status bindTasks() {
        resourceOf_.resize(graph_.tasks.size());
        for (TaskId t : graph_.tasks.ids()) {
            const Task& task = graph_.tasks[t];
            if (task.kind == kernel::TaskKind::Launch || task.kind == kernel::TaskKind::Sync) {
                resourceOf_[t] = control_;
            } else if (task.kind == kernel::TaskKind::Compute) {
                resourceOf_[t] = unitResource(task.unit, task.firstCore);
            } else {
                const arch::Path* path = arch::findPath(arch_, task.from, task.to);
                if (path == nullptr)
                    return Error("architecture '" + arch_.name + "' has no path " +
                                 std::string(arch::memoryName(task.from)) + " -> " +
                                 std::string(arch::memoryName(task.to)));
                resourceOf_[t] = channelResource(static_cast<int32_t>(path - arch_.paths.data()));
            }
        }
        return Status::success();
    }

    /// The unit's resource for tasks from \p firstCore on. Kernels that run
    /// at once use disjoint cores (IOS's stages), so a unit's cores from
    /// another first core are a resource of their own, made on first use;
    /// the fallback CPU is one whatever the cores.
    int32_t unitResource(int32_t unit, int32_t firstCore) {
        if (unit == kernel::kFallbackUnit)
            firstCore = 0;
        auto key = std::pair{unit, firstCore};
        if (auto it = unitResources_.find(key); it != unitResources_.end())
            return it->second;
        int32_t found = 0;
        for (size_t r = 0; r < result_.resources.size(); ++r)
            if (result_.resources[r].kind == ResourceKind::Unit &&
                result_.resources[r].index == unit) {
                found = static_cast<int32_t>(r);
                break;
            }
        if (firstCore != 0) {
            Resource copy = result_.resources[static_cast<size_t>(found)];
            copy.name += " @core " + std::to_string(firstCore);
            copy.firstCore = firstCore;
            found = static_cast<int32_t>(result_.resources.size());
            result_.resources.push_back(copy);
            states_.push_back({{}, std::vector<bool>(static_cast<size_t>(copy.slotCount), false)});
        }
        unitResources_.emplace(key, found);
        return found;
    }

    int32_t channelResource(int32_t path) const {
        for (size_t r = 0; r < result_.resources.size(); ++r)
            if (result_.resources[r].kind == ResourceKind::Channel &&
                result_.resources[r].index == path)
                return static_cast<int32_t>(r);
        return 0;
    }

    void push(double time, TaskId task, uint8_t phase) { queue_.push({time, seq_++, task, phase}); }

    void ready(TaskId task) {
        int32_t r = resourceOf_[task];
        states_[static_cast<size_t>(r)].waiting.push_back(task);
        startWaiting(r);
    }

    void startWaiting(int32_t r) {
        ResourceState& state = states_[static_cast<size_t>(r)];
        while (!state.waiting.empty()) {
            auto slot = std::find(state.busy.begin(), state.busy.end(), false);
            if (slot == state.busy.end())
                return;
            *slot = true;
            TaskId task = state.waiting.front();
            state.waiting.pop_front();
            Event& e = result_.events[task];
            e = {task, r, static_cast<int32_t>(slot - state.busy.begin()), now_, now_, now_};
            const Task& t = graph_.tasks[task];
            if (t.isTransfer())
                push(now_ + pathOf(t).latencyNs, task, 1);
            else
                push(now_ + durationOf(t), task, 2);
        }
    }

    double durationOf(const Task& t) const {
        if (t.kind == kernel::TaskKind::Compute && t.unit == kernel::kFallbackUnit)
            return t.durationNs * static_cast<double>(arch_.clusters); // shared by the chip
        return t.durationNs;
    }

    const arch::Path& pathOf(const Task& t) const { return *arch::findPath(arch_, t.from, t.to); }

    double bytesPerNs(const Task& t) const {
        const arch::Path& p = pathOf(t);
        if (p.sharedBy == arch::Sharing::Chip)
            return p.bandwidthGBps / static_cast<double>(arch_.clusters);
        if (p.sharedBy == arch::Sharing::Core)
            return p.bandwidthGBps * static_cast<double>(t.cores);
        return p.bandwidthGBps;
    }

    void wantPipe(TaskId task) {
        size_t p =
            static_cast<size_t>(result_.resources[static_cast<size_t>(resourceOf_[task])].index);
        pipes_[p].waiting.push_back(task);
        startPipe(p);
    }

    void startPipe(size_t p) {
        PipeState& pipe = pipes_[p];
        if (pipe.busy || pipe.waiting.empty())
            return;
        TaskId task = pipe.waiting.front();
        pipe.waiting.pop_front();
        pipe.busy = true;
        const Task& t = graph_.tasks[task];
        result_.events[task].dataStart = now_;
        push(now_ + static_cast<double>(t.bytes) / bytesPerNs(t), task, 2);
    }

    void done(TaskId task) {
        Event& e = result_.events[task];
        e.end = now_;
        int32_t r = e.resource;
        states_[static_cast<size_t>(r)].busy[static_cast<size_t>(e.slot)] = false;
        if (graph_.tasks[task].isTransfer()) {
            size_t p = static_cast<size_t>(result_.resources[static_cast<size_t>(r)].index);
            pipes_[p].busy = false;
            startPipe(p);
        }
        for (TaskId next : dependents_[task])
            if (--pending_[next] == 0)
                push(now_, next, 0);
        startWaiting(r);
    }

    const arch::Arch& arch_;
    const kernel::TaskGraph& graph_;
    IdVector<TaskId, int32_t> pending_;
    IdVector<TaskId, std::vector<TaskId>> dependents_;
    IdVector<TaskId, int32_t> resourceOf_;
    std::vector<ResourceState> states_;
    std::vector<PipeState> pipes_;
    std::priority_queue<PendingEvent, std::vector<PendingEvent>, std::greater<>> queue_;
    uint64_t seq_ = 0;
    double now_ = 0;
    int32_t control_ = 0;
    std::map<std::pair<int32_t, int32_t>, int32_t> unitResources_;
    SimResult result_;
};

} // namespace

Expected<SimResult> simulate(const arch::Arch& arch, const kernel::Program& program,
                             const kernel::TaskGraph& graph) {
    if (arch.cluster.coreGroups.empty())
        return Error("architecture '" + arch.name + "' has no cores");
    SC_ASSIGN_OR_RETURN(SimResult result, Simulator(arch, graph).run());
    detail::addMemoryViews(arch, program, graph, result);
    return result;
}

} // namespace stagecraft::sim
