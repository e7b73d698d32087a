// The order the register-blocked contraction (lower_blocked.cpp) emits its
// segments and tiles in: the row in segments of plan.segment() positions,
// those inside the input for every tap in one loop and the others with
// their lanes known (a padding edge, a shorter last one), or from a runtime
// start; the block loop in tiles of plan.tile positions and a shorter last
// one, unrolled at known positions over a padded input.

#include "codegen/internal/blocked_plan.h"

#include <algorithm>

namespace stagecraft::codegen::detail {

namespace {

/// A row at a runtime start (BlockedEmitter::applies()): whole segments in a loop from
/// it, then a shorter last one, all at runtime lanes.
void eachRuntimeSegment(Emitter& e, const BlockedPlan& plan,
                        const std::function<void(const Segment&)>& body) {
    const int64_t length = plan.segment();
    const int64_t whole = plan.width / length * length;
    if (whole == length)
        body({plan.start, length, false});
    else if (whole > length)
        e.forRange(
            {plan.start, e.b().CreateAdd(plan.start, e.i64(whole))},
            [&](Value* first) {
                body({first, length, false});
            },
            length);
    if (whole < plan.width)
        body({e.b().CreateAdd(plan.start, e.i64(whole)), plan.width - whole, false});
}

} // namespace

/// Full segments inside the input for every tap run in one loop (but a
/// ConvTranspose's, and a flattened row's at addresses not linear); the
/// others, and a shorter last segment, are emitted with known lanes.
void eachSegment(Emitter& e, const OpCall& call, const BlockedPlan& plan,
                 const std::function<void(const Segment&)>& body) {
    if (plan.start != nullptr) {
        eachRuntimeSegment(e, plan, body);
        return;
    }
    const int64_t length = plan.segment();
    int64_t start = plan.outer < 0 ? plan.first : 0;
    const int64_t end = start + plan.positions();
    while (start < end) {
        int64_t stop = start;
        while (stop + length <= end && segmentInside(call, plan, stop, length))
            stop += length;
        if ((plan.outer < 0 || plan.linear) && plan.rowDiv == 1 && stop - start > length) {
            e.forRange(
                {e.i64(start), e.i64(stop)},
                [&](Value* first) {
                    body({first, length, false});
                },
                length);
            start = stop;
            continue;
        }
        const int64_t width = std::min(length, end - start);
        body({e.i64(start), width, true});
        start += width;
    }
}

/// The block loop in tiles of plan.tile positions and a last shorter
/// tile: \p body at each tile's first position and size.
void eachTile(Emitter& e, const OpCall& call, const BlockedPlan& plan,
              const std::function<void(Value*, int64_t)>& body) {
    if (plan.block < 0) {
        body(nullptr, 1);
        return;
    }
    if (!plan.colTestedDims.empty()) { // over padding: tiles unrolled at known positions
        const int64_t first = plan.blockOuter >= 0 ? 0 : plan.blockFirst;
        for (int64_t q = 0; q < plan.blockPositions; q += plan.tile)
            body(e.i64(first + q), std::min(plan.tile, plan.blockPositions - q));
        return;
    }
    const Range range = plan.blockOuter >= 0 ? Range{e.i64(0), e.i64(plan.blockPositions)}
                                             : call.regions[0][static_cast<size_t>(plan.block)];
    const int64_t extent = plan.tile == 1 ? 0 : *constantExtent(range);
    if (plan.tile == 1) {
        e.forRange(range, [&](Value* b) { body(b, 1); });
        return;
    }
    const int64_t whole = extent / plan.tile * plan.tile;
    Value* end = e.b().CreateAdd(range.lo, e.i64(whole));
    e.forRange(
        {range.lo, end}, [&](Value* b) { body(b, plan.tile); }, plan.tile);
    if (extent > whole)
        body(end, extent - whole);
}

} // namespace stagecraft::codegen::detail
