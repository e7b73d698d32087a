// The layers of a kernel as the host target runs them (docs/decisions.md,
// "Host tiles"). The DSA's tiles and weight promotions are sized to its
// local buffers (§4.1); a host core has caches instead, and the register-
// blocked contraction lowering blocks output channels only within one tile
// (ResNet-50's Conv tiles of 1 or 2 output channels at the GB level left it
// one). So on the host:
// - a promoted weight slice is read where the weight is (the copy holds the
//   same values);
// - consecutive tiles of a tile loop run as one tile: the most that
//   still leaves every thread that runs the binding's cores a tile (an
//   equal number of them where some merge does: 4 tiles on 2 threads, not
//   3; the in-process runner runs min(cores, CPUs) threads, each taking
//   cores in turn, so on one CPU the 8 tiles of ResNet-50's 1 x 1 Convs
//   each streamed the 3.2 MB input from L3; the model library one per
//   core) and keeps the layer's scratch within a host core's share of L2
//   (host-cpu's LB; the plan's LB where larger): MobileNet-v2's first
//   1 x 1 conv merged to 2.4 MB of fused intermediates ran 5 x slower than
//   its planned tiles, unless a view outside the core's scratch follows
//   that loop. Only the scratch a tile stores to counts
//   (storedScratchBytes): a tapped float Conv's sums that its epilogue
//   keeps in registers are never stored (ResNet-50's stem: 64 channels in
//   one tile on one thread, not 8). The fused intermediates in the scratch grow with the tile,
//   so every scratch offset, and the layer's scratch, are scaled by the
//   same factor (disjoint ranges stay disjoint). The loops merge in turn,
//   first the one whose tiles each read the most bytes of the anchor's
//   inputs again (the inputs its tiles do not split), the last loop first
//   among equals; once a loop is one tile, the next merges the same way.
//   So a MatMul's tiles of rows, each of which streams the whole weight,
//   merge before its tiles of columns, each of which reads the other input
//   (BERT-base's FFN: tiles of
//   16 rows streamed the 9.4 MB weight 8 times per layer, tiles of all 128
//   rows by 384 columns read it once);
// - the scratch holds the fused views alone, packed again without the
//   promoted weights' room (which left BERT-base's FFN 1.5 MB of scratch
//   for 4 KB of sums, and nothing to merge within the limit above).
// - a 2-D weight every reader reads as its row factor (along the output's
//   last loop) is stored in blocks of 16 of that dim, [n / 16][k][16],
//   packed once when the program is set up: a reduction step's vectors of
//   a segment then come from a few blocks read one after the other, not
//   from a row 12 KB after the last step's (BERT-base's FFN: 68 -> 105
//   GFLOP/s); unless some reader's tiles of that dim do not start at whole
//   blocks, where it is stored as below; an s8 one whose readers are
//   MatMulInteger or QLinearMatMul of a u8 factor, its zero point 0, as
//   [n / 16][k / 4][16][4], so that one 64-byte load feeds a byte dot
//   product (blocked_integer.cpp); a QLinearConv's s8 weight of zero point
//   0, its input u8 of zero point 0 or read without padding, as [oc][ic /
//   4][kh][kw][4]: an output channel's 4 input channels at a tap are one
//   word to broadcast;
// - a 2-D weight read along its dim 0 by the output's last loop (Gemm's B
//   with transB) is stored transposed, packed once when the program is set
//   up, so that the contraction lowering loads it as vectors;
// - a Conv weight whose every reader reads strided rows or padded ones
//   (host_reads.cpp: ResNet-50's stride-2 1 x 1 and its 3 x 3 Convs) is
//   stored in blocks of 16 output channels, packed once so, and the
//   lowering runs its vectors along them; where some reader's channel
//   tiles do not start at whole blocks, in half blocks of 8 where they
//   start at those (vectors of 8 lanes), else as the graph stores it;
// - a 2-D weight read so (either way) whose stored rows are a whole even
//   number of 64-byte lines is stored with each row one line longer: a
//   contraction reads a few vectors of every row per strip, and rows
//   2^k lines apart map to 1/2^k of the cache's sets (BERT-base's
//   768 x 3072 weight, rows 192 lines apart: its strips missed the L2 they
//   fit in and ran at a fifth of the vector peak).
// Which elements each op computes, and in which order it sums, do not
// change, so neither do the bits. The riscv64 objects keep the plan's
// layers and the weights as stored.

#include "arch/host_cpu.h"
#include "codegen/code_plan.h"
#include "codegen/internal/epilogue_chain.h"
#include "codegen/internal/host_reads.h"
#include "ops/semantics.h"
#include "partition/slices.h"

#include <algorithm>

namespace stagecraft::codegen {

namespace {

using detail::kBlockElements;
using detail::kDotGroup;
using detail::kHalfBlockElements;
using detail::readsAcrossChannels;
using detail::readsAlongRow;

constexpr int64_t kPage = 4096;
/// Room left between one core's scratch and the next's on the host. With
/// the cores' scratch side by side, the thread running core 1 of BERT-base
/// i8-dynamic's 128 x 3072 x 768 MatMulInteger (its int32 sums, 192 KB per
/// core, read and written once per 64-deep step) took 208-237 us while
/// core 0 ran beside it, 139-149 us with its scratch in a buffer of its
/// own; 16, 64, 128 and 256 KB further on, 202, 174, 154 and 141 us
/// (docs/codegen.md, "Host memory").
constexpr int64_t kScratchGap = 256 * 1024;

/// Consecutive tiles of tile loop \p loop that run as one, or 1: the most
/// that leave the \p cores (the threads that run them) an equal number of
/// tiles (1 among them), else the most that leave each one, and keep the
/// \p stored bytes of scratch a tile stores to within a core's share of L2.
int64_t mergedTiles(const LayerCode& layer, int loop, int64_t cores, int64_t localBytes,
                    int64_t stored) {
    for (const View& v : layer.views)
        if (v.home != Home::Fused &&
            std::find(v.tileLoop.begin(), v.tileLoop.end(), loop) != v.tileLoop.end())
            return 1;
    const int64_t count = layer.tiles[static_cast<size_t>(loop)].count();
    const int64_t others = layer.tileCount() / count;
    const int64_t room = std::max({localBytes, hostLocalBytes(), stored});
    int64_t uneven = 1;
    for (int64_t m = count; m >= 1; --m) {
        const int64_t tiles = others * (count / m);
        if (count % m != 0 || tiles < cores || stored * m > room)
            continue;
        if (tiles % cores == 0)
            return m;
        uneven = std::max(uneven, m);
    }
    return uneven;
}

/// Who shares \p kernel's tiles on the host: its threads
/// (KernelCode::hostThreads), else its cores.
int64_t sharedBy(const KernelCode& kernel) {
    return kernel.hostThreads > 0 ? std::min(kernel.cores, kernel.hostThreads) : kernel.cores;
}

/// Whether both factors of \p op, a contraction, are of \p type: the
/// register-blocked lowering then reads the blocked weight.
bool sameTypeFactors(const ir::Graph& graph, const ir::Op& op, ir::DType type) {
    return op.inputs.size() >= 2 &&
           std::all_of(op.inputs.begin(), op.inputs.begin() + 2, [&](ir::TensorId input) {
               return input != ir::kNoTensor && graph.tensor(input).dtype == type;
           });
}

/// Whether every reader of \p t reads it along its rows or transposed.
bool readAsRowFactor(const ir::Tensor& t, const partition::SemanticsCache& semantics) {
    return !t.uses.empty() && std::all_of(t.uses.begin(), t.uses.end(), [&](const ir::Use& use) {
        const ops::OpSemantics& op = semantics.of(use.op);
        return op.nests.size() == 1 &&
               (readsAlongRow(op.nests[0], use.slot, 1) || readsAlongRow(op.nests[0], use.slot, 0));
    });
}

/// The padded row pitch of a stored row of \p length \p size-byte
/// elements, or 0 where the row is not a whole even number of lines.
int64_t paddedPitch(int64_t length, int64_t size) {
    constexpr int64_t kLine = 64;
    return (length * size) % (2 * kLine) == 0 ? length + kLine / size : 0;
}

/// Bytes fused view \p v takes in the scratch at tile sizes \p sizes: its
/// storage, 64-byte aligned as the plan lays the scratch out.
int64_t scratchRoom(const ir::Graph& graph, const View& v, const std::vector<int64_t>& sizes) {
    constexpr int64_t kAlign = 64;
    return (v.storageBytes(graph, sizes) + kAlign - 1) / kAlign * kAlign;
}

/// Lays \p layer's fused views out again one after the other, as the plan
/// lays out the scratch (64-byte aligned), without the promoted weights'
/// room, which the host does not use: BERT-base's FFN kept 1.5 MB of
/// scratch for 4 KB of fused sums, and no tiles merged within it.
void packScratch(const ir::Graph& graph, LayerCode& layer) {
    const std::vector<int64_t> sizes = layer.tileSizes();
    layer.scratchBytes = 0;
    for (View& v : layer.views) {
        if (v.home != Home::Fused)
            continue;
        v.offset = layer.scratchBytes;
        layer.scratchBytes += scratchRoom(graph, v, sizes);
    }
}

/// Runs \p merged consecutive tiles of \p layer's tile loop \p loop as one:
/// the fused intermediates in the scratch grow with the tile, so every
/// scratch offset, and the layer's scratch, scale by the same factor.
void mergeTiles(LayerCode& layer, int loop, int64_t merged) {
    if (merged == 1)
        return;
    layer.tiles[static_cast<size_t>(loop)].tile *= merged;
    for (View& v : layer.views)
        if (v.home == Home::Fused)
            v.offset *= merged;
    layer.scratchBytes *= merged;
}

/// The layout of 2-D weight \p t stored unblocked: transposed where every
/// reader reads its dim 0 along the row, rows padded where they are a whole
/// even number of lines (GlobalTensor::hostTransposed, hostRowPitch).
void markRowLayout(const ir::Tensor& t, const partition::SemanticsCache& semantics,
                   GlobalTensor& g) {
    g.hostTransposed = std::all_of(t.uses.begin(), t.uses.end(), [&](const ir::Use& use) {
        const ops::OpSemantics& op = semantics.of(use.op);
        return op.nests.size() == 1 && readsAlongRow(op.nests[0], use.slot, 0);
    });
    if (g.hostTransposed || readAsRowFactor(t, semantics))
        g.hostRowPitch =
            paddedPitch(g.hostTransposed ? t.shape[0] : t.shape[1], ir::dtypeSize(t.dtype));
}

/// Bytes of \p layer's anchor's inputs outside the core's scratch that each
/// tile of tile loop \p loop reads whole again: their reads do not follow the
/// loop's dim, so merging its tiles reads them once for more outputs.
int64_t rereadBytes(const ir::Graph& graph, const LayerCode& layer, const ops::LoopNest& nest,
                    int loop) {
    const ir::Op& anchor = graph.op(layer.anchor);
    const int dim = layer.tiles[static_cast<size_t>(loop)].dim;
    int64_t bytes = 0;
    for (size_t slot = 0; slot < anchor.inputs.size(); ++slot) {
        const ops::AccessMap* map = nest.accessFor(static_cast<int>(slot));
        const View* view = layer.viewOf(anchor.inputs[slot]);
        if (map == nullptr || view == nullptr || view->home == Home::Fused)
            continue;
        const bool follows = std::any_of(map->dims.begin(), map->dims.end(), [&](const auto& e) {
            return std::any_of(e.terms.begin(), e.terms.end(),
                               [&](const ops::IndexTerm& t) { return t.loop == dim; });
        });
        if (!follows)
            bytes += graph.tensor(anchor.inputs[slot]).byteSize();
    }
    return bytes;
}

/// The order \p layer's tile loops merge in: the most bytes read again per
/// tile first (BERT-base's FFN: the rows, whose tiles each stream the
/// 9.4 MB weight, before the columns, whose tiles each read the 393 KB
/// input), else the last loop first.
std::vector<int> mergeOrder(const ir::Graph& graph, const LayerCode& layer) {
    std::vector<int> order(layer.tiles.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<int>(order.size() - 1 - i);
    Expected<ops::OpSemantics> semantics = ops::semanticsOf(graph, layer.anchor);
    if (!semantics || semantics->nests.size() != 1)
        return order;
    std::vector<int64_t> bytes(order.size());
    for (int loop : order)
        bytes[static_cast<size_t>(loop)] = rereadBytes(graph, layer, semantics->nests[0], loop);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return bytes[static_cast<size_t>(a)] > bytes[static_cast<size_t>(b)];
    });
    return order;
}

} // namespace

int64_t hostLocalBytes() {
    static const int64_t bytes = [] {
        const arch::Arch host = arch::detectHostCpu();
        const auto& lb = host.cluster.coreGroups.front().localBuffer;
        return lb ? lb->activationBytes() : int64_t{0};
    }();
    return bytes;
}

// ResNet-50's stem's sums, 392 KB per 8 channels, are never stored: its
// Relu runs on them in registers (registerOnlyTensors).
int64_t storedScratchBytes(const ir::Graph& graph, const LayerCode& layer) {
    const std::vector<ir::TensorId> unstored = detail::registerOnlyTensors(graph, layer);
    if (unstored.empty())
        return layer.scratchBytes;
    const std::vector<int64_t> sizes = layer.tileSizes();
    int64_t bytes = 0;
    for (const View& v : layer.views)
        if (v.home == Home::Fused &&
            std::find(unstored.begin(), unstored.end(), v.tensor) == unstored.end())
            bytes += scratchRoom(graph, v, sizes);
    return std::min(bytes, layer.scratchBytes);
}

void markHostLayouts(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                     std::vector<GlobalTensor>& globals) {
    for (GlobalTensor& g : globals) {
        const ir::Tensor& t = graph.tensor(g.tensor);
        if (g.role != TensorRole::Weight)
            continue;
        if (std::optional<detail::DotLayout> dots = detail::dotLayout(graph, semantics, t)) {
            g.hostBlock = dots->block;
            g.hostBlockDim = dots->blockDim;
            g.hostBlockGroup = kDotGroup;
            g.hostBlockGroupDim = dots->groupDim;
            continue;
        }
        if (t.shape.size() < 2 || t.uses.empty() ||
            (t.dtype != ir::DType::Float32 && t.dtype != ir::DType::Float64))
            continue;
        const auto everyUse = [&](auto reads) {
            return std::all_of(t.uses.begin(), t.uses.end(), [&](const ir::Use& use) {
                const ops::OpSemantics& op = semantics.of(use.op);
                return op.nests.size() == 1 && reads(op.nests[0], use);
            });
        };
        if (t.shape.size() > 2) {
            if (t.shape[0] % kBlockElements == 0 &&
                everyUse([&](const ops::LoopNest& nest, const ir::Use& use) {
                    const std::vector<ir::TensorId>& inputs = graph.op(use.op).inputs;
                    const auto other = static_cast<size_t>(1 - use.slot);
                    return use.slot < 2 && other < inputs.size() &&
                           inputs[other] != ir::kNoTensor &&
                           readsAcrossChannels(nest, use.slot, graph.tensor(inputs[other]).shape);
                }))
                g.hostBlock = kBlockElements;
            continue;
        }
        for (size_t along = 0; along < 2 && g.hostBlock == 0; ++along)
            if (t.shape[along] % kBlockElements == 0 &&
                everyUse([&](const ops::LoopNest& nest, const ir::Use& use) {
                    return readsAlongRow(nest, use.slot, along) &&
                           sameTypeFactors(graph, graph.op(use.op), t.dtype);
                })) {
                g.hostBlock = kBlockElements;
                g.hostBlockDim = static_cast<int>(along);
            }
        if (g.hostBlock == 0)
            markRowLayout(t, semantics, g);
    }
}

void listHostLayouts(const std::vector<GlobalTensor>& globals, KernelCode& code) {
    for (int32_t slot : code.reads) {
        const GlobalTensor& g = globals[static_cast<size_t>(slot)];
        if (g.hostTransposed)
            code.hostTransposed.push_back(slot);
        if (g.hostRowPitch > 0)
            code.hostRowPitches.emplace_back(slot, g.hostRowPitch);
        if (g.hostBlock > 0)
            code.hostBlocks.push_back(
                {slot, g.hostBlock, g.hostBlockDim, g.hostBlockGroup, g.hostBlockGroupDim});
    }
}

namespace {

/// The tile loop of \p layer that splits dim \p channel of \p step's
/// \p output: the one its view follows, else, for the anchor, the one
/// along that dim (a stitched view is addressed by its box, but each tile
/// still computes its part); -1 where none does, and -2 where the step's
/// part per tile is not known here (an op after the anchor whose view
/// follows no tile loop, in a tiled layer).
int channelLoop(const LayerCode& layer, const OpStep& step, ir::TensorId output, int channel) {
    const View* view = layer.viewOf(output);
    if (view != nullptr && static_cast<size_t>(channel) < view->tileLoop.size() &&
        view->tileLoop[static_cast<size_t>(channel)] >= 0)
        return view->tileLoop[static_cast<size_t>(channel)];
    if (step.op != layer.anchor)
        return layer.tiles.empty() ? -1 : -2;
    for (size_t i = 0; i < layer.tiles.size(); ++i)
        if (layer.tiles[i].dim == channel)
            return static_cast<int>(i);
    return -1;
}

/// Whether the channels of \p step (the dim \p channel of its \p output),
/// the reader of a weight stored in blocks of \p block, start every tile
/// at a whole block: the lowering's vectors then never straddle two. (A
/// stitched output's tiles once counted as whole: a Conv that graphturbo
/// tiled by 2 output channels, merged on the host to 24, read channels
/// 24-39 from the middle of a block and the next row of it.)
bool startsAtBlocks(const LayerCode& layer, const OpStep& step, ir::TensorId output, int channel,
                    int64_t block) {
    const int loop = channelLoop(layer, step, output, channel);
    const bool boxAligned =
        step.regions.empty() || step.regions[0][static_cast<size_t>(channel)].lo % block == 0;
    if (loop == -2)
        return false;
    if (loop < 0)
        return boxAligned;
    const TileLoop& t = layer.tiles[static_cast<size_t>(loop)];
    return boxAligned && t.lo % block == 0 && t.tile % block == 0;
}

/// \p layer as the host runs it when \p sharers threads share its tiles.
LayerCode hostLayerFor(const ir::Graph& graph, const LayerCode& layer, const KernelCode& kernel,
                       int64_t sharers) {
    LayerCode host = layer;
    for (const Promotion& p : layer.promotions)
        host.views[static_cast<size_t>(p.view)] = View{
            p.weight, Home::Global, p.slot, partition::fullBox(graph.tensor(p.weight).shape), {}};
    if (!host.promotions.empty())
        packScratch(graph, host);
    host.promotions.clear();
    // The loop whose tiles read the most again first; once it is one tile,
    // the next.
    for (int loop : mergeOrder(graph, host)) {
        mergeTiles(
            host, loop,
            mergedTiles(host, loop, sharers, kernel.localBytes, storedScratchBytes(graph, host)));
        if (host.tiles[static_cast<size_t>(loop)].count() > 1)
            break;
    }
    return host;
}

/// Whether step \p index of \p layer of \p kernel starts every tile the host may
/// run at a whole block along its output loop \p channel: its layer merged
/// for any number of threads the runner may give the kernel (1 to its
/// cores; the model library's is its cores). Merged tiles are whole
/// multiples of the plan's, which need not start at whole blocks themselves
/// (ResNet-50's stride-2 1 x 1 Convs: planned by 8 channels, run by 64).
bool hostTilesStartAtBlocks(const ir::Graph& graph, const KernelCode& kernel,
                            const LayerCode& layer, size_t index, int channel, int64_t block) {
    const ir::TensorId output = graph.op(layer.ops[index].op).outputs[0];
    for (int64_t threads = 1; threads <= kernel.cores; ++threads) {
        const LayerCode host = hostLayerFor(graph, layer, kernel, threads);
        if (!startsAtBlocks(host, host.ops[index], output, channel, block))
            return false;
    }
    return true;
}

/// Whether every reader of \p g's weight, blocked by \p block along
/// GlobalTensor::hostBlockDim, starts every tile the host may run at a
/// whole block.
bool everyReaderAligned(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                        const CodePlan& plan, const GlobalTensor& g, int64_t block) {
    for (const KernelCode& k : plan.kernels)
        for (const LayerCode& layer : k.layers)
            for (size_t i = 0; i < layer.ops.size(); ++i)
                for (const ir::Use& use : graph.tensor(g.tensor).uses) {
                    if (use.op != layer.ops[i].op)
                        continue;
                    const ops::LoopNest& nest = semantics.of(use.op).nests[0];
                    const int channel = nest.accessFor(use.slot)
                                            ->dims[static_cast<size_t>(g.hostBlockDim)]
                                            .terms[0]
                                            .loop;
                    if (!hostTilesStartAtBlocks(graph, k, layer, i, channel, block))
                        return false;
                }
    return true;
}

} // namespace

void dropUnalignedBlocks(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                         CodePlan& plan) {
    bool changed = false;
    for (size_t slot = 0; slot < plan.globals.size(); ++slot) {
        GlobalTensor& g = plan.globals[slot];
        if (g.hostBlock == 0 || everyReaderAligned(graph, semantics, plan, g, g.hostBlock))
            continue;
        changed = true;
        const ir::Tensor& t = graph.tensor(g.tensor);
        const bool grouped = g.hostBlockGroup > 1; // integer: stored as the graph's
        // A Conv's weight along output channels in half blocks, where its
        // tiles start at those (ResNet-50's stage-1 3 x 3 Convs: 64 channels
        // in tiles of 8 for 5 to 8 threads): the lowering's vectors then
        // take 8 lanes (docs/decisions.md, "Half blocks of 8").
        if (!grouped && t.shape.size() > 2 && t.shape[0] % kHalfBlockElements == 0 &&
            everyReaderAligned(graph, semantics, plan, g, kHalfBlockElements)) {
            g.hostBlock = kHalfBlockElements;
            continue;
        }
        g.hostBlock = 0;
        g.hostBlockGroup = 1;
        if (t.shape.size() == 2 && !grouped)
            markRowLayout(t, semantics, g);
    }
    if (!changed)
        return;
    for (KernelCode& k : plan.kernels) {
        k.hostTransposed.clear();
        k.hostRowPitches.clear();
        k.hostBlocks.clear();
        listHostLayouts(plan.globals, k);
    }
}

int64_t hostStoredBytes(const ir::Graph& graph, const GlobalTensor& g) {
    const ir::Tensor& t = graph.tensor(g.tensor);
    if (g.hostBlockGroup > 1) { // whole groups: a partial one padded
        const int64_t extent = t.shape[static_cast<size_t>(g.hostBlockGroupDim)];
        const int64_t groups = (extent + g.hostBlockGroup - 1) / g.hostBlockGroup;
        return extent == 0 ? g.bytes : g.bytes / extent * groups * g.hostBlockGroup;
    }
    if (g.hostRowPitch == 0) // a block layout holds whole blocks: as many bytes
        return g.bytes;
    const int64_t rows = g.hostTransposed ? t.shape[1] : t.shape[0];
    return rows * g.hostRowPitch * ir::dtypeSize(t.dtype);
}

LayerCode hostLayer(const ir::Graph& graph, const LayerCode& layer, const KernelCode& kernel) {
    return hostLayerFor(graph, layer, kernel, sharedBy(kernel));
}

int64_t hostScratchBytes(const ir::Graph& graph, const KernelCode& kernel) {
    int64_t bytes = kernel.scratchBytes;
    for (const LayerCode& layer : kernel.layers)
        bytes = std::max(bytes, hostLayer(graph, layer, kernel).scratchBytes);
    if (bytes == 0 || kernel.cores == 1)
        return bytes;
    return (bytes + kPage - 1) / kPage * kPage + kScratchGap;
}

} // namespace stagecraft::codegen
