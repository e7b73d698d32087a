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

/// "1x3x224x224"; "scalar" for rank 0.
std::string formatShape(const Shape& shape);

/// Parses "1x3x224x224" (also accepts ',' as separator); every dimension >= 0.
Expected<Shape> parseShape(std::string_view text);

/// Row-major strides of \p shape, in elements.
std::vector<int64_t> rowMajorStrides(const Shape& shape);

} // namespace stagecraft::ir
