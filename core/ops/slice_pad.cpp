// Slice and Pad as loop nests over the output dims d0...
//
// Slice: canonical `starts` and `steps` have one entry per dim and output
// index j of dim i reads starts[i] + j*steps[i] (negative steps walk
// backwards). `ends` is implied by the output shape; every index read must be
// inside the input, else the attributes contradict the shapes.
//
// Pad: output index o of dim i reads o - pad_begin[i]; in constant mode the
// indices outside the input read the pad value, i.e. nothing. Reflect, edge
// and wrap modes read input elements for those indices too (mirrored, the
// border, wrapped around), which an affine map cannot say; the model reads
// every dim padded on either side `full` in those modes (conservative: each
// output element is said to need the whole input dim), and keeps the exact
// map on dims without padding.

#include "ops/internal/builders.h"
#include "support/strings.h"

namespace stagecraft::ops::detail {

Nests buildSlice(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    const ir::Shape& in = ctx.inputShape(0);
    const ir::Shape& out = ctx.outputShape(0);
    auto rank = static_cast<int64_t>(in.size());
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> starts, ctx.intsAttr("starts", rank));
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> steps, ctx.intsAttr("steps", rank));
    if (out.size() != in.size())
        return ctx.error("output shape " + ir::formatShape(out) + " and input shape " +
                         ir::formatShape(in) + " differ in rank");
    LoopNest nest;
    nest.loops = outputLoops(out);
    nest.outputRank = static_cast<int>(out.size());
    AccessMap map{0, {}};
    for (size_t i = 0; i < in.size(); ++i) {
        if (steps[i] == 0)
            return ctx.error("attribute 'steps' has a zero step in dim " + str(int64_t(i)));
        int64_t last = starts[i] + (out[i] - 1) * steps[i];
        auto inside = [&](int64_t index) {
            return index >= 0 && index < in[i];
        };
        if (out[i] > 0 && !(inside(starts[i]) && inside(last)))
            return ctx.error("dim " + str(int64_t(i)) + " reads " + str(starts[i]) + " to " +
                             str(last) + " (step " + str(steps[i]) + ") outside the input extent " +
                             str(in[i]));
        map.dims.push_back(affineIndex(static_cast<int>(i), steps[i], starts[i]));
    }
    nest.inputs.push_back(std::move(map));
    return std::vector<LoopNest>{std::move(nest)};
}

Nests buildPad(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 3));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    const ir::Shape& in = ctx.inputShape(0);
    auto rank = static_cast<int64_t>(in.size());
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> pads, ctx.intsAttr("pads", 2 * rank));
    SC_ASSIGN_OR_RETURN(std::string mode, ctx.stringAttr("mode"));
    if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap")
        return ctx.error("attribute 'mode' is " + quote(mode) +
                         ", expected constant, reflect, edge or wrap");
    ir::Shape out;
    for (size_t i = 0; i < in.size(); ++i)
        out.push_back(in[i] + pads[i] + pads[i + in.size()]);
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, out));

    LoopNest nest;
    nest.loops = outputLoops(out);
    nest.outputRank = static_cast<int>(out.size());
    AccessMap map{0, {}};
    for (size_t i = 0; i < in.size(); ++i) {
        bool padded = pads[i] > 0 || pads[i + in.size()] > 0;
        if (mode != "constant" && padded)
            map.dims.push_back(fullIndex());
        else
            map.dims.push_back(affineIndex(static_cast<int>(i), 1, -pads[i]));
    }
    nest.inputs.push_back(std::move(map));
    if (ctx.hasInput(2)) // constant_value computed at run time: one scalar read
        nest.inputs.push_back(AccessMap{2, {}});
    return std::vector<LoopNest>{std::move(nest)};
}

} // namespace stagecraft::ops::detail
