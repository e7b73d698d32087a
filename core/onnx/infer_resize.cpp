// Shape rule for Resize (opsets 10-19) and Upsample (opset 9, rewritten as
// Resize): output sizes from `sizes` or floor(input * scales); the scales
// the coordinate transform uses are kept as the `scales` attribute.

#include "onnx/internal/infer_rules.h"

#include <cmath>

namespace stagecraft::onnxio {

namespace {

/// The scales input in \p slot (none: empty); not a constant, an error
/// naming what to give.
Expected<std::vector<double>> readScales(InferContext& ctx, int slot) {
    if (!ctx.hasInput(slot))
        return std::vector<double>{};
    return ctx.floatsInput(slot, "scales");
}

} // namespace

Status inferResize(InferContext& ctx) {
    if (!ctx.hasInput(0))
        return ctx.error("needs an input");
    bool legacy = ctx.op().type == "Upsample" || ctx.opset() < 11;
    std::vector<double> scales = ctx.attrs().getFloats("scales");
    std::vector<int64_t> sizes;
    if (legacy) {
        if (ctx.hasInput(1)) {
            SC_ASSIGN_OR_RETURN(scales, readScales(ctx, 1));
        }
    } else {
        SC_ASSIGN_OR_RETURN(scales, readScales(ctx, 2));
        if (ctx.hasInput(3) && ctx.value(3) != nullptr && ctx.value(3)->elementCount() > 0) {
            SC_ASSIGN_OR_RETURN(sizes, ctx.intsInput(3, "sizes"));
        } else if (ctx.hasInput(3) && ctx.value(3) == nullptr) {
            return ctx.intsInput(3, "sizes").error(); // naming what to give
        }
        if (ctx.attrs().getInt("antialias", 0) != 0)
            ctx.warn("antialias is ignored by the loop-nest model");
    }
    const ir::Shape& in = ctx.shape(0);
    ir::Shape out = in;
    if (!sizes.empty()) {
        if (sizes.size() != in.size())
            return ctx.error("sizes must have one value per dimension");
        scales.clear();
        for (size_t i = 0; i < in.size(); ++i) {
            out[i] = sizes[i];
            scales.push_back(
                in[i] == 0 ? 1.0 : static_cast<double>(sizes[i]) / static_cast<double>(in[i]));
        }
    } else {
        if (scales.size() != in.size())
            return ctx.error("needs scales or sizes with one value per dimension");
        for (size_t i = 0; i < in.size(); ++i) {
            if (!(scales[i] > 0.0))
                return ctx.error("scales must be positive");
            out[i] = static_cast<int64_t>(std::floor(static_cast<double>(in[i]) * scales[i]));
        }
    }
    std::string mode = ctx.attrs().getString("mode", "nearest");
    if (mode == "bilinear" || mode == "trilinear")
        mode = "linear";
    if (mode != "nearest" && mode != "linear" && mode != "cubic")
        return ctx.error("unknown mode " + mode);
    ir::Attributes& a = ctx.attrs();
    a.set("mode", mode);
    a.set("scales", scales);
    a.set("coordinate_transformation_mode",
          legacy ? std::string("asymmetric")
                 : a.getString("coordinate_transformation_mode", "half_pixel"));
    a.set("nearest_mode",
          legacy ? std::string("floor") : a.getString("nearest_mode", "round_prefer_floor"));
    a.set("cubic_coeff_a", a.getFloat("cubic_coeff_a", -0.75));
    a.set("exclude_outside", a.getInt("exclude_outside", 0));
    a.set("extrapolation_value", a.getFloat("extrapolation_value", 0.0));
    a.erase("antialias");
    a.erase("keep_aspect_ratio_policy");
    a.erase("axes");
    ctx.keepInputs(1);
    ctx.setType("Resize");
    ctx.setOutput(0, ctx.dtype(0), out);
    return Status::success();
}

} // namespace stagecraft::onnxio
