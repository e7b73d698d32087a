// Shape rules for ops that scan an axis or move elements by index: CumSum,
// OneHot, GatherND, ScatterElements (and Scatter, its name before opset 11)
// and ScatterND. The inputs that describe a shape or a constant (CumSum's
// axis, OneHot's depth and values) must be constants and become attributes
// (docs/ir.md); a given input value counts (ImportOptions::inputValues).

#include "onnx/internal/infer_rules.h"

namespace stagecraft::onnxio {

namespace {

Status needInputs(InferContext& ctx, int count, const char* what) {
    for (int i = 0; i < count; ++i)
        if (!ctx.hasInput(i))
            return ctx.error(std::string("needs ") + what);
    return Status::success();
}

/// The one integer of input \p i (a scalar or a one-element tensor).
Expected<int64_t> scalarInput(InferContext& ctx, int i, const std::string& what) {
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> values, ctx.intsInput(i, what));
    if (values.size() != 1)
        return ctx.error(what + " must hold one value, not " + std::to_string(values.size()));
    return values.front();
}

/// Scatter's reduction attribute, checked.
Status checkReduction(InferContext& ctx) {
    std::string reduction = ctx.attrs().getString("reduction", "none");
    if (reduction != "none" && reduction != "add" && reduction != "mul" && reduction != "max" &&
        reduction != "min")
        return ctx.error("reduction '" + reduction + "' is not none, add, mul, max or min");
    ctx.attrs().set("reduction", reduction);
    return Status::success();
}

} // namespace

Status inferCumSum(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInputs(ctx, 2, "x and axis"));
    SC_ASSIGN_OR_RETURN(int64_t axis, scalarInput(ctx, 1, "axis"));
    SC_ASSIGN_OR_RETURN(axis, ctx.normalizeAxis(axis, ctx.rank(0), "axis"));
    ctx.keepInputs(1);
    ctx.attrs().set("axis", axis);
    ctx.attrs().set("exclusive", ctx.attrs().getInt("exclusive", 0));
    ctx.attrs().set("reverse", ctx.attrs().getInt("reverse", 0));
    ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
    return Status::success();
}

Status inferOneHot(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInputs(ctx, 3, "indices, depth and values"));
    SC_ASSIGN_OR_RETURN(std::vector<double> depthValue, ctx.floatsInput(1, "depth"));
    if (depthValue.size() != 1 || depthValue.front() < 1)
        return ctx.error("depth must be one value of at least 1");
    auto depth = static_cast<int64_t>(depthValue.front());
    SC_ASSIGN_OR_RETURN(std::vector<double> values, ctx.floatsInput(2, "values"));
    if (values.size() != 2)
        return ctx.error("values must hold [off_value, on_value], not " +
                         std::to_string(values.size()) + " values");
    SC_ASSIGN_OR_RETURN(int64_t axis,
                        ctx.normalizeAxis(ctx.attrs().getInt("axis", -1), ctx.rank(0) + 1, "axis"));
    ir::DType type = ctx.dtype(2);
    ir::Shape out = ctx.shape(0);
    out.insert(out.begin() + axis, depth);
    ctx.keepInputs(1);
    ctx.attrs().set("axis", axis);
    ctx.attrs().set("depth", depth);
    ctx.attrs().set("off_value", values[0]);
    ctx.attrs().set("on_value", values[1]);
    ctx.setOutput(0, type, out);
    return Status::success();
}

Status inferGatherNd(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInputs(ctx, 2, "data and indices"));
    const ir::Shape& data = ctx.shape(0);
    const ir::Shape& indices = ctx.shape(1);
    int64_t batch = ctx.attrs().getInt("batch_dims", 0);
    if (indices.empty())
        return ctx.error("indices must have rank 1 or more");
    int64_t k = indices.back();
    auto q = static_cast<int64_t>(indices.size());
    if (batch < 0 || batch >= q || k < 1 || batch + k > ctx.rank(0))
        return ctx.error("batch_dims " + std::to_string(batch) + " and indices of shape " +
                         ir::formatShape(indices) + " do not fit data of shape " +
                         ir::formatShape(data));
    for (int64_t j = 0; j < batch; ++j)
        if (data[static_cast<size_t>(j)] != indices[static_cast<size_t>(j)])
            return ctx.error("the first batch_dims dims of data " + ir::formatShape(data) +
                             " and indices " + ir::formatShape(indices) + " differ");
    ir::Shape out(indices.begin(), indices.end() - 1);
    out.insert(out.end(), data.begin() + batch + k, data.end());
    ctx.attrs().set("batch_dims", batch);
    ctx.setOutput(0, ctx.dtype(0), out);
    return Status::success();
}

Status inferScatterElements(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInputs(ctx, 3, "data, indices and updates"));
    if (ctx.shape(1) != ctx.shape(2) || ctx.rank(1) != ctx.rank(0))
        return ctx.error("indices " + ir::formatShape(ctx.shape(1)) + " and updates " +
                         ir::formatShape(ctx.shape(2)) +
                         " must have one shape, of the data's rank " + std::to_string(ctx.rank(0)));
    SC_ASSIGN_OR_RETURN(int64_t axis,
                        ctx.normalizeAxis(ctx.attrs().getInt("axis", 0), ctx.rank(0), "axis"));
    SC_RETURN_IF_ERROR(checkReduction(ctx));
    ctx.setType("ScatterElements");
    ctx.attrs().set("axis", axis);
    ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
    return Status::success();
}

Status inferScatterNd(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInputs(ctx, 3, "data, indices and updates"));
    const ir::Shape& data = ctx.shape(0);
    const ir::Shape& indices = ctx.shape(1);
    int64_t k = indices.empty() ? 0 : indices.back();
    if (k < 1 || k > ctx.rank(0))
        return ctx.error("indices " + ir::formatShape(indices) + " do not index data of shape " +
                         ir::formatShape(data));
    ir::Shape updates(indices.begin(), indices.end() - 1);
    updates.insert(updates.end(), data.begin() + k, data.end());
    if (ctx.shape(2) != updates)
        return ctx.error("updates " + ir::formatShape(ctx.shape(2)) + " must have shape " +
                         ir::formatShape(updates));
    SC_RETURN_IF_ERROR(checkReduction(ctx));
    ctx.setOutput(0, ctx.dtype(0), data);
    return Status::success();
}

} // namespace stagecraft::onnxio
