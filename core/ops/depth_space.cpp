// DepthToSpace and SpaceToDepth as loop nests over the output dims
// (d0 = n, d1 = c, d2 = h, d3 = w), exact with div/mod terms. b is the block
// size, C' = C / b^2 the output channels of DepthToSpace.
//
// DepthToSpace is ONNX's reshape [N, b, b, C', H, W] (DCR) or
// [N, C', b, b, H, W] (CRD), transpose to [N, C', H, b, W, b], reshape; so
// out[n, c, h, w] reads in[n, channel, h / b, w / b] with channel
//   DCR: (h % b)*b*C' + (w % b)*C' + c
//   CRD: c*b*b + (h % b)*b + (w % b).
// SpaceToDepth is the inverse of DCR: out[n, oc, h, w] reads
//   in[n, oc % C, h*b + oc / (C*b), w*b + (oc / C) % b].

#include "ops/internal/builders.h"
#include "support/strings.h"

namespace stagecraft::ops::detail {

namespace {

Expected<int64_t> blockSize(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectRank(0, 4, 4, "input"));
    SC_ASSIGN_OR_RETURN(int64_t block, ctx.intAttr("blocksize"));
    if (block < 1)
        return ctx.error("attribute 'blocksize' must be positive");
    return block;
}

LoopNest nestOver(const ir::Shape& out) {
    LoopNest nest;
    nest.loops = outputLoops(out);
    nest.outputRank = static_cast<int>(out.size());
    return nest;
}

IndexExpr sumOf(std::vector<IndexTerm> terms) {
    IndexExpr expr;
    expr.terms = std::move(terms);
    return expr;
}

} // namespace

Nests buildDepthToSpace(const OpContext& ctx) {
    SC_ASSIGN_OR_RETURN(int64_t b, blockSize(ctx));
    SC_ASSIGN_OR_RETURN(std::string mode, ctx.stringAttr("mode"));
    if (mode != "DCR" && mode != "CRD")
        return ctx.error("attribute 'mode' is " + quote(mode) + ", expected DCR or CRD");
    const ir::Shape& in = ctx.inputShape(0);
    if (in[1] % (b * b) != 0)
        return ctx.error("the channels of " + ir::formatShape(in) + " are not a multiple of " +
                         str(b * b));
    int64_t channels = in[1] / (b * b);
    ir::Shape out{in[0], channels, in[2] * b, in[3] * b};
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, out));

    LoopNest nest = nestOver(out);
    IndexExpr channel = mode == "DCR"
                            ? sumOf({{2, b * channels, 1, b}, {3, channels, 1, b}, {1, 1, 1, 0}})
                            : sumOf({{1, b * b, 1, 0}, {2, b, 1, b}, {3, 1, 1, b}});
    nest.inputs.push_back(
        {0, {loopIndex(0), std::move(channel), sumOf({{2, 1, b, 0}}), sumOf({{3, 1, b, 0}})}});
    return std::vector<LoopNest>{std::move(nest)};
}

Nests buildSpaceToDepth(const OpContext& ctx) {
    SC_ASSIGN_OR_RETURN(int64_t b, blockSize(ctx));
    const ir::Shape& in = ctx.inputShape(0);
    if (in[2] % b != 0 || in[3] % b != 0)
        return ctx.error("the spatial dims of " + ir::formatShape(in) +
                         " are not multiples of the block size " + str(b));
    int64_t channels = in[1];
    ir::Shape out{in[0], channels * b * b, in[2] / b, in[3] / b};
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, out));

    LoopNest nest = nestOver(out);
    nest.inputs.push_back({0,
                           {loopIndex(0), sumOf({{1, 1, 1, channels}}),
                            sumOf({{2, b, 1, 0}, {1, 1, channels * b, 0}}),
                            sumOf({{3, b, 1, 0}, {1, 1, channels, b}})}});
    return std::vector<LoopNest>{std::move(nest)};
}

} // namespace stagecraft::ops::detail
