// Shape rule for GridSample (opsets 16 and 20): X of shape (N, C, d1..dr)
// sampled at the grid (N, D1..Dr, r) gives (N, C, D1..Dr). Opset 16 spells
// the modes bilinear and bicubic, opset 20 linear and cubic; both become
// linear, nearest or cubic, and the padding mode and align_corners are
// written out with their defaults, so that later stages read one spelling.

#include "onnx/internal/infer_rules.h"

namespace stagecraft::onnxio {

namespace {

Expected<std::string> canonicalMode(InferContext& ctx) {
    std::string mode = ctx.attrs().getString("mode", ctx.opset() < 20 ? "bilinear" : "linear");
    if (mode == "bilinear")
        return std::string("linear");
    if (mode == "bicubic")
        return std::string("cubic");
    if (mode == "linear" || mode == "nearest" || mode == "cubic")
        return mode;
    return ctx.error("mode '" + mode + "' is not bilinear, nearest, bicubic, linear or cubic");
}

Status checkShapes(InferContext& ctx, const ir::Shape& x, const ir::Shape& grid) {
    int64_t spatial = ctx.rank(0) - 2;
    if (spatial < 1 || ctx.rank(1) != ctx.rank(0))
        return ctx.error("X " + ir::formatShape(x) + " and grid " + ir::formatShape(grid) +
                         " must have one rank of at least 3");
    if (grid.back() != spatial || grid.front() != x.front())
        return ctx.error("grid " + ir::formatShape(grid) + " must be (N, D1.., " +
                         std::to_string(spatial) + ") for X " + ir::formatShape(x));
    return Status::success();
}

} // namespace

Status inferGridSample(InferContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1))
        return ctx.error("needs X and grid");
    const ir::Shape& x = ctx.shape(0);
    const ir::Shape& grid = ctx.shape(1);
    SC_RETURN_IF_ERROR(checkShapes(ctx, x, grid));
    SC_ASSIGN_OR_RETURN(std::string mode, canonicalMode(ctx));
    std::string padding = ctx.attrs().getString("padding_mode", "zeros");
    if (padding != "zeros" && padding != "border" && padding != "reflection")
        return ctx.error("padding_mode '" + padding + "' is not zeros, border or reflection");
    if (mode == "cubic" && x.size() != 4)
        return ctx.error("cubic mode samples 2 spatial dims, not " + std::to_string(x.size() - 2));
    ctx.attrs().set("mode", mode);
    ctx.attrs().set("padding_mode", padding);
    ctx.attrs().set("align_corners", int64_t{ctx.attrs().getInt("align_corners", 0) != 0 ? 1 : 0});
    ir::Shape out = {x[0], x[1]};
    out.insert(out.end(), grid.begin() + 1, grid.end() - 1);
    ctx.setOutput(0, ctx.dtype(0), out);
    return Status::success();
}

} // namespace stagecraft::onnxio
