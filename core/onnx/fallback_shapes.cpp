// Shapes for ops without a Stagecraft rule (custom domains, rare ONNX ops):
// first the value_info/outputs the file declares (symbolic dims bound as the
// inputs were), then libonnx's shape inference run once on the model with the
// bound input shapes and the shapes Stagecraft has inferred so far (run
// again, a few times at most, when a later op needs it and more are known).
// Such ops stay in the graph as opaque ops.

#include "onnx/internal/fallback_shapes.h"

#include "onnx/onnx_types.h"
#include "support/strings.h"

#include <onnx/shape_inference/implementation.h>

#include <set>

namespace stagecraft::onnxio {

void FallbackShapes::collect(const onnx::GraphProto& graph,
                             std::map<std::string, Declared>& into) const {
    auto add = [&](const onnx::ValueInfoProto& info) {
        Declared d;
        const auto& type = info.type().tensor_type();
        d.dtype = fromOnnxType(type.elem_type());
        if (type.has_shape()) {
            ir::Shape shape;
            bool complete = true;
            for (const auto& dim : type.shape().dim()) {
                if (dim.has_dim_value() && dim.dim_value() >= 0) {
                    shape.push_back(dim.dim_value());
                } else if (auto it = session_.options.dims.find(dim.dim_param());
                           dim.has_dim_param() && it != session_.options.dims.end()) {
                    shape.push_back(it->second);
                } else {
                    complete = false;
                }
            }
            if (complete)
                d.shape = shape;
        }
        into[info.name()] = d;
    };
    for (const auto& info : graph.value_info())
        add(info);
    for (const auto& info : graph.output())
        add(info);
}

void FallbackShapes::addKnownShapes(onnx::GraphProto& graph) const {
    std::set<std::string> declared;
    for (const auto& input : graph.input())
        declared.insert(input.name());
    for (ir::TensorId id : session_.graph.tensorIds()) {
        const ir::Tensor& t = session_.graph.tensor(id);
        if (t.dtype == ir::DType::Undefined || declared.count(t.name))
            continue;
        auto* info = graph.add_value_info();
        info->set_name(t.name);
        auto* type = info->mutable_type()->mutable_tensor_type();
        type->set_elem_type(toOnnxType(t.dtype));
        auto* shape = type->mutable_shape();
        for (int64_t dim : t.shape)
            shape->add_dim()->set_dim_value(dim);
    }
}

void FallbackShapes::runOnnxInference() {
    inferred_.emplace();
    knownWhenInferred_ = knownTensorCount();
    onnx::ModelProto model = session_.model;
    auto* graph = model.mutable_graph();
    graph->clear_value_info();
    // The import moved the initializers' bytes out (tensor_data.cpp): libonnx
    // 1.12 would read the empty payloads (Range's inference dereferences a
    // null pointer, tests/data/fuzz/onnx). Declared as typed inputs instead,
    // they keep their shapes and carry no data.
    for (const auto& tensor : graph->initializer()) {
        auto* input = graph->add_input();
        input->set_name(tensor.name());
        auto* type = input->mutable_type()->mutable_tensor_type();
        type->set_elem_type(tensor.data_type());
        auto* shape = type->mutable_shape();
        for (int64_t dim : tensor.dims())
            shape->add_dim()->set_dim_value(dim);
    }
    graph->clear_initializer();
    for (auto& input : *graph->mutable_input()) {
        auto id = session_.graph.findTensor(input.name());
        if (!id || session_.graph.tensor(*id).isConstant())
            continue;
        auto* shape = input.mutable_type()->mutable_tensor_type()->mutable_shape();
        shape->clear_dim();
        for (int64_t dim : session_.graph.tensor(*id).shape)
            shape->add_dim()->set_dim_value(dim);
    }
    addKnownShapes(*graph);
    try {
        // Data propagation off: libonnx 1.12 dereferences a null pointer
        // propagating through some unknown ops (tests/data/fuzz/onnx).
        onnx::ShapeInferenceOptions options{false, 0, false};
        onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
        session_.warn(std::string("ONNX shape inference: ") + e.what());
    }
    collect(model.graph(), *inferred_);
}

size_t FallbackShapes::knownTensorCount() const {
    size_t known = 0;
    for (ir::TensorId id : session_.graph.tensorIds())
        known += session_.graph.tensor(id).dtype != ir::DType::Undefined ? 1 : 0;
    return known;
}

std::optional<FallbackShapes::Declared> FallbackShapes::lookup(const std::string& name) {
    if (!declared_) {
        declared_.emplace();
        collect(session_.model.graph(), *declared_);
    }
    if (auto it = declared_->find(name);
        it != declared_->end() && it->second.shape && it->second.dtype != ir::DType::Undefined)
        return it->second;
    constexpr int kMaxInferenceRuns = 8;
    if (!inferred_ || (runs_ < kMaxInferenceRuns && knownTensorCount() > knownWhenInferred_)) {
        ++runs_;
        runOnnxInference();
    }
    if (auto it = inferred_->find(name);
        it != inferred_->end() && it->second.shape && it->second.dtype != ir::DType::Undefined)
        return it->second;
    return std::nullopt;
}

Status FallbackShapes::apply(ir::OpId id, const std::string& because, const std::string& remedy) {
    const ir::Op& op = session_.graph.op(id);
    std::string label =
        "op " + quote(op.name) + " (" + (op.domain.empty() ? "" : op.domain + ".") + op.type + ")";
    for (ir::TensorId out : op.outputs) {
        const std::string& name = session_.graph.tensor(out).name;
        auto declared = lookup(name);
        if (!declared)
            return session_.error(
                label + " " + because + " and the shape of its output " + quote(name) +
                " cannot be made static (the file declares none and ONNX shape inference "
                "finds none)" +
                remedy);
        session_.graph.mutableTensor(out).dtype = declared->dtype;
        session_.graph.mutableTensor(out).shape = *declared->shape;
    }
    session_.warn(label + " " + because + ": kept as an opaque op (a kernel of its own)" + remedy);
    return Status::success();
}

} // namespace stagecraft::onnxio
