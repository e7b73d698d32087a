// Conv and ConvTranspose as loop nests (GraphTurbo §3.1: splitting a
// spatial output dim of a Conv costs halo recomputation; the maps below are
// what the cost model reads to see it).
//
// Loops: n, co, spatial outputs (ol | oh ow | od oh ow) | ci, kernel taps
// (kl | kh kw | kd kh kw). ci runs over the channels of one group (Cin/G),
// so the input channel is (co / (Cout/G)) * (Cin/G) + ci; with one group the
// first term is always 0 and is left out. Depthwise convs are G = Cin.
//
// Conv reads X[n, channel, o*stride + k*dilation - pad_begin]; indices in
// the padding are out of range and read nothing.
//
// ConvTranspose is written as a gather over its output: input position
// (o + pad_begin - k*dilation) / stride, floor division. The real op only
// reads when the division is exact; the map also names the floor of the
// inexact ones, so it is a superset of the true reads (conservative) when
// stride > 1 and exact when stride = 1. The loop space keeps every (o, k)
// pair, so a product of the loop extents would overcount the work: the cost
// model uses the real multiply count instead (cost.cpp).

#include "ops/internal/builders.h"
#include "ops/internal/window.h"

#include <algorithm>

namespace stagecraft::ops::detail {

namespace {

struct Channels {
    int64_t in = 0, out = 0, group = 1;
    int64_t inPerGroup() const { return in / group; }
    int64_t outPerGroup() const { return out / group; }
};

/// (co / (Cout/G)) * (Cin/G) + ci: the channel of the group co belongs to.
IndexExpr groupedChannel(const Channels& c, int coLoop, int ciLoop) {
    IndexExpr expr;
    if (c.group > 1)
        expr.terms.push_back({coLoop, c.inPerGroup(), c.outPerGroup(), 0});
    expr.terms.push_back({ciLoop, 1, 1, 0});
    return expr;
}

/// n, co, spatial outputs | ci, kernel taps.
std::vector<LoopDim> convLoops(const ir::Shape& out, const Channels& c, const Window& w) {
    size_t spatial = w.rank();
    std::vector<std::string> outNames = spatialNames(spatial, 'o');
    std::vector<std::string> tapNames = spatialNames(spatial, 'k');
    std::vector<LoopDim> loops{parallelLoop("n", out[0]), parallelLoop("co", out[1])};
    for (size_t i = 0; i < spatial; ++i)
        loops.push_back(parallelLoop(outNames[i], out[i + 2]));
    loops.push_back(reductionLoop("ci", c.inPerGroup()));
    for (size_t i = 0; i < spatial; ++i)
        loops.push_back(reductionLoop(tapNames[i], w.kernel[i]));
    return loops;
}

Status checkBias(const OpContext& ctx, int64_t channels, int slot = 2) {
    if (ctx.hasInput(slot) && ctx.inputShape(slot) != ir::Shape{channels})
        return ctx.error("B has shape " + ir::formatShape(ctx.inputShape(slot)) + ", expected " +
                         str(channels));
    return Status::success();
}

Status checkKernel(const OpContext& ctx, const Window& w, const ir::Shape& weight) {
    if (!std::equal(w.kernel.begin(), w.kernel.end(), weight.begin() + 2))
        return ctx.error("attribute 'kernel_shape' does not match W " + ir::formatShape(weight));
    return Status::success();
}

Status checkRanks(const OpContext& ctx, ConvSlots slots = {}) {
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectRank(slots.x, 3, kUnbounded, "X"));
    if (ctx.inputRank(slots.w) != ctx.inputRank(slots.x))
        return ctx.error("W " + ir::formatShape(ctx.inputShape(slots.w)) + " and X " +
                         ir::formatShape(ctx.inputShape(slots.x)) + " differ in rank");
    return Status::success();
}

Error channelMismatch(const OpContext& ctx, int64_t group, ConvSlots slots = {}) {
    return ctx.error("channels do not match: X " + ir::formatShape(ctx.inputShape(slots.x)) +
                     ", W " + ir::formatShape(ctx.inputShape(slots.w)) + ", group " + str(group));
}

/// The bias map [co], when there is a bias.
void addBias(const OpContext& ctx, LoopNest& nest, int slot = 2) {
    if (ctx.hasInput(slot))
        nest.inputs.push_back({slot, {loopIndex(1)}});
}

} // namespace

Nests buildConv(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(2, 3));
    return buildConvAt(ctx, ConvSlots{});
}

Nests buildConvAt(const OpContext& ctx, ConvSlots slots) {
    SC_RETURN_IF_ERROR(checkRanks(ctx, slots));
    const ir::Shape& x = ctx.inputShape(slots.x);
    const ir::Shape& weight = ctx.inputShape(slots.w);
    size_t spatial = x.size() - 2;
    SC_ASSIGN_OR_RETURN(int64_t group, ctx.intAttr("group"));
    Channels c{x[1], weight[0], group};
    if (group < 1 || weight[1] * group != c.in || c.out % group != 0)
        return channelMismatch(ctx, group, slots);
    SC_ASSIGN_OR_RETURN(Window w, readWindow(ctx, spatial));
    SC_RETURN_IF_ERROR(checkKernel(ctx, w, weight));
    SC_RETURN_IF_ERROR(checkBias(ctx, c.out, slots.bias));
    ir::Shape out{x[0], c.out};
    for (size_t i = 0; i < spatial; ++i) {
        std::optional<int64_t> extent = windowOutput(w, i, x[i + 2]);
        if (!extent)
            return ctx.error("the window does not fit the padded input in spatial dim " + str(i));
        out.push_back(*extent);
    }
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, out));

    LoopNest nest;
    nest.loops = convLoops(out, c, w);
    nest.outputRank = static_cast<int>(out.size());
    int ci = static_cast<int>(2 + spatial);
    AccessMap input{slots.x, {loopIndex(0), groupedChannel(c, 1, ci)}};
    AccessMap filter{slots.w, {loopIndex(1), loopIndex(ci)}};
    for (size_t i = 0; i < spatial; ++i) {
        int o = static_cast<int>(2 + i), k = static_cast<int>(ci + 1 + i);
        IndexExpr index = affineIndex(o, w.strides[i], -w.padBegin(i));
        index.terms.push_back({k, w.dilations[i], 1, 0});
        input.dims.push_back(std::move(index));
        filter.dims.push_back(loopIndex(k));
    }
    nest.inputs.push_back(std::move(input));
    nest.inputs.push_back(std::move(filter));
    addBias(ctx, nest, slots.bias);
    return std::vector<LoopNest>{std::move(nest)};
}

Nests buildConvTranspose(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(2, 3));
    SC_RETURN_IF_ERROR(checkRanks(ctx));
    const ir::Shape& x = ctx.inputShape(0);
    const ir::Shape& weight = ctx.inputShape(1);
    size_t spatial = x.size() - 2;
    SC_ASSIGN_OR_RETURN(int64_t group, ctx.intAttr("group"));
    if (group < 1 || weight[0] != x[1] || x[1] % group != 0)
        return channelMismatch(ctx, group);
    Channels c{x[1], weight[1] * group, group};
    SC_ASSIGN_OR_RETURN(Window w, readWindow(ctx, spatial, true));
    SC_ASSIGN_OR_RETURN(auto outputPadding,
                        ctx.intsAttr("output_padding", static_cast<int64_t>(spatial)));
    SC_RETURN_IF_ERROR(checkKernel(ctx, w, weight));
    SC_RETURN_IF_ERROR(checkBias(ctx, c.out));
    ir::Shape out{x[0], c.out};
    for (size_t i = 0; i < spatial; ++i)
        out.push_back(w.strides[i] * (x[i + 2] - 1) + outputPadding[i] + w.effectiveKernel(i) -
                      w.padBegin(i) - w.padEnd(i));
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, out));

    LoopNest nest;
    nest.loops = convLoops(out, c, w);
    nest.outputRank = static_cast<int>(out.size());
    int ci = static_cast<int>(2 + spatial);
    AccessMap input{0, {loopIndex(0), groupedChannel(c, 1, ci)}};
    IndexExpr outChannel = loopIndex(1);
    if (group > 1)
        outChannel.mod = c.outPerGroup();
    AccessMap filter{1, {groupedChannel(c, 1, ci), outChannel}};
    for (size_t i = 0; i < spatial; ++i) {
        int o = static_cast<int>(2 + i), k = static_cast<int>(ci + 1 + i);
        IndexExpr index = affineIndex(o, 1, w.padBegin(i));
        index.terms.push_back({k, -w.dilations[i], 1, 0});
        index.div = w.strides[i];
        input.dims.push_back(std::move(index));
        filter.dims.push_back(loopIndex(k));
    }
    nest.inputs.push_back(std::move(input));
    nest.inputs.push_back(std::move(filter));
    addBias(ctx, nest);
    return std::vector<LoopNest>{std::move(nest)};
}

} // namespace stagecraft::ops::detail
