// Tensor payloads of ONNX files: inline raw bytes, typed fields, external data.

#include "onnx/tensor_data.h"

#include "onnx/onnx_types.h"
#include "support/strings.h"

#include <cstring>
#include <system_error>

namespace stagecraft::onnxio {

namespace {

using ir::DType;

/// Bytes of the typed repeated fields (float_data, int64_data…) of \p tensor.
Expected<std::vector<std::byte>> typedFieldBytes(const onnx::TensorProto& tensor, DType dtype,
                                                 int64_t count, const std::string& what) {
    std::vector<std::byte> bytes(static_cast<size_t>(count * ir::dtypeSize(dtype)));
    auto check = [&](int64_t have) -> Status {
        if (have != count)
            return Error(what + ": has " + std::to_string(have) + " values for " +
                         std::to_string(count) + " elements");
        return Status::success();
    };
    switch (dtype) {
    case DType::Float32:
        SC_RETURN_IF_ERROR(check(tensor.float_data_size()));
        for (int64_t i = 0; i < count; ++i)
            ir::writeDouble(dtype, bytes, i, tensor.float_data(static_cast<int>(i)));
        return bytes;
    case DType::Float64:
        SC_RETURN_IF_ERROR(check(tensor.double_data_size()));
        for (int64_t i = 0; i < count; ++i)
            ir::writeDouble(dtype, bytes, i, tensor.double_data(static_cast<int>(i)));
        return bytes;
    case DType::Int64:
        SC_RETURN_IF_ERROR(check(tensor.int64_data_size()));
        for (int64_t i = 0; i < count; ++i)
            ir::writeInt64(dtype, bytes, i, tensor.int64_data(static_cast<int>(i)));
        return bytes;
    case DType::UInt32:
    case DType::UInt64:
        SC_RETURN_IF_ERROR(check(tensor.uint64_data_size()));
        for (int64_t i = 0; i < count; ++i)
            ir::writeInt64(dtype, bytes, i,
                           static_cast<int64_t>(tensor.uint64_data(static_cast<int>(i))));
        return bytes;
    case DType::Float16:
    case DType::BFloat16:
        SC_RETURN_IF_ERROR(check(tensor.int32_data_size()));
        for (int64_t i = 0; i < count; ++i) {
            auto bits = static_cast<uint16_t>(tensor.int32_data(static_cast<int>(i)));
            std::memcpy(bytes.data() + i * 2, &bits, 2);
        }
        return bytes;
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::UInt8:
    case DType::UInt16:
    case DType::Bool:
        SC_RETURN_IF_ERROR(check(tensor.int32_data_size()));
        for (int64_t i = 0; i < count; ++i)
            ir::writeInt64(dtype, bytes, i, tensor.int32_data(static_cast<int>(i)));
        return bytes;
    default:
        return Error(what + ": element type " + std::string(ir::dtypeName(dtype)) +
                     " is not supported for constant data");
    }
}

Expected<TensorData> externalData(const onnx::TensorProto& tensor, TensorData result,
                                  const std::filesystem::path& modelDir, const std::string& what) {
    std::string location;
    int64_t offset = 0;
    int64_t length = -1;
    for (const auto& entry : tensor.external_data()) {
        if (entry.key() == "location") {
            location = entry.value();
        } else if (entry.key() == "offset" || entry.key() == "length") {
            auto value = parseInt(entry.value());
            if (!value || *value < 0)
                return Error(what + ": bad external data " + entry.key() + " " +
                             quote(entry.value()));
            (entry.key() == "offset" ? offset : length) = *value;
        }
    }
    if (location.empty())
        return Error(what + ": external data without a location");
    int64_t needed = ir::elementCount(result.shape) * ir::dtypeSize(result.dtype);
    if (length >= 0 && length != needed)
        return Error(what + ": external data length " + std::to_string(length) +
                     " does not match " + std::to_string(needed) + " bytes of " +
                     ir::formatShape(result.shape));
    std::filesystem::path file = modelDir / location;
    std::error_code ec;
    auto size = std::filesystem::file_size(file, ec);
    if (ec)
        return Error(what + ": external data file " + quote(location) + " is missing (looked for " +
                     file.string() + ")");
    if (offset + needed > static_cast<int64_t>(size))
        return Error(what + ": external data file " + quote(location) + " is too short (" +
                     std::to_string(size) + " bytes, the tensor needs bytes " +
                     std::to_string(offset) + " to " + std::to_string(offset + needed) + ")");
    result.data = ir::makeExternalWeight(file, offset, needed);
    return result;
}

Expected<TensorData> header(const onnx::TensorProto& tensor, const std::string& what) {
    TensorData result;
    result.dtype = fromOnnxType(tensor.data_type());
    if (result.dtype == DType::Undefined || result.dtype == DType::String)
        return Error(what + ": unsupported element type " + std::to_string(tensor.data_type()));
    for (int64_t dim : tensor.dims()) {
        if (dim < 0)
            return Error(what + ": negative dimension " + std::to_string(dim));
        result.shape.push_back(dim);
    }
    auto count = ir::checkedElementCount(result.shape);
    int64_t bytes = 0;
    if (!count || __builtin_mul_overflow(*count, ir::dtypeSize(result.dtype), &bytes))
        return Error(what + ": shape " + ir::formatShape(result.shape) + " is too large");
    return result;
}

} // namespace

Expected<TensorData> takeTensorData(onnx::TensorProto& tensor,
                                    const std::filesystem::path& modelDir,
                                    const std::string& what) {
    SC_ASSIGN_OR_RETURN(TensorData result, header(tensor, what));
    if (tensor.data_location() == onnx::TensorProto::EXTERNAL)
        return externalData(tensor, std::move(result), modelDir, what);
    int64_t count = ir::elementCount(result.shape);
    int64_t needed = count * ir::dtypeSize(result.dtype);
    if (tensor.has_raw_data()) {
        if (static_cast<int64_t>(tensor.raw_data().size()) != needed)
            return Error(what + ": has " + std::to_string(tensor.raw_data().size()) +
                         " bytes of data for " + std::to_string(needed) + " bytes of " +
                         ir::formatShape(result.shape));
        result.data = ir::makeInlineWeight(std::move(*tensor.mutable_raw_data()));
        return result;
    }
    SC_ASSIGN_OR_RETURN(auto bytes, typedFieldBytes(tensor, result.dtype, count, what));
    result.data = ir::makeInlineWeight(std::move(bytes));
    return result;
}

Expected<ir::ConstTensor> toConstTensor(const onnx::TensorProto& tensor, const std::string& what) {
    if (tensor.data_location() == onnx::TensorProto::EXTERNAL)
        return Error(what + ": external data is not allowed here");
    onnx::TensorProto copy = tensor;
    SC_ASSIGN_OR_RETURN(TensorData data, takeTensorData(copy, {}, what));
    SC_ASSIGN_OR_RETURN(auto bytes, data.data->bytes());
    return ir::ConstTensor(data.dtype, data.shape,
                           std::vector<std::byte>(bytes.begin(), bytes.end()));
}

} // namespace stagecraft::onnxio
