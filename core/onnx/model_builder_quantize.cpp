// ModelBuilder::quantize: a built model written as int8, the two ways ONNX
// Runtime's quantization tools write one (zoo --precision i8 and
// i8-dynamic; docs/zoo.md, "Quantized models"). Both first fold each
// BatchNormalization that follows a Conv into the Conv's bias, as the tools
// do before quantizing. Weights become seeded integers whose scale gives
// them the range the f32 weights have (1/sqrt(fan_in)): the figures are
// accuracy-free, the structure is the tools'.
// - Static (QDQ, ONNX Runtime's default U8S8 format): every Conv with a
//   weight and every MatMul reads its operands through DequantizeLinear
//   (activations QuantizeLinear'd first, uint8 with one scale and zero point
//   128; weights int8, per output channel for Conv); a Conv's bias is int32
//   at scale x_scale * w_scale; the result (after a Relu that follows alone,
//   with the zero point at 0 so saturation does the Relu's work) is
//   quantized and dequantized again. (ONNX Runtime fuses int8 activations
//   into QLinearConv only on ARM; with uint8 it does on x86 too.) Stagecraft's importer folds
//   these into QLinearConv and QLinearMatMul (fold_qdq.cpp).
// - Dynamic: a Conv's or MatMul's activation goes through
//   DynamicQuantizeLinear (u8, scale and zero point at run time); ConvInteger
//   (u8 weights, zero point 128) or MatMulInteger (i8 weights) sums in int32,
//   cast to f32 and scaled by x_scale * w_scale; a Conv adds its bias after.
//   MatMuls of two activations stay f32, as quantize_dynamic leaves them.

#include "onnx/internal/model_builder_impl.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

namespace stagecraft::onnxio {

namespace {

using TensorProto = onnx::TensorProto;

/// The scale of every quantized activation: uint8 around 128 covers -6.4 to
/// 6.35 (0 to 12.75 after a Relu), the range the zoo's seeded activations take.
constexpr float kActivationScale = 0.05f;

class Quantizer {
public:
    Quantizer(onnx::GraphProto& graph, std::vector<detail::ExternalWeight>& externals)
        : graph_(graph)
        , externals_(externals) {}

    void run(Quantization mode) {
        foldBatchNorms();
        std::vector<onnx::NodeProto> nodes(graph_.node().begin(), graph_.node().end());
        countUses(nodes);
        for (onnx::NodeProto& node : nodes) {
            if (emitted_.count(&node))
                continue;
            bool conv = node.op_type() == "Conv" && isWeight(node, 1);
            bool matmul = node.op_type() == "MatMul";
            if (mode == Quantization::Static && (conv || matmul))
                staticNode(node, nodes);
            else if (mode == Quantization::Dynamic && (conv || (matmul && isWeight(node, 1))))
                dynamicNode(node);
            else
                out_.push_back(node);
        }
        graph_.clear_node();
        for (auto& node : out_)
            *graph_.add_node() = std::move(node);
    }

private:
    detail::ExternalWeight* external(const std::string& name) {
        for (detail::ExternalWeight& w : externals_)
            if (w.name == name)
                return &w;
        return nullptr;
    }

    bool isWeight(const onnx::NodeProto& node, int slot) {
        return node.input_size() > slot && external(node.input(slot)) != nullptr;
    }

    void countUses(const std::vector<onnx::NodeProto>& nodes) {
        uses_.clear();
        for (const auto& node : nodes)
            for (const std::string& in : node.input())
                ++uses_[in];
        for (const auto& output : graph_.output())
            ++uses_[output.name()];
    }

    // ---- BatchNormalization folded into the Conv before it ----

    void foldBatchNorms() {
        std::vector<onnx::NodeProto> nodes(graph_.node().begin(), graph_.node().end());
        countUses(nodes);
        std::map<std::string, onnx::NodeProto*> convOf;
        for (auto& node : nodes)
            if (node.op_type() == "Conv" && node.input_size() == 2 && isWeight(node, 1))
                convOf[node.output(0)] = &node;
        std::set<const onnx::NodeProto*> dropped;
        for (auto& node : nodes) {
            auto conv = convOf.find(node.op_type() == "BatchNormalization" ? node.input(0) : "");
            if (conv == convOf.end() || uses_[node.input(0)] != 1)
                continue;
            conv->second->add_input(node.input(2)); // BN's beta becomes the bias
            conv->second->set_output(0, node.output(0));
            for (int slot : {1, 3, 4})
                dropWeight(node.input(slot));
            dropped.insert(&node);
        }
        graph_.clear_node();
        for (auto& node : nodes)
            if (!dropped.count(&node))
                *graph_.add_node() = std::move(node);
    }

    void dropWeight(const std::string& name) {
        auto& list = externals_;
        list.erase(std::remove_if(list.begin(), list.end(),
                                  [&](const detail::ExternalWeight& w) { return w.name == name; }),
                   list.end());
    }

    // ---- helpers writing nodes and constants ----

    std::string floats(const std::string& name, const std::vector<float>& values, bool scalar) {
        TensorProto t;
        t.set_name(name);
        t.set_data_type(TensorProto::FLOAT);
        if (!scalar)
            t.add_dims(static_cast<int64_t>(values.size()));
        for (float v : values)
            t.add_float_data(v);
        *graph_.add_initializer() = std::move(t);
        return name;
    }

    std::string integers(const std::string& name, ir::DType dtype,
                         const std::vector<int64_t>& values, bool scalar) {
        TensorProto t;
        t.set_name(name);
        t.set_data_type(toOnnxType(dtype));
        if (!scalar)
            t.add_dims(static_cast<int64_t>(values.size()));
        for (int64_t v : values) {
            if (dtype == ir::DType::Int64)
                t.add_int64_data(v);
            else
                t.add_int32_data(static_cast<int32_t>(v));
        }
        *graph_.add_initializer() = std::move(t);
        return name;
    }

    onnx::NodeProto& emit(const std::string& type, const std::string& name,
                          std::vector<std::string> inputs, std::vector<std::string> outputs) {
        onnx::NodeProto node;
        node.set_op_type(type);
        node.set_name(name);
        for (auto& in : inputs)
            node.add_input(std::move(in));
        for (auto& out : outputs)
            node.add_output(std::move(out));
        out_.push_back(std::move(node));
        return out_.back();
    }

    static void intAttribute(onnx::NodeProto& node, const std::string& name, int64_t value) {
        auto* attr = node.add_attribute();
        attr->set_name(name);
        attr->set_type(onnx::AttributeProto::INT);
        attr->set_i(value);
    }

    /// 1/(sqrt(fan_in) * 127): the int8 weight then spans the f32 weight's range.
    static float weightScale(const ir::Shape& shape) {
        int64_t count = ir::elementCount(shape);
        int64_t fanIn = shape.empty() || shape[0] == 0 ? 1 : count / shape[0];
        return static_cast<float>(1.0 / (std::sqrt(static_cast<double>(fanIn)) * 127.0));
    }

    // ---- static (QDQ) ----

    /// \p tensor through QuantizeLinear and DequantizeLinear (once per tensor).
    std::string quantizedActivation(const std::string& tensor) {
        if (auto it = dequantized_.find(tensor); it != dequantized_.end())
            return it->second;
        std::string scale = floats(tensor + "_scale", {kActivationScale}, true);
        std::string zero = integers(tensor + "_zero_point", ir::DType::UInt8, {128}, true);
        emit("QuantizeLinear", tensor + "_QuantizeLinear", {tensor, scale, zero},
             {tensor + "_quantized"});
        emit("DequantizeLinear", tensor + "_DequantizeLinear", {tensor + "_quantized", scale, zero},
             {tensor + "_dequantized"});
        return dequantized_[tensor] = tensor + "_dequantized";
    }

    /// Weight \p name stored as int8 and read through DequantizeLinear, per
    /// output channel (axis 0) for a Conv; returns the dequantized name and
    /// the scales.
    std::string quantizedWeight(const std::string& name, bool perChannel,
                                std::vector<float>& scales) {
        detail::ExternalWeight* w = external(name);
        w->dtype = ir::DType::Int8;
        size_t channels = perChannel ? static_cast<size_t>(w->shape[0]) : 1;
        scales.assign(channels, weightScale(w->shape));
        std::string scale = floats(name + "_scale", scales, !perChannel);
        std::string zero = integers(name + "_zero_point", ir::DType::Int8,
                                    std::vector<int64_t>(channels, 0), !perChannel);
        onnx::NodeProto& dq = emit("DequantizeLinear", name + "_DequantizeLinear",
                                   {name, scale, zero}, {name + "_dequantized"});
        if (perChannel)
            intAttribute(dq, "axis", 0);
        return name + "_dequantized";
    }

    /// A Conv's bias as int32 at scale x_scale * w_scale, dequantized.
    std::string quantizedBias(const std::string& name, const std::vector<float>& weightScales) {
        detail::ExternalWeight* b = external(name);
        if (b == nullptr)
            return name;
        b->dtype = ir::DType::Int32;
        std::vector<float> scales;
        for (float s : weightScales)
            scales.push_back(kActivationScale * s);
        std::string scale = floats(name + "_scale", scales, false);
        std::string zero = integers(name + "_zero_point", ir::DType::Int32,
                                    std::vector<int64_t>(scales.size(), 0), false);
        onnx::NodeProto& dq = emit("DequantizeLinear", name + "_DequantizeLinear",
                                   {name, scale, zero}, {name + "_dequantized"});
        intAttribute(dq, "axis", 0);
        return name + "_dequantized";
    }

    /// The Relu that alone reads \p tensor, or null.
    onnx::NodeProto* soleRelu(const std::string& tensor, std::vector<onnx::NodeProto>& nodes) {
        if (uses_[tensor] != 1)
            return nullptr;
        for (auto& node : nodes)
            if (node.op_type() == "Relu" && node.input(0) == tensor)
                return &node;
        return nullptr;
    }

    void staticNode(onnx::NodeProto node, std::vector<onnx::NodeProto>& nodes) {
        bool conv = node.op_type() == "Conv";
        std::vector<float> scales(1, 1.0f);
        for (int slot : {0, 1}) {
            if (isWeight(node, slot))
                node.set_input(slot, quantizedWeight(node.input(slot), conv, scales));
            else
                node.set_input(slot, quantizedActivation(node.input(slot)));
        }
        if (conv && node.input_size() > 2)
            node.set_input(2, quantizedBias(node.input(2), scales));
        // The result is quantized where the fold wants it: after a sole Relu.
        onnx::NodeProto* relu = soleRelu(node.output(0), nodes);
        std::string result = relu != nullptr ? relu->output(0) : node.output(0);
        out_.push_back(node);
        if (relu != nullptr) {
            relu->set_output(0, result + "_float");
            out_.push_back(*relu);
            emitted_.insert(relu); // the walk reaches it later: skipped there
        } else {
            out_.back().set_output(0, result + "_float");
        }
        std::string scale = floats(result + "_scale", {kActivationScale}, true);
        std::string zero =
            integers(result + "_zero_point", ir::DType::UInt8, {relu != nullptr ? 0 : 128}, true);
        emit("QuantizeLinear", result + "_QuantizeLinear", {result + "_float", scale, zero},
             {result + "_quantized"});
        emit("DequantizeLinear", result + "_DequantizeLinear", {result + "_quantized", scale, zero},
             {result});
        dequantized_[result] = result;
    }

    // ---- dynamic ----

    /// \p tensor through DynamicQuantizeLinear (once per tensor): u8 values,
    /// scale, zero point.
    std::array<std::string, 3> dynamicActivation(const std::string& tensor) {
        if (auto it = dynamic_.find(tensor); it != dynamic_.end())
            return it->second;
        std::array<std::string, 3> outs{tensor + "_quantized", tensor + "_scale",
                                        tensor + "_zero_point"};
        emit("DynamicQuantizeLinear", tensor + "_QuantizeLinear", {tensor},
             {outs[0], outs[1], outs[2]});
        return dynamic_[tensor] = outs;
    }

    void dynamicNode(const onnx::NodeProto& node) {
        bool conv = node.op_type() == "Conv";
        const std::string& name = node.name();
        auto [xq, xs, xzp] = dynamicActivation(node.input(0));
        detail::ExternalWeight* w = external(node.input(1));
        // ONNX Runtime's CPU ConvInteger takes u8 weights; MatMulInteger i8.
        w->dtype = conv ? ir::DType::UInt8 : ir::DType::Int8;
        std::string wzp = integers(w->name + "_zero_point", w->dtype, {conv ? 128 : 0}, true);
        std::string ws = floats(w->name + "_scale", {weightScale(w->shape)}, true);
        onnx::NodeProto& integer = emit(conv ? "ConvInteger" : "MatMulInteger", name + "_quant",
                                        {xq, w->name, xzp, wzp}, {name + "_output_quantized"});
        if (conv)
            for (const auto& attr : node.attribute())
                *integer.add_attribute() = attr;
        onnx::NodeProto& cast = emit("Cast", name + "_output_quantized_cast",
                                     {name + "_output_quantized"}, {name + "_output_cast"});
        intAttribute(cast, "to", TensorProto::FLOAT);
        emit("Mul", name + "_scales_mul", {xs, ws}, {name + "_scales"});
        bool bias = conv && node.input_size() > 2;
        std::string scaled = bias ? name + "_output_scaled" : node.output(0);
        emit("Mul", name + "_output_scale_mul", {name + "_output_cast", name + "_scales"},
             {scaled});
        if (bias) {
            detail::ExternalWeight* b = external(node.input(2));
            b->shape = {b->shape[0], 1, 1}; // broadcasts over N x C x H x W
            emit("Add", name + "_bias_add", {scaled, b->name}, {node.output(0)});
        }
    }

    onnx::GraphProto& graph_;
    std::vector<detail::ExternalWeight>& externals_;
    std::map<std::string, int> uses_;
    std::map<std::string, std::string> dequantized_;
    std::map<std::string, std::array<std::string, 3>> dynamic_;
    std::vector<onnx::NodeProto> out_;
    std::set<const onnx::NodeProto*> emitted_;
};

} // namespace

void ModelBuilder::quantize(Quantization mode) {
    Quantizer(*impl_->graph(), impl_->externals).run(mode);
}

} // namespace stagecraft::onnxio
