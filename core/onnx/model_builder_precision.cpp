// ModelBuilder::convertFloats: a built model stored at f16 or bf16 (zoo
// --precision), as float16 converters write one with "keep I/O types": every
// f32 initializer, constant, value info and Cast target becomes the narrow
// type; graph inputs and outputs stay f32, cast right after and right
// before. Resize and Upsample scales stay f32 (ONNX types them float).

#include "ir/const_tensor.h"
#include "onnx/internal/model_builder_impl.h"

#include <set>

namespace stagecraft::onnxio {

namespace {

using TensorProto = onnx::TensorProto;

/// Names that must stay f32: the scales inputs of Resize and Upsample.
std::set<std::string> keptFloat(const onnx::GraphProto& graph) {
    std::set<std::string> kept;
    for (const auto& node : graph.node()) {
        int slot = node.op_type() == "Resize" ? 2 : node.op_type() == "Upsample" ? 1 : -1;
        if (slot >= 0 && node.input_size() > slot)
            kept.insert(node.input(slot));
    }
    return kept;
}

/// An inline f32 tensor stored again at \p precision (raw data).
void convertTensor(TensorProto& t, ir::DType precision) {
    if (t.data_type() != TensorProto::FLOAT || t.data_location() == TensorProto::EXTERNAL)
        return;
    std::vector<double> values;
    if (t.has_raw_data()) {
        const std::string& raw = t.raw_data();
        auto bytes = std::as_bytes(std::span(raw.data(), raw.size()));
        for (size_t i = 0; i < raw.size() / 4; ++i)
            values.push_back(ir::readDouble(ir::DType::Float32, bytes, static_cast<int64_t>(i)));
    } else {
        values.assign(t.float_data().begin(), t.float_data().end());
    }
    std::string narrow(values.size() * 2, '\0');
    auto out = std::as_writable_bytes(std::span(narrow.data(), narrow.size()));
    for (size_t i = 0; i < values.size(); ++i)
        ir::writeDouble(precision, out, static_cast<int64_t>(i), values[i]);
    t.clear_float_data();
    t.set_raw_data(std::move(narrow));
    t.set_data_type(toOnnxType(precision));
}

void convertType(onnx::ValueInfoProto& info, ir::DType precision) {
    auto* type = info.mutable_type()->mutable_tensor_type();
    if (type->elem_type() == TensorProto::FLOAT)
        type->set_elem_type(toOnnxType(precision));
}

/// Node inputs named \p from, and node outputs too when \p outputs, are
/// named \p to.
void rename(onnx::GraphProto& graph, const std::string& from, const std::string& to, bool outputs) {
    for (auto& node : *graph.mutable_node()) {
        for (auto& name : *node.mutable_input())
            if (name == from)
                name = to;
        for (auto& name : *node.mutable_output())
            if (outputs && name == from)
                name = to;
    }
}

onnx::NodeProto castNode(const std::string& name, const std::string& in, const std::string& out,
                         ir::DType to) {
    onnx::NodeProto node;
    node.set_name(name);
    node.set_op_type("Cast");
    node.add_input(in);
    node.add_output(out);
    auto* attr = node.add_attribute();
    attr->set_name("to");
    attr->set_type(onnx::AttributeProto::INT);
    attr->set_i(toOnnxType(to));
    return node;
}

void convertNodes(onnx::GraphProto& graph, ir::DType precision, const std::set<std::string>& kept) {
    for (auto& node : *graph.mutable_node()) {
        for (auto& attr : *node.mutable_attribute()) {
            if (attr.has_t() && !(node.output_size() == 1 && kept.count(node.output(0))))
                convertTensor(*attr.mutable_t(), precision);
            if (node.op_type() == "Cast" && attr.name() == "to" && attr.i() == TensorProto::FLOAT)
                attr.set_i(toOnnxType(precision));
        }
    }
}

/// f32 graph inputs and outputs keep their type: Casts at the boundary.
void castBoundaries(onnx::GraphProto& graph, ir::DType precision) {
    std::string suffix = "_" + std::string(ir::dtypeName(precision));
    std::vector<onnx::NodeProto> front, back;
    for (const auto& input : graph.input()) {
        if (input.type().tensor_type().elem_type() != TensorProto::FLOAT)
            continue;
        rename(graph, input.name(), input.name() + suffix, false);
        front.push_back(
            castNode(input.name() + "/Cast", input.name(), input.name() + suffix, precision));
    }
    for (const auto& output : graph.output()) {
        if (output.type().tensor_type().elem_type() != TensorProto::FLOAT)
            continue;
        rename(graph, output.name(), output.name() + suffix, true);
        back.push_back(castNode(output.name() + "/Cast", output.name() + suffix, output.name(),
                                ir::DType::Float32));
    }
    std::vector<onnx::NodeProto> nodes(front.begin(), front.end());
    nodes.insert(nodes.end(), graph.node().begin(), graph.node().end());
    nodes.insert(nodes.end(), back.begin(), back.end());
    graph.clear_node();
    for (auto& node : nodes)
        *graph.add_node() = std::move(node);
}

} // namespace

void ModelBuilder::convertFloats(ir::DType precision) {
    onnx::GraphProto& graph = *impl_->graph();
    std::set<std::string> kept = keptFloat(graph);
    for (detail::ExternalWeight& w : impl_->externals)
        if (w.dtype == ir::DType::Float32 && !kept.count(w.name))
            w.dtype = precision;
    for (auto& tensor : *graph.mutable_initializer())
        if (!kept.count(tensor.name()))
            convertTensor(tensor, precision);
    for (auto& info : *graph.mutable_value_info())
        convertType(info, precision);
    convertNodes(graph, precision, kept);
    castBoundaries(graph, precision);
}

} // namespace stagecraft::onnxio
