#pragma once
// Internal to core/codegen: what the register-blocked contraction lowering
// decides before it emits (blocked_plan.cpp, blocked_factors.cpp), the
// lanes' geometry (blocked_lanes.cpp), the order of its segments and tiles
// (blocked_segments.cpp) and the constant helpers its emitter shares
// (lower_blocked.cpp).

#include "codegen/internal/lowering.h"

#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace stagecraft::codegen::detail {

/// What the lowering decided for one contraction.
struct BlockedPlan {
    int rowSlot = 0;
    int colSlot = 1;
    /// The factors' input slots are 0 and this one (QLinearConv's w: 3).
    int secondSlot = 1;
    /// The row loop (the output's last, or the last of several positions
    /// when every later one is a single position) and the row factor's dim
    /// it moves.
    int row = 0;
    int rowDim = 0;
    /// Elements per position along the row: rowStride / rowDiv (a
    /// ConvTranspose reads (ow - kw) / stride: rowDiv is its stride, and
    /// only the lanes where the division is exact read).
    int64_t rowStride = 1;
    int64_t rowDiv = 1;
    /// The row factor's lanes are read with one strided load (riscv64's
    /// vlse), its stride beyond what a span and a shuffle take.
    bool stridedLoads = false;
    /// Elements from one output position along the row to the next: 1, or
    /// more when the row runs along channels (planChannels) and the sums
    /// are scattered.
    int64_t outStride = 1;
    /// A narrow row flattened with the output loop before it, or -1: position
    /// p is outer = outerFirst + p / width, row = first + p % width, and the
    /// row factor's dims that outer moves are tested per lane like rowDim.
    int outer = -1;
    /// Flattened rows at addresses linear in the position, for the output and
    /// the row factor: a segment whose lanes all read runs at a runtime
    /// position like an unflattened row's.
    bool linear = false;
    std::vector<int> outerDims;
    int64_t outerFirst = 0;
    int64_t outerCount = 1;
    /// The blocked output loop, or -1 (each tile one position of every loop).
    int block = -1;
    /// The output loop before the block flattened with it (a row along
    /// channels: a tile's positions then run across output rows), or -1:
    /// block position q is at blockOuter = blockOuterFirst + q / blockWidth,
    /// block = blockFirst + q % blockWidth, for q in [0, blockPositions).
    int blockOuter = -1;
    int64_t blockOuterFirst = 0;
    int64_t blockFirst = 0;
    int64_t blockWidth = 1;
    int64_t blockPositions = 0;
    /// Unrolled reduction loops (a suffix of the reductions) and the rest.
    std::vector<int> taps;
    std::vector<int> reductions;
    /// Output loops read by both factors (outside the segments), the others.
    std::vector<int> shared;
    std::vector<int> rest;
    /// The rest loops go outside the segments and block tiles, not inside:
    /// without taps (a 1 x 1 Conv, a MatMul) a row factor element feeds one
    /// position per block index, so its only reuse is across the block's
    /// tiles; with taps, consecutive rows share input rows, and a block
    /// tile's weights stay in cache over all rows, unless the whole block's
    /// weights fit half a host core's L2 share (rowsOutsideTiles).
    bool restOutside = false;
    /// The block's tiles run outside the segments, each over every segment:
    /// a channels plan whose weight fits half a host core's L2 share and
    /// whose positions outnumber its channels, so that a tile's inputs stay
    /// in L1 over the segments and the weight is what streams again, from L2
    /// (blocked_plan.cpp).
    bool blocksOutside = false;
    /// Each tile prefetches its rows' lines of the next segment of the
    /// epilogue's inputs shaped as the output (a residual Add's), on the
    /// host (blocked_prefetch.cpp).
    bool prefetchesEpilogue = false;
    /// Row factor dims tested per reduction step.
    std::vector<int> testedDims;
    /// Column factor dims that may read outside their input (a padded
    /// Conv's ih and iw along channels): the block's tiles then run
    /// unrolled at constant positions and the taps unrolled, and a
    /// position's tap outside is skipped as the plain lowering skips it:
    /// when compiling where the dim reads only the block (and the loop
    /// flattened with it) and taps; else at run time, once per tap step of
    /// a tile, where it reads no block loop (colGuardedDims: ih over rows
    /// of an unflattened block).
    std::vector<int> colTestedDims;
    std::vector<int> colGuardedDims;
    /// The column factor's element of one tap is another tap's at another
    /// block position (a row along channels over a Conv's kw: position p's
    /// tap 1 reads what p + 1's tap 0 reads): its taps are emitted apart, so
    /// that each loads its broadcasts afresh rather than keeping every tap's
    /// alive in registers (sharesColumnsAcrossTaps).
    bool tapsApart = false;
    /// The row's first position and width (constants), the lanes of a
    /// vector, the vectors of a segment and the block positions of a tile.
    /// A row known only from its start at run time (a dense layer's
    /// features tile, dense_tiles.cpp) has \c start set, first 0 and its
    /// constant width: it runs only where every lane of the whole row reads.
    Value* start = nullptr;
    int64_t first = 0;
    int64_t width = 0;
    int64_t lanes = 1;
    int64_t chunks = 1;
    int64_t tile = 1;
    /// Reduction steps one byte dot product sums per lane (vpdpbusd: 4), or
    /// 0: an integer contraction whose row factor the host stores with
    /// that many steps interleaved (GlobalTensor::hostBlockGroup) steps
    /// its one reduction loop by them (blocked_integer.cpp).
    int64_t dotGroup = 0;
    /// The reduction loop stepped by dotGroup, and which factor holds the
    /// u8 bytes: the row factor, whose vectors of dotGroup consecutive
    /// channels are interleaved (a QLinearConv's input against its weight
    /// stored in groups of input channels), or the column factor, whose
    /// dotGroup consecutive bytes are one broadcast word (a MatMul's rows
    /// against B stored in groups of rows).
    int dotLoop = -1;
    bool dotAlongRows = false;
    /// Each byte dot product is two word dot products (no VNNI: byteDot),
    /// so a step's row vectors and its broadcast each take two registers.
    bool dotByWords = false;
    /// Along the row, the u8 input's zero point is not a constant 0: each
    /// tile row also sums its weight bytes, and the zero point times that
    /// sum is taken off before the store. Lanes a step reads in the
    /// padding take the zero point's byte (their product then cancels),
    /// and a step no lane reads is left out of both sums.
    bool dotRowZero = false;
    /// Byte dots along the row whose segments keep their interleaved rows
    /// for all their tiles (blocked_kept_rows.cpp), or float rows whose
    /// vectors are gathered by a shuffle (a stride-2 row over taps) or step
    /// by a stride of no whole number of vectors (planKeptStrips) whose
    /// segments keep them so; and whether those are
    /// whole rows (an input zero point other than 0 by a weight stored
    /// channel by channel: padding as the zero point, every step run, the
    /// weight sums the channel's whole weight's).
    bool keptRows = false;
    bool wholeRows = false;
    /// Steps of the one reduction loop a pass over every segment and tile
    /// runs before the next (its accumulators then start from the output),
    /// or 0: the whole reduction at once.
    int64_t reductionChunk = 0;
    int64_t segment() const { return lanes * chunks; }
    /// Positions along the (flattened) row.
    int64_t positions() const { return width * outerCount; }
};

/// Decides the row factor, the block loop and the unrolled loops for row
/// loop \p row, the row flattened with the loop before it when \p flatten,
/// along \p channels (planChannels); nullopt when the nest is not a product
/// of a row and a column factor (blocked_factors.cpp).
std::optional<BlockedPlan> planFactors(const OpCall& call, bool flatten, int row, bool channels);

/// The plan of \p call: the factors, then the tile and segment sized to the
/// host's vector registers; nullopt where the lowering does not apply.
std::optional<BlockedPlan> planBlocked(Emitter& e, const OpCall& call);
/// Whether \p plan's tiles prefetch their epilogue's inputs a segment
/// ahead (BlockedPlan::prefetchesEpilogue): lanes along the output's last
/// loop, the row's start known when compiling, and an epilogue input
/// shaped as the output.
bool prefetchesEpilogue(const OpCall& call, const BlockedPlan& plan);

// The order of segments and tiles (blocked_segments.cpp).

/// One segment of the row: its first lane (constant when \p known) and width.
struct Segment {
    Value* first = nullptr;
    int64_t width = 0;
    bool known = false;
};
/// \p plan's row in segments, \p body at each: whole segments inside the
/// input for every tap in one loop (but a ConvTranspose's, and a flattened
/// row's at addresses not linear), the others and a shorter last one with
/// their lanes known; a row at a runtime start in whole segments from it,
/// then a shorter one.
void eachSegment(Emitter& e, const OpCall& call, const BlockedPlan& plan,
                 const std::function<void(const Segment&)>& body);
/// \p plan's block loop in tiles of plan.tile positions and a shorter last
/// one: \p body at each tile's first position and size (null and 1
/// without a block).
void eachTile(Emitter& e, const OpCall& call, const BlockedPlan& plan,
              const std::function<void(Value*, int64_t)>& body);

// Integer contractions (blocked_integer.cpp).

/// Whether \p call is QLinearConv or QLinearMatMul (its int32 sums
/// requantized before the store).
bool requantizes(const OpCall& call);
/// The input slot of \p call's second factor: 1, or 3 where it requantizes.
int secondFactorSlot(const OpCall& call);
/// Whether \p call is a ConvInteger or MatMulInteger of u8 or s8 factors
/// into int32, or a QLinearConv or QLinearMatMul of them into u8 or s8,
/// which the lowering sums in int32 lanes.
bool integerFactors(const OpCall& call);
/// Whether the zero point (or, requantized, the scale) of \p plan's row
/// factor differs along the row (a per-column b_zero_point): the lowering
/// then does not apply.
bool integerParametersAlongRow(const OpCall& call, const BlockedPlan& plan);
/// Factor \p slot's \p value (a loaded vector or element) widened to int32
/// less the factor's zero point, read at \p loops.
Value* widenedFactor(Emitter& e, const OpCall& call, int slot, Value* value,
                     std::span<Value* const> loops);
/// \p sums + \p row * \p column lane by lane (int32 lanes of widened
/// factors less their zero points, \p column a broadcast): a word dot
/// product on x86 (wordDotOf), else a multiply and an add.
Value* integerMultiplyAdd(Emitter& e, Value* sums, Value* row, Value* column);
/// Plans \p plan's byte dot products (BlockedPlan::dotGroup) where the
/// target has AVX-512 VNNI, or a word dot product to take their place
/// (AVX2, AVX-512 BW: BlockedPlan::dotByWords), and 16 or 8 int32 lanes
/// fill a vector or less: an s8 factor of zero point
/// 0, stored with 4 steps of a reduction loop grouped (its one dim reading
/// that loop), by a u8 factor reading that loop in one dim: a MatMul's
/// weight as the row factor, the u8 rows' dim contiguous, one reduction
/// and no taps or tests; or a Conv's weight as the column factor (an input
/// zero point other than 0: BlockedPlan::dotRowZero). Else leaves it 0.
void planByteDots(Emitter& e, const OpCall& call, BlockedPlan& plan);
// Kept rows (blocked_kept_rows.cpp).

/// Plans byte dots along the row to keep their interleaved rows
/// (BlockedPlan::keptRows, wholeRows), within 512 KiB of a segment's rows.
/// Over taps the rest loops (a Conv's output rows) run outside the
/// segments where the weight the block's tiles read fits half a host
/// core's L2 share (hostLocalBytes): a segment's rows then serve all its
/// tiles at the cost of reading the weight once per output row, from L2;
/// else the segment keeps the rows of every output row.
void planKeptRows(const OpCall& call, BlockedPlan& plan);
/// Plans a float row over taps whose vectors are gathered by a shuffle
/// (an unflattened row of stride above 1, read a span at a time) to keep
/// them (BlockedPlan::keptRows) where a segment runs more than one tile,
/// within 512 KiB of a segment's rows: each tile then loads a gathered
/// vector instead of gathering it again (ResNet-50's stride-2 7 x 7 stem).
void planKeptGathers(const OpCall& call, BlockedPlan& plan);
/// Whether \p plan is a float row over taps whose vectors are gathered by a
/// shuffle (an unflattened row of stride above 1, a span at a time), the
/// rows planKeptGathers may keep.
bool gathersRowsOverTaps(const BlockedPlan& plan);
/// Plans a float row without taps (a 1 x 1 Conv's) whose reduction steps
/// move the row factor by a stride that is not a whole number of vectors
/// (ResNet-50's 14 x 14 and 7 x 7 planes: 784 and 196 bytes) to keep its
/// vectors (BlockedPlan::keptRows) where a segment runs at least 8 tiles,
/// within 512 KiB of a segment's rows: each is loaded once per segment,
/// stored aligned, and every tile loads it from there, not straddling lines.
void planKeptStrips(const OpCall& call, BlockedPlan& plan);
/// Steps of \p plan's reduction loops, its dotLoop's in groups.
int64_t groupedStepCount(const OpCall& call, const BlockedPlan& plan);
/// Rows a segment of \p chunks chunks keeps: each position of the rest
/// loops inside its tiles, step, tap step and chunk; -1 where an extent is
/// unknown.
int64_t keptRowCount(const OpCall& call, const BlockedPlan& plan, int64_t chunks);
/// \p channels' 4 byte vectors (u8, a lane each per output position)
/// interleaved into one: lane p's 4 bytes are the channels' at p, \p fill's
/// (or zero, when null) where \p keep says the lane reads nothing.
Value* interleavedBytes(Emitter& e, const std::vector<Value*>& channels,
                        const std::vector<bool>& keep, Value* fill);
/// The row factor's \p plan.lanes columns from \p index (its element at a
/// group's first step) with the group's steps interleaved: one load of
/// lanes * group bytes.
Value* groupedRowBytes(Emitter& e, const OpCall& call, const BlockedPlan& plan,
                       std::span<Value* const> index);
/// The column factor's plan.dotGroup consecutive bytes at \p loops,
/// broadcast to every int32 lane.
Value* columnBytes(Emitter& e, const OpCall& call, const BlockedPlan& plan,
                   std::span<Value* const> loops);
/// \p sums + the byte dot products of \p unsignedBytes (u8) by
/// \p signedBytes (s8), 4 per int32 lane: vpdpbusd with VNNI, else two
/// exact word dot products (vpmaddwd) of the lanes' even and odd bytes.
Value* byteDot(Emitter& e, Value* sums, Value* unsignedBytes, Value* signedBytes);
/// 4 bytes of 1 in every int32 lane: a byte dot product by them sums the
/// other factor's 4 bytes.
Value* unitBytes(Emitter& e, unsigned lanes);
/// \p sums less factor \p factor's zero point at \p loops times
/// \p weightSums (the other factor's sums over the reduction): the dot
/// products summed the factor's stored bytes, not their differences from
/// the zero point.
Value* lessZeroTimes(Emitter& e, const OpCall& call, int factor, Value* sums, Value* weightSums,
                     std::span<Value* const> loops);
/// \p count copies of factor \p factor's (one) zero point byte at \p loops.
Value* zeroPointBytes(Emitter& e, const OpCall& call, int factor, std::span<Value* const> loops,
                      unsigned count);
/// Whether factor \p slot of \p call has a zero point other than a
/// constant 0 (its sums then need lessZeroTimes).
bool hasZero(const OpCall& call, int slot);

/// \p sums (int32 lanes) requantized to the output's bytes with the scales
/// and zero point read at output point \p loops.
Value* requantizedLanes(Emitter& e, const OpCall& call, Value* sums, std::span<Value* const> loops);

/// The row factor's dims a lane's position moves: the row's and, when
/// flattened, the outer loop's.
std::vector<int> movedDims(const BlockedPlan& plan);
/// Whether \p expr has a term of loop \p loop.
bool readsLoop(const ops::IndexExpr& expr, int loop);
/// The value of a plain \p expr (no division, no modulo) at constant loop values.
int64_t constantIndex(const ops::IndexExpr& expr, const std::vector<int64_t>& loops);
/// The value of \p expr, plain terms over a whole divided by expr.div, at
/// constant loop values; nullopt where the division is not exact.
std::optional<int64_t> exactIndex(const ops::IndexExpr& expr, const std::vector<int64_t>& loops);
/// The value of \p v when it is an integer constant.
std::optional<int64_t> constantOf(Value* v);
/// hi - lo when it is a constant: both constants, or hi built as lo + c.
std::optional<int64_t> constantExtent(const Range& range);

// The lanes' geometry (blocked_lanes.cpp), at compile time.

/// The outer loop's and the row's values at \p position (a row value when
/// the row is not flattened).
std::pair<int64_t, int64_t> positionValues(const BlockedPlan& plan, int64_t position);
/// The offset in elements of the row factor's element that the lane at
/// \p position reads at the unrolled loops' values \p taps (over the dims a
/// position moves), or nullopt where that lies outside the input or its
/// division is not exact.
std::optional<int64_t> laneAddress(const OpCall& call, const BlockedPlan& plan, int64_t position,
                                   const std::vector<int64_t>& taps);
/// Whether the column factor reads inside its input (its colTestedDims
/// but the guarded ones) at block position \p position (flattened, or the
/// block loop's value) and the unrolled loops' values \p taps
/// (planChannels over a padded input).
bool columnInside(const OpCall& call, const BlockedPlan& plan, int64_t position,
                  const std::vector<int64_t>& taps);
/// Flattens a channels plan's block with the output loop before it, both
/// of constant ranges, so that a tile's positions (one broadcast each per
/// step, against the weights' vectors) run across output rows: a 7 x 7
/// output gives tiles of 10 or 9 positions, not of 4 and 3 per row.
void flattenBlock(const OpCall& call, BlockedPlan& plan);
/// Output positions of \p plan's block and the loop before it, both of
/// constant ranges (what flattenBlock would flatten), or 0.
int64_t flatPositions(const OpCall& call, const BlockedPlan& plan);
/// Plans a channels plan over a padded input (BlockedPlan::colTestedDims):
/// the block's positions constant (flattened, or its own constant range)
/// and each tested dim known per position or the same for a whole tile
/// (colGuardedDims); false where some dim is neither.
bool planPadding(const OpCall& call, BlockedPlan& plan);
/// Whether a flattened channels plan runs its block's tiles outside its
/// segments (BlockedPlan::blocksOutside): more positions than channels,
/// and the weight it reads within half a host core's L2 share
/// (hostLocalBytes).
bool tilesOutsideSegments(const OpCall& call, const BlockedPlan& plan);
/// Every combination of the unrolled loops' values, in loop order.
std::vector<std::vector<int64_t>> tapSteps(const ops::LoopNest& nest, const BlockedPlan& plan);
/// Whether every lane of positions [first, first + width) reads inside the
/// input at every tap.
bool segmentInside(const OpCall& call, const BlockedPlan& plan, int64_t first, int64_t width);
/// The lanes of a \p lanes-wide vector that read, when lane k reads the
/// element (k - \p first) * \p step after the first reading lane's
/// (\p offset: -1 where a lane does not read); nullopt when some lane reads
/// elsewhere.
std::optional<std::vector<bool>> steppedLanes(const std::vector<int64_t>& offset, int64_t first,
                                              int64_t step, int64_t lanes);

} // namespace stagecraft::codegen::detail
