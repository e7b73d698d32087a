// The register-blocked contraction's byte dot products (BlockedEmitter,
// blocked_emitter.h; blocked_integer.cpp has the instructions and the
// plan): a MatMul's reduction in steps of 4 against its weight stored with
// 4 steps grouped, its u8 rows' 4 bytes broadcast and the weight's column
// sums kept for the rows' zero point; a Conv's steps of 4 input channels,
// their vectors interleaved, against its weight's 4 bytes broadcast, each
// tile row's weight sums kept for an input zero point other than 0.

#include "codegen/internal/blocked_emitter.h"

#include <algorithm>
#include <optional>

namespace stagecraft::codegen::detail {

Range BlockedEmitter::dotSteps() const {
    if (chunkStart_ != nullptr)
        return {chunkStart_, e_.b().CreateAdd(chunkStart_, e_.i64(plan_.reductionChunk))};
    return {e_.i64(0), e_.i64(nest_.loops[static_cast<size_t>(plan_.reductions[0])].extent)};
}

Value* BlockedEmitter::groupedRow(const Segment& s, int64_t chunk) {
    std::vector<Value*> loops = at(nullptr, 0, laneOf(s, chunk * plan_.lanes));
    std::vector<Value*> index;
    for (const ops::IndexExpr& d : nest_.accessFor(plan_.rowSlot)->dims)
        index.push_back(e_.evalIndex(d, loops));
    return groupedRowBytes(e_, call_, plan_, index);
}

void BlockedEmitter::sumColumns(const Segment& s) {
    columnSums_.clear();
    if (plan_.dotGroup == 0 || plan_.dotAlongRows || !hasZero(call_, plan_.colSlot))
        return;
    for (int64_t c = 0; c < chunksOf(s); ++c)
        columnSums_.push_back(e_.slot(vector_, llvm::Constant::getNullValue(vector_)));
    e_.forRange(
        dotSteps(),
        [&](Value* step) {
            loops_[static_cast<size_t>(plan_.reductions[0])] = step;
            for (int64_t c = 0; c < chunksOf(s); ++c)
                addTo(columnSums_[static_cast<size_t>(c)],
                      unitBytes(e_, static_cast<unsigned>(plan_.lanes)), groupedRow(s, c));
        },
        plan_.dotGroup);
}

void BlockedEmitter::emitDots(const Segment& s, Value* block, int64_t tile, const Range& steps,
                              std::vector<std::vector<Value*>>& acc) {
    e_.forRange(
        steps,
        [&](Value* step) {
            loops_[static_cast<size_t>(plan_.reductions[0])] = step;
            std::vector<Value*> rows;
            for (int64_t c = 0; c < chunksOf(s); ++c)
                rows.push_back(groupedRow(s, c));
            for (int64_t r = 0; r < tile; ++r) {
                Value* column = columnBytes(e_, call_, plan_, at(block, r, s.first));
                for (size_t c = 0; c < rows.size(); ++c)
                    addTo(acc[static_cast<size_t>(r)][c], column, rows[c]);
            }
        },
        plan_.dotGroup);
    for (int64_t r = 0; r < tile; ++r)
        for (size_t c = 0; c < columnSums_.size(); ++c) {
            Value* slot = acc[static_cast<size_t>(r)][c];
            Value* sums =
                lessZeroTimes(e_, call_, plan_.colSlot, e_.b().CreateLoad(vector_, slot),
                              e_.b().CreateLoad(vector_, columnSums_[c]), at(block, r, s.first));
            e_.b().CreateStore(sums, slot);
        }
}

void BlockedEmitter::emitDotStep(const Segment& s, Value* block, int64_t tile,
                                 const std::vector<int64_t>& taps, size_t tap, Value* step,
                                 std::vector<std::vector<Value*>>& acc) {
    std::vector<Value*> rows = dotRows(s, taps, tap, step);
    if (std::all_of(rows.begin(), rows.end(), [](Value* v) { return v == nullptr; }))
        return;           // no lane reads: left out of the weight sums too
    if (plan_.dotRowZero) // the padding reads the zero point, as the weight sums count it
        for (Value*& row : rows)
            if (row == nullptr)
                row = inputZeroBytes(static_cast<unsigned>(plan_.lanes * plan_.dotGroup));
    for (int64_t r = 0; r < tile; ++r) {
        Value* column = columnBytes(e_, call_, plan_, withTaps(at(block, r, s.first), taps));
        for (size_t c = 0; c < rows.size(); ++c)
            if (rows[c] != nullptr)
                addTo(acc[static_cast<size_t>(r)][c], rows[c], column);
        if (!weightSums_.empty() && !wholeRows_) // every lane read this step (dotRowZero)
            addTo(weightSums_[static_cast<size_t>(r)],
                  unitBytes(e_, static_cast<unsigned>(plan_.lanes)), column);
    }
}

void BlockedEmitter::startRowZero(Value* block, int64_t tile) {
    weightSums_.clear();
    for (int64_t r = 0; plan_.dotRowZero && r < tile; ++r)
        weightSums_.push_back(e_.slot(vector_, wholeRows_ ? wholeWeightSums(block, r)
                                                          : llvm::Constant::getNullValue(vector_)));
}

void BlockedEmitter::takeRowZero(const Segment& s, Value* block,
                                 std::vector<std::vector<Value*>>& acc) {
    for (size_t r = 0; r < weightSums_.size(); ++r) {
        Value* weightSums = e_.b().CreateLoad(vector_, weightSums_[r]);
        for (Value* slot : acc[r]) {
            Value* sums = lessZeroTimes(e_, call_, plan_.rowSlot, e_.b().CreateLoad(vector_, slot),
                                        weightSums, at(block, static_cast<int64_t>(r), s.first));
            e_.b().CreateStore(sums, slot);
        }
    }
    weightSums_.clear();
}

Value* BlockedEmitter::interleavedRow(const Segment& s, int64_t chunk,
                                      const std::vector<int64_t>& taps) {
    const auto loop = static_cast<size_t>(plan_.dotLoop);
    Value* first = loops_[loop];
    std::vector<Value*> channels;
    std::vector<bool> keep;
    const int64_t present = nest_.loops[loop].extent; // fewer than a group: one partial
    for (int64_t j = 0; j < plan_.dotGroup; ++j) {
        if (j >= present) { // its weights are zero: any finite bytes do
            channels.push_back(channels[0]);
            continue;
        }
        loops_[loop] = e_.b().CreateAdd(first, e_.i64(j));
        channels.push_back(rowVector(s, chunk, taps, keep));
    }
    loops_[loop] = first;
    if (channels[0] == nullptr)
        return nullptr;
    return interleavedBytes(e_, channels, keep,
                            plan_.dotRowZero ? inputZeroBytes(static_cast<unsigned>(plan_.lanes))
                                             : nullptr);
}

std::vector<Range> BlockedEmitter::groupedReductions(std::vector<Range> reductions) const {
    for (size_t i = 0; plan_.dotGroup > 0 && i < reductions.size(); ++i)
        if (plan_.reductions[i] == plan_.dotLoop)
            reductions[i] = {
                e_.b().CreateUDiv(reductions[i].lo, e_.i64(plan_.dotGroup)),
                e_.b().CreateUDiv(e_.b().CreateAdd(reductions[i].hi, e_.i64(plan_.dotGroup - 1)),
                                  e_.i64(plan_.dotGroup))}; // a partial group too
    return reductions;
}

Value* BlockedEmitter::enterStep(const std::vector<Range>& ranges, const std::vector<Value*>& red) {
    Value* linear = e_.i64(0);
    for (size_t i = 0; i < red.size(); ++i) {
        const auto loop = static_cast<size_t>(plan_.reductions[i]);
        const bool grouped = plan_.dotGroup > 0 && plan_.reductions[i] == plan_.dotLoop;
        loops_[loop] = grouped ? e_.b().CreateMul(red[i], e_.i64(plan_.dotGroup)) : red[i];
        const std::optional<int64_t> extent = constantExtent(ranges[i]);
        if (!extent || linear == nullptr) {
            linear = nullptr;
            continue;
        }
        linear = e_.b().CreateAdd(e_.b().CreateMul(linear, e_.i64(*extent)),
                                  e_.b().CreateSub(red[i], ranges[i].lo));
    }
    return linear;
}

Value* BlockedEmitter::inputZeroBytes(unsigned count) {
    return zeroPointBytes(e_, call_, plan_.rowSlot, loops_, count);
}

void BlockedEmitter::addTo(Value* slot, Value* unsignedBytes, Value* signedBytes) {
    Value* old = e_.b().CreateLoad(vector_, slot);
    e_.b().CreateStore(byteDot(e_, old, unsignedBytes, signedBytes), slot);
}

} // namespace stagecraft::codegen::detail
