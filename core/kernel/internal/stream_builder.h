#pragma once
// Internal to core/kernel: the builder of instruction streams (streams.h).
// streams.cpp lowers kernels (launches, barriers, syncs), stream_layer.cpp a
// layer's loads, compute and stores, one tile at a time or double-buffered,
// stream_weights.cpp its weight promotion through the GB weight cache.

#include "kernel/streams.h"

#include <map>
#include <utility>
#include <vector>

namespace stagecraft::kernel::detail {

/// The GB bytes the activations leave free keep weights fetched whole,
/// least recently used first out (docs/simulator.md, "GB weight cache").
class WeightCache {
public:
    /// Bytes of \p layer's weights to fetch from DDR at a room of
    /// \p capacity bytes; appends to \p fetches the DMAs that brought the
    /// weights found. New entries wait for their DMA (setFetch).
    int64_t uncachedBytes(const Layer& layer, int64_t capacity, std::vector<TaskId>& fetches);
    /// Marks the entries added since the last call as brought by \p dma.
    void setFetch(TaskId dma);

private:
    void evictDownTo(int64_t bytes);

    struct Entry {
        ir::TensorId tensor;
        int64_t bytes = 0;
        TaskId fetch = kNoTask;
    };
    std::vector<Entry> entries_;
    int64_t bytes_ = 0;
};

/// On an architecture whose GB is a hardware cache (a CPU's last-level
/// cache): which tensors the cache still holds, by the residency rule of
/// docs/simulator.md ("A GB that is a cache"): every byte stored through it
/// or brought into it advances a clock; a tensor touched when the clock
/// read t is still held while the bytes since t and its own fit the cache;
/// a store to lines it does not hold reads them first (write-allocate).
/// stream_cache.cpp.
class CacheResidency {
public:
    /// Tensors are keyed by their buffer, or by their tensor for a graph
    /// input (never stored: held from the start, written by the caller).
    struct Key {
        BufferId buffer = kNoBuffer;
        ir::TensorId input = ir::kNoTensor;
        auto operator<=>(const Key&) const = default;
    };

    explicit CacheResidency(int64_t capacity);
    bool enabled() const { return capacity_ > 0; }
    /// Starts from what \p previous (the same program's run before) left in
    /// the cache: the measurement repeats a program, so a run starts warm.
    void continueFrom(const CacheResidency& previous);
    /// \p bytes of \p key written into the cache; whether its lines were
    /// held (else the write allocates them: a read from DRAM first).
    bool stored(Key key, int64_t bytes);
    /// Whether a read of \p bytes of \p key finds them in the cache; a miss
    /// brings them in.
    bool read(Key key, int64_t bytes);
    /// Other bytes brought into the cache (weights fetched from DDR).
    void brought(int64_t bytes);

private:
    bool held(Key key, int64_t bytes) const;

    int64_t capacity_ = 0;
    int64_t clock_ = 0;
    /// The clock when each key was last touched; negative: in the run before.
    std::map<Key, int64_t> touched_;
};

/// Without across-layer scheduling a kernel is one in-order stream: every
/// task waits for the tasks issued just before it (the tail). A
/// double-buffered layer's pipeline is one step of that stream: it starts
/// after the tail and becomes the tail as a whole. With across-layer
/// scheduling there is no tail: tasks wait for their data only.
struct InOrderStream {
    bool enabled = false;
    std::vector<TaskId> tail;
};

/// What a launch run (a kernel and the instances that continue its
/// launch) has issued so far, for the weights of its later layers.
struct LaunchRun {
    TaskId launch = kNoTask;
    /// Per layer of the run: its computation task and the task that ends it.
    std::vector<std::pair<int32_t, TaskId>> layerEnds;
    /// Layers that promoted weights, in order (the reserve's two-layer rule).
    int64_t hoistedLayers = 0;
    TaskId lastDma = kNoTask;
};

/// The barrier state between kernels: a launch waits for every sync of the
/// stage before its own (an IOS stage of concurrent kernels is one barrier).
struct Barriers {
    std::vector<TaskId> stageStart;
    std::vector<TaskId> stageSyncs;
    /// The in-order tail before the current stage (each concurrent kernel of
    /// a stage is its own stream from there) and the stage's first kernel.
    std::vector<TaskId> tailBeforeStage;
    int32_t stageFirstKernel = 0;
    /// Per kernel built so far its sync, and the last sync on the
    /// accelerator's cores [0] and on the fallback CPU [1].
    std::vector<TaskId> kernelSync;
    TaskId lastSyncOn[2] = {kNoTask, kNoTask};
};

class StreamBuilder {
public:
    StreamBuilder(const arch::Arch& arch, const Program& program, const StreamOptions& options);
    TaskGraph build();
    /// A cache GB's state at the end of build() (CacheResidency::continueFrom).
    const CacheResidency& residency() const { return residency_; }
    /// Builds as the run after \p previous's.
    void continueFrom(const CacheResidency& previous) { residency_.continueFrom(previous); }

private:
    // streams.cpp: tasks and kernels.
    TaskId place(Task task, std::vector<TaskId> deps);
    TaskId issue(Task task, std::vector<TaskId> deps);
    std::vector<std::pair<arch::Memory, arch::Memory>> route(arch::Memory from,
                                                             arch::Memory to) const;
    TaskId transfer(TaskKind kind, arch::Memory from, arch::Memory to, int64_t bytes,
                    const Task& base, std::vector<TaskId> deps, bool inOrder = true);
    /// A transfer of a pipeline: each hop also waits for the same hop of
    /// the transfer before it (\p previous, one per hop, updated), so that a
    /// chunk's hop through the GB overlaps the next chunk's first hop.
    TaskId pipelinedTransfer(TaskKind kind, arch::Memory from, arch::Memory to, int64_t bytes,
                             const Task& base, std::vector<TaskId> deps,
                             std::vector<TaskId>& previous);
    void kernel(int32_t k);
    void enterKernel(const Kernel& kern, int32_t k);
    std::vector<TaskId> launchDependencies(const Kernel& kern) const;
    TaskId endOfTask(int32_t task) const;
    TaskId producerEnd(BufferId buffer) const;

    // stream_layer.cpp: a layer.
    TaskId layer(const Kernel& kern, const Layer& layer, Task base, std::vector<TaskId>& ends);
    TaskId spill(BufferId buffer, int32_t placement, const Task& base, std::vector<TaskId> deps);
    /// The layer's inputs from one level (one DMA descriptor chain
    /// gathering their pieces), or redistributed between cores.
    struct Source {
        arch::Memory from = arch::Memory::DDR;
        bool redistributed = false;
        int64_t bytes = 0;
        /// Of the bytes, those of buffers spilled out earlier (attribution).
        int64_t reloadBytes = 0;
        std::vector<TaskId> deps;
    };
    std::vector<Source> sources(const Layer& layer, std::vector<TaskId>& ready);
    /// Where a store of \p buffer at \p scope goes: into the cache when the
    /// GB is one and the scope is DDR (write-back), else the scope's level;
    /// \p allocate gets the bytes a write to lines the cache does not hold
    /// reads from DDR first (write-allocate), else 0.
    arch::Memory storeTo(BufferId buffer, Scope scope, int64_t& allocate);
    void serialLoads(std::vector<Source>& sources, const Task& base, std::vector<TaskId>& ready);
    TaskId computeChunk(const Kernel& kern, const Layer& layer, const Task& base,
                        std::vector<TaskId> deps, int64_t chunks, bool inOrder);
    TaskId serial(const Kernel& kern, const Layer& layer, const Task& base,
                  std::vector<TaskId> ready, std::vector<TaskId>& ends);
    TaskId pipelined(const Kernel& kern, const Layer& layer, const Task& base,
                     std::vector<TaskId> ready, std::vector<TaskId>& ends);

    // stream_weights.cpp: weight promotion.
    void weights(const Layer& layer, const Task& base, int64_t hoistBytes,
                 std::vector<TaskId>& after);
    int64_t cacheBytesAt(int32_t task) const;

    const arch::Arch& arch_;
    const Program& program_;
    StreamOptions options_;
    TaskGraph graph_;
    InOrderStream stream_;
    Barriers barriers_;
    LaunchRun run_;
    WeightCache cache_;
    CacheResidency residency_;
    /// Spills that happen at each computation task: (buffer, placement).
    std::vector<std::vector<std::pair<BufferId, int32_t>>> spillsAt_;
    /// Per computation task: its last compute and its kernel.
    std::vector<std::pair<TaskId, int32_t>> taskEnd_;
    int32_t currentKernel_ = -1;
    /// The current kernel's launch.
    TaskId launch_ = kNoTask;
    /// The last input load of the kernel so far, and, in a kernel that
    /// continues a launch, that of the kernel before it: its weights wait
    /// for it.
    TaskId lastLoad_ = kNoTask;
    TaskId weightsAfter_ = kNoTask;
};

} // namespace stagecraft::kernel::detail
