// ONNX function inlining (docs/onnx-import.md, "Functions"). An op of the
// default domain that Stagecraft has no rule for, but which the ONNX schema
// defines as a function of other ops (NegativeLogLikelihoodLoss,
// SoftmaxCrossEntropyLoss, CastLike, ...; LayerNormalization when its Mean
// and InvStdDev outputs are read), is replaced by the function's body before
// the graph is built, as ONNX Runtime does: its ops are ordinary ops that the
// scheduler groups and the code generator lowers. Bodies that call functions
// are expanded again, up to a depth. A context-dependent body (one that the
// schema builds from the input types) gets the types ONNX shape inference
// finds. Internal tensors take the call's name as a prefix.

#include "onnx/internal/import_session.h"
#include "onnx/internal/infer_context.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace stagecraft::onnxio {

namespace {

constexpr int kMaxDepth = 4;

using TypeMap = std::map<std::string, onnx::TypeProto>;

bool isDefaultDomain(const std::string& domain) {
    return domain.empty() || domain == "ai.onnx";
}

/// Whether \p node is better expanded: no rule knows its type, or a rule
/// knows it but not the outputs it has (LayerNormalization's statistics).
bool wantsBody(const onnx::NodeProto& node) {
    if (!isDefaultDomain(node.domain()))
        return false;
    if (findInferRule(node.op_type()) == nullptr)
        return true;
    if (node.op_type() != "LayerNormalization")
        return false;
    for (int i = 1; i < node.output_size(); ++i)
        if (!node.output(i).empty())
            return true;
    return false;
}

/// The types of every named value: graph inputs, initializers, and what ONNX
/// shape inference gives (initializer data left out of the copy).
TypeMap valueTypes(const onnx::ModelProto& original, ImportSession& session) {
    onnx::ModelProto model = original;
    auto* graph = model.mutable_graph();
    std::set<std::string> declared;
    for (const auto& input : graph->input())
        declared.insert(input.name());
    for (const auto& init : graph->initializer()) {
        if (declared.count(init.name()))
            continue;
        auto* input = graph->add_input();
        input->set_name(init.name());
        auto* tensor = input->mutable_type()->mutable_tensor_type();
        tensor->set_elem_type(init.data_type());
        for (int64_t dim : init.dims())
            tensor->mutable_shape()->add_dim()->set_dim_value(dim);
    }
    graph->clear_initializer();
    try {
        onnx::ShapeInferenceOptions options{false, 0, false};
        onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
        session.warn(std::string("ONNX shape inference (for function bodies): ") + e.what());
    }
    TypeMap types;
    auto add = [&](const auto& infos) {
        for (const auto& info : infos)
            types[info.name()] = info.type();
    };
    add(model.graph().input());
    add(model.graph().value_info());
    add(model.graph().output());
    return types;
}

/// The body of \p node's function at the model's opset, or nullptr when its
/// schema has none (or one for a newer opset than the model's).
const onnx::OpSchema* schemaWithBody(const onnx::NodeProto& node, int64_t opset) {
    const onnx::OpSchema* schema =
        onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(opset), "");
    if (schema == nullptr || (!schema->HasFunction() && !schema->HasContextDependentFunction()))
        return nullptr;
    return schema;
}

bool buildBody(const onnx::OpSchema& schema, const onnx::NodeProto& node, const TypeMap& types,
               onnx::FunctionProto& body) {
    if (schema.HasFunction()) {
        const onnx::FunctionProto* f = schema.GetFunction();
        if (f == nullptr)
            return false;
        body = *f;
        return true;
    }
    std::vector<onnx::TypeProto> inputTypes;
    for (const std::string& name : node.input()) {
        auto it = types.find(name);
        inputTypes.push_back(it != types.end() ? it->second : onnx::TypeProto());
    }
    onnx::FunctionBodyBuildContextImpl context(node, inputTypes);
    try {
        return schema.BuildContextDependentFunction(context, body);
    } catch (const std::exception&) {
        return false;
    }
}

/// The call's attribute that \p attr refers to (ref_attr_name), renamed to
/// \p attr's name; the default of the called op's schema when the call does
/// not set it; false when neither exists (then the body node's attribute is
/// left out, and its own op's default holds).
bool resolveAttribute(const onnx::NodeProto& call, const onnx::OpSchema& schema,
                      onnx::AttributeProto& attr) {
    if (attr.ref_attr_name().empty())
        return true;
    const onnx::AttributeProto* value = nullptr;
    for (const auto& given : call.attribute())
        if (given.name() == attr.ref_attr_name())
            value = &given;
    if (value == nullptr) {
        auto declared = schema.attributes().find(attr.ref_attr_name());
        if (declared != schema.attributes().end() &&
            declared->second.default_value.type() != onnx::AttributeProto::UNDEFINED)
            value = &declared->second.default_value;
    }
    if (value == nullptr)
        return false;
    std::string name = attr.name();
    attr = *value;
    attr.set_name(name);
    return true;
}

/// The nodes that replace \p call: the body with formal inputs and outputs
/// renamed to the call's, internal values prefixed.
std::vector<onnx::NodeProto> expand(const onnx::NodeProto& call, const onnx::OpSchema& schema,
                                    const onnx::FunctionProto& body, const std::string& prefix) {
    std::map<std::string, std::string> names;
    for (int i = 0; i < body.input_size(); ++i)
        names[body.input(i)] = i < call.input_size() ? call.input(i) : "";
    for (int i = 0; i < body.output_size(); ++i) {
        bool given = i < call.output_size() && !call.output(i).empty();
        names[body.output(i)] = given ? call.output(i) : prefix + body.output(i);
    }
    auto rename = [&](const std::string& name) {
        if (name.empty())
            return name;
        auto it = names.find(name);
        return it != names.end() ? it->second : prefix + name;
    };
    std::vector<onnx::NodeProto> nodes;
    for (int k = 0; k < body.node_size(); ++k) {
        onnx::NodeProto node = body.node(k);
        node.set_name(prefix + (node.name().empty() ? std::to_string(k) : node.name()));
        for (auto& in : *node.mutable_input())
            in = rename(in);
        for (auto& out : *node.mutable_output())
            out = rename(out);
        onnx::NodeProto kept = node;
        kept.clear_attribute();
        for (onnx::AttributeProto attr : node.attribute())
            if (resolveAttribute(call, schema, attr))
                *kept.add_attribute() = std::move(attr);
        nodes.push_back(std::move(kept));
    }
    return nodes;
}

/// One pass over the graph; the number of calls expanded.
int expandOnce(ImportSession& session, int depth) {
    auto* graph = session.model.mutable_graph();
    bool any = false;
    for (const auto& node : graph->node())
        any = any || (wantsBody(node) && schemaWithBody(node, session.opset) != nullptr);
    if (!any)
        return 0;
    TypeMap types = valueTypes(session.model, session);
    google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
    int expanded = 0;
    for (int i = 0; i < graph->node_size(); ++i) {
        const onnx::NodeProto& node = graph->node(i);
        const onnx::OpSchema* schema =
            wantsBody(node) ? schemaWithBody(node, session.opset) : nullptr;
        onnx::FunctionProto body;
        if (schema == nullptr || !buildBody(*schema, node, types, body)) {
            *nodes.Add() = node;
            continue;
        }
        std::string prefix =
            (node.name().empty() ? node.op_type() + std::to_string(i) : node.name()) + "/" +
            (depth > 0 ? std::to_string(depth) + "/" : "");
        for (onnx::NodeProto& part : expand(node, *schema, body, prefix))
            *nodes.Add() = std::move(part);
        ++expanded;
    }
    graph->mutable_node()->Swap(&nodes);
    return expanded;
}

} // namespace

Status inlineFunctions(ImportSession& session) {
    if (!session.options.inlineFunctions)
        return Status::success();
    for (int depth = 0; depth < kMaxDepth; ++depth)
        if (expandOnce(session, depth) == 0)
            break;
    return Status::success();
}

} // namespace stagecraft::onnxio
