#include "ir/dtype.h"

#include <array>

namespace stagecraft::ir {

namespace {

struct DTypeInfo {
    DType type;
    std::string_view name;
    int64_t size;
};

constexpr std::array<DTypeInfo, 15> kInfos{{
    {DType::Undefined, "undefined", 0},
    {DType::Float32, "f32", 4},
    {DType::Float16, "f16", 2},
    {DType::BFloat16, "bf16", 2},
    {DType::Float64, "f64", 8},
    {DType::Int8, "i8", 1},
    {DType::Int16, "i16", 2},
    {DType::Int32, "i32", 4},
    {DType::Int64, "i64", 8},
    {DType::UInt8, "u8", 1},
    {DType::UInt16, "u16", 2},
    {DType::UInt32, "u32", 4},
    {DType::UInt64, "u64", 8},
    {DType::Bool, "bool", 1},
    {DType::String, "string", 0},
}};

const DTypeInfo& info(DType type) {
    return kInfos[static_cast<size_t>(type)];
}

} // namespace

int64_t dtypeSize(DType type) {
    return info(type).size;
}

std::string_view dtypeName(DType type) {
    return info(type).name;
}

std::optional<DType> parseDType(std::string_view name) {
    for (const auto& entry : kInfos)
        if (entry.name == name)
            return entry.type;
    return std::nullopt;
}

bool isFloatingPoint(DType type) {
    return type == DType::Float32 || type == DType::Float16 || type == DType::BFloat16 ||
           type == DType::Float64;
}

bool isInteger(DType type) {
    switch (type) {
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64:
        return true;
    default:
        return false;
    }
}

} // namespace stagecraft::ir
