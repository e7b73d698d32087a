// Kept rows of the register-blocked contraction's byte dot products along
// the row (BlockedEmitter, blocked_emitter.h; docs/codegen.md, "Integer
// contractions"): a QLinearConv's or ConvInteger's u8 input is read as 4
// channels' vectors interleaved into one, lane p holding the 4 channels'
// bytes at position p. Every tile of a segment (a few output channels)
// reads the same interleaved vectors, and interleaving is shuffles on the
// port the dot products also use; so before its tiles a segment stores
// each interleaved vector it reads (every reduction step, tap and chunk,
// and every output row its tiles run over where they run over rows) in a
// buffer on the stack, and
// the tiles load them: one 64-byte load per vector and step. The same
// bytes in the same order: the same sums.

#include "codegen/internal/blocked_emitter.h"

#include <algorithm>
#include <optional>

namespace stagecraft::codegen::detail {

namespace {

/// Bytes of interleaved rows a segment keeps at most: a few hundred KiB
/// stay in L2 beside the weights and are a small share of a thread's
/// stack (8 MiB by default).
constexpr int64_t kKeptRowBytes = 512 * 1024;

} // namespace

llvm::FixedVectorType* BlockedEmitter::keptRowType() const {
    return llvm::FixedVectorType::get(e_.b().getInt8Ty(),
                                      static_cast<unsigned>(plan_.lanes * plan_.dotGroup));
}

int64_t BlockedEmitter::groupedStepCount() const {
    int64_t steps = 1;
    for (int l : plan_.reductions) {
        const int64_t extent = nest_.loops[static_cast<size_t>(l)].extent;
        steps *= l == plan_.dotLoop ? (extent + plan_.dotGroup - 1) / plan_.dotGroup : extent;
    }
    return steps;
}

int64_t BlockedEmitter::restPositions() const {
    int64_t positions = 1;
    for (int l : plan_.restOutside ? std::vector<int>{} : plan_.rest) {
        const std::optional<int64_t> extent = constantExtent(region(l));
        if (!extent)
            return -1;
        positions *= *extent;
    }
    return positions;
}

int64_t BlockedEmitter::keptRowCount(int64_t chunks) const {
    return restPositions() * groupedStepCount() *
           static_cast<int64_t>(tapSteps(nest_, plan_).size()) * chunks;
}

bool BlockedEmitter::keepsRows(const Segment& s) const {
    if (plan_.dotGroup == 0 || !plan_.dotAlongRows || plan_.reductionChunk != 0 ||
        plan_.blocksOutside || plan_.block < 0 || restPositions() < 0)
        return false;
    const std::optional<int64_t> blocks = constantExtent(region(plan_.block));
    if (blocks && *blocks <= plan_.tile)
        return false; // one tile: nothing to share
    return keptRowCount(chunksOf(s)) * plan_.lanes * plan_.dotGroup <= kKeptRowBytes;
}

void BlockedEmitter::packRows(const Segment& s) {
    keptRows_ = nullptr;
    if (!keepsRows(s))
        return;
    if (keptBuffer_ == nullptr) { // for the widest segment kept, in the entry block
        llvm::BasicBlock& entry = e_.b().GetInsertBlock()->getParent()->getEntryBlock();
        llvm::IRBuilder<> top(&entry, entry.begin());
        const int64_t rows =
            std::min(keptRowCount(plan_.chunks), kKeptRowBytes / (plan_.lanes * plan_.dotGroup));
        auto* buffer = top.CreateAlloca(keptRowType(), e_.i64(rows), "keptrow");
        buffer->setAlignment(llvm::Align(64));
        keptBuffer_ = buffer;
    }
    const std::vector<std::vector<int64_t>> steps = tapSteps(nest_, plan_);
    std::vector<Range> reductions;
    for (int l : plan_.reductions)
        reductions.push_back({e_.i64(0), e_.i64(nest_.loops[static_cast<size_t>(l)].extent)});
    reductions = groupedReductions(std::move(reductions));
    keptRead_.assign(steps.size() * static_cast<size_t>(chunksOf(s)), false);
    auto pack = [&] {
        e_.forBox(reductions, [&](const std::vector<Value*>& red) {
            Value* step = enterStep(reductions, red);
            auto body = [&] {
                for (size_t t = 0; t < steps.size(); ++t)
                    for (int64_t c = 0; c < chunksOf(s); ++c) {
                        Value* row = interleavedRow(s, c, steps[t]);
                        keptRead_[t * static_cast<size_t>(chunksOf(s)) + static_cast<size_t>(c)] =
                            row != nullptr;
                        if (row != nullptr)
                            e_.b().CreateAlignedStore(row, keptRow(s, t, c, step),
                                                      llvm::Align(plan_.lanes * plan_.dotGroup));
                    }
            };
            if (plan_.testedDims.empty())
                body();
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
    index = e_.b().CreateAdd(e_.b().CreateMul(index, e_.i64(groupedStepCount())), step);
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
                                                       llvm::Align(plan_.lanes * plan_.dotGroup),
                                                       "keptrow")
                            : nullptr);
    }
    return rows;
}

} // namespace stagecraft::codegen::detail
