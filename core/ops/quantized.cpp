// Quantization ops as loop nests (ONNX QuantizeLinear, DequantizeLinear,
// ConvInteger, MatMulInteger, QLinearConv, QLinearMatMul).
//
// QuantizeLinear and DequantizeLinear are elementwise over x: their scale and
// zero point are one value (rank 0 or one element, read at index 0) or one
// value per index of x's `axis` (per-axis quantization, read [axis loop]).
//
// The integer contractions are Conv's and MatMul's nests over their two
// quantized operands (slots 0 and 1, or QLinear*'s 0 and 3). Every other
// input is a per-tensor value or a vector along the loop it follows: a
// convolution's weight scale, weight zero point and bias follow the output
// channel (loop co); MatMul's A parameters follow the rows (m), B's the
// columns (n). Maps stay in slot order, as every nest's do.

#include "ops/internal/builders.h"

#include <algorithm>

namespace stagecraft::ops::detail {

namespace {

/// The map of a per-tensor value (one element) or of a vector along \p loop
/// of extent \p extent; \p loop < 0 allows a per-tensor value only.
Expected<AccessMap> parameterMap(const OpContext& ctx, int slot, int loop, int64_t extent,
                                 const char* what) {
    const ir::Shape& shape = ctx.inputShape(slot);
    AccessMap map{slot, {}};
    int64_t elements = ir::elementCount(shape);
    if (elements == 1) {
        for (size_t i = 0; i < shape.size(); ++i)
            map.dims.push_back(constantIndex(0));
        return map;
    }
    if (loop >= 0 && shape == ir::Shape{extent}) {
        map.dims.push_back(loopIndex(loop));
        return map;
    }
    std::string wanted = loop >= 0 ? "one value or " + str(extent) : "one value";
    return ctx.error(std::string(what) + " has shape " + ir::formatShape(shape) + ", expected " +
                     wanted);
}

/// A scale, zero point or bias input: per tensor, or along \p loop.
struct Parameter {
    int slot;
    int loop;
    int64_t extent;
    const char* what;
};

/// \p built with the maps of the present inputs among \p params added, the
/// maps sorted by slot.
Nests withParameters(const OpContext& ctx, Nests built, std::initializer_list<Parameter> params) {
    if (!built.ok())
        return built;
    LoopNest& nest = built->front();
    for (const Parameter& p : params) {
        if (!ctx.hasInput(p.slot))
            continue;
        SC_ASSIGN_OR_RETURN(AccessMap map, parameterMap(ctx, p.slot, p.loop, p.extent, p.what));
        nest.inputs.push_back(std::move(map));
    }
    std::sort(nest.inputs.begin(), nest.inputs.end(),
              [](const AccessMap& a, const AccessMap& b) { return a.operand < b.operand; });
    return built;
}

/// MatMul's m and n loops, or -1 where the operand is a vector.
struct MatMulLoops {
    int m = -1;
    int n = -1;
    int64_t rows = 0;
    int64_t columns = 0;
};

MatMulLoops matMulLoops(const OpContext& ctx, int slotA, int slotB) {
    const ir::Shape& a = ctx.inputShape(slotA);
    const ir::Shape& b = ctx.inputShape(slotB);
    const ir::Shape& out = ctx.outputShape(0);
    auto rank = static_cast<int>(out.size());
    MatMulLoops loops;
    if (b.size() >= 2) {
        loops.n = rank - 1;
        loops.columns = b.back();
    }
    if (a.size() >= 2) {
        loops.m = rank - (b.size() >= 2 ? 2 : 1);
        loops.rows = a[a.size() - 2];
    }
    return loops;
}

} // namespace

Nests buildQuantize(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(2, 3));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    const ir::Shape& x = ctx.inputShape(0);
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, x));
    SC_ASSIGN_OR_RETURN(int64_t axis, ctx.intAttrOr("axis", 1));
    auto rank = static_cast<int64_t>(x.size());
    int loop = axis >= 0 && axis < rank ? static_cast<int>(axis) : -1;
    int64_t extent = loop >= 0 ? x[static_cast<size_t>(loop)] : 0;
    LoopNest nest;
    nest.loops = outputLoops(x);
    nest.outputRank = static_cast<int>(x.size());
    nest.inputs.push_back({0, {}});
    for (size_t i = 0; i < x.size(); ++i)
        nest.inputs.back().dims.push_back(loopIndex(static_cast<int>(i)));
    return withParameters(ctx, std::vector<LoopNest>{std::move(nest)},
                          {{1, loop, extent, "the scale"}, {2, loop, extent, "the zero point"}});
}

Nests buildConvInteger(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(2, 4));
    int64_t channels = ctx.inputShape(1).empty() ? 0 : ctx.inputShape(1)[0];
    return withParameters(ctx, buildConvAt(ctx, ConvSlots{0, 1, -1}),
                          {{2, -1, 0, "x_zero_point"}, {3, 1, channels, "w_zero_point"}});
}

Nests buildQLinearConv(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(8, 9));
    int64_t channels = ctx.inputShape(3).empty() ? 0 : ctx.inputShape(3)[0];
    return withParameters(ctx, buildConvAt(ctx, ConvSlots{0, 3, 8}),
                          {{1, -1, 0, "x_scale"},
                           {2, -1, 0, "x_zero_point"},
                           {4, 1, channels, "w_scale"},
                           {5, 1, channels, "w_zero_point"},
                           {6, -1, 0, "y_scale"},
                           {7, -1, 0, "y_zero_point"}});
}

Nests buildMatMulInteger(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(2, 4));
    Nests built = buildMatMulAt(ctx, 0, 1);
    if (!built.ok())
        return built;
    MatMulLoops l = matMulLoops(ctx, 0, 1);
    return withParameters(ctx, std::move(built),
                          {{2, l.m, l.rows, "a_zero_point"}, {3, l.n, l.columns, "b_zero_point"}});
}

Nests buildQLinearMatMul(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(8, 8));
    Nests built = buildMatMulAt(ctx, 0, 3);
    if (!built.ok())
        return built;
    MatMulLoops l = matMulLoops(ctx, 0, 3);
    return withParameters(ctx, std::move(built),
                          {{1, l.m, l.rows, "a_scale"},
                           {2, l.m, l.rows, "a_zero_point"},
                           {4, l.n, l.columns, "b_scale"},
                           {5, l.n, l.columns, "b_zero_point"},
                           {6, -1, 0, "y_scale"},
                           {7, -1, 0, "y_zero_point"}});
}

} // namespace stagecraft::ops::detail
