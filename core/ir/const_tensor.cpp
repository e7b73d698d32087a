#include "ir/const_tensor.h"

#include "support/expected.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace stagecraft::ir {

namespace {

template <class T>
T load(std::span<const std::byte> bytes, int64_t index) {
    T value;
    std::memcpy(&value, bytes.data() + index * static_cast<int64_t>(sizeof(T)), sizeof(T));
    return value;
}

/// \p value rounded toward zero into int64, saturating (NaN is 0): a
/// float-to-integer cast of an out-of-range value is undefined behaviour.
int64_t saturatingInt64(double value) {
    if (std::isnan(value))
        return 0;
    if (value >= 0x1p63)
        return INT64_MAX;
    if (value < -0x1p63)
        return INT64_MIN;
    return static_cast<int64_t>(value);
}

template <class T>
void store(std::span<std::byte> bytes, int64_t index, T value) {
    std::memcpy(bytes.data() + index * static_cast<int64_t>(sizeof(T)), &value, sizeof(T));
}

} // namespace

float halfToFloat(uint16_t bits) {
    uint32_t sign = (bits & 0x8000u) << 16;
    uint32_t exponent = (bits >> 10) & 0x1fu;
    uint32_t mantissa = bits & 0x3ffu;
    if (exponent == 0) {
        float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 31)
        return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t floatToHalf(float value) {
    uint32_t bits = std::bit_cast<uint32_t>(value);
    auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
    int exponent = static_cast<int>((bits >> 23) & 0xffu) - 127 + 15;
    uint32_t mantissa = bits & 0x7fffffu;
    if (((bits >> 23) & 0xffu) == 0xffu) // inf or nan
        return static_cast<uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u : 0u));
    if (exponent >= 31)
        return static_cast<uint16_t>(sign | 0x7c00u);
    if (exponent <= 0) {
        if (exponent < -10)
            return sign;
        mantissa |= 0x800000u;
        auto shift = static_cast<uint32_t>(14 - exponent);
        uint32_t half = mantissa >> shift;
        uint32_t rest = mantissa & ((1u << shift) - 1);
        uint32_t halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (half & 1u)))
            ++half;
        return static_cast<uint16_t>(sign | half);
    }
    uint32_t half = (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
    uint32_t rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
        ++half;
    return static_cast<uint16_t>(sign | half);
}

float bfloat16ToFloat(uint16_t bits) {
    return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

uint16_t floatToBFloat16(float value) {
    uint32_t bits = std::bit_cast<uint32_t>(value);
    if (std::isnan(value))
        return static_cast<uint16_t>((bits >> 16) | 0x40u);
    uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
    return static_cast<uint16_t>((bits + rounding) >> 16);
}

int64_t readInt64(DType dtype, std::span<const std::byte> bytes, int64_t index) {
    switch (dtype) {
    case DType::Int8:
        return load<int8_t>(bytes, index);
    case DType::Int16:
        return load<int16_t>(bytes, index);
    case DType::Int32:
        return load<int32_t>(bytes, index);
    case DType::Int64:
        return load<int64_t>(bytes, index);
    case DType::UInt8:
        return load<uint8_t>(bytes, index);
    case DType::UInt16:
        return load<uint16_t>(bytes, index);
    case DType::UInt32:
        return load<uint32_t>(bytes, index);
    case DType::UInt64:
        return static_cast<int64_t>(load<uint64_t>(bytes, index));
    case DType::Bool:
        return load<uint8_t>(bytes, index) != 0 ? 1 : 0;
    default:
        SC_ASSERT(isFloatingPoint(dtype), "readInt64 of an element type without numbers");
        return saturatingInt64(readDouble(dtype, bytes, index));
    }
}

double readDouble(DType dtype, std::span<const std::byte> bytes, int64_t index) {
    switch (dtype) {
    case DType::Float32:
        return load<float>(bytes, index);
    case DType::Float64:
        return load<double>(bytes, index);
    case DType::Float16:
        return halfToFloat(load<uint16_t>(bytes, index));
    case DType::BFloat16:
        return bfloat16ToFloat(load<uint16_t>(bytes, index));
    case DType::UInt64:
        return static_cast<double>(load<uint64_t>(bytes, index));
    default:
        SC_ASSERT(isInteger(dtype) || dtype == DType::Bool,
                  "readDouble of an element type without numbers");
        return static_cast<double>(readInt64(dtype, bytes, index));
    }
}

void writeInt64(DType dtype, std::span<std::byte> bytes, int64_t index, int64_t value) {
    switch (dtype) {
    case DType::Int8:
        store(bytes, index, static_cast<int8_t>(value));
        return;
    case DType::Int16:
        store(bytes, index, static_cast<int16_t>(value));
        return;
    case DType::Int32:
        store(bytes, index, static_cast<int32_t>(value));
        return;
    case DType::Int64:
        store(bytes, index, value);
        return;
    case DType::UInt8:
        store(bytes, index, static_cast<uint8_t>(value));
        return;
    case DType::UInt16:
        store(bytes, index, static_cast<uint16_t>(value));
        return;
    case DType::UInt32:
        store(bytes, index, static_cast<uint32_t>(value));
        return;
    case DType::UInt64:
        store(bytes, index, static_cast<uint64_t>(value));
        return;
    case DType::Bool:
        store(bytes, index, static_cast<uint8_t>(value != 0));
        return;
    default:
        SC_ASSERT(isFloatingPoint(dtype), "writeInt64 to an element type without numbers");
        writeDouble(dtype, bytes, index, static_cast<double>(value));
        return;
    }
}

void writeDouble(DType dtype, std::span<std::byte> bytes, int64_t index, double value) {
    switch (dtype) {
    case DType::Float32:
        store(bytes, index, static_cast<float>(value));
        return;
    case DType::Float64:
        store(bytes, index, value);
        return;
    case DType::Float16:
        store(bytes, index, floatToHalf(static_cast<float>(value)));
        return;
    case DType::BFloat16:
        store(bytes, index, floatToBFloat16(static_cast<float>(value)));
        return;
    case DType::Bool:
        store(bytes, index, static_cast<uint8_t>(value != 0.0));
        return;
    default:
        SC_ASSERT(isInteger(dtype), "writeDouble to an element type without numbers");
        writeInt64(dtype, bytes, index, saturatingInt64(value));
        return;
    }
}

ConstTensor::ConstTensor(DType dtype, Shape shape, std::vector<std::byte> bytes)
    : dtype_(dtype)
    , shape_(std::move(shape))
    , bytes_(std::move(bytes)) {
    SC_ASSERT(static_cast<int64_t>(bytes_.size()) == ir::elementCount(shape_) * dtypeSize(dtype_),
              "constant tensor byte size does not match its shape");
}

ConstTensor ConstTensor::fromInt64s(DType dtype, Shape shape, std::span<const int64_t> values) {
    std::vector<std::byte> bytes(values.size() * static_cast<size_t>(dtypeSize(dtype)));
    for (size_t i = 0; i < values.size(); ++i)
        writeInt64(dtype, bytes, static_cast<int64_t>(i), values[i]);
    return ConstTensor(dtype, std::move(shape), std::move(bytes));
}

ConstTensor ConstTensor::fromDoubles(DType dtype, Shape shape, std::span<const double> values) {
    std::vector<std::byte> bytes(values.size() * static_cast<size_t>(dtypeSize(dtype)));
    for (size_t i = 0; i < values.size(); ++i)
        writeDouble(dtype, bytes, static_cast<int64_t>(i), values[i]);
    return ConstTensor(dtype, std::move(shape), std::move(bytes));
}

std::vector<int64_t> ConstTensor::toInt64s() const {
    std::vector<int64_t> values(static_cast<size_t>(elementCount()));
    for (size_t i = 0; i < values.size(); ++i)
        values[i] = readInt64(dtype_, bytes_, static_cast<int64_t>(i));
    return values;
}

std::vector<double> ConstTensor::toDoubles() const {
    std::vector<double> values(static_cast<size_t>(elementCount()));
    for (size_t i = 0; i < values.size(); ++i)
        values[i] = readDouble(dtype_, bytes_, static_cast<int64_t>(i));
    return values;
}

} // namespace stagecraft::ir
