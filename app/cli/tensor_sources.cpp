// The CLI's tensor files: stagecraft-tensors JSON or ONNX TensorProto (.pb),
// one file or a backend test's data set directory; given inputs binding a
// file's open input shapes and offering their values to the importer.

#include "cli/tensor_sources.h"

#include "cli/kernel_build.h"
#include "onnx/tensor_file.h"
#include "support/file.h"

#include <algorithm>
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

std::vector<onnxio::DeclaredInput> declaredInputsOf(const KernelRequest& kernels) {
    if (!kernels.model.zooName.empty() || kernels.session)
        return {};
    auto declared = onnxio::declaredInputs(kernels.model.text);
    return declared.ok() ? std::move(declared).value() : std::vector<onnxio::DeclaredInput>{};
}

std::vector<std::string> inputNames(const std::vector<onnxio::DeclaredInput>& declared) {
    std::vector<std::string> names;
    for (const onnxio::DeclaredInput& input : declared)
        names.push_back(input.name);
    return names;
}

void bindGivenInputs(KernelRequest& kernels, const codegen::TensorSet& given,
                     const std::vector<onnxio::DeclaredInput>& declared) {
    if (!kernels.model.zooName.empty())
        return;
    onnxio::ImportOptions& import = kernels.model.import;
    bool bound = !import.inputShapes.empty() || !import.dims.empty() || kernels.session;
    constexpr int64_t kValueLimitBytes = 1 << 20;
    for (const codegen::HostTensor& t : given) {
        auto input = std::find_if(declared.begin(), declared.end(),
                                  [&](const auto& d) { return d.name == t.name; });
        bool open = input != declared.end() &&
                    (!input->hasShape || std::any_of(input->dims.begin(), input->dims.end(),
                                                     [](const auto& d) { return !d.fixed(); }));
        if (!bound && open)
            import.inputShapes[t.name] = t.shape;
        if (static_cast<int64_t>(t.data.size()) <= kValueLimitBytes)
            import.inputValues[t.name] = ir::ConstTensor(t.dtype, t.shape, t.data);
    }
}

void applyBoundValues(codegen::TensorSet& tensors,
                      const std::map<std::string, ir::ConstTensor>& bound) {
    for (const auto& [name, value] : bound) {
        auto bytes = value.bytes();
        codegen::HostTensor given{name, value.dtype(), value.shape(),
                                  std::vector<std::byte>(bytes.begin(), bytes.end())};
        auto it = std::find_if(tensors.begin(), tensors.end(),
                               [&](const codegen::HostTensor& t) { return t.name == name; });
        if (it == tensors.end())
            tensors.push_back(std::move(given));
        else
            *it = std::move(given);
    }
}

void readBFloat16Bits(codegen::TensorSet& tensors, const ir::Graph& graph,
                      const std::vector<ir::TensorId>& ids) {
    for (ir::TensorId id : ids) {
        const ir::Tensor& t = graph.tensor(id);
        for (codegen::HostTensor& r : tensors)
            if (r.name == t.name && t.dtype == ir::DType::BFloat16 && r.dtype == ir::DType::UInt16)
                r.dtype = ir::DType::BFloat16;
    }
}

} // namespace stagecraft::cli
