#pragma once
/// \file
/// Internal to core/ops: the sliding-window attributes shared by Conv,
/// ConvTranspose and the pools, and the loop names of their spatial dims.

#include "ops/internal/op_context.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::ops::detail {

struct Window {
    std::vector<int64_t> kernel, strides, dilations;
    /// Begins then ends, as ONNX writes them.
    std::vector<int64_t> pads;

    size_t rank() const { return kernel.size(); }
    int64_t padBegin(size_t i) const { return pads[i]; }
    int64_t padEnd(size_t i) const { return pads[i + kernel.size()]; }
    /// (kernel - 1) * dilation + 1.
    int64_t effectiveKernel(size_t i) const { return (kernel[i] - 1) * dilations[i] + 1; }
};

/// Reads kernel_shape, strides, dilations and pads for \p spatial dims and
/// checks their lengths and signs (pads may be negative for ConvTranspose
/// only, where \p allowNegativePads is set).
Expected<Window> readWindow(const OpContext& ctx, size_t spatial, bool allowNegativePads = false);

/// Output extent of a forward window over \p in elements of spatial dim \p i
/// (floor mode); nullopt when the window does not fit the padded input.
std::optional<int64_t> windowOutput(const Window& w, size_t i, int64_t in);

/// Spatial loop names: "ol" (1-D), "oh ow" (2-D), "od oh ow" (3-D), "o0 o1 ..."
/// beyond; \p prefix 'o' for outputs, 'k' for kernel taps.
std::vector<std::string> spatialNames(size_t spatial, char prefix);

} // namespace stagecraft::ops::detail
