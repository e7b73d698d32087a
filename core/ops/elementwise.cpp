// Elementwise ops: one parallel loop per output dim (d0, d1, ...) and, for
// every input, multidirectional (numpy) broadcasting aligned right: equal
// dims are the identity, a size-1 dim against a larger output dim reads
// index 0, missing leading dims are absent (docs/op-semantics.md).
// The output shape must be the broadcast of the inputs' shapes.
// BatchNormalization (inference form, one output) is elementwise too: X is
// read in place and its per-channel operands [C] follow loop 1.

#include "ops/internal/builders.h"

namespace stagecraft::ops::detail {

namespace {

/// The broadcast of every present input; an error when they do not broadcast.
Expected<ir::Shape> broadcastOfInputs(const OpContext& ctx) {
    std::optional<ir::Shape> shape;
    for (int slot = 0; slot < ctx.inputSlots(); ++slot) {
        if (!ctx.hasInput(slot))
            continue;
        shape = shape ? broadcastShapes(*shape, ctx.inputShape(slot)) : ctx.inputShape(slot);
        if (!shape)
            return ctx.error("input " + str(slot) + " shape " +
                             ir::formatShape(ctx.inputShape(slot)) +
                             " does not broadcast with the inputs before it");
    }
    if (!shape)
        return ctx.error("has no input");
    return *shape;
}

} // namespace

Nests buildElementwise(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 2)); // Dropout's optional mask
    SC_ASSIGN_OR_RETURN(ir::Shape shape, broadcastOfInputs(ctx));
    std::vector<LoopNest> nests;
    for (int output = 0; output < ctx.outputCount(); ++output) {
        SC_RETURN_IF_ERROR(ctx.expectOutputShape(output, shape));
        LoopNest nest;
        nest.loops = outputLoops(shape);
        nest.outputRank = static_cast<int>(shape.size());
        for (int slot = 0; slot < ctx.inputSlots(); ++slot) {
            if (!ctx.hasInput(slot))
                continue;
            SC_ASSIGN_OR_RETURN(AccessMap map, broadcastMap(ctx, slot, shape));
            nest.inputs.push_back(std::move(map));
        }
        nests.push_back(std::move(nest));
    }
    return nests;
}

Nests buildBatchNormalization(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(5, 5));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectRank(0, 2, kUnbounded, "X"));
    const ir::Shape& x = ctx.inputShape(0);
    static constexpr const char* names[] = {"X", "scale", "B", "mean", "var"};
    for (int slot = 1; slot < 5; ++slot)
        if (ctx.inputShape(slot) != ir::Shape{x[1]})
            return ctx.error(std::string(names[slot]) + " has shape " +
                             ir::formatShape(ctx.inputShape(slot)) + ", expected " + str(x[1]) +
                             " (the channels of X " + ir::formatShape(x) + ")");
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, x));
    LoopNest nest;
    nest.loops = outputLoops(x);
    nest.outputRank = static_cast<int>(x.size());
    AccessMap data{0, {}};
    for (size_t i = 0; i < x.size(); ++i)
        data.dims.push_back(loopIndex(static_cast<int>(i)));
    nest.inputs.push_back(std::move(data));
    for (int slot = 1; slot < 5; ++slot)
        nest.inputs.push_back({slot, {loopIndex(1)}});
    return std::vector<LoopNest>{std::move(nest)};
}

} // namespace stagecraft::ops::detail
