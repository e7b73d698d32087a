// Reading the declared graph inputs straight from the protobuf, as the
// importer's binding step sees them (onnx/bindings.cpp): a dim with a value
// >= 0 is fixed, one with a non-empty dim_param is symbolic, anything else
// is unknown. Initializers listed as graph inputs (older exporters do that)
// are weights, not inputs, and are left out.

#include "onnx/declared_inputs.h"

#include "onnx/onnx_types.h"
#include "support/file.h"

#include <onnx/onnx_pb.h>

#include <limits>
#include <set>

namespace stagecraft::onnxio {

namespace {

Expected<onnx::ModelProto> parseModel(const std::filesystem::path& path) {
    SC_ASSIGN_OR_RETURN(auto file, MappedFile::open(path));
    auto bytes = file->bytes();
    auto fail = [&](const std::string& message) {
        return Error(path.string() + ": " + message);
    };
    if (bytes.empty())
        return fail("empty file, not an ONNX model");
    if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()))
        return fail("larger than 2 GiB; store the weights as external data");
    onnx::ModelProto model;
    if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        return fail("cannot parse the ONNX protobuf (not an ONNX model, or truncated)");
    if (!model.has_graph())
        return fail("not an ONNX model (no graph)");
    return model;
}

DeclaredInput declared(const onnx::ValueInfoProto& input) {
    DeclaredInput result;
    result.name = input.name();
    const auto& type = input.type().tensor_type();
    result.dtype = std::string(ir::dtypeName(fromOnnxType(type.elem_type())));
    result.hasShape = type.has_shape();
    for (const auto& dim : type.shape().dim()) {
        DeclaredDim d;
        if (dim.has_dim_value() && dim.dim_value() >= 0)
            d.value = dim.dim_value();
        else if (dim.has_dim_param())
            d.param = dim.dim_param();
        result.dims.push_back(std::move(d));
    }
    return result;
}

} // namespace

Expected<std::vector<DeclaredInput>> declaredInputs(const std::filesystem::path& path) {
    SC_ASSIGN_OR_RETURN(onnx::ModelProto model, parseModel(path));
    std::set<std::string> initializers;
    for (const auto& tensor : model.graph().initializer())
        initializers.insert(tensor.name());
    std::vector<DeclaredInput> inputs;
    for (const auto& input : model.graph().input())
        if (!initializers.count(input.name()))
            inputs.push_back(declared(input));
    return inputs;
}

bool needsBinding(const std::vector<DeclaredInput>& inputs) {
    for (const DeclaredInput& input : inputs) {
        if (!input.hasShape)
            return true;
        for (const DeclaredDim& dim : input.dims)
            if (!dim.fixed())
                return true;
    }
    return false;
}

} // namespace stagecraft::onnxio
