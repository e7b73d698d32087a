// Binding dynamic input dimensions: `--input name:1x3x224x224` gives a whole
// shape (`name:scalar` for rank 0), `--dim name=8` a symbolic dimension, and
// `--value name=V[,V...]` a value, whose count also gives an open scalar or
// vector its shape. Every graph input must end up static; a binding that
// matches nothing is an error (usually a typo).

#include "onnx/internal/bindings.h"

#include "support/strings.h"

#include <algorithm>
#include <optional>
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
                             (dims.empty() ? std::string("scalar") : describe(dims, false)) + ")");
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

/// The number of comma-separated values in \p text.
int64_t valueCount(const std::string& text) {
    return static_cast<int64_t>(split(text, ',').size());
}

/// The shape a --value gives an input whose shape is open: rank 0 for one
/// value where the rank is unknown or 0, a vector of the values' count where
/// the input is a vector of unbound length.
std::optional<ir::Shape> shapeFromValue(const ImportSession& session, const std::string& name,
                                        const std::vector<DeclaredDim>& dims, bool shapeDeclared) {
    auto value = session.options.values.find(name);
    if (value == session.options.values.end())
        return std::nullopt;
    int64_t count = valueCount(value->second);
    if (!shapeDeclared)
        return count == 1 ? ir::Shape{} : ir::Shape{count};
    bool openVector = dims.size() == 1 && dims[0].value < 0 &&
                      (dims[0].param.empty() || !session.options.dims.count(dims[0].param));
    if (openVector)
        return ir::Shape{count};
    return std::nullopt;
}

bool isSignedInteger(ir::DType dtype) {
    return dtype == ir::DType::Int8 || dtype == ir::DType::Int16 || dtype == ir::DType::Int32 ||
           dtype == ir::DType::Int64;
}

/// \p text as an integer of \p dtype (a bool is 0 or 1).
Expected<int64_t> parseIntegerElement(std::string_view text, ir::DType dtype) {
    if (dtype == ir::DType::Bool) {
        if (text == "true" || text == "1")
            return int64_t{1};
        if (text == "false" || text == "0")
            return int64_t{0};
        return Error(quote(text) + " is not a bool (true, false, 1 or 0)");
    }
    auto number = parseInt(text);
    if (!number)
        return Error(quote(text) + " is not an integer");
    int bits = static_cast<int>(ir::dtypeSize(dtype)) * 8;
    bool fits = isSignedInteger(dtype)
                    ? bits == 64 || (*number >= -(int64_t{1} << (bits - 1)) &&
                                     *number < (int64_t{1} << (bits - 1)))
                    : *number >= 0 && (bits == 64 || *number < (int64_t{1} << bits));
    if (!fits)
        return Error(quote(text) + " is out of the range of " + std::string(ir::dtypeName(dtype)));
    return *number;
}

} // namespace

Expected<ir::ConstTensor> readBoundValue(const ImportSession& session, const std::string& name,
                                         ir::DType dtype, const ir::Shape& shape) {
    const std::string& given = session.options.values.at(name);
    std::string head = "--value " + name + "=" + given + ": ";
    if (dtype == ir::DType::String || dtype == ir::DType::Undefined)
        return session.error(head + "input " + quote(name) + " is not a numeric tensor");
    std::vector<std::string> fields = split(given, ',');
    if (static_cast<int64_t>(fields.size()) != ir::elementCount(shape))
        return session.error(head + "gives " + std::to_string(fields.size()) + " value" +
                             (fields.size() == 1 ? "" : "s") + " but input " + quote(name) +
                             " has shape " + ir::formatShape(shape) + " (" +
                             std::to_string(ir::elementCount(shape)) + " elements)");
    auto bad = [&](const Error& why) {
        return session.error(head + why.message() + " (input " + quote(name) + " is " +
                             std::string(ir::dtypeName(dtype)) + ")");
    };
    std::vector<double> numbers;
    std::vector<int64_t> integers;
    for (const std::string& field : fields) {
        std::string_view text = trim(field);
        if (ir::isFloatingPoint(dtype)) {
            auto number = parseDouble(text);
            if (!number)
                return bad(Error(quote(text) + " is not a number"));
            numbers.push_back(*number);
            continue;
        }
        auto number = parseIntegerElement(text, dtype);
        if (!number.ok())
            return bad(number.error());
        integers.push_back(*number);
    }
    if (ir::isFloatingPoint(dtype))
        return ir::ConstTensor::fromDoubles(dtype, shape, numbers);
    return ir::ConstTensor::fromInt64s(dtype, shape, integers);
}

Expected<ir::Shape> bindInputShape(const ImportSession& session,
                                   const onnx::ValueInfoProto& input) {
    const std::string& name = input.name();
    std::vector<DeclaredDim> dims = declaredDims(input);
    bool shapeDeclared = input.type().tensor_type().has_shape();
    if (auto given = session.options.inputShapes.find(name);
        given != session.options.inputShapes.end())
        return checkWholeShape(session, name, dims, given->second, shapeDeclared);
    if (auto byValue = shapeFromValue(session, name, dims, shapeDeclared))
        return *byValue;
    if (!shapeDeclared)
        return session.error(
            "input " + quote(name) + " declares no shape: pass its shape with --input " + name +
            ":1x3x224x224 (or " + name + ":scalar), or its value with --value " + name + "=V");
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
    for (const auto& [name, text] : session.options.values)
        if (!names.count(name))
            return session.error(
                "--value names " + quote(name) + ", which is not an input (inputs: " +
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

Status addValueBinding(ImportOptions& options, const std::string& text) {
    auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        return Error("bad --value " + quote(text) +
                     " (expected NAME=V or NAME=V,V,... like sr=16000)");
    std::string name = text.substr(0, eq);
    std::string values = text.substr(eq + 1);
    for (const std::string& field : split(values, ','))
        if (trim(field).empty())
            return Error("bad --value " + quote(text) + ": an empty value between commas");
    if (auto earlier = options.values.find(name);
        earlier != options.values.end() && earlier->second != values)
        return Error("--value " + text + " conflicts with --value " + name + "=" + earlier->second);
    options.values[name] = values;
    return Status::success();
}

} // namespace stagecraft::onnxio
