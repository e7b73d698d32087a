#pragma once
// Internal to core/codegen: a host program as loaded (HostProgram::Impl),
// which host_load.cpp links and allocates and host_run.cpp runs. LLVM stays
// out: the JIT is only named here, so an Impl (and so a HostProgram) is made
// and destroyed in host_load.cpp alone, the one file that sees the JIT whole.

#include "codegen/code_plan.h"
#include "codegen/host_run.h"
#include "codegen/internal/host_threads.h"
#include "support/aligned_bytes.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace stagecraft::codegen {

namespace detail {

/// An emitted kernel function (the kernel ABI, docs/codegen.md).
using KernelFn = void (*)(void** tensors, void* arena, void* scratch, int64_t core, int64_t cores,
                          void* sync);

} // namespace detail

struct HostProgram::Impl {
    const ir::Graph* graph = nullptr;
    const CodePlan* plan = nullptr;
    std::unique_ptr<llvm::orc::LLJIT> jit;
    std::vector<detail::KernelFn> kernels;
    /// Storage of the slots that are not weights.
    std::vector<AlignedBytes> buffers;
    std::vector<void*> table;
    AlignedBytes arena;
    AlignedBytes scratch;
    /// Where the arena and the scratch start in them (placedIn, host_load.cpp).
    std::byte* arenaAt = nullptr;
    std::byte* scratchAt = nullptr;
    /// Per kernel: its layer functions (`<symbol>_layers`, emitted for a
    /// kernel of several layers and cores), or null.
    std::vector<const detail::KernelFn*> layerTables;
    /// Threads for kernels bound to more than one core.
    std::unique_ptr<detail::CorePool> pool;
    int64_t hardwareThreads = hostUsableCpus();

    Status link(const EmittedProgram& program);
    Status allocate();
    void runKernel(size_t index);
    /// Runs kernels [first, last], which share a launch, in one dispatch;
    /// appends each one's seconds (from the barrier before it, on core 0).
    void runLaunch(size_t first, size_t last, std::vector<double>& seconds);
    /// Kernel \p k's layers: its table, or the kernel function as one layer.
    std::span<const detail::KernelFn> layersOf(size_t k) const;
    /// Runs the layers of kernels [first, last] (one binding) in order: the
    /// host's threads take each layer's cores in turn and meet before the
    /// next layer; \p ends, when given, gets the seconds since \p start at
    /// the end of each kernel.
    void runLayersInTurn(size_t first, size_t last, std::chrono::steady_clock::time_point start,
                         std::vector<double>* ends);
};

} // namespace stagecraft::codegen
