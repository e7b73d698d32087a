// From an ONNX GraphProto to an ir::Graph: weights (initializers, Constant
// nodes) as lazy data, graph inputs with bound shapes, ops with checked
// attributes. Nodes may come in any order (the graph is sorted later); a
// name that nothing defines is reported, which also catches files cut short
// at a field boundary.

#include "onnx/internal/attributes.h"
#include "onnx/internal/bindings.h"
#include "onnx/internal/import_session.h"
#include "onnx/internal/tensor_data.h"
#include "onnx/onnx_types.h"
#include "support/strings.h"

#include <onnx/defs/schema.h>

#include <set>

namespace stagecraft::onnxio {

namespace {

std::string opLabel(const onnx::NodeProto& node, const std::string& name) {
    return "op " + quote(name) + " (" + node.op_type() + ")";
}

/// A Constant node's value as tensor data.
Expected<TensorData> constantValue(ImportSession& session, onnx::NodeProto& node,
                                   const std::string& label) {
    for (int i = 0; i < node.attribute_size(); ++i) {
        onnx::AttributeProto* attr = node.mutable_attribute(i);
        const std::string& key = attr->name();
        if (key == "value")
            return takeTensorData(*attr->mutable_t(), session.modelDir(), label);
        if (key == "value_float" || key == "value_int") {
            bool isFloat = key == "value_float";
            ir::ConstTensor value =
                isFloat ? ir::ConstTensor::fromDoubles(ir::DType::Float32, {},
                                                       std::vector<double>{attr->f()})
                        : ir::ConstTensor::fromInt64s(ir::DType::Int64, {},
                                                      std::vector<int64_t>{attr->i()});
            auto bytes = value.bytes();
            return TensorData{
                value.dtype(),
                {},
                ir::makeInlineWeight(std::vector<std::byte>(bytes.begin(), bytes.end()))};
        }
        if (key == "value_floats" || key == "value_ints") {
            bool isFloat = key == "value_floats";
            int64_t count = isFloat ? attr->floats_size() : attr->ints_size();
            ir::ConstTensor value =
                isFloat ? ir::ConstTensor::fromDoubles(
                              ir::DType::Float32, {count},
                              std::vector<double>(attr->floats().begin(), attr->floats().end()))
                        : ir::ConstTensor::fromInt64s(
                              ir::DType::Int64, {count},
                              std::vector<int64_t>(attr->ints().begin(), attr->ints().end()));
            auto bytes = value.bytes();
            return TensorData{
                value.dtype(),
                {count},
                ir::makeInlineWeight(std::vector<std::byte>(bytes.begin(), bytes.end()))};
        }
    }
    return Error(
        label +
        ": has no value Stagecraft can read (string and sparse constants are not supported)");
}

class GraphBuilder {
public:
    explicit GraphBuilder(ImportSession& session)
        : s_(session)
        , g_(session.graph) {}

    Status build() {
        onnx::GraphProto& proto = *s_.model.mutable_graph();
        g_.info.name = proto.name();
        g_.info.sourcePath = s_.modelPath.string();
        g_.info.producer =
            s_.model.producer_name() +
            (s_.model.producer_version().empty() ? "" : " " + s_.model.producer_version());
        g_.info.irVersion = s_.model.ir_version();
        g_.info.opsetVersion = s_.opset;
        SC_RETURN_IF_ERROR(addInitializers(proto));
        SC_RETURN_IF_ERROR(addInputs(proto));
        SC_RETURN_IF_ERROR(addNodeOutputs(proto));
        SC_RETURN_IF_ERROR(addOps(proto));
        return addOutputs(proto);
    }

private:
    Status defineTensor(const std::string& name, ir::DType dtype, ir::Shape shape,
                        ir::WeightPtr data, const std::string& definer) {
        if (g_.findTensor(name))
            return s_.error("tensor " + quote(name) + " is defined twice (again by " + definer +
                            ")");
        g_.addTensor(name, dtype, std::move(shape), std::move(data));
        return Status::success();
    }

    Status addInitializers(onnx::GraphProto& proto) {
        for (int i = 0; i < proto.initializer_size(); ++i) {
            onnx::TensorProto& tensor = *proto.mutable_initializer(i);
            SC_ASSIGN_OR_RETURN(
                TensorData data,
                takeTensorData(tensor, s_.modelDir(), "initializer " + quote(tensor.name())));
            SC_RETURN_IF_ERROR(
                defineTensor(tensor.name(), data.dtype, data.shape, data.data, "an initializer"));
        }
        return Status::success();
    }

    /// A graph input that an initializer also defines is a weight (IR < 4
    /// lists every weight as an input; from IR 4 the initializer is the
    /// input's default value, and Stagecraft takes the default). Its declared
    /// type must agree with the initializer's.
    Status checkInitializedInput(const onnx::ValueInfoProto& input) {
        const ir::Tensor& weight = g_.tensor(*g_.findTensor(input.name()));
        const auto& type = input.type().tensor_type();
        ir::DType declared = fromOnnxType(type.elem_type());
        if (type.elem_type() != 0 && declared != weight.dtype)
            return s_.error("input " + quote(input.name()) + " is declared " +
                            std::string(ir::dtypeName(declared)) + " but its initializer is " +
                            std::string(ir::dtypeName(weight.dtype)));
        if (type.has_shape()) {
            bool agrees = type.shape().dim_size() == static_cast<int>(weight.shape.size());
            for (int d = 0; agrees && d < type.shape().dim_size(); ++d)
                agrees = !type.shape().dim(d).has_dim_value() ||
                         type.shape().dim(d).dim_value() == weight.shape[static_cast<size_t>(d)];
            if (!agrees)
                return s_.error("input " + quote(input.name()) +
                                " declares another shape than its initializer (" +
                                ir::formatShape(weight.shape) + ")");
        }
        return Status::success();
    }

    Status addInputs(const onnx::GraphProto& proto) {
        std::vector<const onnx::ValueInfoProto*> inputs;
        std::vector<std::string> initialized;
        std::set<std::string> seen;
        for (const auto& input : proto.input()) {
            if (!seen.insert(input.name()).second)
                return s_.error("graph input " + quote(input.name()) + " is listed twice");
            if (g_.findTensor(input.name())) {
                SC_RETURN_IF_ERROR(checkInitializedInput(input));
                initialized.push_back(input.name());
            } else {
                inputs.push_back(&input);
            }
        }
        if (s_.model.ir_version() >= 4 && !initialized.empty())
            s_.warn(std::to_string(initialized.size()) + " graph input" +
                    (initialized.size() == 1 ? " has an initializer" : "s have initializers") +
                    " (first " + quote(initialized.front()) +
                    "); they are taken as constants, their default values");
        SC_RETURN_IF_ERROR(checkBindingsUsed(s_, inputs));
        std::vector<ir::TensorId> ids;
        for (const onnx::ValueInfoProto* input : inputs) {
            ir::DType dtype = fromOnnxType(input->type().tensor_type().elem_type());
            if (dtype == ir::DType::Undefined)
                return s_.error("input " + quote(input->name()) +
                                " is not a tensor of a supported type");
            SC_ASSIGN_OR_RETURN(ir::Shape shape, bindInputShape(s_, *input));
            if (!ir::checkedTensorBytes(ir::checkedElementCount(shape), ir::dtypeSize(dtype)))
                return s_.error("input " + quote(input->name()) + " of shape " +
                                ir::formatShape(shape) +
                                " is larger than the 1 TiB a tensor may have");
            if (s_.options.values.count(input->name())) {
                SC_ASSIGN_OR_RETURN(s_.boundValues[input->name()],
                                    readBoundValue(s_, input->name(), dtype, shape));
            }
            SC_RETURN_IF_ERROR(defineTensor(input->name(), dtype, shape, nullptr, "a graph input"));
            ids.push_back(*g_.findTensor(input->name()));
        }
        g_.setInputs(std::move(ids));
        return Status::success();
    }

    /// Unique op names: exporters may leave names empty or repeat them.
    std::string uniqueOpName(const onnx::NodeProto& node, int index) {
        std::string base =
            node.name().empty() ? node.op_type() + "_" + std::to_string(index) : node.name();
        std::string name = base;
        for (int k = 2; !opNames_.insert(name).second; ++k)
            name = base + "_" + std::to_string(k);
        return name;
    }

    /// Pass 1: tensors for every node output, so nodes may come in any order.
    Status addNodeOutputs(onnx::GraphProto& proto) {
        for (int i = 0; i < proto.node_size(); ++i) {
            onnx::NodeProto& node = *proto.mutable_node(i);
            std::string name = uniqueOpName(node, i);
            names_.push_back(name);
            s_.nodeOpNames.push_back(name);
            std::string label = opLabel(node, name);
            if (node.op_type() == "Constant" && node.domain().empty()) {
                if (node.output_size() != 1)
                    return s_.error(label + ": must have one output");
                SC_ASSIGN_OR_RETURN(TensorData data, constantValue(s_, node, label));
                SC_RETURN_IF_ERROR(
                    defineTensor(node.output(0), data.dtype, data.shape, data.data, label));
                continue;
            }
            for (int k = 0; k < node.output_size(); ++k) {
                std::string output = node.output(k);
                if (output.empty())
                    output = name + ":output" + std::to_string(k); // omitted optional output
                SC_RETURN_IF_ERROR(defineTensor(output, ir::DType::Undefined, {}, nullptr, label));
            }
        }
        return Status::success();
    }

    const onnx::OpSchema* schemaFor(const onnx::NodeProto& node) const {
        const std::string& domain = node.domain() == "ai.onnx" ? std::string() : node.domain();
        int64_t version = s_.opset;
        for (const auto& opset : s_.model.opset_import())
            if (opset.domain() == domain && !domain.empty())
                version = opset.version();
        return onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(version), domain);
    }

    Expected<ir::TensorId> lookup(const std::string& tensor, const std::string& label) const {
        auto id = g_.findTensor(tensor);
        if (!id)
            return s_.error(
                "tensor " + quote(tensor) + " read by " + label +
                " is defined by no node, initializer or graph input (is the file truncated?)");
        return *id;
    }

    /// Pass 2: the ops.
    Status addOps(const onnx::GraphProto& proto) {
        for (int i = 0; i < proto.node_size(); ++i) {
            const onnx::NodeProto& node = proto.node(i);
            if (node.op_type() == "Constant" && node.domain().empty())
                continue;
            ir::Op op;
            op.name = names_[static_cast<size_t>(i)];
            op.type = node.op_type();
            op.domain = node.domain() == "ai.onnx" ? std::string() : node.domain();
            std::string label = opLabel(node, op.name);
            SC_ASSIGN_OR_RETURN(op.attrs, convertAttributes(node, schemaFor(node), label));
            for (const std::string& input : node.input()) {
                if (input.empty()) {
                    op.inputs.push_back(ir::kNoTensor);
                    continue;
                }
                SC_ASSIGN_OR_RETURN(ir::TensorId id, lookup(input, label));
                op.inputs.push_back(id);
            }
            for (int k = 0; k < node.output_size(); ++k) {
                std::string output = node.output(k).empty()
                                         ? op.name + ":output" + std::to_string(k)
                                         : node.output(k);
                op.outputs.push_back(*g_.findTensor(output));
            }
            g_.addOp(std::move(op));
        }
        return Status::success();
    }

    Status addOutputs(const onnx::GraphProto& proto) {
        std::vector<ir::TensorId> outputs;
        for (const auto& output : proto.output()) {
            auto id = g_.findTensor(output.name());
            if (!id)
                return s_.error(
                    "graph output " + quote(output.name()) +
                    " is defined by no node, initializer or graph input (is the file truncated?)");
            outputs.push_back(*id);
        }
        if (outputs.empty())
            return s_.error("the graph has no outputs");
        g_.setOutputs(std::move(outputs));
        return Status::success();
    }

    ImportSession& s_;
    ir::Graph& g_;
    std::set<std::string> opNames_;
    std::vector<std::string> names_;
};

} // namespace

Status buildGraph(ImportSession& session) {
    return GraphBuilder(session).build();
}

} // namespace stagecraft::onnxio
