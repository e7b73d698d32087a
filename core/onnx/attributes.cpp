// Node attributes: converted to ir::Attributes, checked against the ONNX
// schema of the node's opset, with the schema's defaults filled in.

#include "onnx/internal/attributes.h"

#include "onnx/internal/tensor_data.h"
#include "support/strings.h"

#include <onnx/defs/schema.h>

namespace stagecraft::onnxio {

namespace {

using AttrType = onnx::AttributeProto::AttributeType;

/// Files written before IR version 2 may leave `type` unset.
AttrType effectiveType(const onnx::AttributeProto& attr) {
    if (attr.type() != onnx::AttributeProto::UNDEFINED)
        return attr.type();
    if (attr.has_f())
        return onnx::AttributeProto::FLOAT;
    if (attr.has_i())
        return onnx::AttributeProto::INT;
    if (attr.has_s())
        return onnx::AttributeProto::STRING;
    if (attr.has_t())
        return onnx::AttributeProto::TENSOR;
    if (attr.has_g())
        return onnx::AttributeProto::GRAPH;
    if (attr.floats_size() > 0)
        return onnx::AttributeProto::FLOATS;
    if (attr.ints_size() > 0)
        return onnx::AttributeProto::INTS;
    if (attr.strings_size() > 0)
        return onnx::AttributeProto::STRINGS;
    return onnx::AttributeProto::UNDEFINED;
}

std::string typeName(AttrType type) {
    return onnx::AttributeProto::AttributeType_Name(type);
}

Expected<ir::AttrValue> convert(const onnx::AttributeProto& attr, AttrType type,
                                const std::string& what) {
    switch (type) {
    case onnx::AttributeProto::FLOAT:
        return ir::AttrValue(static_cast<double>(attr.f()));
    case onnx::AttributeProto::INT:
        return ir::AttrValue(attr.i());
    case onnx::AttributeProto::STRING:
        return ir::AttrValue(attr.s());
    case onnx::AttributeProto::INTS:
        return ir::AttrValue(std::vector<int64_t>(attr.ints().begin(), attr.ints().end()));
    case onnx::AttributeProto::FLOATS:
        return ir::AttrValue(std::vector<double>(attr.floats().begin(), attr.floats().end()));
    case onnx::AttributeProto::STRINGS:
        return ir::AttrValue(
            std::vector<std::string>(attr.strings().begin(), attr.strings().end()));
    case onnx::AttributeProto::TENSOR: {
        SC_ASSIGN_OR_RETURN(ir::ConstTensor tensor, toConstTensor(attr.t(), what));
        return ir::AttrValue(std::move(tensor));
    }
    default:
        // Sub-graphs and sparse tensors: kept as a marker; such ops are opaque.
        return ir::AttrValue(std::string("<" + typeName(type) + ">"));
    }
}

} // namespace

Expected<ir::Attributes> convertAttributes(const onnx::NodeProto& node,
                                           const onnx::OpSchema* schema,
                                           const std::string& opLabel) {
    ir::Attributes attrs;
    for (const auto& attr : node.attribute()) {
        std::string what = opLabel + ": attribute " + quote(attr.name());
        AttrType type = effectiveType(attr);
        if (schema != nullptr) {
            auto known = schema->attributes().find(attr.name());
            if (known != schema->attributes().end() && known->second.type != type &&
                known->second.type != onnx::AttributeProto::UNDEFINED)
                return Error(what + " must be " + typeName(known->second.type) + ", not " +
                             typeName(type));
        }
        SC_ASSIGN_OR_RETURN(ir::AttrValue value, convert(attr, type, what));
        attrs.set(attr.name(), std::move(value));
    }
    if (schema == nullptr)
        return attrs;
    for (const auto& [name, spec] : schema->attributes()) {
        if (attrs.has(name))
            continue;
        if (spec.required)
            return Error(opLabel + ": missing required attribute " + quote(name));
        if (spec.default_value.type() == onnx::AttributeProto::UNDEFINED)
            continue;
        SC_ASSIGN_OR_RETURN(ir::AttrValue value,
                            convert(spec.default_value, spec.default_value.type(), opLabel));
        attrs.set(name, std::move(value));
    }
    return attrs;
}

} // namespace stagecraft::onnxio
