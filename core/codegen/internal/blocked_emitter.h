#pragma once
// Internal to core/codegen: the register-blocked contraction's emitter
// (lower_blocked.cpp; its byte dot products in blocked_dots.cpp), which
// emits the tiles of one contraction from its plan (blocked_plan.h).

#include "codegen/internal/blocked_plan.h"

#include <functional>
#include <vector>

namespace stagecraft::codegen::detail {

/// Emits the tiles of one contraction from its plan.
class BlockedEmitter {
public:
    BlockedEmitter(Emitter& e, const OpCall& call, const BlockedPlan& plan)
        : e_(e)
        , call_(call)
        , plan_(plan)
        , nest_(call.semantics->nests[0])
        , integer_(integerFactors(call))
        , type_(integer_ ? ir::DType::Int32 : outputType(call, 0))
        , vector_(
              llvm::FixedVectorType::get(e.valueType(type_), static_cast<unsigned>(plan.lanes))) {}

    void emit();

    /// Whether it applies: a row at a runtime start needs every lane to read.
    bool applies() const;

private:
    Range region(int loop) const { return call_.regions[0][static_cast<size_t>(loop)]; }

    /// The segments once, or once per reduction chunk (plan_.reductionChunk).
    void emitChunks();

    /// Nested loops over the regions of the nest's \p loops, their values
    /// in loops_ while \p body runs.
    void forLoops(const std::vector<int>& loops, const std::function<void()>& body,
                  const char* name = "loop");

    /// The segments, each over the block's tiles; or the tiles, each over
    /// the segments (plan_.blocksOutside).
    void emitOrdered();

    void emitRest(const Segment& segment, Value* block, int64_t tile);

    /// loops_ with the block at position \p r of the tile and the row (and
    /// the outer loop) at position \p lane, a constant when flattened.
    std::vector<Value*> at(Value* block, int64_t r, Value* lane);

    /// \p loops with the unrolled loops at their values \p taps.
    std::vector<Value*> withTaps(std::vector<Value*> loops, const std::vector<int64_t>& taps);

    Value* laneOf(const Segment& s, int64_t offset);

    int64_t lanesIn(const Segment& s, int64_t chunk) const;

    int64_t chunksOf(const Segment& s) const { return (s.width + plan_.lanes - 1) / plan_.lanes; }

    /// Where the lanes lie in the output (for the epilogue's inputs): along
    /// its last loop, unflattened or flattened with the loop before it.
    EpilogueLanes epilogueLanes() const;

    /// A tile's accumulators start at the output's initial values (Conv's bias).
    Value* initialVector(const Segment& s, Value* block, int64_t r, int64_t chunk);

    /// The row factor's vector of chunk \p chunk at the current step: one
    /// masked load of the lanes that read, in place when they read
    /// consecutive elements (edge taps: the padding lanes masked off), else
    /// from the first read lane's element over the span the lanes read,
    /// shuffled into lanes.
    /// \p keep says which lanes' sums count: the lanes that read, and those
    /// past the segment's end (never stored). Null when no lane reads.
    Value* rowVector(const Segment& s, int64_t chunk, const std::vector<int64_t>& taps,
                     std::vector<bool>& keep);

    /// One reduction step of the tile at the unrolled loops' values \p taps.
    /// Tap step \p tap of the step at \p step (linear, or null) loads the
    /// row vectors packRows kept, where it kept them.
    void emitStep(const Segment& s, Value* block, int64_t tile, const std::vector<int64_t>& taps,
                  size_t tap, Value* step, std::vector<std::vector<Value*>>& acc);

    void emitTile(const Segment& s, Value* block, int64_t tile);
    /// Prefetches the lines of tile \p tile's rows at \p block that the
    /// epilogue reads in the segment after \p s (plan_.prefetchesEpilogue).
    void prefetchNextSegment(const Segment& s, Value* block, int64_t tile);

    /// The reduction over \p reductions' ranges, a step per tap step; in
    /// byte dot products along the row, plan_.dotLoop in steps of dotGroup.
    void emitSteps(const Segment& s, Value* block, int64_t tile, std::vector<Range> reductions,
                   std::vector<std::vector<Value*>>& acc);
    /// Keeps the loads emitted next apart from those before (a tap's
    /// broadcasts from the last tap's: BlockedPlan::tapsApart).
    void separateLoads();

    /// The steps of the one reduction a tile runs: the current reduction
    /// chunk's, or the whole loop.
    Range dotSteps() const;

    /// The grouped row factor's bytes of chunk \p chunk at the current step.
    Value* groupedRow(const Segment& s, int64_t chunk);

    /// Before a segment's tiles, where the u8 rows have a zero point: the
    /// row factor's sums over dotSteps() into columnSums_: once for every
    /// tile of the segment where the tiles run inside it.
    void sumColumns(const Segment& s);

    /// The one reduction over \p steps in byte dot products of
    /// plan_.dotGroup steps each (blocked_integer.cpp): a load per vector
    /// of the grouped row factor, a broadcast of the column factor's bytes
    /// per tile row; the row factor's sums, for the column factor's zero
    /// point, from columnSums_ (sumColumns).
    void emitDots(const Segment& s, Value* block, int64_t tile, const Range& steps,
                  std::vector<std::vector<Value*>>& acc);

    /// One step of byte dot products along the row at the unrolled loops'
    /// values \p taps (tap step \p tap of the step at \p step, linear):
    /// per vector the row factor's plan_.dotGroup channels from the current
    /// one, interleaved (or kept, packRows); per tile row the column
    /// factor's bytes of those channels, broadcast.
    void emitDotStep(const Segment& s, Value* block, int64_t tile, const std::vector<int64_t>& taps,
                     size_t tap, Value* step, std::vector<std::vector<Value*>>& acc);

    /// The reductions' ranges with plan_.dotLoop's in groups of dotGroup.
    std::vector<Range> groupedReductions(std::vector<Range> reductions) const;
    /// Sets loops_ to the reduction steps \p red (of groupedReductions)
    /// and returns their linear index, or null when an extent is unknown.
    Value* enterStep(const std::vector<Range>& ranges, const std::vector<Value*>& red);

    // Kept rows (blocked_kept_rows.cpp).

    /// A kept row's type: lanes * dotGroup bytes, or a float vector.
    llvm::FixedVectorType* keptRowType() const;
    /// Its alignment: its size.
    llvm::Align keptRowAlign() const;
    /// Before a segment's tiles: every interleaved (or gathered) row vector
    /// of the segment (each position of the rest loops inside the tiles,
    /// step, tap step and chunk) into a buffer on the stack, so that each
    /// tile loads it once instead of interleaving (gathering) it again.
    void packRows(const Segment& s);
    /// The address of the kept row of tap step \p tap and chunk \p chunk
    /// of the step at \p step (linear), at the rest loops' current values.
    Value* keptRow(const Segment& s, size_t tap, int64_t chunk, Value* step);
    /// The input zero point's bytes as a kept row.
    Value* zeroRow();
    /// The sum of tile row \p r's weight bytes over the whole reduction
    /// (every tap), splat: dot products of a vector's bytes (64 with
    /// AVX-512, 32 with AVX2) by bytes of 1 over the channel's span.
    Value* wholeWeightSums(Value* block, int64_t r);
    /// The row vectors of tap step \p tap of the step at \p step: the kept
    /// ones where packRows kept them, else interleaved now (null where no
    /// lane reads). Gathered float rows are always kept.
    std::vector<Value*> dotRows(const Segment& s, const std::vector<int64_t>& taps, size_t tap,
                                Value* step);

    /// The row factor's vectors of chunk \p chunk for plan_.dotGroup
    /// consecutive values of plan_.dotLoop, interleaved (null when no lane reads).
    Value* interleavedRow(const Segment& s, int64_t chunk, const std::vector<int64_t>& taps);

    /// \p count bytes of the u8 input's zero point (plan_.dotRowZero).
    Value* inputZeroBytes(unsigned count);

    /// Starts a tile of \p tile rows' weight sums (plan_.dotRowZero), or none.
    void startRowZero(Value* block, int64_t tile);
    /// Takes the input's zero point times each tile row's weight sums off
    /// the row's sums \p acc (plan_.dotRowZero).
    void takeRowZero(const Segment& s, Value* block, std::vector<std::vector<Value*>>& acc);

    /// *slot += the byte dot products of \p unsignedBytes by \p signedBytes.
    void addTo(Value* slot, Value* unsignedBytes, Value* signedBytes);

    /// The output's vector of chunk \p chunk of tile row \p r (lanes past the segment poison).
    Value* outputChunk(const Segment& s, Value* block, int64_t r, int64_t chunk);

    /// Stores the sums of chunk \p chunk of row \p r: through the epilogue
    /// when \p final, else as they are in the contraction's output.
    void storeChunk(const Segment& s, Value* block, int64_t r, int64_t chunk, Value* slot,
                    bool final);
    /// The final sums of chunk \p chunk of row \p r, \p sum: requantized
    /// and through the epilogue.
    Value* finalSum(const Segment& s, Value* block, int64_t r, int64_t chunk, Value* sum);
    /// Where the final sums go: the epilogue's last output, else the contraction's.
    const Access& finalOutput() const;
    /// Whether the final sums of a tile along channels are stored as rows
    /// (blocked_transposed.cpp): the tile's positions at consecutive
    /// elements of the output along its last loop, no more than a vector's
    /// lanes (AVX-512: 16 against tiles of 12; AVX2: 8 against 6).
    bool storesTransposed() const;
    /// The tile's final sums along channels transposed in registers, so
    /// that each channel's positions are one masked store instead of a
    /// scatter per position (blocked_transposed.cpp).
    void storeTransposed(const Segment& s, Value* block, int64_t tile,
                         const std::vector<std::vector<Value*>>& acc);
    /// The tile's accumulators \p acc stored: the final sums through the
    /// epilogue; with reduction chunks and an epilogue, those of every
    /// chunk but the last as they are, for the next chunk to go on from.
    void storeTile(const Segment& s, Value* block, int64_t tile,
                   const std::vector<std::vector<Value*>>& acc);

    Emitter& e_;
    const OpCall& call_;
    const BlockedPlan& plan_;
    const ops::LoopNest& nest_;
    /// Int32 sums of widened factors less their zero points (blocked_integer.cpp).
    bool integer_;
    ir::DType type_;
    llvm::FixedVectorType* vector_;
    /// Current values of the nest's loops (null where not yet set).
    std::vector<Value*> loops_;
    /// The first step of the current reduction chunk, or null.
    Value* chunkStart_ = nullptr;
    /// Per tile row, the sum of its weight bytes over the steps so far
    /// (plan_.dotRowZero), or empty.
    std::vector<Value*> weightSums_;
    /// Per chunk of the current segment, the row factor's sums over the
    /// reduction (sumColumns), or empty.
    std::vector<Value*> columnSums_;
    /// The current segment's kept interleaved rows (packRows), or null;
    /// which of them a lane reads, per tap step and chunk; the buffer.
    Value* keptRows_ = nullptr;
    /// Kept rows of every step, tap and chunk, those outside the input the
    /// zero point's bytes (packRows, a zero point other than 0 and a weight
    /// stored per channel): the tiles run every step, and each tile row's
    /// weight sums are the channel's whole weight's (wholeWeightSums), not
    /// a dot product per step.
    bool wholeRows_ = false;
    std::vector<bool> keptRead_;
    /// Per tap step and chunk, the lanes whose sums a kept float row's
    /// products count (rowVector's keep).
    std::vector<std::vector<bool>> keptKeep_;
    Value* keptBuffer_ = nullptr;
};

} // namespace stagecraft::codegen::detail
