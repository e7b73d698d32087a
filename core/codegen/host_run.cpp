// The host runner: ORC's LLJIT links the emitted host objects (the same
// bytes `stagecraft emit --target host` writes), resolving libm from the
// process and sc_barrier to a futex barrier. Memory: one buffer per table
// slot (inputs copied in, weights read in place from the graph or packed
// transposed once where the plan says so, activations zeroed), one arena
// and one scratch area sized for the largest kernel. Kernels run one after
// the other in plan order. A kernel bound to c cores runs its c cores on
// min(c, CPUs) threads of a pool made once per program, each thread taking
// cores in turn; a kernel of several layers is run layer by layer through
// its layer table, the threads meeting between layers where the cores
// would. Instances that share a launch (KernelCode::continuesLaunch) run in
// one dispatch of the pool, meeting between them too.

#include "codegen/host_run.h"

#include "codegen/internal/lowering.h"
#include "support/limits.h"
#include "support/strings.h"

#include <llvm/ExecutionEngine/JITEventListener.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h>
#include <llvm/ExecutionEngine/SectionMemoryManager.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sched.h>
#include <semaphore>
#include <span>
#include <thread>

namespace stagecraft::codegen {

namespace {

using KernelFn = void (*)(void** tensors, void* arena, void* scratch, int64_t core, int64_t cores,
                          void* sync);

/// How a thread waits: a few rounds of `pause`, then yielding its CPU for up
/// to kSpinTime, then sleeping on a futex. The runner never has more threads
/// than CPUs, and waking a sleeping thread costs more (a virtual CPU halted,
/// then woken): PP-OCRv4 rec on two threads took 9.6 ms sleeping at once,
/// 6.0 ms spinning first. The yield matters where the guest's scheduler
/// packs runnable threads onto one virtual CPU (this VM's `sched_vcpu_pack`):
/// a thread that only paused held the CPU the thread it waited for needed,
/// for its whole spin (~0.4 ms per wait, docs/decisions.md "Host threads").
constexpr int kPauseRounds = 256;
constexpr auto kSpinTime = std::chrono::microseconds(200);

void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/// Spins until \p ready() or kSpinTime passes; whether it is ready.
template <class Ready>
bool spinUntil(const Ready& ready) {
    for (int i = 0; i < kPauseRounds; ++i) {
        if (ready())
            return true;
        pause();
    }
    const auto deadline = std::chrono::steady_clock::now() + kSpinTime;
    while (std::chrono::steady_clock::now() < deadline) {
        if (ready())
            return true;
        sched_yield();
    }
    return ready();
}

/// A reusable barrier for the cores of one kernel: the last core to arrive
/// starts the next generation and wakes the others, who spin, then wait on
/// the generation's word (a futex), with no lock to contend for afterwards.
class Barrier {
public:
    explicit Barrier(int64_t count)
        : count_(count) {}
    void wait() {
        const uint32_t generation = generation_.load(std::memory_order_acquire);
        if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == count_) {
            arrived_.store(0, std::memory_order_relaxed);
            generation_.fetch_add(1, std::memory_order_release);
            generation_.notify_all();
            return;
        }
        auto released = [&] {
            return generation_.load(std::memory_order_acquire) != generation;
        };
        if (spinUntil(released))
            return;
        while (!released())
            generation_.wait(generation, std::memory_order_acquire);
    }

private:
    std::atomic<int64_t> arrived_{0};
    std::atomic<uint32_t> generation_{0};
    int64_t count_;
};

extern "C" void stagecraftHostBarrier(void* sync) {
    static_cast<Barrier*>(sync)->wait();
}

std::string message(llvm::Error error) {
    return llvm::toString(std::move(error));
}

/// Threads that stand for the cores of the widest binding but the first:
/// run() runs core 0 of a job on the calling thread and wakes just the
/// helpers the job needs (one semaphore each), then waits for them.
class CorePool {
public:
    explicit CorePool(int64_t helpers)
        : helpers_(static_cast<size_t>(helpers)) {
        for (size_t i = 0; i < helpers_.size(); ++i)
            helpers_[i].thread = std::thread([this, i] { serve(i); });
    }
    ~CorePool() {
        stop_ = true;
        for (Helper& h : helpers_)
            h.wake.release();
        for (Helper& h : helpers_)
            h.thread.join();
    }

    /// Runs job(0) .. job(count - 1) at once; count - 1 <= helpers.
    void run(const std::function<void(int64_t)>& job, int64_t count) {
        job_ = &job;
        running_.store(static_cast<int32_t>(count - 1), std::memory_order_release);
        for (int64_t i = 1; i < count; ++i)
            helpers_[static_cast<size_t>(i - 1)].wake.release();
        job(0);
        if (spinUntil([&] { return running_.load(std::memory_order_acquire) == 0; }))
            return;
        for (int32_t left = running_.load(std::memory_order_acquire); left != 0;
             left = running_.load(std::memory_order_acquire))
            running_.wait(left, std::memory_order_acquire);
    }

private:
    struct Helper {
        std::thread thread;
        std::binary_semaphore wake{0};
    };

    void serve(size_t index) {
        while (true) {
            if (!spinUntil([&] { return helpers_[index].wake.try_acquire(); }))
                helpers_[index].wake.acquire();
            if (stop_)
                return;
            (*job_)(static_cast<int64_t>(index) + 1);
            if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1)
                running_.notify_one();
        }
    }

    std::vector<Helper> helpers_;
    const std::function<void(int64_t)>* job_ = nullptr;
    /// Helpers still running the job (a futex word).
    std::atomic<int32_t> running_{0};
    std::atomic<bool> stop_{false};
};

/// Work (MACs or element operations) below which waking a thread for a
/// barrier-free kernel costs more than it saves (a wake-up is ~50 us here).
constexpr double kInlineWork = 2e5;

/// The JIT's builder. STAGECRAFT_PERF_JIT set: objects are linked by
/// RuntimeDyld with LLVM's perf listener, so that `perf record` + `perf
/// inject --jit` name the kernels' functions (docs/codegen.md).
llvm::orc::LLJITBuilder jitBuilder() {
    llvm::orc::LLJITBuilder builder;
    if (std::getenv("STAGECRAFT_PERF_JIT") == nullptr)
        return builder;
    builder.setObjectLinkingLayerCreator(
        [](llvm::orc::ExecutionSession& session, const llvm::Triple&) {
            auto layer = std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
                session, [] { return std::make_unique<llvm::SectionMemoryManager>(); });
            if (llvm::JITEventListener* perf = llvm::JITEventListener::createPerfJITEventListener())
                layer->registerJITEventListener(*perf);
            return layer;
        });
    return builder;
}

/// The CPUs this process may run on (its affinity: `taskset -c 0` gives 1).
int64_t usableCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    return std::max<int64_t>(1, std::thread::hardware_concurrency());
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

struct HostProgram::Impl {
    const ir::Graph* graph = nullptr;
    const CodePlan* plan = nullptr;
    std::unique_ptr<llvm::orc::LLJIT> jit;
    std::vector<KernelFn> kernels;
    /// Storage of the slots that are not weights.
    std::vector<std::vector<std::byte>> buffers;
    std::vector<void*> table;
    std::vector<std::byte> arena;
    std::vector<std::byte> scratch;
    /// Per kernel: its layer functions (`<symbol>_layers`, emitted for a
    /// kernel of several layers and cores), or null.
    std::vector<const KernelFn*> layerTables;
    /// Threads for kernels bound to more than one core.
    std::unique_ptr<CorePool> pool;
    int64_t hardwareThreads = usableCpus();

    Status link(const EmittedProgram& program);
    Status allocate();
    void runKernel(size_t index);
    /// Runs kernels [first, last], which share a launch, in one dispatch;
    /// appends each one's seconds (from the barrier before it, on core 0).
    void runLaunch(size_t first, size_t last, std::vector<double>& seconds);
    /// Kernel \p k's layers: its table, or the kernel function as one layer.
    std::span<const KernelFn> layersOf(size_t k) const;
    /// Runs the layers of kernels [first, last] (one binding) in order: the
    /// host's threads take each layer's cores in turn and meet before the
    /// next layer; \p ends, when given, gets the seconds since \p start at
    /// the end of each kernel.
    void runLayersInTurn(size_t first, size_t last, std::chrono::steady_clock::time_point start,
                         std::vector<double>* ends);
};

Status HostProgram::Impl::link(const EmittedProgram& program) {
    detail::initializeTargets();
    auto built = jitBuilder().create();
    if (!built)
        return Error("host runner: " + message(built.takeError()));
    jit = std::move(*built);
    llvm::orc::JITDylib& dylib = jit->getMainJITDylib();
    auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
        jit->getDataLayout().getGlobalPrefix());
    if (!process)
        return Error("host runner: " + message(process.takeError()));
    dylib.addGenerator(std::move(*process));
    llvm::orc::SymbolMap runtime;
    runtime[jit->mangleAndIntern("sc_barrier")] = {
        llvm::orc::ExecutorAddr::fromPtr(&stagecraftHostBarrier),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
    if (llvm::Error e = dylib.define(llvm::orc::absoluteSymbols(std::move(runtime))))
        return Error("host runner: " + message(std::move(e)));
    for (const EmittedKernel& k : program.kernels)
        for (size_t p = 0; p < k.parts.size(); ++p) {
            auto buffer =
                llvm::MemoryBuffer::getMemBufferCopy(k.parts[p].object, k.fileStem(p) + ".o");
            if (llvm::Error e = jit->addObjectFile(std::move(buffer)))
                return Error("host runner: kernel " + k.symbol + ": " + message(std::move(e)));
        }
    for (size_t i = 0; i < program.kernels.size(); ++i) {
        const EmittedKernel& k = program.kernels[i];
        auto address = jit->lookup(k.symbol);
        if (!address)
            return Error("host runner: kernel " + k.symbol + ": " + message(address.takeError()));
        kernels.push_back(address->toPtr<KernelFn>());
        const KernelCode& code = plan->kernels[i];
        layerTables.push_back(nullptr);
        if (code.cores < 2 || code.layers.size() < 2)
            continue;
        auto layers = jit->lookup(k.symbol + "_layers");
        if (!layers)
            return Error("host runner: kernel " + k.symbol + ": " + message(layers.takeError()));
        layerTables.back() = layers->toPtr<const KernelFn*>();
    }
    return Status::success();
}

/// The \p rows x cols matrix of \p size-byte elements in \p bytes, transposed.
std::vector<std::byte> transposed(std::span<const std::byte> bytes, const ir::Shape& shape,
                                  int64_t size) {
    const auto rows = static_cast<size_t>(shape[0]), cols = static_cast<size_t>(shape[1]);
    const auto width = static_cast<size_t>(size);
    std::vector<std::byte> out(bytes.size());
    for (size_t r = 0; r < rows; ++r)
        for (size_t c = 0; c < cols; ++c)
            std::memcpy(&out[(c * rows + r) * width], &bytes[(r * cols + c) * width], width);
    return out;
}

Status checkRunMemory(const ir::Graph& graph, const CodePlan& plan) {
    int64_t total = 0;
    int64_t largest = 0;
    std::string largestName;
    auto add = [&](int64_t bytes, const std::string& name) {
        total = bytes < 0 || total < 0 || __builtin_add_overflow(total, bytes, &total) ? -1 : total;
        if (bytes > largest) {
            largest = bytes;
            largestName = name;
        }
    };
    for (const GlobalTensor& g : plan.globals) {
        const ir::Tensor& t = graph.tensor(g.tensor);
        if (g.role != TensorRole::Weight || g.hostTransposed)
            add(g.bytes, "tensor " + quote(t.name));
        else if (t.data && t.data->storage() == ir::WeightStorage::Derived)
            add(checkedProduct(t.data->byteSize(), 2), "weight " + quote(t.name));
    }
    int64_t arena = 0, scratch = 0;
    for (const KernelCode& k : plan.kernels) {
        arena = std::max(arena, k.arenaBytes);
        int64_t cores = checkedProduct(hostScratchBytes(graph, k), k.cores);
        scratch = cores < 0 || scratch < 0 ? -1 : std::max(scratch, cores);
    }
    add(arena, "the arena");
    add(scratch, "the scratch");
    return checkAllocation(total, "running the kernels (largest buffer: " + largestName + ", " +
                                      formatBytes(largest) + ")");
}

Status HostProgram::Impl::allocate() {
    SC_RETURN_IF_ERROR(checkRunMemory(*graph, *plan));
    table.assign(plan->globals.size(), nullptr);
    buffers.resize(plan->globals.size());
    for (size_t slot = 0; slot < plan->globals.size(); ++slot) {
        const GlobalTensor& g = plan->globals[slot];
        const ir::Tensor& t = graph->tensor(g.tensor);
        if (g.role == TensorRole::Weight) {
            auto bytes = t.data->bytes();
            if (!bytes.ok())
                return Error("weight '" + t.name + "': " + bytes.error().message());
            table[slot] = const_cast<std::byte*>(bytes->data());
            if (g.hostTransposed) {
                buffers[slot] = transposed(*bytes, t.shape, ir::dtypeSize(t.dtype));
                table[slot] = buffers[slot].data();
            }
            continue;
        }
        buffers[slot].assign(static_cast<size_t>(std::max<int64_t>(g.bytes, 1)), std::byte{0});
        table[slot] = buffers[slot].data();
        // A graph output that import folded to a constant (Shape, Size of a
        // static tensor) is computed by no kernel: it holds its value.
        if (t.isConstant() && t.data) {
            auto bytes = t.data->bytes();
            if (!bytes.ok())
                return Error("output '" + t.name + "': " + bytes.error().message());
            std::copy(bytes->begin(), bytes->end(), buffers[slot].begin());
        }
    }
    int64_t arenaBytes = 1, scratchBytes = 1;
    for (const KernelCode& k : plan->kernels) {
        arenaBytes = std::max(arenaBytes, k.arenaBytes);
        scratchBytes = std::max(scratchBytes, hostScratchBytes(*graph, k) * k.cores);
    }
    arena.assign(static_cast<size_t>(arenaBytes), std::byte{0});
    scratch.assign(static_cast<size_t>(scratchBytes), std::byte{0});
    int64_t widest = 1;
    for (const KernelCode& k : plan->kernels)
        widest = std::max(widest, k.cores);
    if (std::min(widest, hardwareThreads) > 1)
        pool = std::make_unique<CorePool>(std::min(widest, hardwareThreads) - 1);
    return Status::success();
}

void HostProgram::Impl::runKernel(size_t index) {
    KernelFn fn = kernels[index];
    const KernelCode& code = plan->kernels[index];
    int64_t cores = code.cores;
    Barrier barrier(cores);
    auto runCore = [&](int64_t core) {
        fn(table.data(), arena.data(), scratch.data(), core, cores, &barrier);
    };
    // Without barriers the cores are independent; a kernel too small to
    // repay waking a thread runs them in turn on this one.
    bool barriers = code.layers.size() > 1;
    if (cores == 1 || (!barriers && code.work < kInlineWork)) {
        for (int64_t core = 0; core < cores; ++core)
            runCore(core);
        return;
    }
    if (barriers) { // the cores meet between layers
        runLayersInTurn(index, index, std::chrono::steady_clock::now(), nullptr);
        return;
    }
    // Otherwise as many threads as the host has take the cores in turn.
    int64_t threads = std::min(cores, hardwareThreads);
    if (threads == 1) {
        for (int64_t core = 0; core < cores; ++core)
            runCore(core);
        return;
    }
    pool->run(
        [&](int64_t thread) {
            for (int64_t core = thread; core < cores; core += threads)
                runCore(core);
        },
        threads);
}

void HostProgram::Impl::runLaunch(size_t first, size_t last, std::vector<double>& seconds) {
    std::vector<double> ends(last - first + 1, 0.0);
    runLayersInTurn(first, last, std::chrono::steady_clock::now(), &ends);
    for (size_t i = 0; i < ends.size(); ++i)
        seconds.push_back(ends[i] - (i > 0 ? ends[i - 1] : 0.0));
}

std::span<const KernelFn> HostProgram::Impl::layersOf(size_t k) const {
    if (layerTables[k] != nullptr)
        return {layerTables[k], plan->kernels[k].layers.size()};
    return {&kernels[k], 1};
}

// A kernel's cores are the binding's (its tiles are dealt to them as the
// plan says); only how the host runs them is the runner's: with more cores
// than CPUs, one thread per core would switch threads at every barrier
// (MobileNet-v2's 65 layers, 8 cores on 2 CPUs: 17 % of the run on one
// CPU), so each thread takes cores in turn, layer by layer, and the threads
// meet where the cores would. Each core computes what it would, in the
// same order: the bits do not change.
void HostProgram::Impl::runLayersInTurn(size_t first, size_t last,
                                        std::chrono::steady_clock::time_point start,
                                        std::vector<double>* ends) {
    const int64_t cores = plan->kernels[first].cores;
    const int64_t threads = std::min(cores, hardwareThreads);
    Barrier between(threads);
    auto runThread = [&](int64_t thread) {
        for (size_t k = first; k <= last; ++k) {
            const std::span<const KernelFn> layers = layersOf(k);
            for (size_t l = 0; l < layers.size(); ++l) {
                for (int64_t core = thread; core < cores; core += threads)
                    layers[l](table.data(), arena.data(), scratch.data(), core, cores, &between);
                between.wait();
            }
            if (thread == 0 && ends != nullptr)
                (*ends)[k - first] = secondsSince(start);
        }
    };
    if (threads == 1)
        runThread(0);
    else
        pool->run(runThread, threads);
}

namespace {

double medianOf(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

void emptyKernel(void**, void*, void*, int64_t, int64_t, void*) {}

} // namespace

RuntimeCosts measureRuntimeCosts(int64_t cores, int repetitions) {
    const int64_t threads = std::clamp<int64_t>(cores, 1, usableCpus());
    RuntimeCosts costs;
    volatile KernelFn empty = &emptyKernel;
    std::vector<double> calls, starts, barriers;
    for (int r = 0; r < repetitions; ++r) {
        auto start = std::chrono::steady_clock::now();
        empty(nullptr, nullptr, nullptr, 0, 1, nullptr);
        calls.push_back(secondsSince(start) * 1e9);
    }
    costs.callNs = medianOf(calls);
    if (threads == 1)
        return costs;
    CorePool pool(threads - 1);
    Barrier barrier(threads);
    for (int r = 0; r < repetitions; ++r) {
        auto start = std::chrono::steady_clock::now();
        pool.run([](int64_t) {}, threads);
        starts.push_back(secondsSince(start) * 1e9);
    }
    costs.startNs = medianOf(starts);
    constexpr int kRounds = 16;
    for (int r = 0; r < repetitions / kRounds + 1; ++r) {
        auto start = std::chrono::steady_clock::now();
        pool.run(
            [&](int64_t) {
                for (int i = 0; i < kRounds; ++i)
                    barrier.wait();
            },
            threads);
        barriers.push_back((secondsSince(start) * 1e9 - costs.startNs) / kRounds);
    }
    costs.barrierNs = std::max(0.0, medianOf(barriers));
    return costs;
}

HostProgram::HostProgram(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}

HostProgram::~HostProgram() = default;

Expected<std::unique_ptr<HostProgram>>
HostProgram::load(const ir::Graph& graph, const CodePlan& plan, const EmittedProgram& program) {
    if (program.target != Target::Host)
        return Error("host runner: the kernels were emitted for " +
                     std::string(targetName(program.target)) + ", not for the host");
    if (program.kernels.size() != plan.kernels.size())
        return Error("host runner: the program has " + std::to_string(program.kernels.size()) +
                     " kernels, the plan " + std::to_string(plan.kernels.size()));
    auto impl = std::make_unique<Impl>();
    impl->graph = &graph;
    impl->plan = &plan;
    SC_RETURN_IF_ERROR(impl->link(program));
    SC_RETURN_IF_ERROR(impl->allocate());
    return std::unique_ptr<HostProgram>(new HostProgram(std::move(impl)));
}

Expected<TensorSet> HostProgram::run(const TensorSet& inputs, HostRunStats* stats) {
    const ir::Graph& graph = *impl_->graph;
    SC_ASSIGN_OR_RETURN(TensorSet matched, matchInputs(graph, inputs));
    for (const HostTensor& in : matched) {
        int32_t slot = impl_->plan->slotOf(*graph.findTensor(in.name));
        if (slot >= 0 && !in.data.empty())
            std::memcpy(impl_->table[static_cast<size_t>(slot)], in.data.data(), in.data.size());
    }
    auto start = std::chrono::steady_clock::now();
    std::vector<double> perKernel;
    const auto& codes = impl_->plan->kernels;
    for (size_t k = 0; k < impl_->kernels.size(); ++k) {
        size_t last = k;
        while (last + 1 < codes.size() && codes[last + 1].continuesLaunch &&
               codes[last + 1].cores == codes[k].cores)
            ++last;
        if (last > k) {
            impl_->runLaunch(k, last, perKernel);
            k = last;
            continue;
        }
        auto kernelStart = std::chrono::steady_clock::now();
        impl_->runKernel(k);
        perKernel.push_back(secondsSince(kernelStart));
    }
    if (stats != nullptr)
        *stats = {secondsSince(start), std::move(perKernel)};
    TensorSet outputs;
    for (ir::TensorId id : graph.outputs()) {
        const ir::Tensor& t = graph.tensor(id);
        HostTensor out{t.name, t.dtype, t.shape, {}};
        int32_t slot = impl_->plan->slotOf(id);
        if (slot < 0)
            return Error("output '" + t.name + "' is not computed by any kernel");
        const auto* bytes = static_cast<const std::byte*>(impl_->table[static_cast<size_t>(slot)]);
        out.data.assign(bytes, bytes + t.byteSize());
        outputs.push_back(std::move(out));
    }
    return outputs;
}

} // namespace stagecraft::codegen
