// The register-blocked contraction (docs/codegen.md): the micro-kernel
// lowering of Conv, ConvTranspose, MatMul and Gemm (host and riscv64), chosen
// from the loop nest and access maps (no op is named). The "row" factor reads
// along the output's last loop (Conv's ow, MatMul's n; an earlier one when
// the last are single positions: a squeeze-excite Conv's co), the "column"
// factor along another output loop, the block (Conv's oc, MatMul's m), that
// the row factor does not read. A tile of R block positions by a segment of
// the row stays in vector registers over every reduction step: each step
// loads the row factor's vectors once and multiplies them by R broadcast
// scalars of the column factor (sizes: blocked_plan.cpp). The reduction loops
// that move the row factor along the row (Conv's kw) are unrolled, so
// padding lanes are known when compiling (blocked_lanes.cpp); segments inside
// the input for every tap run in a loop, the others with known lanes, each
// vector one masked load: in place when its lanes read consecutive elements
// (edge taps), strided beyond a span's reach (riscv64's vlse), else of the
// span they read and shuffled (stride 2, ConvTranspose's exact divisions). A
// row of runtime start runs whole segments, then a shorter one; a narrow row
// may run flattened with the loop before it. A long single reduction runs in
// chunks that take up the stored sums. The final sums (the last chunk's)
// go through the call's epilogue (lower_epilogue.cpp) before the store, a
// shorter last vector's as that many lanes; a row along output channels
// (a weight the host stores in blocks of them) scatters them, and over a
// padded input runs its block's tiles and taps unrolled, each position's
// padding taps left out when compiling; its taps, which share broadcasts
// along kw, are kept apart so each loads its own (BlockedPlan::tapsApart).
// Each element sums the same products in the same order as
// lower_contraction.cpp, with the same fused multiply-add: the same bits.

#include "codegen/internal/blocked_emitter.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <utility>

namespace stagecraft::codegen::detail {

void BlockedEmitter::emit() {
    loops_.assign(nest_.loops.size(), nullptr);
    forLoops(plan_.shared, [&] {
        if (plan_.restOutside) // named in the IR: rows outside the tiles
            forLoops(
                plan_.rest, [&] { emitChunks(); }, "rows");
        else
            emitChunks();
    });
}

bool BlockedEmitter::applies() const {
    return plan_.start == nullptr ||
           segmentInside(call_, plan_, 0, nest_.loops[static_cast<size_t>(plan_.row)].extent);
}

void BlockedEmitter::emitChunks() {
    if (plan_.reductionChunk == 0) {
        emitOrdered();
        return;
    }
    const int64_t steps = nest_.loops[static_cast<size_t>(plan_.reductions[0])].extent;
    e_.forRange(
        {e_.i64(0), e_.i64(steps)},
        [&](Value* first) {
            chunkStart_ = first;
            emitOrdered();
        },
        plan_.reductionChunk, nullptr, "chunks"); // named in the IR
    chunkStart_ = nullptr;
}

void BlockedEmitter::forLoops(const std::vector<int>& loops, const std::function<void()>& body,
                              const char* name) {
    std::vector<Range> ranges;
    for (int l : loops)
        ranges.push_back(region(l));
    e_.forBox(
        ranges,
        [&](const std::vector<Value*>& idx) {
            for (size_t i = 0; i < idx.size(); ++i)
                loops_[static_cast<size_t>(loops[i])] = idx[i];
            body();
        },
        name);
}

void BlockedEmitter::emitOrdered() {
    if (!plan_.blocksOutside)
        eachSegment(e_, call_, plan_, [&](const Segment& s) {
            sumColumns(s);
            packRows(s);
            eachTile(e_, call_, plan_,
                     [&](Value* block, int64_t tile) { emitRest(s, block, tile); });
            keptRows_ = nullptr;
            wholeRows_ = false;
        });
    else
        eachTile(e_, call_, plan_, [&](Value* block, int64_t tile) {
            eachSegment(e_, call_, plan_, [&](const Segment& s) {
                sumColumns(s);
                emitRest(s, block, tile);
            });
        });
}

void BlockedEmitter::emitRest(const Segment& segment, Value* block, int64_t tile) {
    if (plan_.restOutside)
        emitTile(segment, block, tile);
    else
        forLoops(plan_.rest, [&] { emitTile(segment, block, tile); });
}

std::vector<Value*> BlockedEmitter::at(Value* block, int64_t r, Value* lane) {
    std::vector<Value*> loops(loops_);
    if (block != nullptr && plan_.blockOuter >= 0) { // a flattened block position
        Value* q = e_.b().CreateAdd(block, e_.i64(r));
        Value* width = e_.i64(plan_.blockWidth);
        loops[static_cast<size_t>(plan_.blockOuter)] =
            e_.b().CreateAdd(e_.i64(plan_.blockOuterFirst), e_.b().CreateUDiv(q, width));
        loops[static_cast<size_t>(plan_.block)] =
            e_.b().CreateAdd(e_.i64(plan_.blockFirst), e_.b().CreateURem(q, width));
    } else if (block != nullptr) {
        loops[static_cast<size_t>(plan_.block)] = e_.b().CreateAdd(block, e_.i64(r));
    }
    if (plan_.outer < 0) {
        loops[static_cast<size_t>(plan_.row)] = lane;
        return loops;
    }
    if (std::optional<int64_t> position = constantOf(lane)) {
        const auto [outer, row] = positionValues(plan_, *position);
        loops[static_cast<size_t>(plan_.outer)] = e_.i64(outer);
        loops[static_cast<size_t>(plan_.row)] = e_.i64(row);
        return loops;
    }
    // A runtime segment of a linear flattened row (positions >= 0).
    loops[static_cast<size_t>(plan_.outer)] =
        e_.b().CreateAdd(e_.i64(plan_.outerFirst), e_.b().CreateUDiv(lane, e_.i64(plan_.width)));
    loops[static_cast<size_t>(plan_.row)] =
        e_.b().CreateAdd(e_.i64(plan_.first), e_.b().CreateURem(lane, e_.i64(plan_.width)));
    return loops;
}

std::vector<Value*> BlockedEmitter::withTaps(std::vector<Value*> loops,
                                             const std::vector<int64_t>& taps) {
    for (size_t i = 0; i < plan_.taps.size(); ++i)
        loops[static_cast<size_t>(plan_.taps[i])] = e_.i64(taps[i]);
    return loops;
}

Value* BlockedEmitter::laneOf(const Segment& s, int64_t offset) {
    return e_.b().CreateAdd(s.first, e_.i64(offset));
}

int64_t BlockedEmitter::lanesIn(const Segment& s, int64_t chunk) const {
    return std::min(plan_.lanes, s.width - chunk * plan_.lanes);
}

Value* BlockedEmitter::initialVector(const Segment& s, Value* block, int64_t r, int64_t chunk) {
    const ir::OpKind kind = call_.op().kind;
    const int slot = kind == ir::OpKind::QLinearConv ? 8 : 2;
    if ((kind != ir::OpKind::Conv && kind != ir::OpKind::ConvTranspose &&
         kind != ir::OpKind::QLinearConv) ||
        !call_.hasInput(slot))
        return llvm::Constant::getNullValue(vector_);
    const ops::AccessMap* bias = nest_.accessFor(slot);
    const bool perLane =
        std::any_of(bias->dims.begin(), bias->dims.end(),
                    [&](const ops::IndexExpr& d) { return readsLoop(d, plan_.row); });
    if (!perLane)
        return e_.b().CreateVectorSplat(static_cast<unsigned>(plan_.lanes),
                                        loadMapped(e_, call_, 0, slot, at(block, r, s.first)));
    Value* v = llvm::PoisonValue::get(vector_);
    for (int64_t k = 0; k < lanesIn(s, chunk); ++k) {
        Value* x = loadMapped(e_, call_, 0, slot, at(block, r, laneOf(s, chunk * plan_.lanes + k)));
        v = e_.b().CreateInsertElement(v, x, static_cast<uint64_t>(k));
    }
    return v;
}

Value* BlockedEmitter::rowVector(const Segment& s, int64_t chunk, const std::vector<int64_t>& taps,
                                 std::vector<bool>& keep) {
    const int64_t count = lanesIn(s, chunk);
    keep.assign(static_cast<size_t>(plan_.lanes), true);
    std::vector<int64_t> offset(static_cast<size_t>(count), -1);
    int64_t first = -1, base = 0, span = plan_.lanes;
    for (int64_t k = 0; k < count; ++k) {
        std::optional<int64_t> address =
            s.known
                ? laneAddress(call_, plan_, *constantOf(s.first) + chunk * plan_.lanes + k, taps)
                : std::optional<int64_t>(k * plan_.rowStride);
        keep[static_cast<size_t>(k)] = address.has_value();
        if (!address)
            continue;
        if (first < 0) {
            first = k;
            base = *address;
        }
        offset[static_cast<size_t>(k)] = *address - base;
        span = std::max(span, *address - base + 1);
    }
    if (first < 0)
        return nullptr;
    std::vector<Value*> loops =
        withTaps(at(nullptr, 0, laneOf(s, chunk * plan_.lanes + first)), taps);
    const ops::AccessMap* map = nest_.accessFor(plan_.rowSlot);
    std::vector<Value*> index;
    for (const ops::IndexExpr& d : map->dims)
        index.push_back(e_.evalIndex(d, loops));
    const Access& rows = call_.inputs[static_cast<size_t>(plan_.rowSlot)];
    if (std::optional<std::vector<bool>> lanes = steppedLanes(offset, first, 1, plan_.lanes)) {
        // The lanes read consecutive elements: one masked load from where
        // lane 0 would read (maybe before the tensor; its lane unread).
        Value* loaded = e_.loadMasked(rows, index, -first, *lanes);
        if (std::find(lanes->begin(), lanes->begin() + count, false) != lanes->begin() + count)
            loaded->setName("edge"); // padding lanes masked off
        return loaded;
    }
    if (plan_.stridedLoads)
        if (std::optional<std::vector<bool>> lanes =
                steppedLanes(offset, first, plan_.rowStride, plan_.lanes))
            return e_.loadStrided(rows, index, -first * plan_.rowStride, plan_.rowStride, *lanes);
    std::vector<bool> read(static_cast<size_t>(span), false);
    for (int64_t o : offset)
        if (o >= 0)
            read[static_cast<size_t>(o)] = true;
    Value* loaded = e_.loadMasked(rows, index, 0, read);
    std::vector<int> lanes;
    for (int64_t k = 0; k < plan_.lanes; ++k) {
        const int64_t o = k < count ? offset[static_cast<size_t>(k)] : -1;
        lanes.push_back(static_cast<int>(std::max<int64_t>(o, 0)));
    }
    return e_.b().CreateShuffleVector(loaded, lanes);
}

void BlockedEmitter::emitStep(const Segment& s, Value* block, int64_t tile,
                              const std::vector<int64_t>& taps, size_t tap, Value* step,
                              std::vector<std::vector<Value*>>& acc) {
    std::vector<Value*> rows;
    std::vector<std::vector<bool>> keep(static_cast<size_t>(chunksOf(s)));
    const bool fromKept = keptRows_ != nullptr && step != nullptr;
    if (fromKept) // gathered once for every tile of the segment (packRows)
        rows = dotRows(s, taps, tap, step);
    for (int64_t c = 0; c < chunksOf(s); ++c)
        if (fromKept)
            keep[static_cast<size_t>(c)] =
                keptKeep_[tap * static_cast<size_t>(chunksOf(s)) + static_cast<size_t>(c)];
        else
            rows.push_back(rowVector(s, c, taps, keep[static_cast<size_t>(c)]));
    if (std::all_of(rows.begin(), rows.end(), [](Value* v) { return v == nullptr; }))
        return;
    for (Value*& row : rows) // the row factor's zero point is one along the row
        if (integer_ && row != nullptr)
            row = widenedFactor(e_, call_, plan_.rowSlot, row, at(block, 0, s.first));
    for (int64_t r = 0; r < tile; ++r) {
        if (!plan_.colTestedDims.empty() &&
            !columnInside(call_, plan_, *constantOf(block) + r, taps))
            continue; // a padding tap of this position: no product
        std::vector<Value*> loops = withTaps(at(block, r, s.first), taps);
        Value* w = loadMapped(e_, call_, 0, plan_.colSlot, loops);
        if (integer_)
            w = widenedFactor(e_, call_, plan_.colSlot, w, loops);
        Value* splat = e_.b().CreateVectorSplat(static_cast<unsigned>(plan_.lanes), w);
        for (int64_t c = 0; c < chunksOf(s); ++c) {
            if (rows[static_cast<size_t>(c)] == nullptr)
                continue;
            Value* slot = acc[static_cast<size_t>(r)][static_cast<size_t>(c)];
            Value* old = e_.b().CreateLoad(vector_, slot);
            std::array<Value*, 3> args{rows[static_cast<size_t>(c)], splat, old};
            Value* sum = integer_ ? integerMultiplyAdd(e_, old, args[0], splat)
                                  : e_.intrinsic(llvm::Intrinsic::fmuladd, args);
            const std::vector<bool>& kept = keep[static_cast<size_t>(c)];
            if (!std::all_of(kept.begin(), kept.end(), [](bool b) { return b; }))
                sum = e_.keptLanes(kept, sum, old);
            e_.b().CreateStore(sum, slot);
        }
    }
}

void BlockedEmitter::emitTile(const Segment& s, Value* block, int64_t tile) {
    std::vector<std::vector<Value*>> acc(static_cast<size_t>(tile));
    for (int64_t r = 0; r < tile; ++r)
        for (int64_t c = 0; c < chunksOf(s); ++c)
            acc[static_cast<size_t>(r)].push_back(e_.slot(vector_, initialVector(s, block, r, c)));
    if (chunkStart_ != nullptr) // later chunks go on from the sums so far
        e_.ifThen(e_.b().CreateICmpNE(chunkStart_, e_.i64(0)), [&] {
            for (int64_t r = 0; r < tile; ++r)
                for (int64_t c = 0; c < chunksOf(s); ++c)
                    e_.b().CreateStore(outputChunk(s, block, r, c),
                                       acc[static_cast<size_t>(r)][static_cast<size_t>(c)]);
        });
    if (plan_.prefetchesEpilogue)
        prefetchNextSegment(s, block, tile);
    std::vector<Range> reductions;
    for (int l : plan_.reductions)
        reductions.push_back({e_.i64(0), e_.i64(nest_.loops[static_cast<size_t>(l)].extent)});
    if (!reductions.empty())
        reductions[0] = dotSteps();
    if (plan_.dotGroup > 0 && !plan_.dotAlongRows) {
        emitDots(s, block, tile, reductions[0], acc);
    } else {
        startRowZero(block, tile);
        emitSteps(s, block, tile, reductions, acc);
        takeRowZero(s, block, acc);
    }
    storeTile(s, block, tile, acc);
}

void BlockedEmitter::storeTile(const Segment& s, Value* block, int64_t tile,
                               const std::vector<std::vector<Value*>>& acc) {
    auto store = [&](bool final) {
        if (final && storesTransposed()) {
            storeTransposed(s, block, tile, acc);
            return;
        }
        for (int64_t r = 0; r < tile; ++r)
            for (int64_t c = 0; c < chunksOf(s); ++c)
                storeChunk(s, block, r, c, acc[static_cast<size_t>(r)][static_cast<size_t>(c)],
                           final);
    };
    if (chunkStart_ == nullptr || call_.epilogue.empty()) {
        store(true);
        return;
    }
    const int64_t steps = nest_.loops[static_cast<size_t>(plan_.reductions[0])].extent;
    e_.ifThen(
        e_.b().CreateICmpEQ(chunkStart_, e_.i64(steps - plan_.reductionChunk)),
        [&] { store(true); }, [&] { store(false); });
}

void BlockedEmitter::emitSteps(const Segment& s, Value* block, int64_t tile,
                               std::vector<Range> reductions,
                               std::vector<std::vector<Value*>>& acc) {
    const std::vector<std::vector<int64_t>> steps = tapSteps(nest_, plan_);
    const bool dots = plan_.dotGroup > 0;
    reductions = groupedReductions(std::move(reductions));
    e_.forBox(reductions, [&](const std::vector<Value*>& red) {
        Value* step = enterStep(reductions, red);
        auto body = [&] { // a tap in the column factor's guarded padding: tested per tile
            for (size_t t = 0; t < steps.size(); ++t) {
                if (t > 0 && plan_.tapsApart)
                    separateLoads();
                if (const std::vector<int64_t>& taps = steps[t]; dots)
                    emitDotStep(s, block, tile, taps, t, step, acc);
                else if (plan_.colGuardedDims.empty())
                    emitStep(s, block, tile, taps, t, step, acc);
                else
                    e_.ifThen(readsInside(e_, call_, plan_.colSlot, plan_.colGuardedDims,
                                          withTaps(at(block, 0, s.first), taps)),
                              [&] { emitStep(s, block, tile, taps, t, step, acc); });
            }
        };
        if (plan_.testedDims.empty() || wholeRows_) // whole rows: padding reads the zero point
            body();
        else
            e_.ifThen(
                readsInside(e_, call_, plan_.rowSlot, plan_.testedDims, at(block, 0, s.first)),
                body);
    });
}

void BlockedEmitter::separateLoads() {
    // An empty statement that may write memory: no load after it is merged
    // with one before it, and none moves across it (BlockedPlan::tapsApart).
    // It emits no instruction.
    auto* type = llvm::FunctionType::get(e_.b().getVoidTy(), false);
    e_.b().CreateCall(type, llvm::InlineAsm::get(type, "", "~{memory}", true));
}

EpilogueLanes BlockedEmitter::epilogueLanes() const {
    if (plan_.row != nest_.outputRank - 1)
        return {};
    if (plan_.outer < 0)
        return {true, -1, 0};
    return {false, plan_.outer, plan_.width};
}

Value* BlockedEmitter::outputChunk(const Segment& s, Value* block, int64_t r, int64_t chunk) {
    std::vector<bool> read(static_cast<size_t>(plan_.lanes), false);
    std::fill_n(read.begin(), lanesIn(s, chunk), true);
    std::vector<Value*> loops = at(block, r, laneOf(s, chunk * plan_.lanes));
    return e_.loadMasked(call_.outputs[0],
                         std::vector<Value*>(loops.begin(), loops.begin() + nest_.outputRank), 0,
                         read);
}

void BlockedEmitter::storeChunk(const Segment& s, Value* block, int64_t r, int64_t chunk,
                                Value* slot, bool final) {
    Value* sum = e_.b().CreateLoad(vector_, slot);
    const int64_t count = lanesIn(s, chunk);
    std::vector<Value*> loops = at(block, r, laneOf(s, chunk * plan_.lanes));
    if (!final) { // a chunk's partial sums, where the next one loads them (outputChunk)
        loops.resize(static_cast<size_t>(nest_.outputRank));
        e_.storeVector(call_.outputs[0], loops, sum, count);
        return;
    }
    sum = finalSum(s, block, r, chunk, sum);
    loops.resize(static_cast<size_t>(nest_.outputRank));
    const Access& out = finalOutput();
    if (plan_.outStride == 1)
        e_.storeVector(out, loops, sum, count);
    else // lanes along channels
        e_.storeStrided(out, loops, sum, out.strides[static_cast<size_t>(plan_.row)], count);
}

Value* BlockedEmitter::finalSum(const Segment& s, Value* block, int64_t r, int64_t chunk,
                                Value* sum) {
    std::vector<Value*> loops = at(block, r, laneOf(s, chunk * plan_.lanes));
    if (requantizes(call_)) // the scales and zero points are one along the row
        sum = requantizedLanes(e_, call_, sum, loops);
    if (!call_.epilogue.empty()) // after the requantization: from its bytes
        sum = applyEpilogue(e_, call_, sum, lanesIn(s, chunk), epilogueLanes(), [&](int64_t lane) {
            std::vector<Value*> laneLoops = at(block, r, laneOf(s, chunk * plan_.lanes + lane));
            laneLoops.resize(static_cast<size_t>(nest_.outputRank));
            return laneLoops;
        });
    return sum;
}

const Access& BlockedEmitter::finalOutput() const {
    return call_.epilogue.empty() ? call_.outputs[0] : call_.epilogue.back().outputs[0];
}

bool lowerBlockedContraction(Emitter& e, const OpCall& call) {
    std::optional<BlockedPlan> plan = planBlocked(e, call);
    if (!plan)
        return false;
    // With reduction chunks the epilogue runs on the last chunk's sums
    // (storeTile); the others store theirs in the contraction's output.
    BlockedEmitter emitter(e, call, *plan);
    if (!emitter.applies())
        return false; // no IR emitted yet
    emitter.emit();
    if (!call.epilogue.empty() && call.epilogueApplied != nullptr)
        *call.epilogueApplied = true;
    return true;
}

} // namespace stagecraft::codegen::detail
