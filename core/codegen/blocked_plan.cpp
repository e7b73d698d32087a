// The plan of the register-blocked contraction (lower_blocked.cpp): from
// the factors (blocked_factors.cpp), the row's stride and range, whether a
// narrow row flattens with the loop before it, and the vector width, the
// segment and the tile sized from the target's vector registers (the
// host's, or riscv64's at the least VLEN the objects assume). The row is the
// output's last loop, or the last with more than one position when the
// later ones have one; on riscv64 a row factor of any stride is read with
// strided loads. On the host a Conv whose weight is stored in blocks of
// output channels runs along them, its block positions flattened across
// output rows and its sums scattered. Nothing applies to a non-float nest,
// or where a factor's read is not affine in the way the emitter needs.

#include "codegen/internal/blocked_plan.h"

#include "codegen/internal/host_reads.h"

#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

#include <algorithm>

namespace stagecraft::codegen::detail {

namespace {

/// Vectors of one segment at most.
constexpr int64_t kMaxChunks = 4;
/// Vectors of one segment along channels at most: each step loads them
/// afresh (the weights stream from L2) against a broadcast per position.
/// Over taps, 2 vectors by 12 positions read half the weight bytes per
/// multiply-add of 4 by 6; a 1 x 1 Conv's positions are broadcast from a
/// strided input, and 4 by 6 load 10 vectors per 24 multiply-adds, not 14
/// (channelChunks).
constexpr int64_t kMaxChannelChunks = 2;
constexpr int64_t kMaxPointwiseChannelChunks = 4;
/// Block positions of one tile at most.
constexpr int64_t kMaxBlock = 12;
/// Lanes a row factor's span load may cover per vector lane (stride).
constexpr int64_t kMaxSpanPerLane = 4;
/// Segments of a flattened row at most (each emitted with its lanes known).
constexpr int64_t kMaxFlatSegments = 4;
/// Elements per lane a flattened row's vector may span at most.
constexpr int64_t kMaxFlatSpanPerLane = 8;
/// Bytes of the row factor's strip one reduction chunk of a segment reads
/// on riscv64: the DSA's caches are not modelled, so the host's figure from
/// before its chunks followed its L2 (reductionChunkBytes).
constexpr int64_t kDsaChunkBytes = 16 * 1024;

/// The target's vector registers: lanes of \p bytes-wide elements and count.
struct VectorRegisters {
    int64_t lanes = 4;
    int64_t count = 16;
    /// Registers a step takes beside the accumulators and row vectors: the
    /// broadcast, and the product where a multiply-add is two instructions.
    int64_t perStep = 1;
    /// Registers each of a step's row vectors takes.
    int64_t perChunk = 1;
};

/// Those of the machine \p module is compiled for (setVectorBits), else
/// this host's.
VectorRegisters hostVectorRegisters(const llvm::Module& module, int64_t bytes) {
    static const llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    static const int hostBits = features.lookup("avx512f") ? 512
                                : features.lookup("avx")   ? 256
                                                           : 128;
    const int recorded = detail::vectorBitsOf(module);
    const int bits = recorded > 0 ? recorded : hostBits;
    const llvm::Triple target(recorded > 0 ? module.getTargetTriple()
                                           : llvm::sys::getProcessTriple());
    const int64_t count = (target.isX86() && bits < 512) ? 16 : 32;
    const bool separate = recorded > 0 ? detail::separateMultiplyOf(module)
                                       : target.isX86() && !features.lookup("fma") && bits < 512;
    return {bits / 8 / bytes, count, separate ? 2 : 1};
}

/// \p registers where each byte dot product is two word dot products
/// (BlockedPlan::dotByWords): a row vector's even and odd bytes as words,
/// and the broadcast's, beside the broadcast itself. AVX2's 16 then hold 2
/// row vectors by 4 accumulators each (15 registers; 3 by 4 spilled 44
/// vectors per 72 word dot products in ResNet-50 i8's 3 x 3 Convs).
VectorRegisters wordDotRegisters(VectorRegisters registers) {
    registers.perChunk = 2;
    registers.perStep += 2;
    return registers;
}

/// The share of \p lanes-wide vector lanes that \p positions fill, as a
/// row of them is laid out (a narrow row in a narrower vector counts the
/// lanes of a whole one).
double laneShare(int64_t positions, int64_t lanes) {
    const int64_t vectors = (positions + lanes - 1) / lanes;
    return static_cast<double>(positions) / static_cast<double>(vectors * lanes);
}

int64_t nextPowerOfTwo(int64_t n) {
    int64_t p = 1;
    while (p < n)
        p *= 2;
    return p;
}

/// The factors and the row's stride and range for row loop \p row (the
/// output's last unless every later one is a single position); nullopt
/// where the emitter cannot read the row factor along the row. With
/// \p stridedLoads (riscv64's vlse) a row of any stride is read so; with
/// \p scattered an output row of any stride is stored so (channels).
std::optional<BlockedPlan> planRow(const OpCall& call, bool flatten, int row, bool stridedLoads,
                                   bool scattered = false) {
    std::optional<BlockedPlan> plan = planFactors(call, flatten, row, scattered);
    if (!plan)
        return std::nullopt;
    const ops::LoopNest& nest = call.semantics->nests[0];
    const Access& out = call.outputs[0];
    const Access& rows = call.inputs[static_cast<size_t>(plan->rowSlot)];
    plan->outStride = out.strides[static_cast<size_t>(plan->row)];
    if ((plan->outStride != 1 && !(scattered && plan->outStride > 1)) ||
        rows.strides[static_cast<size_t>(plan->rowDim)] == 0)
        return std::nullopt;
    const ops::IndexExpr& along =
        nest.accessFor(plan->rowSlot)->dims[static_cast<size_t>(plan->rowDim)];
    for (const ops::IndexTerm& term : along.terms)
        if (term.loop == plan->row)
            plan->rowStride = term.coeff * rows.strides[static_cast<size_t>(plan->rowDim)];
    plan->rowDiv = along.div;
    plan->stridedLoads = stridedLoads && !flatten && plan->rowDiv == 1 &&
                         plan->rowStride > kMaxSpanPerLane * plan->rowDiv;
    if (plan->rowStride <= 0 ||
        (plan->rowStride > kMaxSpanPerLane * plan->rowDiv && !plan->stridedLoads))
        return std::nullopt;
    const Range& range = call.regions[0][static_cast<size_t>(row)];
    std::optional<int64_t> first = constantOf(range.lo), last = constantOf(range.hi);
    if (first && last && *last > *first) {
        plan->first = *first;
        plan->width = *last - *first;
        return plan;
    }
    // A row tile at a runtime start: its width must be known, and it is
    // never flattened (a position's row would need the start).
    std::optional<int64_t> width = constantExtent(range);
    if (flatten || !width || *width <= 0 || plan->rowDiv != 1)
        return std::nullopt;
    plan->start = range.lo;
    plan->width = *width;
    return plan;
}

/// Whether \p plan's positions may run along the row and then the outer
/// loop: the outer range constant, the output and the row factor both at
/// addresses linear in the position, and few enough positions to unroll
/// (or, strided, few rows per vector: \p gathersOnce where they are gathered
/// once per segment).
bool flattens(const OpCall& call, BlockedPlan& plan, int64_t lanes, bool gathersOnce) {
    const Range& range = call.regions[0][static_cast<size_t>(plan.outer)];
    std::optional<int64_t> first = constantOf(range.lo), last = constantOf(range.hi);
    if (!first || !last || *last <= *first)
        return false;
    plan.outerFirst = *first;
    plan.outerCount = *last - *first;
    if (call.outputs[0].strides[static_cast<size_t>(plan.outer)] != plan.width)
        return false;
    const ops::AccessMap& rowMap = *call.semantics->nests[0].accessFor(plan.rowSlot);
    const Access& rows = call.inputs[static_cast<size_t>(plan.rowSlot)];
    int64_t outerStep = 0;
    for (int d : plan.outerDims)
        for (const ops::IndexTerm& t : rowMap.dims[static_cast<size_t>(d)].terms)
            if (t.loop == plan.outer)
                outerStep += t.coeff * rows.strides[static_cast<size_t>(d)];
    plan.linear = outerStep == plan.width * plan.rowStride;
    // Without taps or padding, a linear row's lanes all read: its segments
    // run in a loop and the positions need no bound (ResNet-50's 56 x 56
    // 1 x 1 convolutions: 3,136 positions in whole vectors instead of rows
    // of 56 in 64 lanes).
    const std::vector<int> moved = movedDims(plan);
    const bool looped =
        plan.linear && plan.restOutside && std::all_of(moved.begin(), moved.end(), [&](int d) {
            return ops::alwaysInside(rowMap.dims[static_cast<size_t>(d)],
                                     call.semantics->nests[0].loops,
                                     rows.shape[static_cast<size_t>(d)]);
        });
    if (plan.rowDiv != 1 || outerStep < plan.width * plan.rowStride ||
        (!looped && plan.positions() > kMaxFlatSegments * kMaxChunks * lanes))
        return false;
    // Rows at linear addresses give a vector one span; others (a strided
    // row: ResNet-50's stride-2 1 x 1 convolution into 7 x 7) a span per
    // row the vector's lanes cover, gathered by a shuffle: bounded in
    // length, and only without taps (a 3 x 3 one measured 20 % slower so:
    // nine gathers per step) unless the gathers run once per segment
    // (\p gathersOnce: kept rows; ResNet-50 i8-dynamic's stride-2
    // layer4.0.conv2 1.28 -> 0.68 ms).
    if (plan.linear)
        return true;
    const int64_t rowsPerVector = (lanes - 1) / plan.width + 2;
    return (plan.restOutside || gathersOnce) &&
           rowsPerVector * outerStep <= kMaxFlatSpanPerLane * lanes;
}

/// Whether a float plan over taps (a padded 3 x 3 Conv along its rows) runs
/// its rest loops (the output rows) outside the block's tiles, which all
/// read the same input (the row factor does not read the block loop):
/// where the weights of the whole block fit half a host core's L2 share
/// (hostLocalBytes, as kept rows decide, blocked_kept_rows.cpp). Each input
/// row is then read once per layer and the weights once per output row,
/// from L2, instead of the whole input once per tile (PP-OCRv4 det's 3 x 3
/// Convs of 96 or fewer channels at 160 x 160; ResNet-50's 56 x 56 ones).
bool rowsOutsideTiles(const OpCall& call, const BlockedPlan& plan) {
    if (plan.taps.empty() || plan.rest.empty() || plan.block < 0 || plan.outer >= 0 ||
        plan.blockOuter >= 0 || !plan.colTestedDims.empty())
        return false;
    const ops::LoopNest& nest = call.semantics->nests[0];
    std::optional<int64_t> weightBytes =
        constantExtent(call.regions[0][static_cast<size_t>(plan.block)]);
    if (!weightBytes)
        return false;
    *weightBytes *= static_cast<int64_t>(ir::dtypeSize(inputType(call, plan.colSlot)));
    for (size_t l = static_cast<size_t>(nest.outputRank); l < nest.loops.size(); ++l)
        *weightBytes *= nest.loops[l].extent;
    return *weightBytes * 2 <= hostLocalBytes();
}

/// Vectors of one segment along channels at most: 4 where the nest
/// reduces over one loop alone (a 1 x 1 Conv), else 2 (kMaxChannelChunks).
int64_t channelChunks(const ops::LoopNest& nest) {
    const auto reduced = std::count_if(nest.loops.begin() + nest.outputRank, nest.loops.end(),
                                       [](const ops::LoopDim& loop) { return loop.extent > 1; });
    return reduced <= 1 ? kMaxPointwiseChannelChunks : kMaxChannelChunks;
}

/// Accumulators a tile may hold of \p budget: the rest of the
/// \p registers must keep a step's \p chunks row vectors and what the step
/// takes beside them, or the accumulators spill (AVX2's 16: 4 by 3 took
/// 17; SSE2's product took one more).
int64_t tileBudget(int64_t budget, const VectorRegisters& registers, int64_t chunks) {
    return std::min(budget, registers.count - chunks * registers.perChunk - registers.perStep);
}

/// Vectors of a segment, of at most \p most: the count whose tile loads
/// the fewest vectors per multiply-add (c row vectors and t broadcasts for
/// c t of them), the largest where two tie. With 32 registers that is
/// \p most up to 4; with 16, 3 by 4 rather than 4 by 2.
int64_t chunksForRegisters(int64_t most, int64_t budget, const VectorRegisters& registers) {
    int64_t best = 1;
    double bestShare = 0;
    for (int64_t c = 1; c <= most; ++c) {
        const int64_t t = std::clamp<int64_t>(tileBudget(budget, registers, c) / c, 1, kMaxBlock);
        const double share = static_cast<double>(c * t) / static_cast<double>(c + t);
        if (share >= bestShare) {
            best = c;
            bestShare = share;
        }
    }
    return best;
}

/// \p plan's tile: block positions whose accumulators (a segment's vectors
/// each) fit \p budget registers, as few tiles as that allows, of even
/// sizes: 16 channels run as 8 + 8, not 12 + 4 (a tile of 4 loads the row
/// for a third of the multiply-adds). A tile row's weight sums (dotRowZero)
/// summed per step take a register of their own; whole rows sum them
/// before the steps.
void sizeTile(const OpCall& call, BlockedPlan& plan, int64_t budget,
              const VectorRegisters& registers) {
    const int64_t perRow = plan.chunks + (plan.dotRowZero && !plan.wholeRows ? 1 : 0);
    plan.tile =
        std::clamp<int64_t>(tileBudget(budget, registers, plan.chunks) / perRow, 1, kMaxBlock);
    const std::optional<int64_t> extent =
        plan.block < 0         ? std::nullopt
        : plan.blockOuter >= 0 ? std::optional<int64_t>(plan.blockPositions)
                               : constantExtent(call.regions[0][static_cast<size_t>(plan.block)]);
    if (!extent) {
        plan.tile = 1;
        return;
    }
    const int64_t channels = std::max<int64_t>(*extent, 1);
    const int64_t tiles = (channels + plan.tile - 1) / plan.tile;
    plan.tile = (channels + tiles - 1) / tiles;
}

} // namespace

/// Bytes of the row factor's strip one reduction chunk of a segment may
/// read: on the host half a core's share of L2 (hostLocalBytes, detected),
/// so that the strip stays in L2 over every tile of the block. A step's
/// few vectors come from L2 at its bandwidth (AVX2's 3 by 4: 3 vectors per
/// 12 multiply-adds, 16 of the 32 bytes a cycle Zen 3's L2 gives L1); a
/// strip kept in L1 (a third of 48 KiB) made BERT-base's FFN layers store
/// and take up their sums 6 and 24 times, 0.92x as fast on `znver3`.
int64_t reductionChunkBytes(bool dsa) {
    const int64_t local = hostLocalBytes();
    return dsa || local <= 0 ? kDsaChunkBytes : local / 2;
}

/// The reduction chunk of \p plan (BlockedPlan::reductionChunk): the
/// largest divisor of the one reduction's extent whose strip of a segment
/// fits \p chunkBytes, where it is at least half of that (whole groups of
/// byte dot products); else 0. Only
/// without taps, tested dims, flattening or a scattered output, whose sums
/// a chunk can leave in the output and take up again in the same order.
int64_t reductionChunk(const ops::LoopNest& nest, const BlockedPlan& plan, int64_t bytes,
                       int64_t chunkBytes) {
    if (!plan.taps.empty() || plan.reductions.size() != 1 || !plan.testedDims.empty() ||
        plan.outer >= 0 || plan.outStride != 1)
        return 0;
    const int64_t steps = nest.loops[static_cast<size_t>(plan.reductions[0])].extent;
    const int64_t target = chunkBytes / (plan.segment() * bytes);
    if (steps <= target)
        return 0;
    for (int64_t chunk = target; chunk * 2 >= target; --chunk)
        if (steps % chunk == 0 && chunk % std::max<int64_t>(plan.dotGroup, 1) == 0)
            return chunk;
    return 0;
}

/// A plan along an earlier output loop when the later ones are single
/// positions (a squeeze-excite Conv's 1 x 1 output: vectors over its
/// channels, the weights read with a stride), or nullopt.
std::optional<BlockedPlan> planAcross(const OpCall& call, bool stridedLoads) {
    const int rank = call.semantics->nests[0].outputRank;
    for (int l = rank - 1; l >= 0; --l) {
        std::optional<int64_t> extent = constantExtent(call.regions[0][static_cast<size_t>(l)]);
        if (!extent)
            return std::nullopt;
        if (*extent > 1)
            return l == rank - 1 ? std::nullopt : planRow(call, false, l, stridedLoads);
    }
    return std::nullopt;
}

/// A plan along output channels where the host stores a factor's dim 0,
/// read by an output loop before the last, contiguous (a Conv weight the
/// host stores in blocks of channels, GlobalTensor::hostBlock): the
/// weights' vectors load whole, the other factor's elements broadcast, the
/// sums scattered to the output's channels; or nullopt.
std::optional<BlockedPlan> planChannels(const OpCall& call) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    for (int slot = 0; slot < 2; ++slot) {
        const ops::AccessMap* map = nest.accessFor(slot);
        const Access& stored = call.inputs[static_cast<size_t>(slot)];
        if (map == nullptr || map->dims.size() < 3 || stored.strides[0] != 1 ||
            map->dims[0].terms.size() != 1 ||
            std::none_of(stored.strides.begin() + 1, stored.strides.end(),
                         [](int64_t stride) { return stride > 1; }))
            continue;
        const int loop = map->dims[0].terms[0].loop;
        if (loop >= nest.outputRank - 1)
            continue;
        std::optional<BlockedPlan> plan = planRow(call, false, loop, false, true);
        if (!plan)
            return std::nullopt;
        const bool padded = !plan->colTestedDims.empty(); // flattened: few positions
        if (!padded || flatPositions(call, *plan) <= kMaxFlatPaddedPositions)
            flattenBlock(call, *plan);
        if (padded && !planPadding(call, *plan))
            return std::nullopt;
        plan->blocksOutside = tilesOutsideSegments(call, *plan);
        return plan;
    }
    return std::nullopt;
}

namespace {

/// Whether \p plan's column factor reads, along one of its dims, both a
/// tap and the block (or the loop flattened with it): a Conv's input along
/// channels over kw. Optimized as one block, its taps' equal broadcasts
/// are loaded once and kept for the later taps: a tile of 2 by 6 over a
/// 3 x 3 Conv then held 8 broadcasts beside its 12 accumulators and 2
/// weight vectors, and spilled 18 vectors per 34 multiply-adds in AVX2's
/// 16 registers (ResNet-50's 28 x 28 3 x 3 Convs 4.4 -> 2.6 ms apart).
bool sharesColumnsAcrossTaps(const OpCall& call, const BlockedPlan& plan) {
    const ops::AccessMap* map = call.semantics->nests[0].accessFor(plan.colSlot);
    if (map == nullptr || plan.taps.empty() || plan.block < 0)
        return false;
    return std::any_of(map->dims.begin(), map->dims.end(), [&](const ops::IndexExpr& dim) {
        const bool byBlock =
            readsLoop(dim, plan.block) || (plan.blockOuter >= 0 && readsLoop(dim, plan.blockOuter));
        return byBlock && std::any_of(plan.taps.begin(), plan.taps.end(),
                                      [&](int tap) { return readsLoop(dim, tap); });
    });
}

} // namespace

/// The full plan: factors, then the tile and segment sized to the host's
/// vector registers; nullopt where the lowering does not apply. A row that
/// leaves lanes empty is flattened with the loop before it where the
/// addresses allow (ResNet-50's 7 x 7 stage; wider rows without taps).
std::optional<BlockedPlan> planBlocked(Emitter& e, const OpCall& call) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    if (nest.outputRank < 1 || call.regions[0].empty())
        return std::nullopt;
    const ir::DType t = outputType(call, 0);
    // riscv64 reads a row of any stride with one strided load (vlse), and
    // its weights as stored; the host may store them along channels.
    const bool stridedLoads = llvm::Triple(e.module().getTargetTriple()).isRISCV();
    const bool integer = integerFactors(call);
    if (integer ? stridedLoads : t != ir::DType::Float32 && t != ir::DType::Float64)
        return std::nullopt;
    for (int slot = 0; slot < 2 && !integer; ++slot)
        if (inputType(call, slot) != t)
            return std::nullopt;
    std::optional<BlockedPlan> alongChannels = stridedLoads ? std::nullopt : planChannels(call);
    std::optional<BlockedPlan> plan =
        alongChannels ? alongChannels : planRow(call, false, nest.outputRank - 1, stridedLoads);
    VectorRegisters registers = hostVectorRegisters(e.module(), t == ir::DType::Float64 ? 8 : 4);
    // Narrow rows are flattened; wider ones (ResNet-50's 14 x 14 stage: 14
    // of 16 lanes, 196 of 208 flattened) only without taps: nine unrolled
    // taps of a 3 x 3 one ran 10 % slower, its 1 x 1 ones 8-23 % faster.
    // Also where the lanes fill alike: a row reads the whole weight again,
    // a segment of the flattened row once (AVX2's rows of 7 in 8 lanes:
    // ResNet-50's stage-4 1 x 1 Convs 0.30-0.63x as long).
    // Byte dots along the row keep their interleaved rows (planKeptRows):
    // a strided row's gathers then run once per segment, not per tile.
    const bool gathersOnce =
        integer && wordDotOf(e.module()) == 2 && vectorBitsOf(e.module()) == 512;
    if (plan && !alongChannels) {
        std::optional<BlockedPlan> flat = planRow(call, true, nest.outputRank - 1, stridedLoads);
        if (flat && flattens(call, *flat, registers.lanes, gathersOnce) &&
            (plan->width * 2 <= registers.lanes ||
             (flat->restOutside && laneShare(flat->positions(), registers.lanes) >=
                                       laneShare(plan->width, registers.lanes))))
            plan = std::move(flat);
    }
    // A single position along the row (the row factor may then not be read
    // along it at all: a 1 x 1 input of stride 0): vectors along an earlier loop.
    if (!plan || plan->positions() == 1)
        if (std::optional<BlockedPlan> across = planAcross(call, stridedLoads))
            plan = std::move(across);
    if (!plan || (integer && integerParametersAlongRow(call, *plan)))
        return std::nullopt;
    plan->lanes = std::min(registers.lanes, nextPowerOfTwo(plan->positions()));
    // A vector along channels stays within one of the weight's blocks
    // (host_layer.cpp, half blocks), and a segment takes as many channels
    // as whole vectors' would: 2 of 8 lanes instead of 16 ran ResNet-50's
    // stage-1 3 x 3 Convs 1.07x as long as rows, 4 of them 0.87x.
    int64_t halves = 1;
    if (const int64_t block = call.inputs[static_cast<size_t>(plan->rowSlot)].block;
        alongChannels && block > 0 && block < plan->lanes) {
        halves = plan->lanes / block;
        plan->lanes = block;
    }
    const int64_t mostChunks = std::min(alongChannels ? channelChunks(nest) * halves : kMaxChunks,
                                        (plan->positions() + plan->lanes - 1) / plan->lanes);
    if (integer) {
        planByteDots(e, call, *plan);
        if (plan->dotByWords) // each row vector and broadcast as two words' halves
            registers = wordDotRegisters(registers);
    }
    plan->chunks = chunksForRegisters(mostChunks, registers.count * 3 / 4, registers);
    if (integer)
        planKeptRows(call, *plan);
    // (Byte dot products sum the weight's columns before the tiles:
    // BlockedEmitter::sumColumns.)
    sizeTile(call, *plan, registers.count * 3 / 4, registers);
    plan->tapsApart = sharesColumnsAcrossTaps(call, *plan);
    if (!stridedLoads && !integer) {
        plan->restOutside = plan->restOutside || rowsOutsideTiles(call, *plan);
        // A tile of kept gathered rows over taps in 3/4 of the registers
        // spilled (its edge taps' masked sums merged by moves): half.
        if (gathersRowsOverTaps(*plan)) {
            BlockedPlan kept = *plan;
            sizeTile(call, kept, registers.count / 2, registers);
            planKeptGathers(call, kept);
            if (kept.keptRows)
                *plan = std::move(kept);
        }
        planKeptStrips(call, *plan);
    }
    plan->prefetchesEpilogue = !stridedLoads && prefetchesEpilogue(call, *plan);
    // Requantized outputs cannot hold a chunk's partial sums; kept rows
    // serve the whole reduction.
    if (!requantizes(call) && !plan->keptRows)
        plan->reductionChunk = reductionChunk(nest, *plan, t == ir::DType::Float64 ? 8 : 4,
                                              reductionChunkBytes(stridedLoads));
    return plan;
}

} // namespace stagecraft::codegen::detail
