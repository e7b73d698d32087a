#pragma once
// Internal to core/onnx: ONNX TensorProto payloads as lazy weights.

#include "ir/const_tensor.h"
#include "ir/weight.h"
#include "support/expected.h"

#include <onnx/onnx_pb.h>

#include <filesystem>
#include <string>

namespace stagecraft::onnxio {

struct TensorData {
    ir::DType dtype = ir::DType::Undefined;
    ir::Shape shape;
    ir::WeightPtr data;
};

/// The payload of \p tensor as a lazy weight: raw bytes are moved out of the
/// proto (not copied), typed fields converted, external data referenced (the
/// file must exist and be long enough; nothing is read). \p what names the
/// tensor in messages.
Expected<TensorData> takeTensorData(onnx::TensorProto& tensor,
                                    const std::filesystem::path& modelDir, const std::string& what);

/// A small tensor (attribute payloads) copied into memory.
Expected<ir::ConstTensor> toConstTensor(const onnx::TensorProto& tensor, const std::string& what);

} // namespace stagecraft::onnxio
