#pragma once
/// \file
/// Kernel plans (GraphTurbo §4.1–4.3): a schedule lowered to kernels, one per
/// sub-graph instance, in execution order. A kernel is a sequence of layers
/// (§4.1: the ops TVM's fusion would put in one kernel, restricted to the
/// instance); each layer has an anchor op whose two outer loops are tiled,
/// the other ops fused into its loop nest, weights promoted DDR→GB→LB through
/// the LB's fixed reserve. Layer outputs are buffers: stitched in LB inside a
/// kernel (§4.2), declared at the instance's scope when they leave it. The
/// buffers are then allocated with reuse and spilling (§4.3). Plans are data,
/// so that the simulator and code generation read the same loop nests.

#include "arch/arch.h"
#include "kernel/allocation.h"
#include "schedule/schedule.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace stagecraft::kernel {

using schedule::Scope;

/// Unit index meaning "the architecture's fallback CPU".
inline constexpr int32_t kFallbackUnit = -1;

/// The work of one fused op in a layer, for the whole instance.
struct OpWork {
    ir::OpId op = ir::kNoOp;
    /// Index of the unit in the cluster's first core group, or kFallbackUnit.
    int32_t unit = 0;
    /// MACs (complex ops) or element operations of the instance's slice.
    double work = 0;
    /// Nanoseconds for the whole slice on one unit.
    double unitNs = 0;
};

/// A tiled loop of the anchor op (§4.1): tile divides extent.
struct TileLoop {
    std::string loop;
    int64_t extent = 1;
    int64_t tile = 1;
};

/// A buffer's index in Program::buffers.
using BufferId = Id<struct BufferTag>;
inline constexpr BufferId kNoBuffer{-1};

/// An activation a layer reads.
struct Operand {
    ir::TensorId tensor = ir::kNoTensor;
    /// Bytes read (the part of the buffer the layer needs, halos included).
    int64_t bytes = 0;
    /// The buffer read, or kNoBuffer for a graph input (in DDR).
    BufferId buffer = kNoBuffer;
    /// A §3.5 redistribute sits on this read: the piece moves between cores
    /// even though it is in LB. (A concat of LB pieces is addressing only; a
    /// copy is the load from where the piece is.)
    bool redistributed = false;
};

struct Layer {
    /// The computation task this layer is (§4.3), counted over the program.
    int32_t task = 0;
    ir::OpId anchor = ir::kNoOp;
    /// The layer's ops in graph order, the anchor among them.
    std::vector<OpWork> ops;
    /// The anchor's outer (at most two) loops with their tile sizes.
    std::vector<TileLoop> tiles;
    int64_t tileCount = 1;
    /// Double-buffered (latency hiding inside a layer): its tiles are sized
    /// so that a core's LB holds two tiles' buffers, and each core loads its
    /// next tile and stores its previous one while it computes the current
    /// one. Chosen where it is faster than one tile at a time at the full LB
    /// (layer_tiles.cpp); false: every tile loads, computes and stores in turn.
    bool doubleBuffered = false;
    /// Bytes of the weight slices the layer promotes.
    int64_t weightBytes = 0;
    /// Weight bytes hoisted into the LBs of all the kernel's cores, as the
    /// code promotes them: a weight's part that follows the tiled loops once
    /// per tile (a conv tiled by output channels splits its weights), a
    /// weight that follows none whole into each core that takes a tile (one
    /// tiled by images or rows needs it all on every such core).
    int64_t hoistBytes = 0;
    /// Of hoistBytes, those promoted once before the first tile (weights
    /// kept whole in each core); the rest follows the tiles.
    int64_t hoistOnceBytes = 0;
    /// The weight tensors read: the bytes of the whole tensor (what the GB
    /// weight cache keeps, docs/simulator.md) and of the part read.
    struct WeightUse {
        ir::TensorId tensor = ir::kNoTensor;
        int64_t wholeBytes = 0;
        int64_t readBytes = 0;
        /// A gather's table: the rows read are known only at run time, so the
        /// DMA fetches those rows and never the whole table.
        bool gathered = false;
        /// Cut by no tile and larger than what the LB keeps for weights (its
        /// reserve, or the whole LB without one): it cannot stay in a core
        /// across tiles, so every tile reads it from where it lives and the
        /// code reads it in place rather than promoting it.
        bool streamed = false;
    };
    std::vector<WeightUse> weights;
    std::vector<Operand> inputs;
    /// Buffers the layer writes.
    std::vector<BufferId> outputs;
    /// Earlier computation tasks that last used memory this layer's buffers
    /// (or the spills it makes room with) now reuse: the layer may not
    /// compute before they end (write-after-read on reused space, §4.3-4.4).
    std::vector<int32_t> waitFor;
};

struct Kernel {
    schedule::InstanceId instance;
    std::string label;
    /// Cores the instance is bound to: firstCore .. firstCore + cores - 1.
    int64_t cores = 1;
    int64_t firstCore = 0;
    /// Launched with the kernels before it, back to the last one without
    /// the flag, on other cores (IOS's concurrent stages); the next kernel
    /// without it waits for all of them. Buffers the stage reads or writes
    /// stay allocated to its end, as its kernels run at once.
    bool joinsStage = false;
    /// Runs in the launch of the kernel before it: the next instance of the
    /// same group on the same cores, placed right after it. No launch of its
    /// own; its cores meet the previous instance's at the sync (a barrier),
    /// and its weights are promoted while that instance still computes
    /// (docs/simulator.md, "Instances in one launch").
    bool continuesLaunch = false;
    std::vector<Layer> layers;
};

/// A layer output that outlives its layer.
struct Buffer {
    ir::TensorId tensor = ir::kNoTensor;
    /// "<instance>:<tensor>", for reports and errors.
    std::string name;
    /// Bytes of the instance's piece over all its cores.
    int64_t bytes = 0;
    int64_t cores = 1;
    int64_t firstCore = 0;
    /// Declared scope: LB for buffers stitched inside a kernel, the
    /// instance's scope for kernel outputs.
    Scope scope = Scope::LB;
    int32_t kernel = 0;
    /// Computation tasks from the writing layer to the last reading one.
    int32_t firstTask = 0;
    int32_t lastTask = 0;
    bool kernelOutput = false;
    bool graphOutput = false;
    /// Computation tasks that read it, ascending.
    std::vector<int32_t> readers;
    /// Where it lives from which task on (pools kLbPool, kGbPool, kDdrPool):
    /// the first at firstTask, one more per spill.
    std::vector<Placement> placements;
    /// Bytes of one core's piece while in LB (bytes / cores, rounded up).
    int64_t pieceBytes = 0;
};

/// The memories buffers are placed in. LB is allocated per core, for core 0
/// (every instance is bound from core 0, so it holds the most pieces); GB
/// and DDR per cluster, with whole tensors (a tensor spilled from LB moves
/// all its cores' pieces).
inline constexpr PoolId kLbPool{0};
inline constexpr PoolId kGbPool{1};
inline constexpr PoolId kDdrPool{2};
Scope poolScope(PoolId pool);

/// The pools of one allocation pass: the level it places (LB, or GB), and
/// where its spills go (the spill area, or DDR).
inline constexpr PoolId kPassLevel{0};
inline constexpr PoolId kPassParent{1};

/// One allocation pass: its requests, by buffer, and the result.
struct AllocationPass {
    Requests requests;
    /// The buffer of each request.
    IdVector<RequestId, BufferId> buffers;
    Allocation allocation;
};

struct Program {
    std::vector<Kernel> kernels;
    /// GB bytes above the activations at each task (GB capacity minus the
    /// highest offset the GB pass uses then): the weight cache of the
    /// streams, which drops its least recently used weights as it shrinks.
    std::vector<int64_t> weightCacheBytes;
    IdVector<BufferId, Buffer> buffers;
    int32_t taskCount = 0;
    /// How kernels launch. False: each is a barrier (it waits for the sync
    /// of the one before it, or of its IOS stage). True (DLA §3, a
    /// framework's dependency engine): a kernel waits for the syncs of the
    /// kernels whose outputs it reads and of the kernel before it on its
    /// device (the accelerator's cores, or the fallback CPU for a kernel of
    /// host ops only), so host kernels run beside accelerator kernels.
    bool launchOnDependencies = false;
    /// LB pass: buffers declared in LB, per-core pieces, spills to a sink.
    AllocationPass lb;
    /// GB/DDR pass: buffers declared in GB or DDR and those spilled from LB
    /// (from their spill on), whole; GB overflow spills to DDR.
    AllocationPass gb;
};

struct PlanOptions {
    /// Bytes of one core's LB a tile may fill; 0: the LB's activation bytes.
    int64_t tileCapacityBytes = 0;
    /// Layers may double-buffer their tiles (latency hiding inside a layer,
    /// every strategy); false: every layer runs one tile at a time (the
    /// benchmarks' before, and the hand cases' serial timelines).
    bool doubleBuffering = true;
    /// The streams will schedule across layers (§4.4), hiding a layer's
    /// transfers behind its neighbours' compute: a layer then double-buffers
    /// only where that moves no more weight bytes (layer_tiles.cpp).
    bool acrossLayer = false;
    /// Consecutive instances of one group on the same cores run in one
    /// launch (Kernel::continuesLaunch; Stagecraft's, not the paper's).
    bool shareLaunches = true;
};

/// A double-buffered layer's tiles are dispatched in at most this many
/// chunks per core's run of tiles: its pipeline fills and drains over one
/// chunk (the planner's estimate and the streams agree on it).
inline constexpr int64_t kPipelineChunks = 8;

/// Lowers \p schedule to kernel plans and allocates their buffers. Fails,
/// naming the op, when an op has no unit to run on and no fallback CPU.
Expected<Program> buildProgram(const ir::Graph& graph, const arch::Arch& arch,
                               const schedule::Schedule& schedule, const PlanOptions& options = {});

/// The scope \p buffer is in at computation task \p task, after spills.
Scope scopeAt(const Program& program, BufferId buffer, int32_t task);

} // namespace stagecraft::kernel
