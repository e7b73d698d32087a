// Tensor payloads of ONNX files: inline raw bytes, typed fields, external data.

#include "onnx/internal/tensor_data.h"

#include "onnx/onnx_types.h"
#include "support/file.h"
#include "support/strings.h"

#include <cstring>
#include <optional>
#include <span>
#include <system_error>

namespace stagecraft::onnxio {

namespace {

using ir::DType;
namespace fs = std::filesystem;

/// How many values \p tensor has in the typed field that holds \p dtype, or
/// nullopt when \p dtype has no typed field.
std::optional<int64_t> typedFieldCount(const onnx::TensorProto& tensor, DType dtype) {
    switch (dtype) {
    case DType::Float32:
        return tensor.float_data_size();
    case DType::Float64:
        return tensor.double_data_size();
    case DType::Int64:
        return tensor.int64_data_size();
    case DType::UInt32:
    case DType::UInt64:
        return tensor.uint64_data_size();
    case DType::Float16:
    case DType::BFloat16:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::UInt8:
    case DType::UInt16:
    case DType::Bool:
        return tensor.int32_data_size();
    default:
        return std::nullopt;
    }
}

/// Converts the typed field of \p tensor into \p bytes (sized for it).
void convertTypedField(const onnx::TensorProto& tensor, DType dtype, std::span<std::byte> bytes,
                       int64_t count) {
    for (int64_t i = 0; i < count; ++i) {
        auto at = static_cast<int>(i);
        switch (dtype) {
        case DType::Float32:
            ir::writeDouble(dtype, bytes, i, tensor.float_data(at));
            break;
        case DType::Float64:
            ir::writeDouble(dtype, bytes, i, tensor.double_data(at));
            break;
        case DType::Int64:
            ir::writeInt64(dtype, bytes, i, tensor.int64_data(at));
            break;
        case DType::UInt32:
        case DType::UInt64:
            ir::writeInt64(dtype, bytes, i, static_cast<int64_t>(tensor.uint64_data(at)));
            break;
        case DType::Float16:
        case DType::BFloat16: {
            auto bits = static_cast<uint16_t>(tensor.int32_data(at));
            std::memcpy(bytes.data() + i * 2, &bits, 2);
            break;
        }
        default:
            ir::writeInt64(dtype, bytes, i, tensor.int32_data(at));
            break;
        }
    }
}

/// Bytes of the typed repeated fields (float_data, int64_data…) of \p tensor.
/// The number of values is checked before anything is allocated: a header
/// that claims 2^33 elements and carries none costs nothing.
Expected<std::vector<std::byte>> typedFieldBytes(const onnx::TensorProto& tensor, DType dtype,
                                                 int64_t count, const std::string& what) {
    std::optional<int64_t> have = typedFieldCount(tensor, dtype);
    if (!have)
        return Error(what + ": element type " + std::string(ir::dtypeName(dtype)) +
                     " is not supported for constant data");
    if (*have != count)
        return Error(what + ": has " + std::to_string(*have) + " values for " +
                     std::to_string(count) + " elements");
    std::vector<std::byte> bytes(static_cast<size_t>(count * ir::dtypeSize(dtype)));
    convertTypedField(tensor, dtype, bytes, count);
    return bytes;
}

/// The file an external data \p location names, resolved as the ONNX
/// specification requires: relative to the model's directory and inside it
/// (no absolute path, no '..', no symbolic link leading out), a regular file.
Expected<fs::path> resolveExternalFile(const fs::path& modelDir, const std::string& location,
                                       const std::string& what) {
    std::string shown = what + ": external data location " + quote(printable(location));
    if (location.find('\0') != std::string::npos)
        return Error(shown + " contains a NUL byte");
    fs::path relative(location);
    if (relative.is_absolute())
        return Error(shown + " is absolute; it must be relative to the model's directory");
    for (const fs::path& part : relative)
        if (part == "..")
            return Error(shown + " climbs out of the model's directory ('..')");
    std::error_code ec;
    fs::path dir = fs::canonical(modelDir.empty() ? fs::path(".") : modelDir, ec);
    if (ec)
        return Error(shown + ": cannot resolve the model's directory: " + ec.message());
    fs::path file = fs::canonical(dir / relative, ec);
    if (ec)
        return Error(what + ": external data file " + quote(printable(location)) +
                     " is missing (looked for " + (dir / relative).string() + ")");
    fs::path inside = file.lexically_relative(dir);
    if (inside.empty() || *inside.begin() == "..")
        return Error(shown + " leads out of the model's directory (to " + file.string() + ")");
    SC_RETURN_IF_ERROR(checkRegularFile(file));
    return file;
}

Expected<TensorData> externalData(const onnx::TensorProto& tensor, TensorData result,
                                  const fs::path& modelDir, const std::string& what) {
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
                             quote(printable(entry.value())));
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
    SC_ASSIGN_OR_RETURN(fs::path file, resolveExternalFile(modelDir, location, what));
    std::error_code ec;
    auto size = fs::file_size(file, ec);
    if (ec)
        return Error(what + ": external data file " + quote(printable(location)) +
                     ": cannot read its size: " + ec.message());
    int64_t end = 0;
    if (__builtin_add_overflow(offset, needed, &end) || end > static_cast<int64_t>(size))
        return Error(what + ": external data file " + quote(printable(location)) +
                     " is too short (" + std::to_string(size) + " bytes, the tensor needs " +
                     std::to_string(needed) + " bytes from offset " + std::to_string(offset) + ")");
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
    if (!ir::checkedTensorBytes(count, ir::dtypeSize(result.dtype)))
        return Error(what + ": shape " + ir::formatShape(result.shape) +
                     " is larger than the 1 TiB a tensor may have");
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
