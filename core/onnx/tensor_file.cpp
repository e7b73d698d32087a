// ONNX TensorProto files (the backend tests' input_K.pb / output_K.pb).

#include "onnx/tensor_file.h"

#include "onnx/internal/tensor_data.h"
#include "support/file.h"

#include <onnx/onnx_pb.h>

#include <system_error>

namespace stagecraft::onnxio {

namespace fs = std::filesystem;

Expected<NamedTensor> readTensorProtoFile(const fs::path& file) {
    SC_ASSIGN_OR_RETURN(std::string bytes, readFile(file));
    onnx::TensorProto proto;
    if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        return Error(file.string() + ": not an ONNX TensorProto file");
    if (proto.data_type() == onnx::TensorProto::STRING)
        return Error(file.string() + ": holds strings, which Stagecraft's kernels do not take");
    std::string what = file.string() + (proto.name().empty() ? "" : " (" + proto.name() + ")");
    SC_ASSIGN_OR_RETURN(ir::ConstTensor value, toConstTensor(proto, what));
    return NamedTensor{proto.name(), std::move(value)};
}

Expected<std::vector<NamedTensor>> readTensorProtoDir(const fs::path& dir,
                                                      std::string_view prefix) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return Error(dir.string() + ": not a directory");
    std::vector<NamedTensor> tensors;
    for (int k = 0;; ++k) {
        fs::path file = dir / (std::string(prefix) + "_" + std::to_string(k) + ".pb");
        if (!fs::exists(file, ec))
            break;
        SC_ASSIGN_OR_RETURN(NamedTensor t, readTensorProtoFile(file));
        tensors.push_back(std::move(t));
    }
    if (tensors.empty())
        return Error(dir.string() + ": has no " + std::string(prefix) + "_0.pb");
    return tensors;
}

} // namespace stagecraft::onnxio
