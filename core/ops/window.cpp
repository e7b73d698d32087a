// The sliding window shared by Conv, ConvTranspose and the pools: reading and
// checking its canonical attributes, the floor-mode output extent, and the
// spatial loop names (ol | oh ow | od oh ow).

#include "ops/internal/window.h"

namespace stagecraft::ops::detail {

Expected<Window> readWindow(const OpContext& ctx, size_t spatial, bool allowNegativePads) {
    auto rank = static_cast<int64_t>(spatial);
    Window w;
    SC_ASSIGN_OR_RETURN(w.kernel, ctx.intsAttr("kernel_shape", rank));
    SC_ASSIGN_OR_RETURN(w.strides, ctx.intsAttr("strides", rank));
    SC_ASSIGN_OR_RETURN(w.dilations, ctx.intsAttr("dilations", rank));
    SC_ASSIGN_OR_RETURN(w.pads, ctx.intsAttr("pads", 2 * rank));
    for (size_t i = 0; i < spatial; ++i) {
        if (w.kernel[i] < 1 || w.strides[i] < 1 || w.dilations[i] < 1)
            return ctx.error("kernel_shape, strides and dilations must be positive");
        if (!allowNegativePads && (w.padBegin(i) < 0 || w.padEnd(i) < 0))
            return ctx.error("pads must be non-negative");
    }
    return w;
}

std::optional<int64_t> windowOutput(const Window& w, size_t i, int64_t in) {
    int64_t span = in + w.padBegin(i) + w.padEnd(i) - w.effectiveKernel(i);
    if (span < 0)
        return std::nullopt;
    return span / w.strides[i] + 1;
}

std::vector<std::string> spatialNames(size_t spatial, char prefix) {
    std::string p(1, prefix);
    if (spatial == 1)
        return {p + "l"};
    if (spatial == 2)
        return {p + "h", p + "w"};
    if (spatial == 3)
        return {p + "d", p + "h", p + "w"};
    std::vector<std::string> names;
    for (size_t i = 0; i < spatial; ++i)
        names.push_back(p + std::to_string(i));
    return names;
}

} // namespace stagecraft::ops::detail
