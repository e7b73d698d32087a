// How a contraction reads a weight (internal/host_reads.h): along the
// output's last loop (a MatMul's B), or as a convolution whose vectors run
// best along its output channels, the input's padding tested once per tile
// at most (the lowering unrolls its tiles and taps: blocked_plan.cpp's
// planPadding), or as the s8 weight of a byte dot product (a MatMulInteger,
// QLinearMatMul, QLinearConv or ConvInteger of a u8 factor, its zero point
// 0; the importer stores u8 weights of zero point 128 so). The host
// stores such weights transposed or blocked (host_layer.cpp).

#include "codegen/internal/host_reads.h"

#include "ir/graph.h"
#include "partition/slices.h"

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
    return outputLoops <= 1 && stepsFrom(nest, firstTap) <= kMaxPaddedChannelTaps &&
           expr.div == 1 && expr.mod == 0;
}

/// Whether input \p slot of \p op is absent or a constant of zeros.
bool absentOrZero(const ir::Graph& graph, const ir::Op& op, size_t slot) {
    return slot >= op.inputs.size() || op.inputs[slot] == ir::kNoTensor ||
           zeroConstant(graph, op.inputs[slot]);
}

/// Whether \p use reads an s8 weight as the second factor of a
/// MatMulInteger or QLinearMatMul (\p conv: of a QLinearConv or ConvInteger) whose first
/// is u8 and whose zero point for the weight is absent or all zero: a byte
/// dot product (u8 by s8) then sums the weight's own values
/// (blocked_integer.cpp).
bool readAsDotWeight(const ir::Graph& graph, const ir::Use& use, bool conv) {
    const ir::Op& op = graph.op(use.op);
    const int weightSlot = conv ? (op.kind == ir::OpKind::QLinearConv   ? 3
                                   : op.kind == ir::OpKind::ConvInteger ? 1
                                                                        : -1)
                           : op.kind == ir::OpKind::MatMulInteger ? 1
                           : op.kind == ir::OpKind::QLinearMatMul ? 3
                                                                  : -1;
    return use.slot == weightSlot && op.inputs[0] != ir::kNoTensor &&
           graph.tensor(op.inputs[0]).dtype == ir::DType::UInt8 &&
           absentOrZero(graph, op, static_cast<size_t>(weightSlot + 2));
}

/// Whether \p nest reads input \p slot's dim 1 (a Conv's input channel) by
/// one reduction loop alone, which the input (slot 0) reads in its dim 1
/// alone: one group's 4 channels are 4 consecutive steps of both factors.
bool channelsStepTogether(const ops::LoopNest& nest, int slot) {
    const ops::AccessMap* weight = nest.accessFor(slot);
    if (weight == nullptr || weight->dims.size() < 2 || weight->dims[1].terms.size() != 1)
        return false;
    const int loop = weight->dims[1].terms[0].loop;
    return loop >= nest.outputRank && dimReadingAlone(nest, slot, loop) == 1 &&
           dimReadingAlone(nest, 0, loop) == 1;
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

std::optional<size_t> dimReadingAlone(const ops::LoopNest& nest, int slot, int loop) {
    const ops::AccessMap* map = nest.accessFor(slot);
    if (map == nullptr)
        return std::nullopt;
    const ops::IndexExpr exact{false, {ops::IndexTerm{loop, 1, 1, 0}}, 0, 1, 0};
    std::optional<size_t> found;
    for (size_t d = 0; d < map->dims.size(); ++d) {
        const ops::IndexExpr& expr = map->dims[d];
        if (!expr.full && std::none_of(expr.terms.begin(), expr.terms.end(),
                                       [&](const ops::IndexTerm& t) { return t.loop == loop; }))
            continue;
        if (found || expr != exact)
            return std::nullopt;
        found = d;
    }
    return found;
}

int64_t stepsFrom(const ops::LoopNest& nest, int first) {
    int64_t steps = 1;
    for (int l = first; l < static_cast<int>(nest.loops.size()); ++l)
        steps *= nest.loops[static_cast<size_t>(l)].extent;
    return steps;
}

bool zeroConstant(const ir::Graph& graph, ir::TensorId tensor) {
    const ir::Tensor& t = graph.tensor(tensor);
    if (!t.isConstant())
        return false;
    auto bytes = t.data->bytes();
    return bytes.ok() &&
           std::all_of(bytes->begin(), bytes->end(), [](std::byte b) { return b == std::byte{0}; });
}

std::optional<DotLayout>
dotLayout(const ir::Graph& graph, const partition::SemanticsCache& semantics, const ir::Tensor& t) {
    if (t.dtype != ir::DType::Int8 || t.uses.empty() ||
        (t.shape.size() != 2 && t.shape.size() != 4))
        return std::nullopt;
    const bool conv = t.shape.size() == 4;
    // A Conv's input channels in whole groups, or fewer than a group (an
    // image's 3 channels: stored padded with zero weights to one group).
    const bool fits = conv ? t.shape[1] % kDotGroup == 0 || t.shape[1] < kDotGroup
                           : t.shape[1] % kBlockElements == 0 && t.shape[0] % kDotGroup == 0;
    const bool everyUse = std::all_of(t.uses.begin(), t.uses.end(), [&](const ir::Use& use) {
        const ops::OpSemantics& op = semantics.of(use.op);
        if (op.nests.size() != 1 || !readAsDotWeight(graph, use, conv))
            return false;
        if (!conv)
            return readsAlongRow(op.nests[0], use.slot, 1);
        return channelsStepTogether(op.nests[0], use.slot);
    });
    if (!fits || !everyUse)
        return std::nullopt;
    if (conv)
        return DotLayout{1, 0, 1};
    return DotLayout{kBlockElements, 1, 0};
}

} // namespace stagecraft::codegen::detail
