#pragma once
/// \file
/// Element types of tensors.

#include <cstdint>
#include <optional>
#include <string_view>

namespace stagecraft::ir {

enum class DType : uint8_t {
    Undefined,
    Float32,
    Float16,
    BFloat16,
    Float64,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Bool,
    String,
};

/// Bytes per element; 0 for Undefined and String.
int64_t dtypeSize(DType type);

/// Short name used in reports and documents: "f32", "i64", "bool"…
std::string_view dtypeName(DType type);

/// Inverse of dtypeName.
std::optional<DType> parseDType(std::string_view name);

bool isFloatingPoint(DType type);
bool isInteger(DType type);

} // namespace stagecraft::ir
