#pragma once
/// \file
/// What code generation needs to know about a kernel plan before any LLVM
/// type exists (GraphTurbo §4.1–4.2): for every kernel (one per sub-graph
/// instance, in schedule order) where each tensor it touches lives and which
/// part of it is stored there, how each layer is tiled, which weight slices
/// are promoted into local memory, and how big the local memories are.
///
/// Memory model of an emitted kernel (docs/codegen.md):
/// - global tensors (graph inputs and outputs, weights, every tensor that
///   leaves its instance) are whole tensors the caller passes in a table;
///   an instance writes its slice of them at global coordinates, so the
///   concat of §3.5 is addressing;
/// - stitched buffers (§4.2: a layer's output read by a later layer of the
///   same instance) live in the kernel's arena, shared by its cores, sized by
///   the instance's box of the tensor (halos included) and reused across
///   layers (§4.3);
/// - fused intermediates (§4.1: read only inside their layer) and promoted
///   weight slices live in each core's scratch, tile-sized on tiled dims.
/// Plain data, deterministic, no LLVM: tests read it directly.

#include "kernel/plan.h"
#include "partition/box.h"
#include "schedule/schedule.h"
#include "support/expected.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stagecraft::codegen {

/// Where a kernel finds a tensor.
enum class Home : uint8_t {
    /// The whole tensor, in the caller's table.
    Global,
    /// The instance's box, in the kernel's shared arena.
    Stitched,
    /// The current tile's part, in the core's scratch.
    Fused,
    /// A weight slice copied into the core's scratch (per layer or per tile).
    Promoted,
};
std::string_view homeName(Home home);

/// How a kernel addresses one tensor.
struct View {
    ir::TensorId tensor = ir::kNoTensor;
    Home home = Home::Global;
    /// Global: slot in the tensor table; otherwise the byte offset in the
    /// arena (Stitched) or in the core's scratch (Fused, Promoted).
    int64_t offset = 0;
    /// The part of the tensor stored. Global views store the whole tensor.
    partition::Box box;
    /// Per dim: the index of the layer's tile loop the stored range follows
    /// (origin at the tile's start, extent the tile size), or -1 (the box).
    std::vector<int> tileLoop;

    /// Bytes of storage (tile-sized on tiled dims).
    int64_t storageBytes(const ir::Graph& graph, const std::vector<int64_t>& tileSizes) const;
};

/// One tiled loop of a layer: an output dim of the anchor (§4.1).
struct TileLoop {
    int dim = 0;
    /// The range of the dim the instance computes.
    int64_t lo = 0;
    int64_t extent = 1;
    /// Tile size; divides extent.
    int64_t tile = 1;
    int64_t count() const { return extent / tile; }
};

/// A weight slice copied into the core's scratch before it is read.
struct Promotion {
    ir::TensorId weight = ir::kNoTensor;
    /// Slot of the weight in the tensor table.
    int32_t slot = 0;
    /// Index into LayerCode::views of the local copy.
    int32_t view = 0;
    /// Copied per tile (its range follows a tile loop), else once per layer.
    bool perTile = false;
};

/// One op of a layer and what it computes over the instance.
struct OpStep {
    ir::OpId op = ir::kNoOp;
    /// Per output: the box of the output the instance computes. On tiled
    /// dims each tile computes its part of it.
    std::vector<partition::Box> regions;
};

struct LayerCode {
    ir::OpId anchor = ir::kNoOp;
    std::vector<OpStep> ops;
    /// Empty: the layer is one tile.
    std::vector<TileLoop> tiles;
    /// Why the plan's tiles were not used, when they were not.
    std::string untiledReason;
    /// Every tensor the layer's ops read or write.
    std::vector<View> views;
    std::vector<Promotion> promotions;
    /// Bytes of one core's scratch the layer uses.
    int64_t scratchBytes = 0;

    const View* viewOf(ir::TensorId tensor) const;
    int64_t tileCount() const;
    std::vector<int64_t> tileSizes() const;
};

struct KernelCode {
    /// The function's symbol, e.g. "sc_k003_b3".
    std::string symbol;
    schedule::InstanceId instance;
    std::string label;
    /// Cores the instance is bound to; each runs the kernel with its core id.
    int64_t cores = 1;
    /// Threads the host runs those cores on, or 0: one per core (the model
    /// library's). The in-process runner's (runOnThisHost) take the cores in
    /// turn, so the host merges a layer's tiles down to one per thread, not
    /// per core (host_layer.cpp).
    int64_t hostThreads = 0;
    /// Runs in the launch of the kernel before it (kernel::Kernel).
    bool continuesLaunch = false;
    std::vector<LayerCode> layers;
    /// Bytes of the shared arena (stitched buffers, reused across layers).
    int64_t arenaBytes = 0;
    /// Bytes of each core's scratch (the largest layer's).
    int64_t scratchBytes = 0;
    /// Bytes of a core's LB its tiles were sized to fill (the LB's
    /// activation bytes), or 0: the host merges tiles within it or within
    /// hostLocalBytes(), the larger.
    int64_t localBytes = 0;
    /// MACs and element operations of the instance (the kernel plan's work).
    double work = 0;
    /// The instance's slice of its group's split output (§3.3), compiled
    /// into the kernel: [sliceLo, sliceHi) of dim splitDim of splitTensor;
    /// splitDim -1 when the group is not split.
    ir::TensorId splitTensor = ir::kNoTensor;
    int splitDim = -1;
    int64_t sliceLo = 0;
    int64_t sliceHi = 0;
    /// Table slots the kernel reads and writes, ascending.
    std::vector<int32_t> reads;
    std::vector<int32_t> writes;
    /// Of reads, the weights the host stores transposed (GlobalTensor::hostTransposed).
    std::vector<int32_t> hostTransposed;
    /// Of reads, the weights the host stores with padded rows: slot and
    /// row pitch in elements (GlobalTensor::hostRowPitch).
    std::vector<std::pair<int32_t, int64_t>> hostRowPitches;
    /// Of reads, the weights the host stores blocked (GlobalTensor::hostBlock).
    struct HostBlock {
        int32_t slot = 0;
        /// Elements per block, and the dim blocked (GlobalTensor::hostBlockDim).
        int64_t block = 0;
        int dim = 0;
        /// Elements of dim groupDim interleaved in a block
        /// (GlobalTensor::hostBlockGroup, hostBlockGroupDim).
        int64_t group = 1;
        int groupDim = 0;
    };
    std::vector<HostBlock> hostBlocks;
};

enum class TensorRole : uint8_t { Input, Weight, Activation, Output };
std::string_view roleName(TensorRole role);

/// One entry of the tensor table every kernel receives.
struct GlobalTensor {
    ir::TensorId tensor = ir::kNoTensor;
    TensorRole role = TensorRole::Activation;
    int64_t bytes = 0;
    /// A 2-D weight the host target stores transposed, packed once when the
    /// program is set up (host_layer.cpp): every reader reads its dim 0 along
    /// the output's last loop, as Gemm's B with transB, so the host's vector
    /// loads need dim 0 contiguous. The DSA's objects read it as stored.
    bool hostTransposed = false;
    /// Elements from one stored row to the next of a 2-D weight the host
    /// pads (host_layer.cpp), or 0: rows as long as they are. A contraction
    /// reads a strip of such a weight, a few vectors of every row; rows a
    /// whole even number of cache lines apart fall into a fraction of the
    /// cache's sets and evict each other, so the host stores each row one
    /// line longer. The DSA's objects read it as stored.
    int64_t hostRowPitch = 0;
    /// Elements per block of a weight the host stores blocked along dim
    /// hostBlockDim (host_layer.cpp), or 0: [that dim / B][the other dims in
    /// order][B], packed once when the program is set up. Every reader runs
    /// its vectors along that dim: a Conv along its output channels (dim 0;
    /// strided rows without padding: ResNet-50's stride-2 1 x 1 Convs), or a
    /// contraction reading a 2-D weight as its row factor (MatMul's B, dim
    /// 1; Gemm's B with transB, dim 0). A block holds whole vectors, and each
    /// reduction step reads the next B elements of every block it loads
    /// from, so a strip streams. (A QLinearConv's weight grouped for byte
    /// dot products has blocks of 1: hostBlockGroup.) The DSA's objects read
    /// it as stored.
    int64_t hostBlock = 0;
    int hostBlockDim = 0;
    /// Of a weight stored in blocks, elements of dim hostBlockGroupDim
    /// interleaved within each block, or 1: [dim / B][the other dims in
    /// order, that one in groups of G][B][G], for the byte dot products of
    /// an s8 weight of zero point 0 by u8 (AVX-512 VNNI's vpdpbusd: 4
    /// products per int32 lane; host_reads.cpp, blocked_integer.cpp), G =
    /// 4. A MatMul's B (dim 1 in blocks of 16, dim 0 grouped): one 64-byte
    /// load holds 4 reduction steps of 16 columns. A QLinearConv's weight
    /// (dim 0 in blocks of 1, its input channels grouped): an output
    /// channel's 4 consecutive input channels at one tap are one word.
    int64_t hostBlockGroup = 1;
    int hostBlockGroupDim = 0;
    /// Whether the host stores it otherwise than the graph does.
    bool hostRelaid() const { return hostTransposed || hostRowPitch > 0 || hostBlock > 0; }
};

struct CodePlan {
    std::vector<GlobalTensor> globals;
    std::vector<KernelCode> kernels;
    int32_t slotOf(ir::TensorId tensor) const;
};

/// The symbol of the kernel at \p index of a program, whose instance is
/// labelled \p label: "sc_k003_b3". Profiles name their kernels by it.
inline std::string kernelSymbol(size_t index, std::string_view label) {
    std::string number = std::to_string(index);
    number.insert(0, number.size() < 3 ? 3 - number.size() : 0, '0');
    return "sc_k" + number + "_" + std::string(label);
}

/// Plans the code of \p program (kernel plans of \p schedule over \p graph).
/// Fails, naming the tensor, when the instances of a group do not together
/// compute every element of a tensor that leaves the group.
Expected<CodePlan> planCode(const ir::Graph& graph, const schedule::Schedule& schedule,
                            const kernel::Program& program);

/// Layer \p layer of \p kernel as the host target runs it
/// (host_layer.cpp): promoted weights read in place, and consecutive tiles
/// of its tile loops run as one where its storage and the kernel's
/// localBytes allow, the loop whose tiles read the most again first. Same
/// elements, same sums, same bits as the plan's layer.
LayerCode hostLayer(const ir::Graph& graph, const LayerCode& layer, const KernelCode& kernel);
/// Bytes of \p layer's scratch its tiles store to: its fused views' but
/// those an epilogue keeps in registers (a tapped float Conv's sums and
/// its chain's intermediates, never stored); the host merges tiles within
/// a core's share of L2 by these (host_layer.cpp).
int64_t storedScratchBytes(const ir::Graph& graph, const LayerCode& layer);
/// Bytes of a host core's share of L2 less its weight reserve (the
/// host-cpu preset's LB activation bytes, detected once): a merged host
/// layer's scratch stays within it (host_layer.cpp).
int64_t hostLocalBytes();
/// The CPUs this process may run on (its affinity: `taskset -c 0` gives 1).
int64_t hostUsableCpus();
/// Sets every kernel's hostThreads to the threads the in-process host
/// runner gives it: min(cores, the CPUs this process may use). Call before
/// emitting the objects that runner loads (HostProgram::load), with the same
/// plan for both.
void runOnThisHost(CodePlan& plan);
/// Bytes of each core's scratch when \p kernel runs on the host: its
/// layers' largest, and where it has more than one core, rounded up to a
/// page and 256 KiB more, so that one core's scratch ends that far before
/// the next one's starts (docs/codegen.md, "Host memory").
int64_t hostScratchBytes(const ir::Graph& graph, const KernelCode& kernel);
/// The host's layouts of the weights of \p globals (host_layer.cpp): sets
/// GlobalTensor::hostTransposed on those whose every reader reads dim 0
/// along its output's last loop and dim 1 along reductions only, and
/// GlobalTensor::hostRowPitch on those of them, and on the weights whose
/// every reader reads dim 1 along its output's last loop and dim 0 along
/// reductions only, whose stored rows are a whole even number of 64-byte
/// lines; GlobalTensor::hostBlock on the Conv weights whose every reader
/// runs its vectors best along output channels.
void markHostLayouts(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                     std::vector<GlobalTensor>& globals);
/// Lists in \p code the weights it reads that the host stores otherwise
/// (KernelCode::hostTransposed, hostRowPitches, hostBlocks).
void listHostLayouts(const std::vector<GlobalTensor>& globals, KernelCode& code);
/// Clears GlobalTensor::hostBlock (and the kernels' hostBlocks) of the
/// weights some reader of which tiles its channels other than at whole
/// blocks (host_layer.cpp).
void dropUnalignedBlocks(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                         CodePlan& plan);
/// Bytes of \p g as the host stores it (padded rows included).
int64_t hostStoredBytes(const ir::Graph& graph, const GlobalTensor& g);

/// Checks a plan's invariants: every view inside its tensor, local views
/// inside their memory, every op's inputs and outputs viewed, live stitched
/// buffers disjoint. The error names the kernel and the tensor.
Status validateCodePlan(const ir::Graph& graph, const CodePlan& plan);

} // namespace stagecraft::codegen
