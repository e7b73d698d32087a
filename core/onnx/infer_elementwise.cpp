// Shape rules for elementwise ops: unary ops keep shape and type, n-ary ops
// broadcast (numpy rules), comparisons give bool, Clip's bounds become
// attributes, BatchNormalization keeps only its inference output.

#include "onnx/internal/infer_rules.h"

#include <cstdio>
#include <limits>
#include <optional>
#include <string>

namespace stagecraft::onnxio {

namespace {

using ir::DType;

Status requireInputs(InferContext& ctx, int count) {
    for (int i = 0; i < count; ++i)
        if (!ctx.hasInput(i))
            return ctx.error("needs input " + std::to_string(i));
    return Status::success();
}

Expected<ir::Shape> broadcastAll(InferContext& ctx, int first, int count) {
    ir::Shape shape = ctx.shape(first);
    for (int i = first + 1; i < first + count; ++i) {
        if (!ctx.hasInput(i))
            continue;
        auto combined = broadcastShapes(shape, ctx.shape(i));
        if (!combined)
            return ctx.error("cannot broadcast " + ir::formatShape(shape) + " with " +
                             ir::formatShape(ctx.shape(i)) + " (input " + std::to_string(i) + ")");
        shape = *combined;
    }
    return shape;
}

} // namespace

Status inferUnary(InferContext& ctx) {
    SC_RETURN_IF_ERROR(requireInputs(ctx, 1));
    ctx.keepInputs(1);
    ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
    return Status::success();
}

Status inferUnaryToBool(InferContext& ctx) {
    SC_RETURN_IF_ERROR(requireInputs(ctx, 1));
    ctx.setOutput(0, DType::Bool, ctx.shape(0));
    return Status::success();
}

Status inferCast(InferContext& ctx) {
    SC_RETURN_IF_ERROR(requireInputs(ctx, 1));
    DType to = fromOnnxType(static_cast<int32_t>(ctx.attrs().getInt("to", 0)));
    if (to == DType::Undefined || to == DType::String)
        return ctx.error("cannot cast to ONNX type " + std::to_string(ctx.attrs().getInt("to", 0)));
    ctx.setOutput(0, to, ctx.shape(0));
    return Status::success();
}

Status inferBroadcast(InferContext& ctx) {
    SC_RETURN_IF_ERROR(requireInputs(ctx, 1));
    SC_ASSIGN_OR_RETURN(ir::Shape shape, broadcastAll(ctx, 0, ctx.inputCount()));
    ctx.setOutput(0, ctx.dtype(0), shape);
    return Status::success();
}

Status inferCompare(InferContext& ctx) {
    SC_RETURN_IF_ERROR(requireInputs(ctx, 2));
    SC_ASSIGN_OR_RETURN(ir::Shape shape, broadcastAll(ctx, 0, 2));
    ctx.setOutput(0, DType::Bool, shape);
    return Status::success();
}

Status inferWhere(InferContext& ctx) {
    SC_RETURN_IF_ERROR(requireInputs(ctx, 3));
    SC_ASSIGN_OR_RETURN(ir::Shape shape, broadcastAll(ctx, 0, 3));
    ctx.setOutput(0, ctx.dtype(1), shape);
    return Status::success();
}

/// Clip's bound at input \p i: a constant becomes the attribute (\p bound)
/// and the input is dropped; a value computed at run time (no shape depends
/// on it) stays an input, a scalar of x's type.
Status clipBound(InferContext& ctx, int i, const char* name, double& bound) {
    if (!ctx.hasInput(i))
        return Status::success();
    if (const ir::ConstTensor* v = ctx.value(i)) {
        std::vector<double> values = v->toDoubles();
        if (values.size() != 1)
            return ctx.error(std::string(name) + " must be a scalar");
        bound = values[0];
        ctx.dropInput(i);
        return Status::success();
    }
    if (ir::elementCount(ctx.shape(i)) != 1 || ctx.dtype(i) != ctx.dtype(0))
        return ctx.error(std::string(name) + " (input " + std::to_string(i) + ") is " +
                         std::string(ir::dtypeName(ctx.dtype(i))) + " " +
                         ir::formatShape(ctx.shape(i)) + ", expected a scalar of x's type " +
                         std::string(ir::dtypeName(ctx.dtype(0))));
    return Status::success();
}

Status inferClip(InferContext& ctx) {
    SC_RETURN_IF_ERROR(requireInputs(ctx, 1));
    double low = -std::numeric_limits<double>::infinity();
    double high = std::numeric_limits<double>::infinity();
    if (ctx.opset() < 11) {
        low = ctx.attrs().getFloat("min", low);
        high = ctx.attrs().getFloat("max", high);
    } else {
        SC_RETURN_IF_ERROR(clipBound(ctx, 1, "min", low));
        SC_RETURN_IF_ERROR(clipBound(ctx, 2, "max", high));
    }
    ctx.attrs().set("min", low);
    ctx.attrs().set("max", high);
    ctx.keepInputs(ctx.hasInput(2) ? 3 : ctx.hasInput(1) ? 2 : 1);
    ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
    return Status::success();
}

Status inferBatchNorm(InferContext& ctx) {
    SC_RETURN_IF_ERROR(requireInputs(ctx, 5));
    if (ctx.rank(0) < 2)
        return ctx.error("input must have a channel dimension");
    int64_t channels = ctx.shape(0)[1];
    for (int i = 1; i < 5; ++i)
        if (ctx.shape(i) != ir::Shape{channels})
            return ctx.error("input " + std::to_string(i) + " must have shape " +
                             std::to_string(channels));
    for (int i = 1; i < ctx.outputCount(); ++i)
        if (ctx.outputUsed(i))
            return ctx.error("training-mode outputs (running statistics) are not supported");
    ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
    for (int i = 1; i < ctx.outputCount(); ++i)
        ctx.setOutput(i, ctx.dtype(0), {channels});
    ctx.attrs().erase("momentum");
    ctx.attrs().erase("spatial");
    ctx.attrs().erase("training_mode");
    return Status::success();
}

/// Trilu keeps its matrix's upper or lower triangle; the diagonal offset k
/// (input 1) must be known, and becomes an attribute.
Status inferTrilu(InferContext& ctx) {
    SC_RETURN_IF_ERROR(requireInputs(ctx, 1));
    if (ctx.shape(0).size() < 2)
        return ctx.error("input must have rank 2 or more, not " + ir::formatShape(ctx.shape(0)));
    int64_t k = 0;
    if (ctx.hasInput(1)) {
        SC_ASSIGN_OR_RETURN(auto v, ctx.intsInput(1, "k"));
        if (v.size() != 1)
            return ctx.error("k must be a scalar");
        k = v[0];
    }
    ctx.attrs().set("k", k);
    ctx.attrs().set("upper", ctx.attrs().getInt("upper", 1));
    ctx.keepInputs(1);
    ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
    return Status::success();
}

/// The value of scalar input \p i when it is a constant.
std::optional<double> constantScalar(InferContext& ctx, int i, const std::string& what) {
    if (!ctx.hasInput(i))
        return std::nullopt;
    auto v = ctx.floatsInput(i, what);
    if (!v.ok() || v->size() != 1)
        return std::nullopt;
    return (*v)[0];
}

/// Dropout is the identity at inference; in training mode with a ratio above
/// zero it drops random elements, which no static compiler reproduces: an
/// error rather than a silently different result.
Status checkDropoutInference(InferContext& ctx) {
    if (!ctx.hasInput(2))
        return Status::success();
    std::optional<double> training = constantScalar(ctx, 2, "training_mode");
    std::optional<double> ratio =
        ctx.hasInput(1) ? constantScalar(ctx, 1, "ratio") : std::optional<double>(0.5);
    if ((training && *training == 0) || (ratio && *ratio == 0))
        return Status::success();
    if (!training || !ratio)
        return ctx.error("training_mode (input 2) or ratio (input 1) is computed at run time; "
                         "Stagecraft compiles inference, which needs training_mode a constant "
                         "false or ratio a constant 0");
    char ratioText[32];
    std::snprintf(ratioText, sizeof ratioText, "%g", *ratio);
    return ctx.error("runs in training mode (training_mode is true, ratio " +
                     std::string(ratioText) +
                     "): it drops random elements, and Stagecraft compiles inference only");
}

Status inferDropout(InferContext& ctx) {
    SC_RETURN_IF_ERROR(requireInputs(ctx, 1));
    SC_RETURN_IF_ERROR(checkDropoutInference(ctx));
    ctx.keepInputs(1);
    ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
    if (ctx.outputCount() > 1)
        ctx.setOutput(1, DType::Bool, ctx.shape(0));
    return Status::success();
}

} // namespace stagecraft::onnxio
