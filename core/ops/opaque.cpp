// Opaque ops as loop nests (TVM §3's "opaque": never fused; GraphTurbo
// Algorithm 4 gets no bindable dim from them).
//
// TopK (axis, k): one nest per output (Values, Indices), loops over the
// output dims; X is read in place on every dim but the axis, which is `full`,
// and the output's axis dim is not bindable (each of the k results needs the
// whole axis).
// Any other op Stagecraft does not know, or an op of a non-default domain:
// one nest per output over its dims, none bindable, and every input read
// `full`. Nothing can be split through such an op, which is the safe answer.

#include "ops/internal/builders.h"

namespace stagecraft::ops::detail {

Nests buildTopK(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 2));
    const ir::Shape& x = ctx.inputShape(0);
    SC_ASSIGN_OR_RETURN(int64_t axis, ctx.axisAttr("axis", static_cast<int64_t>(x.size())));
    SC_ASSIGN_OR_RETURN(int64_t k, ctx.intAttr("k"));
    auto a = static_cast<size_t>(axis);
    if (k < 0 || k > x[a])
        return ctx.error("attribute 'k' is " + str(k) + ", expected 0 to " + str(x[a]));
    ir::Shape out = x;
    out[a] = k;
    std::vector<LoopNest> nests;
    for (int output = 0; output < ctx.outputCount(); ++output) {
        SC_RETURN_IF_ERROR(ctx.expectOutputShape(output, out));
        LoopNest nest;
        nest.loops = outputLoops(out);
        nest.loops[a].bindable = false;
        nest.outputRank = static_cast<int>(out.size());
        AccessMap map{0, {}};
        for (size_t i = 0; i < x.size(); ++i)
            map.dims.push_back(i == a ? fullIndex() : loopIndex(static_cast<int>(i)));
        nest.inputs.push_back(std::move(map));
        nests.push_back(std::move(nest));
    }
    return nests;
}

Nests buildOpaque(const OpContext& ctx) {
    std::vector<LoopNest> nests;
    for (int output = 0; output < ctx.outputCount(); ++output) {
        LoopNest nest;
        nest.loops = outputLoops(ctx.outputShape(output));
        for (LoopDim& loop : nest.loops)
            loop.bindable = false;
        nest.outputRank = static_cast<int>(nest.loops.size());
        for (int slot = 0; slot < ctx.inputSlots(); ++slot)
            if (ctx.hasInput(slot))
                nest.inputs.push_back(fullMap(ctx, slot));
        nests.push_back(std::move(nest));
    }
    return nests;
}

} // namespace stagecraft::ops::detail
