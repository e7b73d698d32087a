// Instruction streams of kernel plans (GraphTurbo §4.4, Fig. 13); the header
// explains the two modes. Each kernel: launch, its layers (stream_layer.cpp:
// weight promotion, spills, loads, compute chunks, stores; one tile at a time
// or double-buffered), then a sync. A launch waits for the syncs before it
// (kernels are barriers; an IOS stage is one barrier), or, when the program's
// kernels launch on their dependencies (DLA), for those of its producers and
// of the last kernel on its device. Without across-layer scheduling the
// tasks of a kernel also wait for the stream's tail (InOrderStream): that is
// the one switch between the modes, and it lives in issue().

#include "kernel/internal/stream_builder.h"

#include <algorithm>

namespace stagecraft::kernel {

std::string_view taskKindName(TaskKind kind) {
    switch (kind) {
    case TaskKind::Launch:
        return "launch";
    case TaskKind::Sync:
        return "sync";
    case TaskKind::WeightDma:
        return "weight-dma";
    case TaskKind::WeightHoist:
        return "weight-hoist";
    case TaskKind::Load:
        return "load";
    case TaskKind::Store:
        return "store";
    case TaskKind::Spill:
        return "spill";
    case TaskKind::Compute:
        return "compute";
    }
    return "compute";
}

namespace detail {

using arch::Memory;

namespace {

/// Whether every op of \p kern runs on the fallback CPU.
bool onHostOnly(const Kernel& kern) {
    for (const Layer& layer : kern.layers)
        for (const OpWork& w : layer.ops)
            if (w.unit != kFallbackUnit)
                return false;
    return !kern.layers.empty();
}

} // namespace

StreamBuilder::StreamBuilder(const arch::Arch& arch, const Program& program,
                             const StreamOptions& options)
    : arch_(arch)
    , program_(program)
    , options_(options)
    , residency_(arch.cluster.globalBuffer && arch.cluster.globalBuffer->cache
                     ? arch.cluster.globalBuffer->bytes
                     : 0) {
    stream_.enabled = !options.acrossLayer;
}

TaskGraph StreamBuilder::build() {
    spillsAt_.assign(static_cast<size_t>(program_.taskCount), {});
    taskEnd_.assign(static_cast<size_t>(program_.taskCount), {kNoTask, -1});
    for (BufferId b : program_.buffers.ids()) {
        const auto& placements = program_.buffers[b].placements;
        for (size_t i = 1; i < placements.size(); ++i)
            if (placements[i].fromTask > program_.buffers[b].firstTask)
                spillsAt_[static_cast<size_t>(placements[i].fromTask)].push_back(
                    {b, static_cast<int32_t>(i)});
    }
    for (size_t k = 0; k < program_.kernels.size(); ++k)
        kernel(static_cast<int32_t>(k));
    return std::move(graph_);
}

TaskId StreamBuilder::place(Task task, std::vector<TaskId> deps) {
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    deps.erase(std::remove(deps.begin(), deps.end(), kNoTask), deps.end());
    task.depBegin = static_cast<int32_t>(graph_.deps.size());
    graph_.deps.insert(graph_.deps.end(), deps.begin(), deps.end());
    task.depEnd = static_cast<int32_t>(graph_.deps.size());
    TaskId id = graph_.tasks.nextId();
    graph_.tasks.push_back(task);
    return id;
}

TaskId StreamBuilder::issue(Task task, std::vector<TaskId> deps) {
    if (!stream_.enabled)
        return place(task, std::move(deps));
    deps.insert(deps.end(), stream_.tail.begin(), stream_.tail.end());
    TaskId id = place(task, std::move(deps));
    stream_.tail = {id};
    return id;
}

std::vector<std::pair<Memory, Memory>> StreamBuilder::route(Memory from, Memory to) const {
    if (arch::findPath(arch_, from, to) != nullptr || from == Memory::GB || to == Memory::GB)
        return {{from, to}};
    return {{from, Memory::GB}, {Memory::GB, to}};
}

TaskId StreamBuilder::transfer(TaskKind kind, Memory from, Memory to, int64_t bytes,
                               const Task& base, std::vector<TaskId> deps, bool inOrder) {
    TaskId id = kNoTask;
    for (auto [a, b] : route(from, to)) {
        Task t = base;
        t.kind = kind;
        t.from = a;
        t.to = b;
        t.bytes = bytes;
        id = inOrder ? issue(t, deps) : place(t, deps);
        deps = {id};
    }
    return id;
}

TaskId StreamBuilder::pipelinedTransfer(TaskKind kind, Memory from, Memory to, int64_t bytes,
                                        const Task& base, std::vector<TaskId> deps,
                                        std::vector<TaskId>& previous) {
    auto hops = route(from, to);
    previous.resize(hops.size(), kNoTask);
    TaskId id = kNoTask;
    for (size_t h = 0; h < hops.size(); ++h) {
        Task t = base;
        t.kind = kind;
        t.from = hops[h].first;
        t.to = hops[h].second;
        t.bytes = bytes;
        deps.push_back(previous[h]);
        id = place(t, std::move(deps));
        previous[h] = id;
        deps = {id};
    }
    return id;
}

/// Where the kernel's stream starts: after the stage before it (a barrier),
/// beside the other kernels of its IOS stage, or, launched on its inputs,
/// on its own.
void StreamBuilder::enterKernel(const Kernel& kern, int32_t k) {
    if (program_.launchOnDependencies) {
        stream_.tail.clear(); // its own stream, launched when its inputs are
        barriers_.stageStart = launchDependencies(kern);
        barriers_.stageFirstKernel = 0; // any earlier kernel may still run
    } else if (kern.joinsStage) {
        stream_.tail = barriers_.tailBeforeStage; // its own stream, beside the stage's others
    } else {
        barriers_.stageStart = std::move(barriers_.stageSyncs);
        barriers_.stageSyncs.clear();
        barriers_.tailBeforeStage = stream_.tail;
        barriers_.stageFirstKernel = k;
    }
}

void StreamBuilder::kernel(int32_t k) {
    const Kernel& kern = program_.kernels[static_cast<size_t>(k)];
    currentKernel_ = k;
    Task base;
    base.kernel = k;
    base.cores = static_cast<int32_t>(kern.cores);
    base.firstCore = static_cast<int32_t>(kern.firstCore);
    enterKernel(kern, k);
    // An instance that continues the launch before it starts at that
    // instance's sync with no launch cost, and its weights may be promoted
    // once that instance has loaded its inputs: its DMAs are issued in
    // program order, after those loads.
    bool continued = kern.continuesLaunch && run_.launch != kNoTask;
    weightsAfter_ = continued ? lastLoad_ : kNoTask;
    lastLoad_ = kNoTask;
    Task launch = base;
    launch.kind = TaskKind::Launch;
    launch.durationNs = continued ? 0 : arch_.overheads.kernelLaunchNs;
    launch_ = issue(launch, barriers_.stageStart);
    if (!continued)
        run_ = LaunchRun{launch_, {}, 0, kNoTask};
    std::vector<TaskId> ends;
    for (const Layer& layer : kern.layers)
        ends.push_back(this->layer(kern, layer, base, ends));
    Task sync = base;
    sync.kind = TaskKind::Sync;
    sync.durationNs = arch_.overheads.syncNs;
    TaskId synced = issue(sync, ends);
    barriers_.stageSyncs.push_back(synced);
    barriers_.kernelSync.push_back(synced);
    barriers_.lastSyncOn[onHostOnly(kern) ? 1 : 0] = synced;
}

/// With Program::launchOnDependencies: the syncs a kernel's launch waits
/// for, those of the kernels whose buffers it reads and of the last kernel
/// on its device.
std::vector<TaskId> StreamBuilder::launchDependencies(const Kernel& kern) const {
    std::vector<TaskId> deps = {barriers_.lastSyncOn[onHostOnly(kern) ? 1 : 0]};
    for (const Layer& layer : kern.layers)
        for (const Operand& in : layer.inputs)
            if (in.buffer != kNoBuffer) {
                auto producer = static_cast<size_t>(program_.buffers[in.buffer].kernel);
                if (producer < barriers_.kernelSync.size())
                    deps.push_back(barriers_.kernelSync[producer]);
            }
    return deps;
}

/// The last compute of computation task \p task when it is a layer of this
/// kernel or of another kernel of its stage (running at the same time), or
/// of any kernel when kernels launch on their dependencies; kNoTask
/// otherwise (earlier stages ended at their syncs).
TaskId StreamBuilder::endOfTask(int32_t task) const {
    const auto& [end, kernel] = taskEnd_[static_cast<size_t>(task)];
    return kernel >= barriers_.stageFirstKernel ? end : kNoTask;
}

/// The end of the layer of this kernel (or stage) that wrote \p buffer.
TaskId StreamBuilder::producerEnd(BufferId buffer) const {
    return endOfTask(program_.buffers[buffer].firstTask);
}

} // namespace detail

TaskGraph buildStreams(const arch::Arch& arch, const Program& program,
                       const StreamOptions& options) {
    detail::StreamBuilder builder(arch, program, options);
    if (!arch.cluster.globalBuffer || !arch.cluster.globalBuffer->cache)
        return builder.build();
    // A cache GB: the run measured is one of many, so it starts with what
    // the run before left in the cache (stream_cache.cpp).
    detail::StreamBuilder before(arch, program, options);
    before.build();
    builder.continueFrom(before.residency());
    return builder.build();
}

} // namespace stagecraft::kernel
