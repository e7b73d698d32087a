#pragma once
/// \file
/// A small tensor value owned in memory: attribute payloads (ConstantOfShape's
/// value) and the results of constant folding. Weights are not ConstTensors;
/// they stay lazy (see weight.h) until someone asks for their bytes.

#include "ir/dtype.h"
#include "ir/shape.h"

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace stagecraft::ir {

class ConstTensor {
public:
    ConstTensor() = default;
    /// \p bytes must hold elementCount(shape) * dtypeSize(dtype) bytes.
    ConstTensor(DType dtype, Shape shape, std::vector<std::byte> bytes);

    static ConstTensor fromInt64s(DType dtype, Shape shape, std::span<const int64_t> values);
    static ConstTensor fromDoubles(DType dtype, Shape shape, std::span<const double> values);

    DType dtype() const { return dtype_; }
    const Shape& shape() const { return shape_; }
    int64_t elementCount() const { return ir::elementCount(shape_); }
    std::span<const std::byte> bytes() const { return bytes_; }

    /// Elements converted to int64 (floats truncate toward zero).
    std::vector<int64_t> toInt64s() const;
    /// Elements converted to double.
    std::vector<double> toDoubles() const;

    bool operator==(const ConstTensor& other) const = default;

private:
    DType dtype_ = DType::Undefined;
    Shape shape_;
    std::vector<std::byte> bytes_;
};

/// Reads element \p index of raw \p bytes of type \p dtype as int64 / double.
int64_t readInt64(DType dtype, std::span<const std::byte> bytes, int64_t index);
double readDouble(DType dtype, std::span<const std::byte> bytes, int64_t index);

/// Writes \p value as element \p index of type \p dtype into \p bytes.
void writeInt64(DType dtype, std::span<std::byte> bytes, int64_t index, int64_t value);
void writeDouble(DType dtype, std::span<std::byte> bytes, int64_t index, double value);

/// IEEE half / bfloat16 conversions.
float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);
float bfloat16ToFloat(uint16_t bits);
uint16_t floatToBFloat16(float value);

} // namespace stagecraft::ir
