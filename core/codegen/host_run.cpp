// Running a loaded host program (host_load.cpp links and allocates it).
// Inputs are copied into their slots and kernels run one after the other in
// plan order. A kernel bound to c cores runs its c cores on min(c, CPUs)
// threads of a pool made once per program (host_threads.cpp), each thread
// taking cores in turn; a kernel of several layers is run layer by layer
// through its layer table, the threads meeting between layers where the
// cores would. Instances that share a launch (KernelCode::continuesLaunch)
// run in one dispatch of the pool, meeting between them too. Also here: what
// this machinery itself costs (measureRuntimeCosts).

#include "codegen/host_run.h"

#include "codegen/code_plan.h"
#include "codegen/cpu_pinning.h"
#include "codegen/internal/host_program.h"
#include "codegen/internal/host_threads.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace stagecraft::codegen {

using detail::Barrier;
using detail::CorePool;
using detail::KernelFn;

namespace {

/// Work (MACs or element operations) below which waking a thread for a
/// barrier-free kernel costs more than it saves (a wake-up is ~50 us here).
constexpr double kInlineWork = 2e5;

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

void HostProgram::Impl::runKernel(size_t index) {
    KernelFn fn = kernels[index];
    const KernelCode& code = plan->kernels[index];
    int64_t cores = code.cores;
    Barrier barrier(cores);
    auto runCore = [&](int64_t core) {
        fn(table.data(), arenaAt, scratchAt, core, cores, &barrier);
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
                    layers[l](table.data(), arenaAt, scratchAt, core, cores, &between);
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
    const int64_t threads = std::clamp<int64_t>(cores, 1, hostUsableCpus());
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
    PinnedCaller pinned;
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

Expected<TensorSet> HostProgram::run(const TensorSet& inputs, HostRunStats* stats) {
    const ir::Graph& graph = *impl_->graph;
    SC_ASSIGN_OR_RETURN(TensorSet matched, matchInputs(graph, inputs));
    for (const HostTensor& in : matched) {
        int32_t slot = impl_->plan->slotOf(*graph.findTensor(in.name));
        if (slot >= 0 && !in.data.empty())
            std::memcpy(impl_->table[static_cast<size_t>(slot)], in.data.data(), in.data.size());
    }
    std::optional<PinnedCaller> pinned;
    if (impl_->pool != nullptr) // the threads stay on their CPUs for the run
        pinned.emplace();
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
