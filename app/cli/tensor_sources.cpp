// The CLI's tensor files: stagecraft-tensors JSON or ONNX TensorProto (.pb),
// one file or a backend test's data set directory.

#include "cli/tensor_sources.h"

#include "onnx/tensor_file.h"
#include "support/file.h"

#include <filesystem>
#include <system_error>

namespace stagecraft::cli {

namespace fs = std::filesystem;

namespace {

codegen::HostTensor toHost(onnxio::NamedTensor t) {
    auto bytes = t.value.bytes();
    return {std::move(t.name), t.value.dtype(), t.value.shape(),
            std::vector<std::byte>(bytes.begin(), bytes.end())};
}

Expected<codegen::TensorSet> fromProtos(std::vector<onnxio::NamedTensor> protos,
                                        const std::string& path,
                                        const std::vector<std::string>& positional) {
    codegen::TensorSet set;
    for (size_t i = 0; i < protos.size(); ++i) {
        codegen::HostTensor t = toHost(std::move(protos[i]));
        if (t.name.empty()) {
            if (i >= positional.size())
                return Error(path + ": tensor " + std::to_string(i) +
                             " has no name and the model has only " +
                             std::to_string(positional.size()) + " to give it");
            t.name = positional[i];
        }
        if (codegen::findTensor(set, t.name) != nullptr)
            return Error(path + ": tensor '" + t.name + "' appears twice");
        set.push_back(std::move(t));
    }
    return set;
}

} // namespace

Expected<codegen::TensorSet> readTensorSource(const std::string& path, std::string_view prefix,
                                              const std::vector<std::string>& positional) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        SC_ASSIGN_OR_RETURN(auto protos, onnxio::readTensorProtoDir(path, prefix));
        return fromProtos(std::move(protos), path, positional);
    }
    if (fs::path(path).extension() == ".pb") {
        SC_ASSIGN_OR_RETURN(onnxio::NamedTensor one, onnxio::readTensorProtoFile(path));
        std::vector<onnxio::NamedTensor> protos;
        protos.push_back(std::move(one));
        return fromProtos(std::move(protos), path, positional);
    }
    SC_ASSIGN_OR_RETURN(std::string text, readFile(path));
    return codegen::readTensorsJson(text, path);
}

} // namespace stagecraft::cli
