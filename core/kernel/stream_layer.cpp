// A layer's tasks (streams.h, docs/simulator.md): weight promotion, the spills
// that make room at its task, then its tiles, in one of two ways chosen by
// the planner (Layer::doubleBuffered, layer_tiles.cpp), for every strategy:
//
// - One tile at a time: one load per source level of the inputs not already
//   in the cores' LB, compute in at most StreamOptions::maxChunksPerLayer
//   chunks (runs of ops on one unit per chunk, in op order), one store per
//   output declared in GB or DDR.
// - Double-buffered: the tiles of each core in kPipelineChunks chunks (fewer
//   when a core has fewer tiles). Chunk c's loads wait for chunk c-2's
//   compute (their buffer half is free then), its compute for its loads,
//   chunk c-1's compute and chunk c-2's stores, its stores for its compute:
//   the loads of the next chunk and the stores of the previous one overlap
//   the compute of this one. Weights kept whole are promoted before the
//   first chunk, the parts that follow the tiles with each chunk's loads.
//
// The kernel's cores take the tiles in turn, so a layer of t tiles on c cores
// computes t / ceil(t / c) times as fast as on one core.

#include "kernel/internal/layers.h"
#include "kernel/internal/stream_builder.h"

#include <algorithm>
#include <map>

namespace stagecraft::kernel::detail {

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

/// Chunk \p c's share of \p bytes cut into \p chunks (the shares add up).
int64_t shareOf(int64_t bytes, int64_t c, int64_t chunks) {
    return bytes * (c + 1) / chunks - bytes * c / chunks;
}

TaskId at(const std::vector<TaskId>& tasks, int64_t i) {
    return i >= 0 && static_cast<size_t>(i) < tasks.size() ? tasks[static_cast<size_t>(i)]
                                                           : kNoTask;
}

} // namespace

/// Lowers one layer; returns the task that ends it (its last compute).
TaskId StreamBuilder::layer(const Kernel& kern, const Layer& layer, Task base,
                            std::vector<TaskId>& ends) {
    base.layer = layer.task;
    base.op = layer.anchor;
    std::vector<TaskId> ready = {launch_};
    for (int32_t task : layer.waitFor)
        ready.push_back(endOfTask(task));
    std::vector<TaskId> reused = ready;
    if (layer.weightBytes > 0)
        weights(layer, base, layer.doubleBuffered ? layer.hoistOnceBytes : layer.hoistBytes, ready);
    for (auto [buffer, placement] : spillsAt_[static_cast<size_t>(layer.task)])
        ready.push_back(spill(buffer, placement, base, reused));
    TaskId end = layer.doubleBuffered ? pipelined(kern, layer, base, std::move(ready), ends)
                                      : serial(kern, layer, base, std::move(ready), ends);
    run_.layerEnds.push_back({layer.task, end});
    taskEnd_[static_cast<size_t>(layer.task)] = {end, currentKernel_};
    return end;
}

TaskId StreamBuilder::spill(BufferId buffer, int32_t placement, const Task& base,
                            std::vector<TaskId> deps) {
    const auto& placements = program_.buffers[buffer].placements;
    Memory from = memoryOf(poolScope(placements[static_cast<size_t>(placement) - 1].pool));
    Memory to = memoryOf(poolScope(placements[static_cast<size_t>(placement)].pool));
    deps.push_back(producerEnd(buffer));
    return transfer(TaskKind::Spill, from, to, program_.buffers[buffer].bytes, base, deps);
}

/// The layer's loads by source: its inputs not already in the cores' LB,
/// per level (a redistribution between cores apart). Inputs in LB make
/// \p ready wait for their producers.
std::vector<StreamBuilder::Source> StreamBuilder::sources(const Layer& layer,
                                                          std::vector<TaskId>& ready) {
    std::map<std::pair<Memory, bool>, Source> bySource;
    for (const Operand& in : layer.inputs) {
        bool fromInput = in.buffer == kNoBuffer;
        Scope scope = fromInput ? Scope::DDR : scopeAt(program_, in.buffer, layer.task);
        TaskId producer = fromInput ? kNoTask : producerEnd(in.buffer);
        if (scope == Scope::LB && !in.redistributed) {
            ready.push_back(producer);
            continue;
        }
        Memory from = memoryOf(scope);
        if (residency_.enabled() && scope != Scope::LB) {
            CacheResidency::Key key{in.buffer, fromInput ? in.tensor : ir::kNoTensor};
            if (residency_.read(key, in.bytes))
                from = Memory::GB;
        }
        Source& source = bySource[{from, in.redistributed}];
        source.from = from;
        source.redistributed = in.redistributed;
        source.bytes += in.bytes;
        if (!fromInput && scope != program_.buffers[in.buffer].scope)
            source.reloadBytes += in.bytes;
        source.deps.push_back(producer);
    }
    std::vector<Source> all;
    for (auto& [key, source] : bySource)
        all.push_back(std::move(source));
    return all;
}

Memory StreamBuilder::storeTo(BufferId buffer, Scope scope, int64_t& allocate) {
    allocate = 0;
    if (!residency_.enabled() || scope == Scope::LB)
        return memoryOf(scope);
    const int64_t bytes = program_.buffers[buffer].bytes;
    if (!residency_.stored({buffer, ir::kNoTensor}, bytes))
        allocate = bytes;
    return Memory::GB;
}

/// One load per source (one DMA descriptor chain gathering the pieces). A
/// redistribution between cores goes LB->LB, or through GB without such a
/// path (route()).
void StreamBuilder::serialLoads(std::vector<Source>& all, const Task& base,
                                std::vector<TaskId>& ready) {
    for (Source& source : all) {
        source.deps.push_back(launch_);
        Task t = base;
        t.inserted = source.redistributed;
        t.reloadBytes = source.reloadBytes;
        lastLoad_ = transfer(TaskKind::Load, source.from, Memory::LB, source.bytes, t,
                             std::move(source.deps));
        ready.push_back(lastLoad_);
    }
}

/// One chunk of \p chunks of the layer's compute: a task per run of ops on
/// one unit, each after the one before; returns the last.
TaskId StreamBuilder::computeChunk(const Kernel& kern, const Layer& layer, const Task& base,
                                   std::vector<TaskId> deps, int64_t chunks, bool inOrder) {
    TaskId prev = kNoTask;
    for (const Segment& seg : segmentsOf(layer)) {
        Task t = base;
        t.kind = TaskKind::Compute;
        t.unit = seg.unit;
        t.op = seg.op;
        double share = seg.unit == kFallbackUnit ? 1.0 : parallelShare(layer.tileCount, kern.cores);
        t.durationNs = seg.ns / share / static_cast<double>(chunks);
        t.work = seg.work / static_cast<double>(chunks);
        std::vector<TaskId> after = deps;
        after.push_back(prev);
        prev = inOrder ? issue(t, std::move(after)) : place(t, std::move(after));
    }
    return prev;
}

TaskId StreamBuilder::serial(const Kernel& kern, const Layer& layer, const Task& base,
                             std::vector<TaskId> ready, std::vector<TaskId>& ends) {
    std::vector<Source> all = sources(layer, ready);
    serialLoads(all, base, ready);
    int64_t chunks = options_.maxChunksPerLayer > 0
                         ? std::min(layer.tileCount, options_.maxChunksPerLayer)
                         : layer.tileCount;
    chunks = std::max<int64_t>(chunks, 1);
    TaskId end = kNoTask;
    for (int64_t c = 0; c < chunks; ++c)
        end = computeChunk(kern, layer, base, ready, chunks, true);
    for (BufferId b : layer.outputs) {
        Scope scope = scopeAt(program_, b, layer.task);
        if (scope == Scope::LB)
            continue;
        int64_t allocate = 0;
        Memory to = storeTo(b, scope, allocate);
        if (allocate > 0) // the lines written, read from DRAM first
            ends.push_back(
                transfer(TaskKind::Store, Memory::DDR, Memory::GB, allocate, base, {end}));
        ends.push_back(
            transfer(TaskKind::Store, Memory::LB, to, program_.buffers[b].bytes, base, {end}));
    }
    return end;
}

TaskId StreamBuilder::pipelined(const Kernel& kern, const Layer& layer, const Task& base,
                                std::vector<TaskId> ready, std::vector<TaskId>& ends) {
    std::vector<Source> all = sources(layer, ready);
    // The pipeline is one step of an in-order stream: it starts after the
    // tail, its tasks wait for each other only, and it ends the step. Loads
    // wait for their data; compute also for the weights and the room.
    std::vector<TaskId> loadReady = {launch_};
    if (stream_.enabled)
        loadReady.insert(loadReady.end(), stream_.tail.begin(), stream_.tail.end());
    ready.insert(ready.end(), loadReady.begin(), loadReady.end());
    int64_t cores = std::max<int64_t>(kern.cores, 1);
    int64_t perCore = (std::max<int64_t>(layer.tileCount, 1) + cores - 1) / cores;
    int64_t chunks = std::max<int64_t>(std::min(perCore, kPipelineChunks), 1);
    int64_t tileHoist = layer.hoistBytes - layer.hoistOnceBytes;
    Memory weightsFrom = arch_.cluster.globalBuffer ? Memory::GB : Memory::DDR;
    std::vector<BufferId> stored;
    std::vector<Memory> storedTo;
    std::vector<int64_t> allocated;
    for (BufferId b : layer.outputs)
        if (Scope scope = scopeAt(program_, b, layer.task); scope != Scope::LB) {
            stored.push_back(b);
            allocated.push_back(0);
            storedTo.push_back(storeTo(b, scope, allocated.back()));
        }
    std::vector<TaskId> computes;
    // Per chunk, the stores' last hops (the layer ends after them) and
    // first hops (the LB half is free after them).
    std::vector<std::vector<TaskId>> stores(static_cast<size_t>(chunks));
    std::vector<std::vector<TaskId>> storesOut(static_cast<size_t>(chunks));
    // Per source, per output, and for the tile hoists: the hops of the
    // chunk before.
    std::vector<std::vector<TaskId>> loadHops(all.size()), storeHops(stored.size()),
        allocateHops(stored.size());
    std::vector<TaskId> hoistHops;
    for (int64_t c = 0; c < chunks; ++c) {
        // The buffer half chunk c loads into is free once chunk c-2 computed.
        std::vector<TaskId> computeDeps = ready;
        for (size_t s = 0; s < all.size(); ++s) {
            Task t = base;
            t.inserted = all[s].redistributed;
            t.reloadBytes = shareOf(all[s].reloadBytes, c, chunks);
            std::vector<TaskId> deps = loadReady;
            deps.insert(deps.end(), all[s].deps.begin(), all[s].deps.end());
            deps.push_back(at(computes, c - 2));
            lastLoad_ = pipelinedTransfer(TaskKind::Load, all[s].from, Memory::LB,
                                          shareOf(all[s].bytes, c, chunks), t, std::move(deps),
                                          loadHops[s]);
            computeDeps.push_back(lastLoad_);
        }
        if (tileHoist > 0) { // the reserve's other half is free after chunk c-2
            std::vector<TaskId> deps = ready;
            deps.push_back(at(computes, c - 2));
            computeDeps.push_back(pipelinedTransfer(TaskKind::WeightHoist, weightsFrom, Memory::LB,
                                                    shareOf(tileHoist, c, chunks), base,
                                                    std::move(deps), hoistHops));
        }
        computeDeps.push_back(at(computes, c - 1));
        if (c >= 2)
            computeDeps.insert(computeDeps.end(), storesOut[static_cast<size_t>(c - 2)].begin(),
                               storesOut[static_cast<size_t>(c - 2)].end());
        computes.push_back(computeChunk(kern, layer, base, computeDeps, chunks, false));
        for (size_t o = 0; o < stored.size(); ++o) {
            BufferId b = stored[o];
            if (allocated[o] > 0) // the chunk's lines, read from DRAM first
                stores[static_cast<size_t>(c)].push_back(pipelinedTransfer(
                    TaskKind::Store, Memory::DDR, Memory::GB, shareOf(allocated[o], c, chunks),
                    base, {computes.back()}, allocateHops[o]));
            stores[static_cast<size_t>(c)].push_back(
                pipelinedTransfer(TaskKind::Store, Memory::LB, storedTo[o],
                                  shareOf(program_.buffers[b].bytes, c, chunks), base,
                                  {computes.back()}, storeHops[o]));
            storesOut[static_cast<size_t>(c)].push_back(storeHops[o].front());
        }
    }
    TaskId end = computes.back();
    std::vector<TaskId> last = {end};
    for (TaskId s : stores.back())
        last.push_back(s);
    ends.insert(ends.end(), stores.back().begin(), stores.back().end());
    if (stream_.enabled)
        stream_.tail = last;
    return end;
}

} // namespace stagecraft::kernel::detail
