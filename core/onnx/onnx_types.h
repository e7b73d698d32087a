#pragma once
/// \file
/// Mapping between ONNX TensorProto element types and ir::DType.

#include "ir/dtype.h"

#include <cstdint>

namespace stagecraft::onnxio {

/// ONNX TensorProto_DataType value for \p type (0 = UNDEFINED).
int32_t toOnnxType(ir::DType type);
/// ir::DType of an ONNX element type; Undefined for types Stagecraft lacks.
ir::DType fromOnnxType(int32_t onnxType);

} // namespace stagecraft::onnxio
