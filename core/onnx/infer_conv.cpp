// Shape rules for windowed ops: Conv, ConvTranspose, pooling. auto_pad is
// resolved into explicit pads and every window attribute is written out.

#include "onnx/internal/infer_rules.h"
#include "support/strings.h"

namespace stagecraft::onnxio {

namespace {

struct Window {
    std::vector<int64_t> kernel, strides, dilations, pads; // pads: begins then ends
};

std::vector<int64_t> intsOr(InferContext& ctx, const char* name, size_t count, int64_t fallback) {
    auto values = ctx.attrs().getInts(name);
    return values.empty() ? std::vector<int64_t>(count, fallback) : values;
}

/// Reads the window attributes for \p spatial dims, checking their lengths.
Expected<Window> readWindow(InferContext& ctx, size_t spatial, std::vector<int64_t> kernel) {
    Window w;
    w.kernel = std::move(kernel);
    w.strides = intsOr(ctx, "strides", spatial, 1);
    w.dilations = intsOr(ctx, "dilations", spatial, 1);
    w.pads = intsOr(ctx, "pads", 2 * spatial, 0);
    if (w.kernel.size() != spatial || w.strides.size() != spatial ||
        w.dilations.size() != spatial || w.pads.size() != 2 * spatial)
        return ctx.error("kernel_shape, strides, dilations and pads must match the " +
                         std::to_string(spatial) + " spatial dimensions");
    for (size_t i = 0; i < spatial; ++i)
        if (w.kernel[i] < 1 || w.strides[i] < 1 || w.dilations[i] < 1 || w.pads[i] < 0 ||
            w.pads[i + spatial] < 0)
            return ctx.error(
                "kernel_shape, strides and dilations must be positive and pads non-negative");
    return w;
}

int64_t effectiveKernel(const Window& w, size_t i) {
    return (w.kernel[i] - 1) * w.dilations[i] + 1;
}

/// auto_pad SAME_UPPER/SAME_LOWER/VALID into explicit pads (forward windows).
Status resolveAutoPad(InferContext& ctx, Window& w, const ir::Shape& in) {
    std::string autoPad = ctx.attrs().getString("auto_pad", "NOTSET");
    ctx.attrs().erase("auto_pad");
    size_t spatial = w.kernel.size();
    if (autoPad == "NOTSET" || autoPad.empty())
        return Status::success();
    if (autoPad == "VALID") {
        std::fill(w.pads.begin(), w.pads.end(), 0);
        return Status::success();
    }
    if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
        return ctx.error("unknown auto_pad " + quote(autoPad));
    for (size_t i = 0; i < spatial; ++i) {
        int64_t size = in[i + 2];
        int64_t out = (size + w.strides[i] - 1) / w.strides[i];
        int64_t total =
            std::max<int64_t>(0, (out - 1) * w.strides[i] + effectiveKernel(w, i) - size);
        int64_t small = total / 2;
        w.pads[i] = autoPad == "SAME_UPPER" ? small : total - small;
        w.pads[i + spatial] = total - w.pads[i];
    }
    return Status::success();
}

void writeWindow(InferContext& ctx, const Window& w) {
    ctx.attrs().set("kernel_shape", w.kernel);
    ctx.attrs().set("strides", w.strides);
    ctx.attrs().set("dilations", w.dilations);
    ctx.attrs().set("pads", w.pads);
}

/// Output extent of a forward window; ceil_mode drops a last window that
/// would start in the end padding (as ONNX Runtime does).
Expected<int64_t> windowOutput(InferContext& ctx, const Window& w, size_t i, int64_t in,
                               bool ceilMode) {
    int64_t span = in + w.pads[i] + w.pads[i + w.kernel.size()] - effectiveKernel(w, i);
    if (span < 0)
        return ctx.error("the window (" + std::to_string(effectiveKernel(w, i)) +
                         ") is larger than the padded input (" +
                         std::to_string(in + w.pads[i] + w.pads[i + w.kernel.size()]) +
                         ") in spatial dim " + std::to_string(i));
    int64_t out = (ceilMode ? (span + w.strides[i] - 1) / w.strides[i] : span / w.strides[i]) + 1;
    if (ceilMode && (out - 1) * w.strides[i] >= in + w.pads[i])
        --out;
    return out;
}

Status requireRank(InferContext& ctx, int input, int64_t minRank, const char* what) {
    if (!ctx.hasInput(input) || ctx.rank(input) < minRank)
        return ctx.error(std::string(what) + " must have rank " + std::to_string(minRank) +
                         " or more");
    return Status::success();
}

} // namespace

Status inferConv(InferContext& ctx) {
    return inferConvAt(ctx, 0, 1, 2, ctx.hasInput(0) ? ctx.dtype(0) : ir::DType::Float32);
}

Status inferConvAt(InferContext& ctx, int slotX, int slotW, int slotBias, ir::DType type) {
    SC_RETURN_IF_ERROR(requireRank(ctx, slotX, 3, "X"));
    SC_RETURN_IF_ERROR(requireRank(ctx, slotW, 3, "W"));
    const ir::Shape x = ctx.shape(slotX), weight = ctx.shape(slotW);
    size_t spatial = x.size() - 2;
    if (weight.size() != x.size())
        return ctx.error("W " + ir::formatShape(weight) + " and X " + ir::formatShape(x) +
                         " differ in rank");
    int64_t group = ctx.attrs().getInt("group", 1);
    if (group < 1 || x[1] != weight[1] * group || weight[0] % group != 0)
        return ctx.error("channels do not match: X " + ir::formatShape(x) + ", W " +
                         ir::formatShape(weight) + ", group " + std::to_string(group));
    if (ctx.hasInput(slotBias) && ctx.shape(slotBias) != ir::Shape{weight[0]})
        return ctx.error("bias must have shape " + std::to_string(weight[0]));
    std::vector<int64_t> kernel =
        ctx.attrs().getInts("kernel_shape", {weight.begin() + 2, weight.end()});
    SC_ASSIGN_OR_RETURN(Window w, readWindow(ctx, spatial, kernel));
    if (std::vector<int64_t>(weight.begin() + 2, weight.end()) != w.kernel)
        return ctx.error("kernel_shape does not match W " + ir::formatShape(weight));
    SC_RETURN_IF_ERROR(resolveAutoPad(ctx, w, x));
    ir::Shape out{x[0], weight[0]};
    for (size_t i = 0; i < spatial; ++i) {
        SC_ASSIGN_OR_RETURN(int64_t extent, windowOutput(ctx, w, i, x[i + 2], false));
        out.push_back(extent);
    }
    writeWindow(ctx, w);
    ctx.attrs().set("group", group);
    ctx.setOutput(0, type, out);
    return Status::success();
}

Status inferConvTranspose(InferContext& ctx) {
    SC_RETURN_IF_ERROR(requireRank(ctx, 0, 3, "X"));
    SC_RETURN_IF_ERROR(requireRank(ctx, 1, 3, "W"));
    const ir::Shape x = ctx.shape(0), weight = ctx.shape(1);
    size_t spatial = x.size() - 2;
    int64_t group = ctx.attrs().getInt("group", 1);
    if (weight.size() != x.size() || group < 1 || weight[0] != x[1] || x[1] % group != 0)
        return ctx.error("channels do not match: X " + ir::formatShape(x) + ", W " +
                         ir::formatShape(weight) + ", group " + std::to_string(group));
    int64_t outChannels = weight[1] * group;
    if (ctx.hasInput(2) && ctx.shape(2) != ir::Shape{outChannels})
        return ctx.error("bias must have shape " + std::to_string(outChannels));
    SC_ASSIGN_OR_RETURN(
        Window w,
        readWindow(ctx, spatial,
                   ctx.attrs().getInts("kernel_shape", {weight.begin() + 2, weight.end()})));
    std::vector<int64_t> outputPadding = intsOr(ctx, "output_padding", spatial, 0);
    std::vector<int64_t> outputShape = ctx.attrs().getInts("output_shape");
    std::string autoPad = ctx.attrs().getString("auto_pad", "NOTSET");
    if (outputPadding.size() != spatial)
        return ctx.error("output_padding must have " + std::to_string(spatial) + " values");
    if (outputShape.size() == spatial + 2)
        outputShape.erase(outputShape.begin(), outputShape.begin() + 2);
    if (outputShape.empty() && (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER"))
        for (size_t i = 0; i < spatial; ++i)
            outputShape.push_back(x[i + 2] * w.strides[i]);
    ir::Shape out{x[0], outChannels};
    for (size_t i = 0; i < spatial; ++i) {
        int64_t full = w.strides[i] * (x[i + 2] - 1) + outputPadding[i] + effectiveKernel(w, i);
        if (!outputShape.empty()) {
            if (outputShape.size() != spatial)
                return ctx.error("output_shape must have " + std::to_string(spatial) + " values");
            int64_t total = full - outputShape[i];
            if (total < 0) {
                // A larger output_shape adds rows at the end, as output_padding
                // does (the ONNX reference: its test's output equals the
                // output_padding test's).
                outputPadding[i] -= total;
                full -= total;
                total = 0;
            }
            int64_t half = total / 2;
            w.pads[i] = autoPad == "SAME_UPPER" ? half : total - half;
            w.pads[i + spatial] = total - w.pads[i];
        } else if (autoPad == "VALID") {
            w.pads[i] = w.pads[i + spatial] = 0;
        }
        int64_t extent = full - w.pads[i] - w.pads[i + spatial];
        if (extent < 1)
            return ctx.error("output spatial dim " + std::to_string(i) + " would be " +
                             std::to_string(extent));
        out.push_back(extent);
    }
    writeWindow(ctx, w);
    ctx.attrs().set("output_padding", outputPadding);
    ctx.attrs().set("group", group);
    ctx.attrs().erase("auto_pad");
    ctx.attrs().erase("output_shape");
    ctx.setOutput(0, ctx.dtype(0), out);
    return Status::success();
}

Status inferPool(InferContext& ctx) {
    SC_RETURN_IF_ERROR(requireRank(ctx, 0, 3, "X"));
    const ir::Shape x = ctx.shape(0);
    size_t spatial = x.size() - 2;
    SC_ASSIGN_OR_RETURN(Window w, readWindow(ctx, spatial, ctx.attrs().getInts("kernel_shape")));
    bool ceilMode = ctx.attrs().getInt("ceil_mode", 0) != 0;
    SC_RETURN_IF_ERROR(resolveAutoPad(ctx, w, x));
    ir::Shape out{x[0], x[1]};
    for (size_t i = 0; i < spatial; ++i) {
        SC_ASSIGN_OR_RETURN(int64_t extent, windowOutput(ctx, w, i, x[i + 2], ceilMode));
        out.push_back(extent);
    }
    writeWindow(ctx, w);
    ctx.attrs().set("ceil_mode", int64_t{ceilMode});
    ctx.attrs().erase("storage_order");
    if (ctx.op().kind == ir::OpKind::AveragePool)
        ctx.attrs().set("count_include_pad", ctx.attrs().getInt("count_include_pad", 0));
    if (ctx.op().kind == ir::OpKind::LpPool)
        ctx.attrs().set("p", ctx.attrs().getInt("p", 2));
    if (ctx.outputCount() > 1 && ctx.outputUsed(1))
        return ctx.error("the Indices output of MaxPool is not supported");
    ctx.setOutput(0, ctx.dtype(0), out);
    if (ctx.outputCount() > 1)
        ctx.setOutput(1, ir::DType::Int64, out);
    return Status::success();
}

Status inferGlobalPool(InferContext& ctx) {
    SC_RETURN_IF_ERROR(requireRank(ctx, 0, 3, "X"));
    ir::Shape out = ctx.shape(0);
    std::fill(out.begin() + 2, out.end(), 1);
    ctx.setOutput(0, ctx.dtype(0), out);
    return Status::success();
}

} // namespace stagecraft::onnxio
