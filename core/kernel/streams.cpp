// Instruction streams of kernel plans (GraphTurbo §4.4, Fig. 13); the header
// explains the two modes. Each kernel: launch, then per layer the weight
// promotion (DMA DDR→GB, hoist GB→LB into the weight reserve, two layers'
// worth with across-layer scheduling), spills, loads of activations not
// already in the cores' LB, compute chunks (runs of ops on one unit per
// chunk, in op order; the kernel's cores take the layer's tiles in turn, so a
// layer of t tiles on c cores runs t / ceil(t / c) times as fast as on one),
// stores of outputs declared in GB or DDR; then a sync. A launch waits for
// the syncs before it (kernels are barriers), or, when the program's kernels
// launch on their dependencies, for those of its producers and of the last
// kernel on its device.

#include "kernel/streams.h"

#include "kernel/internal/layers.h"

#include <algorithm>
#include <map>

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

namespace {

using arch::Memory;

Memory memoryOf(Scope scope) {
    return scope == Scope::LB ? Memory::LB : scope == Scope::GB ? Memory::GB : Memory::DDR;
}

/// Consecutive ops of a layer on the same unit.
struct Segment {
    int32_t unit = 0;
    ir::OpId op = ir::kNoOp;
    double ns = 0;
    double work = 0;
};

std::vector<Segment> segmentsOf(const Layer& layer) {
    std::vector<Segment> segments;
    for (const OpWork& w : layer.ops) {
        if (segments.empty() || segments.back().unit != w.unit)
            segments.push_back({w.unit, w.op, 0, 0});
        segments.back().ns += w.unitNs;
        segments.back().work += w.work;
    }
    return segments;
}

class StreamBuilder {
public:
    StreamBuilder(const arch::Arch& arch, const Program& program, const StreamOptions& options)
        : arch_(arch)
        , program_(program)
        , options_(options) {}

    TaskGraph build() {
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

private:
    TaskId add(Task task, std::vector<TaskId> deps) {
        if (!options_.acrossLayer && last_ != kNoTask)
            deps.push_back(last_);
        std::sort(deps.begin(), deps.end());
        deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
        deps.erase(std::remove(deps.begin(), deps.end(), kNoTask), deps.end());
        task.depBegin = static_cast<int32_t>(graph_.deps.size());
        graph_.deps.insert(graph_.deps.end(), deps.begin(), deps.end());
        task.depEnd = static_cast<int32_t>(graph_.deps.size());
        last_ = graph_.tasks.nextId();
        graph_.tasks.push_back(task);
        return last_;
    }

    /// The hops from \p from to \p to: direct when a path exists, else via GB.
    std::vector<std::pair<Memory, Memory>> route(Memory from, Memory to) const {
        if (arch::findPath(arch_, from, to) != nullptr || from == Memory::GB || to == Memory::GB)
            return {{from, to}};
        return {{from, Memory::GB}, {Memory::GB, to}};
    }

    /// Chained transfers of \p bytes; returns the last one.
    TaskId transfer(TaskKind kind, Memory from, Memory to, int64_t bytes, const Task& base,
                    std::vector<TaskId> deps) {
        TaskId id = kNoTask;
        for (auto [a, b] : route(from, to)) {
            Task t = base;
            t.kind = kind;
            t.from = a;
            t.to = b;
            t.bytes = bytes;
            id = add(t, deps);
            deps = {id};
        }
        return id;
    }

    void kernel(int32_t k) {
        const Kernel& kern = program_.kernels[static_cast<size_t>(k)];
        currentKernel_ = k;
        Task base;
        base.kernel = k;
        base.cores = static_cast<int32_t>(kern.cores);
        base.firstCore = static_cast<int32_t>(kern.firstCore);
        if (program_.launchOnDependencies) {
            last_ = kNoTask; // its own stream, launched when its inputs are
            stageStart_ = launchDependencies(kern);
            stageFirstKernel_ = 0; // any earlier kernel may still run
        } else if (kern.joinsStage) {
            last_ = stageBefore_; // its own stream, beside the stage's others
        } else {
            stageStart_ = std::move(stageSyncs_);
            stageSyncs_.clear();
            stageBefore_ = last_;
            stageFirstKernel_ = k;
        }
        // An instance that continues the launch before it starts at that
        // instance's sync with no launch cost, and its weights may be
        // promoted once that instance has loaded its inputs: its DMAs are
        // issued in program order, after those loads.
        bool continued = kern.continuesLaunch && runLaunch_ != kNoTask;
        weightsAfter_ = continued ? lastLoad_ : kNoTask;
        lastLoad_ = kNoTask;
        Task launch = base;
        launch.kind = TaskKind::Launch;
        launch.durationNs = continued ? 0 : arch_.overheads.kernelLaunchNs;
        launch_ = add(launch, stageStart_);
        if (!continued) {
            runLaunch_ = launch_;
            layerEnd_.clear();
            hoists_.clear();
            lastDma_ = kNoTask;
        }
        std::vector<TaskId> ends;
        for (const Layer& layer : kern.layers)
            ends.push_back(this->layer(kern, layer, base, ends));
        Task sync = base;
        sync.kind = TaskKind::Sync;
        sync.durationNs = arch_.overheads.syncNs;
        TaskId synced = add(sync, ends);
        stageSyncs_.push_back(synced);
        kernelSync_.push_back(synced);
        lastSyncOn_[onHostOnly(kern) ? 1 : 0] = synced;
    }

    /// With Program::launchOnDependencies: the syncs a kernel's launch waits
    /// for, those of the kernels whose buffers it reads and of the last
    /// kernel on its device.
    std::vector<TaskId> launchDependencies(const Kernel& kern) const {
        std::vector<TaskId> deps = {lastSyncOn_[onHostOnly(kern) ? 1 : 0]};
        for (const Layer& layer : kern.layers)
            for (const Operand& in : layer.inputs)
                if (in.buffer != kNoBuffer) {
                    auto producer = static_cast<size_t>(program_.buffers[in.buffer].kernel);
                    if (producer < kernelSync_.size())
                        deps.push_back(kernelSync_[producer]);
                }
        return deps;
    }

    /// Whether every op of \p kern runs on the fallback CPU.
    static bool onHostOnly(const Kernel& kern) {
        for (const Layer& layer : kern.layers)
            for (const OpWork& w : layer.ops)
                if (w.unit != kFallbackUnit)
                    return false;
        return !kern.layers.empty();
    }

    /// Lowers one layer; returns the task that ends it (its last compute or store).
    TaskId layer(const Kernel& kern, const Layer& layer, Task base, std::vector<TaskId>& ends) {
        base.layer = layer.task;
        base.op = layer.anchor;
        std::vector<TaskId> ready = {launch_};
        for (int32_t task : layer.waitFor)
            ready.push_back(endOfTask(task));
        std::vector<TaskId> reused = ready;
        if (layer.weightBytes > 0)
            ready.push_back(weights(layer, base));
        for (auto [buffer, placement] : spillsAt_[static_cast<size_t>(layer.task)])
            ready.push_back(spill(buffer, placement, base, reused));
        loads(layer, base, ready);
        TaskId end = compute(kern, layer, base, ready);
        layerEnd_.push_back({layer.task, end});
        taskEnd_[static_cast<size_t>(layer.task)] = {end, currentKernel_};
        for (BufferId b : layer.outputs) {
            Scope scope = scopeAt(program_, b, layer.task);
            if (scope != Scope::LB)
                ends.push_back(transfer(TaskKind::Store, Memory::LB, memoryOf(scope),
                                        program_.buffers[b].bytes, base, {end}));
        }
        return end;
    }

    /// Bytes of \p layer's weights that must come from DDR: those not in the
    /// GB weight cache (least recently used evicted). A weight that fits the
    /// cache is fetched whole and kept; one that does not streams its slice,
    /// and so does a gather's table: only its rows are fetched. Appends to
    /// \p fetches the DMAs that brought the weights found in the cache.
    int64_t uncachedWeightBytes(const Layer& layer, std::vector<TaskId>& fetches) {
        int64_t capacity = cacheBytesAt(layer.task);
        evictDownTo(capacity);
        int64_t fetched = 0;
        for (const Layer::WeightUse& w : layer.weights) {
            auto hit = std::find_if(cache_.begin(), cache_.end(),
                                    [&](const Cached& c) { return c.tensor == w.tensor; });
            if (hit != cache_.end()) {
                fetches.push_back(hit->fetch);
                std::rotate(hit, hit + 1, cache_.end()); // most recent last
                continue;
            }
            if (w.gathered || w.wholeBytes > capacity) {
                fetched += w.readBytes; // streamed: the part (the rows) read only
                continue;
            }
            evictDownTo(capacity - w.wholeBytes);
            cache_.push_back({w.tensor, w.wholeBytes, kNoTask}); // fetch: set by weights()
            cached_ += w.wholeBytes;
            fetched += w.wholeBytes;
        }
        return fetched;
    }

    /// The weight cache's bytes at \p task: the GB above its activations.
    int64_t cacheBytesAt(int32_t task) const {
        const auto& bytes = program_.weightCacheBytes;
        return task >= 0 && static_cast<size_t>(task) < bytes.size()
                   ? bytes[static_cast<size_t>(task)]
                   : 0;
    }

    /// Drops the least recently used weights until at most \p bytes stay
    /// cached (read-only copies: dropping one costs nothing).
    void evictDownTo(int64_t bytes) {
        while (cached_ > bytes && !cache_.empty()) {
            cached_ -= cache_.front().bytes;
            cache_.erase(cache_.begin());
        }
    }

    TaskId weights(const Layer& layer, const Task& base) {
        TaskId dma = kNoTask;
        // A weight found in the cache can be promoted once the DMA that
        // brought it has ended (it may still run: a shared launch promotes
        // early).
        std::vector<TaskId> ready = {runLaunch_, weightsAfter_};
        if (arch_.cluster.globalBuffer)
            if (int64_t bytes = uncachedWeightBytes(layer, ready); bytes > 0) {
                dma = transfer(TaskKind::WeightDma, Memory::DDR, Memory::GB, bytes, base,
                               {runLaunch_, weightsAfter_, lastDma_});
                for (Cached& c : cache_)
                    if (c.fetch == kNoTask)
                        c.fetch = dma;
            }
        lastDma_ = dma != kNoTask ? dma : lastDma_;
        // The reserve holds two layers' weights: a hoist waits for the layer
        // two back to finish computing.
        TaskId twoBack = hoists_.size() >= 2 ? layerEnd_[layerEnd_.size() - 2].second : kNoTask;
        // Promoted weights sit in the GB, fetched now or found in its cache:
        // the hoist starts there whenever the architecture has a GB.
        Memory from = arch_.cluster.globalBuffer ? Memory::GB : Memory::DDR;
        ready.push_back(dma);
        ready.push_back(twoBack);
        TaskId hoist =
            transfer(TaskKind::WeightHoist, from, Memory::LB, layer.hoistBytes, base, ready);
        hoists_.push_back(hoist);
        return hoist;
    }

    TaskId spill(BufferId buffer, int32_t placement, const Task& base, std::vector<TaskId> deps) {
        const auto& placements = program_.buffers[buffer].placements;
        Memory from = memoryOf(poolScope(placements[static_cast<size_t>(placement) - 1].pool));
        Memory to = memoryOf(poolScope(placements[static_cast<size_t>(placement)].pool));
        deps.push_back(producerEnd(buffer));
        return transfer(TaskKind::Spill, from, to, program_.buffers[buffer].bytes, base, deps);
    }

    /// The end of the layer of this kernel that wrote \p buffer, or kNoTask.
    TaskId producerEnd(BufferId buffer) const {
        return endOfTask(program_.buffers[buffer].firstTask);
    }

    /// The last compute of computation task \p task when it is a layer of
    /// this kernel or of another kernel of its stage (running at the same
    /// time), or of any kernel when kernels launch on their dependencies;
    /// kNoTask otherwise (earlier stages ended at their syncs).
    TaskId endOfTask(int32_t task) const {
        return taskEnd_[static_cast<size_t>(task)].second >= stageFirstKernel_
                   ? taskEnd_[static_cast<size_t>(task)].first
                   : kNoTask;
    }

    /// One load per source level for the layer's inputs not already in the
    /// cores' LB (one DMA descriptor chain gathering the pieces). A
    /// redistribution between cores goes LB->LB, or through GB without such a
    /// path (route()).
    void loads(const Layer& layer, const Task& base, std::vector<TaskId>& ready) {
        struct Source {
            int64_t bytes = 0;
            int64_t reloadBytes = 0; // of buffers spilled out earlier (attribution)
            std::vector<TaskId> deps;
        };
        std::map<std::pair<Scope, bool>, Source> bySource;
        for (const Operand& in : layer.inputs) {
            bool fromInput = in.buffer == kNoBuffer;
            Scope scope = fromInput ? Scope::DDR : scopeAt(program_, in.buffer, layer.task);
            TaskId producer = fromInput ? kNoTask : producerEnd(in.buffer);
            if (scope == Scope::LB && !in.redistributed) {
                ready.push_back(producer);
                continue;
            }
            Source& source = bySource[{scope, in.redistributed}];
            source.bytes += in.bytes;
            if (!fromInput && scope != program_.buffers[in.buffer].scope)
                source.reloadBytes += in.bytes;
            source.deps.push_back(producer);
        }
        for (auto& [key, source] : bySource) {
            source.deps.push_back(launch_);
            Task t = base;
            t.inserted = key.second;
            t.reloadBytes = source.reloadBytes;
            lastLoad_ = transfer(TaskKind::Load, memoryOf(key.first), Memory::LB, source.bytes, t,
                                 std::move(source.deps));
            ready.push_back(lastLoad_);
        }
    }

    TaskId compute(const Kernel& kern, const Layer& layer, const Task& base,
                   const std::vector<TaskId>& ready) {
        int64_t chunks = options_.maxChunksPerLayer > 0
                             ? std::min(layer.tileCount, options_.maxChunksPerLayer)
                             : layer.tileCount;
        chunks = std::max<int64_t>(chunks, 1);
        TaskId end = kNoTask;
        for (int64_t c = 0; c < chunks; ++c) {
            TaskId prev = kNoTask;
            for (const Segment& seg : segmentsOf(layer)) {
                Task t = base;
                t.kind = TaskKind::Compute;
                t.unit = seg.unit;
                t.op = seg.op;
                double share = seg.unit == kFallbackUnit
                                   ? 1.0
                                   : detail::parallelShare(layer.tileCount, kern.cores);
                t.durationNs = seg.ns / share / static_cast<double>(chunks);
                t.work = seg.work / static_cast<double>(chunks);
                std::vector<TaskId> deps = ready;
                deps.push_back(prev);
                prev = add(t, std::move(deps));
            }
            end = prev;
        }
        return end;
    }

    const arch::Arch& arch_;
    const Program& program_;
    StreamOptions options_;
    TaskGraph graph_;
    std::vector<std::vector<std::pair<BufferId, int32_t>>> spillsAt_;
    /// Per layer of the kernel: its computation task and the task that ends it.
    std::vector<std::pair<int32_t, TaskId>> layerEnd_;
    std::vector<TaskId> hoists_;
    /// Per computation task: its last compute and its kernel.
    std::vector<std::pair<TaskId, int32_t>> taskEnd_;
    int32_t currentKernel_ = -1;
    TaskId last_ = kNoTask;
    /// Per kernel built so far its sync, and the last sync on the
    /// accelerator's cores [0] and on the fallback CPU [1].
    std::vector<TaskId> kernelSync_;
    TaskId lastSyncOn_[2] = {kNoTask, kNoTask};
    /// Kernels are barriers, a stage of concurrent kernels one barrier:
    /// a launch waits for every sync of the stage before its own.
    std::vector<TaskId> stageStart_;
    std::vector<TaskId> stageSyncs_;
    /// The in-order stream's last task before the current stage, and the
    /// stage's first kernel.
    TaskId stageBefore_ = kNoTask;
    int32_t stageFirstKernel_ = 0;
    TaskId launch_ = kNoTask;
    /// The launch of the run of instances the current kernel belongs to.
    TaskId runLaunch_ = kNoTask;
    /// The last input load of the kernel so far, and, in a kernel that
    /// continues a launch, that of the kernel before it: its weights wait
    /// for it.
    TaskId lastLoad_ = kNoTask;
    TaskId weightsAfter_ = kNoTask;
    TaskId lastDma_ = kNoTask;
    /// A weight in the GB cache and the DMA that brought it.
    struct Cached {
        ir::TensorId tensor;
        int64_t bytes = 0;
        TaskId fetch = kNoTask;
    };
    /// The GB weight cache, least recently used first.
    std::vector<Cached> cache_;
    int64_t cached_ = 0;
};

} // namespace

TaskGraph buildStreams(const arch::Arch& arch, const Program& program,
                       const StreamOptions& options) {
    return StreamBuilder(arch, program, options).build();
}

} // namespace stagecraft::kernel
