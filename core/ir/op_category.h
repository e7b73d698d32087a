#pragma once
/// \file
/// Op categories, after TVM §3's patterns: elementwise and injective ops
/// (the fusable "elementwise/injective" class), reductions, complex ops
/// (Conv, ConvTranspose, MatMul, Gemm) and opaque ops (scheduled alone).
/// One enum for what an op is (ops::categoryOf) and what a compute unit of
/// an architecture runs (arch::ComputeUnit::categories).

#include <optional>
#include <span>
#include <string_view>

namespace stagecraft::ir {

enum class OpCategory { Elementwise, Injective, Reduction, Complex, Opaque };

/// Every category, in canonical order (the enum's).
std::span<const OpCategory> opCategories();

/// "elementwise", "injective", "reduction", "complex", "opaque".
std::string_view opCategoryName(OpCategory category);

/// The category named \p name, if any.
std::optional<OpCategory> parseOpCategory(std::string_view name);

} // namespace stagecraft::ir
