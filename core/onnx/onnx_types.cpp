#include "onnx/onnx_types.h"

#include <onnx/onnx_pb.h>

namespace stagecraft::onnxio {

using ir::DType;
using P = onnx::TensorProto;

int32_t toOnnxType(DType type) {
    switch (type) {
    case DType::Float32:
        return P::FLOAT;
    case DType::Float16:
        return P::FLOAT16;
    case DType::BFloat16:
        return P::BFLOAT16;
    case DType::Float64:
        return P::DOUBLE;
    case DType::Int8:
        return P::INT8;
    case DType::Int16:
        return P::INT16;
    case DType::Int32:
        return P::INT32;
    case DType::Int64:
        return P::INT64;
    case DType::UInt8:
        return P::UINT8;
    case DType::UInt16:
        return P::UINT16;
    case DType::UInt32:
        return P::UINT32;
    case DType::UInt64:
        return P::UINT64;
    case DType::Bool:
        return P::BOOL;
    case DType::String:
        return P::STRING;
    case DType::Undefined:
        return P::UNDEFINED;
    }
    return P::UNDEFINED;
}

DType fromOnnxType(int32_t onnxType) {
    switch (onnxType) {
    case P::FLOAT:
        return DType::Float32;
    case P::FLOAT16:
        return DType::Float16;
    case P::BFLOAT16:
        return DType::BFloat16;
    case P::DOUBLE:
        return DType::Float64;
    case P::INT8:
        return DType::Int8;
    case P::INT16:
        return DType::Int16;
    case P::INT32:
        return DType::Int32;
    case P::INT64:
        return DType::Int64;
    case P::UINT8:
        return DType::UInt8;
    case P::UINT16:
        return DType::UInt16;
    case P::UINT32:
        return DType::UInt32;
    case P::UINT64:
        return DType::UInt64;
    case P::BOOL:
        return DType::Bool;
    case P::STRING:
        return DType::String;
    default:
        return DType::Undefined;
    }
}

} // namespace stagecraft::onnxio
