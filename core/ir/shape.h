#pragma once
/// \file
/// Static tensor shapes. Every tensor in an imported graph has one: dynamic
/// dimensions are bound at import time.

#include "support/expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::ir {

using Shape = std::vector<int64_t>;

/// Product of the dimensions (1 for a scalar).
int64_t elementCount(const Shape& shape);

/// Element count, or nullopt when a dimension is negative or the product
/// overflows int64 (shapes from files are untrusted).
std::optional<int64_t> checkedElementCount(const Shape& shape);

/// The largest tensor a graph may hold: 2^40 bytes (1 TiB). Larger shapes
/// are refused at import, so that byte counts of schedules and simulations
/// (a tensor's bytes times cores, instances, tasks) cannot overflow int64.
inline constexpr int64_t kMaxTensorBytes = int64_t{1} << 40;

/// Bytes of \p elementCount elements of \p elementBytes each, or nullopt
/// when that is more than kMaxTensorBytes (or a count is negative).
std::optional<int64_t> checkedTensorBytes(std::optional<int64_t> elementCount,
                                          int64_t elementBytes);

/// "1x3x224x224"; "scalar" for rank 0.
std::string formatShape(const Shape& shape);

/// Parses "1x3x224x224" (also accepts ',' as separator); every dimension >= 0.
Expected<Shape> parseShape(std::string_view text);

/// Row-major strides of \p shape, in elements.
std::vector<int64_t> rowMajorStrides(const Shape& shape);

} // namespace stagecraft::ir
