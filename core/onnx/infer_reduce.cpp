// Shape rules for reductions and normalizations: axes are resolved (from an
// attribute or, in newer opsets, a constant input) into a sorted,
// non-negative `axes` attribute.

#include "onnx/internal/infer_rules.h"

#include <algorithm>
#include <set>

namespace stagecraft::onnxio {

namespace {

/// Normalizes, sorts and de-duplicates \p axes for \p rank.
Expected<std::vector<int64_t>> normalizeAxes(InferContext& ctx, const std::vector<int64_t>& axes,
                                             int64_t rank) {
    std::set<int64_t> unique;
    for (int64_t axis : axes) {
        SC_ASSIGN_OR_RETURN(int64_t normalized, ctx.normalizeAxis(axis, rank, "axis"));
        unique.insert(normalized);
    }
    return std::vector<int64_t>(unique.begin(), unique.end());
}

ir::Shape reducedShape(const ir::Shape& in, const std::vector<int64_t>& axes, bool keepdims) {
    ir::Shape out;
    for (size_t i = 0; i < in.size(); ++i) {
        bool reduced = std::find(axes.begin(), axes.end(), static_cast<int64_t>(i)) != axes.end();
        if (!reduced)
            out.push_back(in[i]);
        else if (keepdims)
            out.push_back(1);
    }
    return out;
}

} // namespace

Status inferReduce(InferContext& ctx) {
    if (!ctx.hasInput(0))
        return ctx.error("needs an input");
    std::vector<int64_t> axes = ctx.attrs().getInts("axes");
    if (ctx.hasInput(1)) {
        SC_ASSIGN_OR_RETURN(axes, ctx.intsInput(1, "axes"));
    }
    bool keepdims = ctx.attrs().getInt("keepdims", 1) != 0;
    bool noop = ctx.attrs().getInt("noop_with_empty_axes", 0) != 0;
    int64_t rank = ctx.rank(0);
    ctx.keepInputs(1);
    ctx.attrs().erase("noop_with_empty_axes");
    if (axes.empty() && noop) {
        ctx.attrs().set("axes", std::vector<int64_t>{});
        ctx.attrs().set("keepdims", int64_t{1});
        ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
        return Status::success();
    }
    if (axes.empty())
        for (int64_t i = 0; i < rank; ++i)
            axes.push_back(i);
    SC_ASSIGN_OR_RETURN(axes, normalizeAxes(ctx, axes, rank));
    ctx.attrs().set("axes", axes);
    ctx.attrs().set("keepdims", int64_t{keepdims});
    ctx.setOutput(0, ctx.dtype(0), reducedShape(ctx.shape(0), axes, keepdims));
    return Status::success();
}

Status inferArgReduce(InferContext& ctx) {
    if (!ctx.hasInput(0))
        return ctx.error("needs an input");
    SC_ASSIGN_OR_RETURN(int64_t axis,
                        ctx.normalizeAxis(ctx.attrs().getInt("axis", 0), ctx.rank(0), "axis"));
    bool keepdims = ctx.attrs().getInt("keepdims", 1) != 0;
    ctx.attrs().set("axis", axis);
    ctx.attrs().set("keepdims", int64_t{keepdims});
    ctx.attrs().set("select_last_index", ctx.attrs().getInt("select_last_index", 0));
    ctx.setOutput(0, ir::DType::Int64, reducedShape(ctx.shape(0), {axis}, keepdims));
    return Status::success();
}

Status inferSoftmax(InferContext& ctx) {
    if (!ctx.hasInput(0))
        return ctx.error("needs an input");
    int64_t rank = ctx.rank(0);
    int64_t fallback = ctx.opset() < 13 ? 1 : -1;
    SC_ASSIGN_OR_RETURN(int64_t axis,
                        ctx.normalizeAxis(ctx.attrs().getInt("axis", fallback), rank, "axis"));
    std::vector<int64_t> axes{axis};
    if (ctx.opset() < 13) // the input is coerced to 2-D: [prod(dims < axis), prod(dims >= axis)]
        for (int64_t i = axis + 1; i < rank; ++i)
            axes.push_back(i);
    ctx.attrs().erase("axis");
    ctx.attrs().set("axes", axes);
    ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
    return Status::success();
}

Status inferLayerNorm(InferContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1))
        return ctx.error("needs X and Scale");
    SC_ASSIGN_OR_RETURN(int64_t axis,
                        ctx.normalizeAxis(ctx.attrs().getInt("axis", -1), ctx.rank(0), "axis"));
    ir::Shape normalized(ctx.shape(0).begin() + axis, ctx.shape(0).end());
    for (int i = 1; i < 3; ++i)
        if (ctx.hasInput(i) && broadcastShapes(ctx.shape(i), normalized) != normalized)
            return ctx.error("input " + std::to_string(i) + " must broadcast to " +
                             ir::formatShape(normalized));
    for (int i = 1; i < ctx.outputCount(); ++i)
        if (ctx.outputUsed(i))
            return ctx.error("the Mean and InvStdDev outputs are not supported");
    ctx.attrs().set("axis", axis);
    ctx.attrs().erase("stash_type");
    ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
    ir::Shape stats = ctx.shape(0);
    std::fill(stats.begin() + axis, stats.end(), 1);
    for (int i = 1; i < ctx.outputCount(); ++i)
        ctx.setOutput(i, ir::DType::Float32, stats);
    return Status::success();
}

Status inferInstanceNorm(InferContext& ctx) {
    if (!ctx.hasInput(0) || ctx.rank(0) < 3)
        return ctx.error("input must have rank 3 or more");
    int64_t channels = ctx.shape(0)[1];
    for (int i = 1; i < 3; ++i)
        if (!ctx.hasInput(i) || ctx.shape(i) != ir::Shape{channels})
            return ctx.error("scale and B must have shape " + std::to_string(channels));
    ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
    return Status::success();
}

Status inferTopK(InferContext& ctx) {
    if (!ctx.hasInput(0))
        return ctx.error("needs an input");
    int64_t k = ctx.attrs().getInt("k", -1);
    if (ctx.hasInput(1)) {
        SC_ASSIGN_OR_RETURN(auto values, ctx.intsInput(1, "K"));
        if (values.size() != 1)
            return ctx.error("K must hold one value");
        k = values[0];
    }
    SC_ASSIGN_OR_RETURN(int64_t axis,
                        ctx.normalizeAxis(ctx.attrs().getInt("axis", -1), ctx.rank(0), "axis"));
    if (k < 0 || k > ctx.shape(0)[static_cast<size_t>(axis)])
        return ctx.error("K " + std::to_string(k) + " is out of range for " +
                         ir::formatShape(ctx.shape(0)));
    ir::Shape out = ctx.shape(0);
    out[static_cast<size_t>(axis)] = k;
    ctx.keepInputs(1);
    ctx.attrs().set("k", k);
    ctx.attrs().set("axis", axis);
    ctx.attrs().set("largest", ctx.attrs().getInt("largest", 1));
    ctx.attrs().set("sorted", ctx.attrs().getInt("sorted", 1));
    ctx.setOutput(0, ctx.dtype(0), out);
    if (ctx.outputCount() > 1)
        ctx.setOutput(1, ir::DType::Int64, out);
    return Status::success();
}

} // namespace stagecraft::onnxio
