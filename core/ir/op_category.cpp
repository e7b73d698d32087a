#include "ir/op_category.h"

#include <array>

namespace stagecraft::ir {

namespace {

constexpr std::array kCategories{OpCategory::Elementwise, OpCategory::Injective,
                                 OpCategory::Reduction, OpCategory::Complex, OpCategory::Opaque};
constexpr std::array<std::string_view, kCategories.size()> kNames{"elementwise", "injective",
                                                                  "reduction", "complex", "opaque"};

} // namespace

std::span<const OpCategory> opCategories() {
    return kCategories;
}

std::string_view opCategoryName(OpCategory category) {
    return kNames[static_cast<size_t>(category)];
}

std::optional<OpCategory> parseOpCategory(std::string_view name) {
    for (OpCategory category : kCategories)
        if (opCategoryName(category) == name)
            return category;
    return std::nullopt;
}

} // namespace stagecraft::ir
