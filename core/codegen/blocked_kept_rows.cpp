// Kept rows of the register-blocked contraction's byte dot products along
// the row (BlockedEmitter, blocked_emitter.h; docs/codegen.md, "Integer
// contractions"): a QLinearConv's or ConvInteger's u8 input is read as 4
// channels' vectors interleaved into one, lane p holding the 4 channels'
// bytes at position p. Every tile of a segment (a few output channels)
// reads the same interleaved vectors, and interleaving is shuffles on the
// port the dot products also use; so before its tiles a segment stores
// each interleaved vector it reads (every reduction step, tap and chunk,
// and every output row its tiles run over where they run over rows) in a
// buffer on the stack, and the tiles load them: one 64-byte load per vector
// and step. The same bytes in the same order: the same sums. An input zero
// point other than 0 (dotRowZero) with a weight stored channel by channel
// keeps whole rows: the padding, even a step no lane reads, as the zero
// point's bytes, so that every tile runs every step (its products cancel)
// and a tile row's weight sums are its channel's whole weight's, a vector of
// bytes per dot product, not one dot product per step. A float row gathered
// by shuffles (a stride-2 row: each vector a span of twice its lanes, then a
// shuffle; ResNet-50's 7 x 7 stem over 49 taps) keeps its gathered vectors
// so too, with the lanes each one's sums keep, where a segment runs at least
// 8 tiles; and so does a float row without taps whose steps move by a stride
// that is not a whole number of vectors (a 1 x 1 Conv over 14 x 14 planes:
// 784 bytes), whose loads in place straddle lines.

#include "codegen/internal/blocked_emitter.h"
#include "codegen/internal/host_reads.h"

#include <algorithm>
#include <optional>

namespace stagecraft::codegen::detail {

namespace {

/// Bytes of interleaved rows a segment keeps at most: a few hundred KiB
/// stay in L2 beside the weights and are a small share of a thread's
/// stack (8 MiB by default).
constexpr int64_t kKeptRowBytes = 512 * 1024;
/// Tiles a segment of float rows (gathered, or strips) runs at least to
/// keep them: each is stored once and loaded by every tile. ResNet-50's
/// stem (7 x 7, stride 2, 64 channels) on one core in 16 tiles of 4
/// channels took 1179-1282 us kept against 1462-1547 gathered per tile;
/// its 8-channel core tiles on
/// their own, 2 tiles each, 1737-1792 kept against 1475 (the kernel's
/// median, `run --strategy tvm`, znver5).
constexpr int64_t kMinKeptFloatTiles = 8;

} // namespace

int64_t groupedStepCount(const OpCall& call, const BlockedPlan& plan) {
    int64_t steps = 1;
    for (int l : plan.reductions) {
        const int64_t extent = call.semantics->nests[0].loops[static_cast<size_t>(l)].extent;
        steps *= l == plan.dotLoop ? (extent + plan.dotGroup - 1) / plan.dotGroup : extent;
    }
    return steps;
}

int64_t keptRowCount(const OpCall& call, const BlockedPlan& plan, int64_t chunks) {
    int64_t rows = groupedStepCount(call, plan) *
                   static_cast<int64_t>(tapSteps(call.semantics->nests[0], plan).size()) * chunks;
    for (int l : plan.restOutside ? std::vector<int>{} : plan.rest) {
        const std::optional<int64_t> extent =
            constantExtent(call.regions[0][static_cast<size_t>(l)]);
        if (!extent)
            return -1;
        rows *= *extent;
    }
    return rows;
}

namespace {

/// Whether the column factor (the weight) is stored channel by channel: a
/// block of 1 along the block loop's dim ([oc][ic / 4][kh][kw][4]), each
/// channel's bytes one span of blockStride.
bool storedPerChannel(const OpCall& call, const BlockedPlan& plan) {
    const Access& weight = call.inputs[static_cast<size_t>(plan.colSlot)];
    return weight.block == 1 && dimReadingAlone(call.semantics->nests[0], plan.colSlot,
                                                plan.block) == std::optional(weight.blockDim);
}

} // namespace

void planKeptRows(const OpCall& call, BlockedPlan& plan) {
    if (plan.dotGroup == 0 || !plan.dotAlongRows || plan.block < 0 || plan.blocksOutside)
        return;
    const ops::LoopNest& nest = call.semantics->nests[0];
    const std::optional<int64_t> channels =
        constantExtent(call.regions[0][static_cast<size_t>(plan.block)]);
    if (!plan.rest.empty() && !plan.restOutside && channels) {
        int64_t weightBytes = *channels; // s8: a byte per channel and step
        for (int l = nest.outputRank; l < static_cast<int>(nest.loops.size()); ++l)
            weightBytes *= nest.loops[static_cast<size_t>(l)].extent;
        plan.restOutside = weightBytes * 2 <= hostLocalBytes();
    }
    const int64_t rows = keptRowCount(call, plan, plan.chunks);
    plan.keptRows = rows >= 0 && rows * plan.lanes * plan.dotGroup <= kKeptRowBytes;
    plan.wholeRows = plan.keptRows && plan.dotRowZero && storedPerChannel(call, plan);
}

namespace {

/// Bytes the row factor's address moves per step of \p plan's one
/// reduction loop, or nullopt.
std::optional<int64_t> stepStrideBytes(const OpCall& call, const BlockedPlan& plan) {
    if (plan.reductions.size() != 1)
        return std::nullopt;
    const ops::AccessMap& map = *call.semantics->nests[0].accessFor(plan.rowSlot);
    const Access& rows = call.inputs[static_cast<size_t>(plan.rowSlot)];
    int64_t stride = 0;
    for (size_t d = 0; d < map.dims.size(); ++d)
        for (const ops::IndexTerm& t : map.dims[d].terms)
            if (t.loop == plan.reductions[0])
                stride += t.coeff * rows.strides[d];
    return stride * static_cast<int64_t>(ir::dtypeSize(rows.dtype));
}

/// Whether \p plan is a float row without taps (a 1 x 1 Conv's, its kh and
/// kw single steps) whose reduction steps move the row factor by a stride
/// that is not a whole number of vectors (a 14 x 14 plane: 784 bytes), so
/// that many of its vector loads straddle two lines.
bool readsMisalignedStrips(const OpCall& call, const BlockedPlan& plan) {
    if (plan.dotGroup != 0 || plan.block < 0 || plan.blocksOutside || plan.start != nullptr ||
        plan.stridedLoads || plan.outStride != 1 || plan.rowStride != 1 ||
        !plan.testedDims.empty() || !plan.colTestedDims.empty() || !plan.colGuardedDims.empty())
        return false;
    const ops::LoopNest& nest = call.semantics->nests[0];
    if (!std::all_of(plan.taps.begin(), plan.taps.end(),
                     [&](int t) { return nest.loops[static_cast<size_t>(t)].extent == 1; }))
        return false;
    const std::optional<int64_t> stride = stepStrideBytes(call, plan);
    const Access& rows = call.inputs[static_cast<size_t>(plan.rowSlot)];
    const int64_t vectorBytes = plan.lanes * static_cast<int64_t>(ir::dtypeSize(rows.dtype));
    return stride && *stride % vectorBytes != 0;
}

/// Keeps float \p plan's rows (BlockedPlan::keptRows) where a segment runs
/// at least kMinKeptFloatTiles tiles and its rows fit kKeptRowBytes.
void keepFloatRows(const OpCall& call, BlockedPlan& plan) {
    const std::optional<int64_t> channels =
        constantExtent(call.regions[0][static_cast<size_t>(plan.block)]);
    if (!channels || *channels < kMinKeptFloatTiles * plan.tile)
        return;
    const int64_t rows = keptRowCount(call, plan, plan.chunks);
    const auto bytes = static_cast<int64_t>(ir::dtypeSize(outputType(call, 0)));
    plan.keptRows = rows >= 0 && rows * plan.lanes * bytes <= kKeptRowBytes;
}

} // namespace

bool gathersRowsOverTaps(const BlockedPlan& plan) {
    return plan.dotGroup == 0 && plan.block >= 0 && !plan.blocksOutside && !plan.taps.empty() &&
           plan.outer < 0 && plan.start == nullptr && !plan.stridedLoads && plan.outStride == 1 &&
           plan.rowDiv == 1 && plan.rowStride > 1;
}

void planKeptGathers(const OpCall& call, BlockedPlan& plan) {
    if (gathersRowsOverTaps(plan))
        keepFloatRows(call, plan);
}

void planKeptStrips(const OpCall& call, BlockedPlan& plan) {
    if (readsMisalignedStrips(call, plan))
        keepFloatRows(call, plan);
}

llvm::FixedVectorType* BlockedEmitter::keptRowType() const {
    if (plan_.dotGroup == 0) // float rows
        return vector_;
    return llvm::FixedVectorType::get(e_.b().getInt8Ty(),
                                      static_cast<unsigned>(plan_.lanes * plan_.dotGroup));
}

llvm::Align BlockedEmitter::keptRowAlign() const {
    return llvm::Align(keptRowType()->getPrimitiveSizeInBits().getFixedValue() / 8);
}

void BlockedEmitter::packRows(const Segment& s) {
    keptRows_ = nullptr;
    wholeRows_ = false;
    if (!plan_.keptRows)
        return;
    wholeRows_ = plan_.wholeRows;
    if (keptBuffer_ == nullptr) { // for the widest segment, in the entry block
        llvm::BasicBlock& entry = e_.b().GetInsertBlock()->getParent()->getEntryBlock();
        llvm::IRBuilder<> top(&entry, entry.begin());
        auto* buffer = top.CreateAlloca(
            keptRowType(), e_.i64(keptRowCount(call_, plan_, plan_.chunks)), "keptrow");
        buffer->setAlignment(llvm::Align(64));
        keptBuffer_ = buffer;
    }
    const std::vector<std::vector<int64_t>> steps = tapSteps(nest_, plan_);
    std::vector<Range> reductions;
    for (int l : plan_.reductions)
        reductions.push_back({e_.i64(0), e_.i64(nest_.loops[static_cast<size_t>(l)].extent)});
    reductions = groupedReductions(std::move(reductions));
    keptRead_.assign(steps.size() * static_cast<size_t>(chunksOf(s)), false);
    keptKeep_.assign(keptRead_.size(), {});
    auto pack = [&] {
        e_.forBox(reductions, [&](const std::vector<Value*>& red) {
            Value* step = enterStep(reductions, red);
            auto body = [&] {
                for (size_t t = 0; t < steps.size(); ++t)
                    for (int64_t c = 0; c < chunksOf(s); ++c) {
                        const size_t kept =
                            t * static_cast<size_t>(chunksOf(s)) + static_cast<size_t>(c);
                        Value* row = plan_.dotGroup > 0
                                         ? interleavedRow(s, c, steps[t])
                                         : rowVector(s, c, steps[t], keptKeep_[kept]);
                        if (row == nullptr && wholeRows_)
                            row = zeroRow();
                        keptRead_[kept] = row != nullptr;
                        if (row != nullptr)
                            e_.b().CreateAlignedStore(row, keptRow(s, t, c, step), keptRowAlign());
                    }
            };
            auto padding = [&] { // whole rows: a step outside reads the zero point
                for (size_t t = 0; t < steps.size(); ++t)
                    for (int64_t c = 0; c < chunksOf(s); ++c)
                        e_.b().CreateAlignedStore(zeroRow(), keptRow(s, t, c, step),
                                                  keptRowAlign());
            };
            if (plan_.testedDims.empty())
                body();
            else if (wholeRows_)
                e_.ifThen(readsInside(e_, call_, plan_.rowSlot, plan_.testedDims,
                                      at(nullptr, 0, s.first)),
                          body, padding);
            else // a step outside the input is skipped by the tiles too
                e_.ifThen(readsInside(e_, call_, plan_.rowSlot, plan_.testedDims,
                                      at(nullptr, 0, s.first)),
                          body);
        });
    };
    if (plan_.restOutside) // the rest loops' current values
        pack();
    else // the rows of every output row the tiles run over
        forLoops(plan_.rest, pack);
    keptRows_ = keptBuffer_;
}

Value* BlockedEmitter::keptRow(const Segment& s, size_t tap, int64_t chunk, Value* step) {
    Value* index = e_.i64(0); // the output row's, where the rest loops run inside the tiles
    for (int l : plan_.restOutside ? std::vector<int>{} : plan_.rest)
        index = e_.b().CreateAdd(e_.b().CreateMul(index, e_.i64(*constantExtent(region(l)))),
                                 e_.b().CreateSub(loops_[static_cast<size_t>(l)], region(l).lo));
    index = e_.b().CreateAdd(e_.b().CreateMul(index, e_.i64(groupedStepCount(call_, plan_))), step);
    const auto taps = static_cast<int64_t>(tapSteps(nest_, plan_).size());
    index =
        e_.b().CreateAdd(e_.b().CreateMul(index, e_.i64(taps)), e_.i64(static_cast<int64_t>(tap)));
    index = e_.b().CreateAdd(e_.b().CreateMul(index, e_.i64(chunksOf(s))), e_.i64(chunk));
    return e_.b().CreateInBoundsGEP(keptRowType(), keptBuffer_, index);
}

std::vector<Value*> BlockedEmitter::dotRows(const Segment& s, const std::vector<int64_t>& taps,
                                            size_t tap, Value* step) {
    std::vector<Value*> rows;
    for (int64_t c = 0; c < chunksOf(s); ++c) {
        if (keptRows_ == nullptr || step == nullptr) {
            rows.push_back(interleavedRow(s, c, taps));
            continue;
        }
        const bool read =
            keptRead_[tap * static_cast<size_t>(chunksOf(s)) + static_cast<size_t>(c)];
        rows.push_back(read ? e_.b().CreateAlignedLoad(keptRowType(), keptRow(s, tap, c, step),
                                                       keptRowAlign(), "keptrow")
                            : nullptr);
    }
    return rows;
}

Value* BlockedEmitter::zeroRow() {
    return e_.b().CreateBitCast(inputZeroBytes(static_cast<unsigned>(plan_.lanes * plan_.dotGroup)),
                                keptRowType());
}

Value* BlockedEmitter::wholeWeightSums(Value* block, int64_t r) {
    const Access& weight = call_.inputs[static_cast<size_t>(plan_.colSlot)];
    std::vector<Value*> loops = at(block, r, e_.i64(0));
    for (int l : plan_.reductions)
        loops[static_cast<size_t>(l)] = e_.i64(0);
    for (int l : plan_.taps)
        loops[static_cast<size_t>(l)] = e_.i64(0);
    std::vector<Value*> index;
    for (const ops::IndexExpr& d : nest_.accessFor(plan_.colSlot)->dims)
        index.push_back(e_.evalIndex(d, loops));
    Value* first = e_.elementPtr(weight, index); // the channel's blockStride bytes
    const int64_t vectorBytes = vectorBitsOf(e_.module()) / 8;
    auto* bytes = llvm::FixedVectorType::get(e_.b().getInt8Ty(), vectorBytes);
    auto* words = llvm::FixedVectorType::get(e_.b().getInt32Ty(), vectorBytes / 4);
    Value* sums = e_.slot(words, llvm::Constant::getNullValue(words));
    auto add = [&](Value* loaded) {
        Value* old = e_.b().CreateLoad(words, sums);
        e_.b().CreateStore(byteDot(e_, old, unitBytes(e_, vectorBytes / 4), loaded), sums);
    };
    const int64_t whole = weight.blockStride / vectorBytes;
    e_.forRange({e_.i64(0), e_.i64(whole)}, [&](Value* i) {
        Value* at = e_.b().CreateInBoundsGEP(bytes, first, i);
        add(e_.b().CreateAlignedLoad(bytes, at, llvm::Align(1), "weightspan"));
    });
    if (const int64_t tail = weight.blockStride % vectorBytes; tail > 0) {
        std::vector<bool> read(vectorBytes, false);
        std::fill_n(read.begin(), tail, true);
        Value* at = e_.b().CreateInBoundsGEP(bytes, first, e_.i64(whole));
        add(e_.b().CreateMaskedLoad(bytes, at, llvm::Align(1), e_.laneMask(read),
                                    llvm::Constant::getNullValue(bytes), "weightspan"));
    }
    Value* total = e_.b().CreateAddReduce(e_.b().CreateLoad(words, sums));
    return e_.b().CreateVectorSplat(static_cast<unsigned>(plan_.lanes), total);
}

} // namespace stagecraft::codegen::detail
