// Stores of the register-blocked contraction along channels
// (lower_blocked.cpp, planChannels): a tile's sums are one vector of
// channels per output position, and the output keeps each channel's
// positions together. Where a tile's positions are consecutive elements of
// the output (a row, or rows flattened at linear addresses), the tile is
// transposed in registers (a perfect shuffle of the rows, log2(lanes)
// times) so that each channel's positions are one masked store, instead of
// one scatter per position (16 stores of one element each on AVX-512, and
// extracts and scalar stores on AVX2). The values stored are the same.

#include "codegen/internal/blocked_emitter.h"

namespace stagecraft::codegen::detail {

namespace {

/// \p rows (a tile's positions, each a vector of \p lanes, a power of two;
/// at most \p lanes of them) transposed: result k holds lane k of every
/// row, in row order, the lanes past the rows poison. Each pass
/// interleaves row i with row i + lanes / 2 (its low halves into row 2i,
/// its high into 2i + 1); after log2(lanes) passes row k holds what was
/// column k.
std::vector<Value*> transposed(llvm::IRBuilder<>& b, std::vector<Value*> rows, unsigned lanes) {
    auto* type = llvm::cast<llvm::FixedVectorType>(rows.front()->getType());
    rows.resize(lanes, llvm::PoisonValue::get(type));
    const unsigned half = lanes / 2;
    std::vector<int> low, high;
    for (unsigned k = 0; k < half; ++k) {
        low.insert(low.end(), {static_cast<int>(k), static_cast<int>(k + lanes)});
        high.insert(high.end(), {static_cast<int>(k + half), static_cast<int>(k + half + lanes)});
    }
    for (unsigned pass = 1; pass < lanes; pass *= 2) {
        std::vector<Value*> next(lanes);
        for (unsigned i = 0; i < half; ++i) {
            next[2 * i] = b.CreateShuffleVector(rows[i], rows[i + half], low, "transposed");
            next[2 * i + 1] = b.CreateShuffleVector(rows[i], rows[i + half], high, "transposed");
        }
        rows = std::move(next);
    }
    return rows;
}

} // namespace

bool BlockedEmitter::storesTransposed() const {
    if (plan_.outStride == 1 || plan_.block < 0 || plan_.outer >= 0 ||
        (plan_.lanes & (plan_.lanes - 1)) != 0)
        return false;
    const Access& out = finalOutput();
    const int64_t step = out.strides[static_cast<size_t>(plan_.block)];
    return plan_.tile <= plan_.lanes && plan_.block == nest_.outputRank - 1 && step == 1 &&
           (plan_.blockOuter < 0 ||
            out.strides[static_cast<size_t>(plan_.blockOuter)] == plan_.blockWidth);
}

void BlockedEmitter::storeTransposed(const Segment& s, Value* block, int64_t tile,
                                     const std::vector<std::vector<Value*>>& acc) {
    const Access& out = finalOutput();
    for (int64_t chunk = 0; chunk < chunksOf(s); ++chunk) {
        std::vector<Value*> sums;
        for (int64_t r = 0; r < tile; ++r) {
            Value* slot = acc[static_cast<size_t>(r)][static_cast<size_t>(chunk)];
            sums.push_back(finalSum(s, block, r, chunk, e_.b().CreateLoad(vector_, slot)));
        }
        const std::vector<Value*> columns =
            transposed(e_.b(), std::move(sums), static_cast<unsigned>(plan_.lanes));
        for (int64_t k = 0; k < lanesIn(s, chunk); ++k) {
            std::vector<Value*> loops = at(block, 0, laneOf(s, chunk * plan_.lanes + k));
            loops.resize(static_cast<size_t>(nest_.outputRank));
            e_.storeVector(out, loops, columns[static_cast<size_t>(k)], tile);
        }
    }
}

} // namespace stagecraft::codegen::detail
