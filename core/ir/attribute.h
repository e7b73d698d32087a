#pragma once
/// \file
/// Op attributes: a small name-sorted list of typed values. The importer
/// writes attributes in their canonical form (docs/ir.md), whatever the opset
/// of the source file, so later stages never look at opset versions.

#include "ir/const_tensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace stagecraft::ir {

using AttrValue = std::variant<int64_t, double, std::string, std::vector<int64_t>,
                               std::vector<double>, std::vector<std::string>, ConstTensor>;

class Attributes {
public:
    void set(std::string name, AttrValue value);
    void erase(std::string_view name);
    bool has(std::string_view name) const { return find(name) != nullptr; }
    const AttrValue* find(std::string_view name) const;

    /// Typed reads with a default when the attribute is absent. A present
    /// attribute of another type is an internal error (the importer checks
    /// types when it canonicalizes).
    int64_t getInt(std::string_view name, int64_t fallback) const;
    double getFloat(std::string_view name, double fallback) const;
    std::string getString(std::string_view name, std::string_view fallback) const;
    std::vector<int64_t> getInts(std::string_view name, std::vector<int64_t> fallback = {}) const;
    std::vector<double> getFloats(std::string_view name, std::vector<double> fallback = {}) const;
    const ConstTensor* getTensor(std::string_view name) const;

    const std::vector<std::pair<std::string, AttrValue>>& entries() const { return entries_; }
    bool operator==(const Attributes& other) const = default;

private:
    std::vector<std::pair<std::string, AttrValue>> entries_; // sorted by name
};

/// Renders a value for reports: 3, 0.5, "same", [1,2], tensor<i64 2>.
std::string formatAttrValue(const AttrValue& value);

} // namespace stagecraft::ir
