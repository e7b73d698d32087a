// Shape rules of the quantization ops: QuantizeLinear and DequantizeLinear
// (per tensor or per axis; blocked quantization is refused), ConvInteger and
// MatMulInteger (int32 results) and QLinearConv and QLinearMatMul (results
// of y_zero_point's type). Scales and zero points may be computed at run
// time (DynamicQuantizeLinear's body computes them), so none must be constant.

#include "onnx/internal/infer_rules.h"

namespace stagecraft::onnxio {

namespace {

bool isQuantizedType(ir::DType t) {
    return t == ir::DType::Int8 || t == ir::DType::UInt8 || t == ir::DType::Int16 ||
           t == ir::DType::UInt16;
}

Status needInputs(InferContext& ctx, std::initializer_list<int> slots, const char* what) {
    for (int slot : slots)
        if (!ctx.hasInput(slot))
            return ctx.error(std::string("needs ") + what);
    return Status::success();
}

/// `axis` made non-negative when the scale at \p scaleSlot is a vector
/// (per-axis quantization); block_size refused.
Status canonicalAxis(InferContext& ctx, int scaleSlot) {
    if (ctx.attrs().getInt("block_size", 0) != 0)
        return ctx.error("blocked quantization (block_size " +
                         std::to_string(ctx.attrs().getInt("block_size", 0)) +
                         ") is not supported");
    int64_t axis = ctx.attrs().getInt("axis", 1);
    if (ctx.rank(scaleSlot) == 1 && ctx.shape(scaleSlot)[0] != 1) {
        SC_ASSIGN_OR_RETURN(axis, ctx.normalizeAxis(axis, ctx.rank(0), "axis"));
        if (ctx.shape(scaleSlot)[0] != ctx.shape(0)[static_cast<size_t>(axis)])
            return ctx.error("the scale has shape " + ir::formatShape(ctx.shape(scaleSlot)) +
                             ", expected one value or " +
                             std::to_string(ctx.shape(0)[static_cast<size_t>(axis)]) +
                             " (x's axis " + std::to_string(axis) + ")");
    } else if (ir::elementCount(ctx.shape(scaleSlot)) != 1) {
        return ctx.error("the scale has shape " + ir::formatShape(ctx.shape(scaleSlot)) +
                         ", expected one value or a vector along the axis");
    }
    ctx.attrs().set("axis", axis);
    return Status::success();
}

/// An integer contraction's operand \p slot (or its output's zero point) is 8-bit.
Status checkOperand(InferContext& ctx, int slot, const char* what) {
    if (ctx.dtype(slot) != ir::DType::Int8 && ctx.dtype(slot) != ir::DType::UInt8)
        return ctx.error(std::string(what) + " is " + std::string(ir::dtypeName(ctx.dtype(slot))) +
                         ", expected i8 or u8");
    return Status::success();
}

} // namespace

Status inferQuantizeLinear(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInputs(ctx, {0, 1}, "x and y_scale"));
    SC_RETURN_IF_ERROR(canonicalAxis(ctx, 1));
    ir::DType type = ir::DType::UInt8;
    if (ctx.hasInput(2))
        type = ctx.dtype(2);
    else if (int64_t declared = ctx.attrs().getInt("output_dtype", 0); declared != 0)
        type = fromOnnxType(static_cast<int32_t>(declared));
    if (!isQuantizedType(type))
        return ctx.error("quantizing to " + std::string(ir::dtypeName(type)) +
                         " is not supported (i8, u8, i16 and u16 are)");
    ctx.attrs().set("saturate", ctx.attrs().getInt("saturate", 1));
    ctx.setOutput(0, type, ctx.shape(0));
    return Status::success();
}

Status inferDequantizeLinear(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInputs(ctx, {0, 1}, "x and x_scale"));
    SC_RETURN_IF_ERROR(canonicalAxis(ctx, 1));
    ir::DType x = ctx.dtype(0);
    if (!isQuantizedType(x) && x != ir::DType::Int32)
        return ctx.error("dequantizing " + std::string(ir::dtypeName(x)) +
                         " is not supported (i8, u8, i16, u16 and i32 are)");
    ctx.setOutput(0, ctx.dtype(1), ctx.shape(0));
    return Status::success();
}

Status inferConvInteger(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInputs(ctx, {0, 1}, "x and w"));
    SC_RETURN_IF_ERROR(checkOperand(ctx, 0, "x"));
    SC_RETURN_IF_ERROR(checkOperand(ctx, 1, "w"));
    return inferConvAt(ctx, 0, 1, -1, ir::DType::Int32);
}

Status inferQLinearConv(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInputs(ctx, {0, 1, 2, 3, 4, 5, 6, 7},
                                  "x, its scale and zero point, w, its scale and zero point, "
                                  "y_scale and y_zero_point"));
    SC_RETURN_IF_ERROR(checkOperand(ctx, 0, "x"));
    SC_RETURN_IF_ERROR(checkOperand(ctx, 3, "w"));
    SC_RETURN_IF_ERROR(checkOperand(ctx, 7, "y_zero_point"));
    return inferConvAt(ctx, 0, 3, 8, ctx.dtype(7));
}

Status inferMatMulInteger(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInputs(ctx, {0, 1}, "A and B"));
    SC_RETURN_IF_ERROR(checkOperand(ctx, 0, "A"));
    SC_RETURN_IF_ERROR(checkOperand(ctx, 1, "B"));
    return inferMatMulAt(ctx, 0, 1, ir::DType::Int32);
}

Status inferQLinearMatMul(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInputs(ctx, {0, 1, 2, 3, 4, 5, 6, 7},
                                  "a, its scale and zero point, b, its scale and zero point, "
                                  "y_scale and y_zero_point"));
    SC_RETURN_IF_ERROR(checkOperand(ctx, 0, "a"));
    SC_RETURN_IF_ERROR(checkOperand(ctx, 3, "b"));
    SC_RETURN_IF_ERROR(checkOperand(ctx, 7, "y_zero_point"));
    return inferMatMulAt(ctx, 0, 3, ctx.dtype(7));
}

} // namespace stagecraft::onnxio
