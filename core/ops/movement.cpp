// Data movement as loop nests: Transpose, Concat, Split, Expand, Tile.
// Loops are the output dims d0..; no op here has reduction loops.
//
// Transpose: input dim perm[i] reads loop i.
// Concat: input k reads o_axis - offset_k on the axis (offset_k the sum of
// the axis extents before it); the indices of the other inputs' parts fall
// out of its range and read nothing, so splitting the axis splits every input
// (the concatenations GraphTurbo §3.5 inserts are this op).
// Split: one nest per output; output j reads o_axis + offset_j.
// Expand: broadcasting as elementwise ops do (size 1 reads index 0).
// Tile: o % in_extent on repeated dims (a size-1 input dim reads index 0).

#include "ops/internal/builders.h"

#include <algorithm>

namespace stagecraft::ops::detail {

namespace {

/// A nest over \p out with identity maps for the given input slot.
LoopNest identityNest(const ir::Shape& out, int slot) {
    LoopNest nest;
    nest.loops = outputLoops(out);
    nest.outputRank = static_cast<int>(out.size());
    AccessMap map{slot, {}};
    for (size_t i = 0; i < out.size(); ++i)
        map.dims.push_back(loopIndex(static_cast<int>(i)));
    nest.inputs.push_back(std::move(map));
    return nest;
}

/// Shapes \p a and \p b agree on every dim but \p axis.
bool sameButAxis(const ir::Shape& a, const ir::Shape& b, size_t axis) {
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (i != axis && a[i] != b[i])
            return false;
    return true;
}

} // namespace

Nests buildTranspose(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    const ir::Shape& in = ctx.inputShape(0);
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> perm,
                        ctx.intsAttr("perm", static_cast<int64_t>(in.size())));
    std::vector<int64_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size(); ++i)
        if (sorted[i] != static_cast<int64_t>(i))
            return ctx.error("attribute 'perm' is not a permutation of 0 to " +
                             str(static_cast<int64_t>(in.size()) - 1));
    ir::Shape out;
    for (int64_t p : perm)
        out.push_back(in[static_cast<size_t>(p)]);
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, out));
    LoopNest nest = identityNest(out, 0);
    for (size_t i = 0; i < perm.size(); ++i)
        nest.inputs[0].dims[static_cast<size_t>(perm[i])] = loopIndex(static_cast<int>(i));
    return std::vector<LoopNest>{std::move(nest)};
}

Nests buildConcat(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectInputs(ctx.inputSlots(), ctx.inputSlots()));
    if (ctx.inputSlots() == 0)
        return ctx.error("has no input");
    const ir::Shape& out = ctx.outputShape(0);
    SC_ASSIGN_OR_RETURN(int64_t axis, ctx.axisAttr("axis", static_cast<int64_t>(out.size())));
    auto a = static_cast<size_t>(axis);
    LoopNest nest;
    nest.loops = outputLoops(out);
    nest.outputRank = static_cast<int>(out.size());
    int64_t offset = 0;
    for (int slot = 0; slot < ctx.inputSlots(); ++slot) {
        const ir::Shape& in = ctx.inputShape(slot);
        if (!sameButAxis(in, out, a))
            return ctx.error("input " + str(slot) + " shape " + ir::formatShape(in) +
                             " does not match output shape " + ir::formatShape(out) +
                             " outside axis " + str(axis));
        AccessMap map = identityNest(out, slot).inputs[0];
        map.dims[a] = affineIndex(axis, 1, -offset);
        nest.inputs.push_back(std::move(map));
        offset += in[a];
    }
    if (offset != out[a])
        return ctx.error("the inputs add up to " + str(offset) + " along axis " + str(axis) +
                         " but the output has " + str(out[a]));
    return std::vector<LoopNest>{std::move(nest)};
}

Nests buildSplit(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, kUnbounded));
    const ir::Shape& in = ctx.inputShape(0);
    SC_ASSIGN_OR_RETURN(int64_t axis, ctx.axisAttr("axis", static_cast<int64_t>(in.size())));
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, ctx.intsAttr("split", ctx.outputCount()));
    auto a = static_cast<size_t>(axis);
    int64_t total = 0;
    for (int64_t size : sizes)
        total += size;
    if (total != in[a])
        return ctx.error("attribute 'split' adds up to " + str(total) + " but the input has " +
                         str(in[a]) + " along axis " + str(axis));
    std::vector<LoopNest> nests;
    int64_t offset = 0;
    for (int output = 0; output < ctx.outputCount(); ++output) {
        ir::Shape out = in;
        out[a] = sizes[static_cast<size_t>(output)];
        SC_RETURN_IF_ERROR(ctx.expectOutputShape(output, out));
        LoopNest nest = identityNest(out, 0);
        nest.inputs[0].dims[a] = affineIndex(axis, 1, offset);
        nests.push_back(std::move(nest));
        offset += out[a];
    }
    return nests;
}

Nests buildExpand(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    const ir::Shape& out = ctx.outputShape(0);
    std::optional<ir::Shape> shape = broadcastShapes(ctx.inputShape(0), out);
    if (!shape || *shape != out)
        return ctx.error("input shape " + ir::formatShape(ctx.inputShape(0)) +
                         " does not broadcast to output shape " + ir::formatShape(out));
    LoopNest nest;
    nest.loops = outputLoops(out);
    nest.outputRank = static_cast<int>(out.size());
    SC_ASSIGN_OR_RETURN(AccessMap map, broadcastMap(ctx, 0, out));
    nest.inputs.push_back(std::move(map));
    return std::vector<LoopNest>{std::move(nest)};
}

Nests buildTile(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    const ir::Shape& in = ctx.inputShape(0);
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> repeats,
                        ctx.intsAttr("repeats", static_cast<int64_t>(in.size())));
    ir::Shape out;
    for (size_t i = 0; i < in.size(); ++i) {
        if (repeats[i] < 0)
            return ctx.error("attribute 'repeats' must be non-negative");
        out.push_back(in[i] * repeats[i]);
    }
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, out));
    LoopNest nest = identityNest(out, 0);
    for (size_t i = 0; i < in.size(); ++i) {
        if (in[i] == 1)
            nest.inputs[0].dims[i] = constantIndex(0);
        else if (repeats[i] != 1)
            nest.inputs[0].dims[i].mod = in[i];
    }
    return std::vector<LoopNest>{std::move(nest)};
}

} // namespace stagecraft::ops::detail
