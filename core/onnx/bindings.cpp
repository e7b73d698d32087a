// Binding dynamic input dimensions: `--input name:1x3x224x224` gives a whole
// shape, `--dim name=8` a symbolic dimension. Every graph input must end up
// static; a binding that matches nothing is an error (usually a typo).

#include "onnx/internal/bindings.h"

#include "support/strings.h"

#include <algorithm>
#include <set>

namespace stagecraft::onnxio {

namespace {

struct DeclaredDim {
    int64_t value = -1; // >= 0 when fixed
    std::string param;  // symbolic name, if any
};

std::vector<DeclaredDim> declaredDims(const onnx::ValueInfoProto& input) {
    std::vector<DeclaredDim> dims;
    const auto& type = input.type().tensor_type();
    if (!type.has_shape())
        return dims;
    for (const auto& dim : type.shape().dim()) {
        DeclaredDim d;
        if (dim.has_dim_value() && dim.dim_value() >= 0)
            d.value = dim.dim_value();
        else if (dim.has_dim_param())
            d.param = dim.dim_param();
        dims.push_back(d);
    }
    return dims;
}

std::string describe(const std::vector<DeclaredDim>& dims, bool forFlag) {
    if (dims.empty())
        return forFlag ? "N" : "unknown";
    std::string text;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i > 0)
            text += 'x';
        text += dims[i].value >= 0 ? std::to_string(dims[i].value) : (forFlag ? "N" : "?");
    }
    return text;
}

Expected<ir::Shape> checkWholeShape(const ImportSession& session, const std::string& name,
                                    const std::vector<DeclaredDim>& dims, const ir::Shape& given,
                                    bool shapeDeclared) {
    if (shapeDeclared && given.size() != dims.size())
        return session.error("--input " + name + ":" + ir::formatShape(given) + " has rank " +
                             std::to_string(given.size()) + " but input " + quote(name) +
                             " has rank " + std::to_string(dims.size()) + " (" +
                             describe(dims, false) + ")");
    for (size_t i = 0; i < dims.size() && shapeDeclared; ++i) {
        if (dims[i].value >= 0 && dims[i].value != given[i])
            return session.error("--input " + name + ":" + ir::formatShape(given) +
                                 " sets dimension " + std::to_string(i) + " to " +
                                 std::to_string(given[i]) + " but the model fixes it to " +
                                 std::to_string(dims[i].value));
        auto bound = session.options.dims.find(dims[i].param);
        if (!dims[i].param.empty() && bound != session.options.dims.end() &&
            bound->second != given[i])
            return session.error("--input " + name + ":" + ir::formatShape(given) +
                                 " sets dimension " + std::to_string(i) + " (" +
                                 quote(dims[i].param) + ") to " + std::to_string(given[i]) +
                                 " but --dim " + dims[i].param + "=" +
                                 std::to_string(bound->second));
    }
    return given;
}

/// Every dynamic dimension of input \p name left unbound, in one message.
std::string unboundMessage(const std::string& name, const std::vector<DeclaredDim>& dims,
                           const std::vector<std::string>& unbound) {
    std::vector<std::string> quoted, flags;
    for (const std::string& param : unbound) {
        quoted.push_back(quote(param));
        flags.push_back("--dim " + param + "=N");
    }
    return "input " + quote(name) + " has unbound dynamic dimension" +
           (unbound.size() == 1 ? " " : "s ") + join(quoted, ", ") + " (shape " +
           describe(dims, false) + "): pass " + join(flags, " ") + " or --input " + name + ":" +
           describe(dims, true) + " with numbers for N";
}

} // namespace

Expected<ir::Shape> bindInputShape(const ImportSession& session,
                                   const onnx::ValueInfoProto& input) {
    const std::string& name = input.name();
    std::vector<DeclaredDim> dims = declaredDims(input);
    bool shapeDeclared = input.type().tensor_type().has_shape();
    if (auto given = session.options.inputShapes.find(name);
        given != session.options.inputShapes.end())
        return checkWholeShape(session, name, dims, given->second, shapeDeclared);
    if (!shapeDeclared)
        return session.error("input " + quote(name) +
                             " declares no shape: pass its shape with --input " + name +
                             ":1x3x224x224");
    ir::Shape shape;
    std::vector<std::string> unbound;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (dims[i].value >= 0) {
            shape.push_back(dims[i].value);
            continue;
        }
        if (dims[i].param.empty())
            return session.error("input " + quote(name) + " has an unknown dimension " +
                                 std::to_string(i) + " (shape " + describe(dims, false) +
                                 "): pass --input " + name + ":" + describe(dims, true) +
                                 " with numbers for N");
        if (auto bound = session.options.dims.find(dims[i].param);
            bound != session.options.dims.end())
            shape.push_back(bound->second);
        else if (std::find(unbound.begin(), unbound.end(), dims[i].param) == unbound.end())
            unbound.push_back(dims[i].param);
    }
    if (!unbound.empty())
        return session.error(unboundMessage(name, dims, unbound));
    return shape;
}

Status checkBindingsUsed(const ImportSession& session,
                         const std::vector<const onnx::ValueInfoProto*>& inputs) {
    std::set<std::string> names, params;
    for (const auto* input : inputs) {
        names.insert(input->name());
        for (const auto& dim : declaredDims(*input))
            if (!dim.param.empty())
                params.insert(dim.param);
    }
    for (const auto& [name, shape] : session.options.inputShapes)
        if (!names.count(name))
            return session.error(
                "--input names " + quote(name) + ", which is not an input (inputs: " +
                join(std::vector<std::string>(names.begin(), names.end()), ", ") + ")");
    for (const auto& [param, value] : session.options.dims) {
        if (!params.count(param))
            return session.error(
                "--dim names " + quote(param) + ", which no input uses (dynamic dimensions: " +
                (params.empty()
                     ? std::string("none")
                     : join(std::vector<std::string>(params.begin(), params.end()), ", ")) +
                ")");
        if (value < 0)
            return session.error("--dim " + param + "=" + std::to_string(value) +
                                 " must not be negative");
    }
    return Status::success();
}

Status addInputBinding(ImportOptions& options, const std::string& text) {
    auto colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0)
        return Error("bad --input " + quote(text) + " (expected NAME:SHAPE like x:1x3x224x224)");
    auto shape = ir::parseShape(text.substr(colon + 1));
    if (!shape.ok())
        return Error("bad --input " + quote(text) + ": " + shape.error().message());
    std::string name = text.substr(0, colon);
    if (auto earlier = options.inputShapes.find(name);
        earlier != options.inputShapes.end() && earlier->second != *shape)
        return Error("--input " + text + " conflicts with --input " + name + ":" +
                     ir::formatShape(earlier->second));
    options.inputShapes[name] = *shape;
    return Status::success();
}

Status addDimBinding(ImportOptions& options, const std::string& text) {
    auto eq = text.rfind('=');
    auto value = eq == std::string::npos ? std::nullopt : parseInt(text.substr(eq + 1));
    if (eq == std::string::npos || eq == 0 || !value || *value < 0)
        return Error("bad --dim " + quote(text) + " (expected NAME=VALUE like batch=8)");
    std::string name = text.substr(0, eq);
    if (auto earlier = options.dims.find(name);
        earlier != options.dims.end() && earlier->second != *value)
        return Error("--dim " + text + " conflicts with --dim " + name + "=" +
                     std::to_string(earlier->second));
    options.dims[name] = *value;
    return Status::success();
}

} // namespace stagecraft::onnxio
