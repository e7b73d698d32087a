// How a contraction reads a weight (internal/host_reads.h): along the
// output's last loop (a MatMul's B), or as a convolution whose vectors run
// best along its output channels, the input's padding tested once per tile
// at most (the lowering unrolls its tiles and taps: blocked_plan.cpp's
// planPadding). The host
// stores such weights transposed or blocked (host_layer.cpp).

#include "codegen/internal/host_reads.h"

#include <algorithm>

namespace stagecraft::codegen::detail {

namespace {

/// Whether the reads of \p expr that may leave the input (a padded Conv's
/// ih or iw) are tested at most once per tile along channels: it reads one
/// output loop (known per position when compiling where that is the
/// lowering's block, else the same for a whole tile) and, after it, the
/// last reduction loops, few enough steps to unroll (blocked_plan.cpp's
/// planPadding).
bool paddingKnownAlongChannels(const ops::LoopNest& nest, const ops::IndexExpr& expr) {
    int firstTap = static_cast<int>(nest.loops.size());
    int outputLoops = 0;
    for (const ops::IndexTerm& t : expr.terms) {
        if (t.loop >= nest.outputRank)
            firstTap = std::min(firstTap, t.loop);
        else
            ++outputLoops;
    }
    int64_t steps = 1;
    for (int l = firstTap; l < static_cast<int>(nest.loops.size()); ++l)
        steps *= nest.loops[static_cast<size_t>(l)].extent;
    return outputLoops <= 1 && steps <= kMaxPaddedChannelTaps && expr.div == 1 && expr.mod == 0;
}

} // namespace

bool readsAlongRow(const ops::LoopNest& nest, int slot, size_t alongDim) {
    const ops::AccessMap* map = nest.accessFor(slot);
    if (map == nullptr || map->dims.size() != 2 || nest.outputRank < 1)
        return false;
    const ops::IndexExpr& along = map->dims[alongDim];
    const ops::IndexExpr& reduced = map->dims[1 - alongDim];
    const ops::IndexTerm row{nest.outputRank - 1, 1, 1, 0};
    if (along.full || reduced.full || along.terms != std::vector<ops::IndexTerm>{row} ||
        along.div != 1 || along.mod != 0 || reduced.terms.empty())
        return false;
    return std::all_of(reduced.terms.begin(), reduced.terms.end(),
                       [&](const ops::IndexTerm& t) { return t.loop >= nest.outputRank; });
}

bool readsAcrossChannels(const ops::LoopNest& nest, int slot, const ir::Shape& otherShape) {
    if (slot > 1)
        return false;
    const ops::AccessMap* map = nest.accessFor(slot);
    const ops::AccessMap* other = nest.accessFor(1 - slot);
    if (map == nullptr || other == nullptr || map->dims.size() < 3 ||
        other->dims.size() != otherShape.size())
        return false;
    const ops::IndexExpr& channel = map->dims[0];
    if (channel.full || channel.div != 1 || channel.mod != 0 || channel.offset != 0 ||
        channel.terms.size() != 1 || channel.terms[0].coeff != 1 || channel.terms[0].div != 1 ||
        channel.terms[0].mod != 0 || channel.terms[0].loop >= nest.outputRank - 1)
        return false;
    const int loop = channel.terms[0].loop;
    for (size_t d = 1; d < map->dims.size(); ++d)
        for (const ops::IndexTerm& t : map->dims[d].terms)
            if (t.loop < nest.outputRank)
                return false;
    int64_t rowStride = 0;
    bool padded = false;
    for (size_t d = 0; d < other->dims.size(); ++d) {
        const ops::IndexExpr& expr = other->dims[d];
        if (!ops::alwaysInside(expr, nest.loops, otherShape[d])) {
            if (!paddingKnownAlongChannels(nest, expr))
                return false;
            padded = true;
        }
        for (const ops::IndexTerm& t : expr.terms) {
            if (t.loop == loop)
                return false;
            if (t.loop == nest.outputRank - 1)
                rowStride = t.coeff;
        }
    }
    return rowStride > 1 || (padded && rowStride == 1);
}

} // namespace stagecraft::codegen::detail
