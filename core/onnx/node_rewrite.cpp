// Node rewrites (docs/onnx-import.md, "Control flow" and "Rewritten ops"):
// shape inference may decide that a node of the model is better replaced by
// other ONNX nodes once it knows enough (node_rewrite.h). The rewrite is
// recorded by op name; the import splices it into the model's top graph in
// the node's place and builds the graph again.

#include "onnx/internal/node_rewrite.h"

namespace stagecraft::onnxio {

namespace {

std::string renamed(const Renames& names, const std::string& name) {
    auto it = names.find(name);
    return it == names.end() ? name : it->second;
}

bool isDefaultDomain(const onnx::NodeProto& node) {
    return node.domain().empty() || node.domain() == "ai.onnx";
}

} // namespace

Rewriter findRewriter(const std::string& opType) {
    static const std::map<std::string, Rewriter> rewriters = {
        {"If", rewriteIf},         {"Loop", rewriteLoop},
        {"Scan", rewriteScan},     {"Compress", rewriteCompress},
        {"Einsum", rewriteEinsum}, {"PRelu", rewriteLegacyPRelu},
        {"RNN", rewriteRnn},       {"GRU", rewriteGru},
        {"LSTM", rewriteLstm},
    };
    auto it = rewriters.find(opType);
    return it == rewriters.end() ? nullptr : it->second;
}

bool mayRewrite(const ImportSession& session) {
    for (const auto& node : session.model.graph().node()) {
        bool legacy = node.op_type() != "PRelu" || session.fileOpset < 7;
        if (isDefaultDomain(node) && findRewriter(node.op_type()) != nullptr && legacy)
            return true;
    }
    return false;
}

Status spliceRewrites(ImportSession& session) {
    onnx::GraphProto& top = *session.model.mutable_graph();
    google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
    for (int i = 0; i < top.node_size(); ++i) {
        const std::string& name = session.nodeOpNames.at(static_cast<size_t>(i));
        auto rewrite = session.rewrites.find(name);
        if (rewrite == session.rewrites.end()) {
            *nodes.Add() = top.node(i);
            continue;
        }
        NodeRewrite& r = rewrite->second;
        for (onnx::NodeProto& node : r.nodes)
            *nodes.Add() = std::move(node);
        for (onnx::TensorProto& init : r.initializers)
            *top.add_initializer() = std::move(init);
        for (onnx::ValueInfoProto& info : r.valueInfo)
            *top.add_value_info() = std::move(info);
        if (!r.note.empty())
            session.warn(std::move(r.note));
    }
    top.mutable_node()->Swap(&nodes);
    session.rewrites.clear();
    return Status::success();
}

void renameAll(onnx::GraphProto& graph, const Renames& names) {
    for (auto& node : *graph.mutable_node()) {
        for (auto& in : *node.mutable_input())
            in = renamed(names, in);
        for (auto& out : *node.mutable_output())
            out = renamed(names, out);
        for (auto& attr : *node.mutable_attribute()) {
            if (attr.has_g())
                renameAll(*attr.mutable_g(), names);
            for (auto& nested : *attr.mutable_graphs())
                renameAll(nested, names);
        }
    }
    for (auto& init : *graph.mutable_initializer())
        init.set_name(renamed(names, init.name()));
    for (auto* infos : {graph.mutable_output(), graph.mutable_value_info()})
        for (auto& info : *infos)
            info.set_name(renamed(names, info.name()));
}

const onnx::NodeProto* nodeNamed(const ImportSession& session, const std::string& name) {
    for (size_t i = 0; i < session.nodeOpNames.size(); ++i)
        if (session.nodeOpNames[i] == name)
            return &session.model.graph().node(static_cast<int>(i));
    return nullptr;
}

const onnx::GraphProto* graphAttribute(const onnx::NodeProto& node, const std::string& attr) {
    for (const auto& a : node.attribute())
        if (a.name() == attr && a.has_g())
            return &a.g();
    return nullptr;
}

onnx::NodeProto makeNode(const std::string& type, const std::string& name,
                         std::vector<std::string> inputs, std::vector<std::string> outputs) {
    onnx::NodeProto node;
    node.set_op_type(type);
    node.set_name(name);
    for (std::string& in : inputs)
        node.add_input(std::move(in));
    for (std::string& out : outputs)
        node.add_output(std::move(out));
    return node;
}

void setIntAttribute(onnx::NodeProto& node, const std::string& name, int64_t value) {
    auto* attr = node.add_attribute();
    attr->set_name(name);
    attr->set_type(onnx::AttributeProto::INT);
    attr->set_i(value);
}

void setIntsAttribute(onnx::NodeProto& node, const std::string& name,
                      const std::vector<int64_t>& values) {
    auto* attr = node.add_attribute();
    attr->set_name(name);
    attr->set_type(onnx::AttributeProto::INTS);
    for (int64_t v : values)
        attr->add_ints(v);
}

onnx::TensorProto intInitializer(const std::string& name, int32_t type,
                                 const std::vector<int64_t>& values,
                                 const std::vector<int64_t>& dims) {
    onnx::TensorProto tensor;
    tensor.set_name(name);
    tensor.set_data_type(type);
    for (int64_t d : dims)
        tensor.add_dims(d);
    for (int64_t v : values) {
        if (type == onnx::TensorProto::INT64)
            tensor.add_int64_data(v);
        else
            tensor.add_int32_data(static_cast<int32_t>(v));
    }
    return tensor;
}

void addUnsqueeze(NodeRewrite& rewrite, int64_t opset, const std::string& input, int64_t axis,
                  const std::string& output) {
    onnx::NodeProto node = makeNode("Unsqueeze", output, {input}, {output});
    if (opset >= 13) {
        std::string axes = output + "/axes";
        rewrite.initializers.push_back(intInitializer(axes, onnx::TensorProto::INT64, {axis}, {1}));
        node.add_input(axes);
    } else {
        setIntsAttribute(node, "axes", {axis});
    }
    rewrite.nodes.push_back(std::move(node));
}

} // namespace stagecraft::onnxio
