// Normalizations as loop nests: Softmax, LogSoftmax, Hardmax,
// LayerNormalization, InstanceNormalization.
//
// These reduce and broadcast back in one op, so the model keeps only the
// parallel output loops d0.. and reads the normalized dims `full`: every
// output element needs the whole extent of those input dims. The output
// dims that are normalized are therefore not bindable (Algorithm 4's
// annotated requirements): splitting them would make every instance read the
// whole input dim again (replication) and would need a cross-core reduction.
//
// Softmax family: `axes` (canonical; opset < 13 files list every dim from
// the old axis on). LayerNormalization: dims >= axis; Scale and B broadcast
// onto those trailing dims and are read elementwise. Its optional Mean and
// InvStdDev outputs (size 1 on the normalized dims) get nests of their own in
// which Scale and B are read `full`, a conservative stand-in for "not read".
// InstanceNormalization: the spatial dims (>= 2); scale and B are [C], loop 1.

#include "ops/internal/builders.h"

#include <algorithm>

namespace stagecraft::ops::detail {

namespace {

/// Parallel loops over \p shape; dims from \p normalized on are not bindable.
LoopNest normalizedNest(const ir::Shape& shape, const std::vector<bool>& normalized) {
    LoopNest nest;
    nest.loops = outputLoops(shape);
    nest.outputRank = static_cast<int>(shape.size());
    for (size_t i = 0; i < shape.size(); ++i)
        nest.loops[i].bindable = !normalized[i];
    AccessMap data{0, {}};
    for (size_t i = 0; i < shape.size(); ++i)
        data.dims.push_back(normalized[i] ? fullIndex() : loopIndex(static_cast<int>(i)));
    nest.inputs.push_back(std::move(data));
    return nest;
}

std::vector<bool> fromAxis(size_t rank, int64_t axis) {
    std::vector<bool> normalized(rank, false);
    for (size_t i = static_cast<size_t>(axis); i < rank; ++i)
        normalized[i] = true;
    return normalized;
}

} // namespace

Nests buildSoftmax(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    const ir::Shape& x = ctx.inputShape(0);
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, ctx.intsAttr("axes"));
    if (axes.empty())
        return ctx.error("attribute 'axes' is empty");
    std::vector<bool> normalized(x.size(), false);
    for (int64_t axis : axes) {
        if (axis < 0 || axis >= static_cast<int64_t>(x.size()))
            return ctx.error("attribute 'axes' has " + str(axis) + ", expected 0 to " +
                             str(static_cast<int64_t>(x.size()) - 1) +
                             " (canonical axes are non-negative)");
        normalized[static_cast<size_t>(axis)] = true;
    }
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, x));
    return std::vector<LoopNest>{normalizedNest(x, normalized)};
}

Nests buildLayerNormalization(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(2, 3));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 3));
    const ir::Shape& x = ctx.inputShape(0);
    SC_ASSIGN_OR_RETURN(int64_t axis, ctx.axisAttr("axis", static_cast<int64_t>(x.size())));
    ir::Shape normalizedShape(x.begin() + axis, x.end());
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, x));
    std::vector<bool> normalized = fromAxis(x.size(), axis);

    LoopNest nest = normalizedNest(x, normalized);
    for (int slot = 1; slot < 3; ++slot) {
        if (!ctx.hasInput(slot))
            continue;
        if (ctx.inputRank(slot) > static_cast<int64_t>(normalizedShape.size()))
            return ctx.error(
                "input " + str(slot) + " shape " + ir::formatShape(ctx.inputShape(slot)) +
                " does not broadcast to the normalized shape " + ir::formatShape(normalizedShape));
        SC_ASSIGN_OR_RETURN(AccessMap map, broadcastMap(ctx, slot, x));
        nest.inputs.push_back(std::move(map));
    }
    std::vector<LoopNest> nests{std::move(nest)};

    ir::Shape stats = x;
    std::fill(stats.begin() + axis, stats.end(), 1);
    for (int output = 1; output < ctx.outputCount(); ++output) {
        SC_RETURN_IF_ERROR(ctx.expectOutputShape(output, stats));
        LoopNest statsNest = normalizedNest(stats, normalized);
        statsNest.inputs[0].dims.assign(x.size(), fullIndex());
        for (size_t i = 0; i < static_cast<size_t>(axis); ++i)
            statsNest.inputs[0].dims[i] = loopIndex(static_cast<int>(i));
        for (int slot = 1; slot < 3; ++slot)
            if (ctx.hasInput(slot))
                statsNest.inputs.push_back(fullMap(ctx, slot));
        nests.push_back(std::move(statsNest));
    }
    return nests;
}

Nests buildInstanceNormalization(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(3, 3));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectRank(0, 3, kUnbounded, "X"));
    const ir::Shape& x = ctx.inputShape(0);
    for (int slot = 1; slot < 3; ++slot)
        if (ctx.inputShape(slot) != ir::Shape{x[1]})
            return ctx.error(std::string(slot == 1 ? "scale" : "B") + " has shape " +
                             ir::formatShape(ctx.inputShape(slot)) + ", expected " + str(x[1]));
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, x));
    LoopNest nest = normalizedNest(x, fromAxis(x.size(), 2));
    nest.inputs.push_back({1, {loopIndex(1)}});
    nest.inputs.push_back({2, {loopIndex(1)}});
    return std::vector<LoopNest>{std::move(nest)};
}

} // namespace stagecraft::ops::detail
