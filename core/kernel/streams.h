#pragma once
/// \file
/// Instruction streams (GraphTurbo §4.4, Fig. 13): kernel plans lowered to
/// tasks for one cluster — kernel launch, weight DMA (DDR→GB) and hoisting
/// (GB→LB), activation loads, stores and spills, compute tiles dispatched to
/// compute units, and the synchronization that ends a kernel. Without
/// across-layer scheduling each kernel is one in-order stream. With it, tasks
/// wait only for their data (and for the weight reserve's two halves), so the
/// promotion of the next layer's weights overlaps the current layer's compute
/// and different units run different layers' tiles at once. Kernels are
/// barriers (an IOS stage one barrier), except in a program whose kernels
/// launch on their dependencies (Program::launchOnDependencies, DLA), where
/// host kernels run beside the accelerator's.
///
/// The cores an instance is bound to run the same tiles on their own slices,
/// so a task stands for all of them: compute tasks occupy the unit on each of
/// the kernel's cores, transfers carry the bytes of all of them.

#include "arch/arch.h"
#include "kernel/plan.h"
#include "support/id.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace stagecraft::kernel {

/// A task of the task graph: its position in issue order.
using TaskId = Id<struct TaskTag>;
inline constexpr TaskId kNoTask{-1};

enum class TaskKind : uint8_t { Launch, Sync, WeightDma, WeightHoist, Load, Store, Spill, Compute };
std::string_view taskKindName(TaskKind kind);

struct Task {
    TaskKind kind = TaskKind::Compute;
    int32_t kernel = -1;
    /// The computation task (layer) it belongs to; -1 for launch and sync.
    int32_t layer = -1;
    ir::OpId op = ir::kNoOp;
    /// Compute: the unit (first core group) or kFallbackUnit.
    int32_t unit = 0;
    /// Cores [firstCore, firstCore + cores) of the cluster the task runs on.
    int32_t cores = 1;
    int32_t firstCore = 0;
    /// Compute, launch, sync: time on the resource.
    double durationNs = 0;
    /// Transfers: one hop between two levels.
    arch::Memory from = arch::Memory::DDR;
    arch::Memory to = arch::Memory::GB;
    int64_t bytes = 0;
    /// Work (MACs or element operations) of a compute task.
    double work = 0;
    /// A load that is a §3.5 redistribute (inserted data movement).
    bool inserted = false;
    /// Of a load's bytes, those of buffers spilled out earlier and read back.
    int64_t reloadBytes = 0;
    /// Tasks this one waits for: deps[depBegin, depEnd) of the graph.
    int32_t depBegin = 0;
    int32_t depEnd = 0;

    bool isTransfer() const {
        return kind != TaskKind::Compute && kind != TaskKind::Launch && kind != TaskKind::Sync;
    }
};

struct TaskGraph {
    /// In issue order; every dependency points to an earlier task.
    IdVector<TaskId, Task> tasks;
    std::vector<TaskId> deps;
};

struct StreamOptions {
    /// §4.4 on: overlap by data dependencies; off: one in-order stream.
    bool acrossLayer = true;
    /// Tiles of a layer are dispatched in at most this many chunks (runs of
    /// consecutive tiles), which keeps the simulation small; 0: every tile.
    int64_t maxChunksPerLayer = 4;
};

/// The task graph of one cluster running \p program once.
TaskGraph buildStreams(const arch::Arch& arch, const Program& program,
                       const StreamOptions& options = {});

} // namespace stagecraft::kernel
