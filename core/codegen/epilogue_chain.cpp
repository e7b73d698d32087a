// Epilogue chains (internal/epilogue_chain.h; docs/codegen.md, "Epilogues
// in registers"): the elementwise ops after a contraction that the lowering
// may apply to its sums before the one store. A chain qualifies when each op
// reads the tensor before it exactly once, that tensor is read by no other
// op and lives only in the tile (Home::Fused), and every op computes the
// contraction's region in its floating-point type; a requantized
// contraction's chain starts with the DequantizeLinear of its bytes, an
// integer one's with the Cast of its int32 sums, and any chain may end in a
// QuantizeLinear. Plain data: the host's tile merging asks it too.

#include "codegen/internal/epilogue_chain.h"

#include "ir/graph.h"

#include <algorithm>

namespace stagecraft::codegen::detail {

namespace {

/// The elementwise kinds an epilogue takes: those whose scalar function is
/// plain arithmetic, comparison and selection (no libm call, which the
/// riscv64 objects make for exp).
bool epilogueKind(ir::OpKind kind) {
    using enum ir::OpKind;
    switch (kind) {
    case Add:
    case Sub:
    case Mul:
    case Max:
    case Min:
    case Relu:
    case LeakyRelu:
    case Clip:
    case HardSigmoid:
    case HardSwish:
    case BatchNormalization:
        return true;
    default:
        return false;
    }
}

bool contractionKind(ir::OpKind kind) {
    return kind == ir::OpKind::Conv || kind == ir::OpKind::ConvTranspose ||
           kind == ir::OpKind::MatMul;
}

/// Contractions whose sums are requantized to bytes in their own lowering.
bool requantizedKind(ir::OpKind kind) {
    return kind == ir::OpKind::QLinearConv || kind == ir::OpKind::QLinearMatMul;
}

/// Contractions whose int32 sums are their output.
bool summedKind(ir::OpKind kind) {
    return kind == ir::OpKind::ConvInteger || kind == ir::OpKind::MatMulInteger;
}

bool byteType(ir::DType t) {
    return t == ir::DType::UInt8 || t == ir::DType::Int8;
}

/// Inputs of the ops of \p layer that are \p tensor.
int64_t readersOf(const ir::Graph& graph, const LayerCode& layer, ir::TensorId tensor) {
    int64_t readers = 0;
    for (const OpStep& step : layer.ops)
        for (ir::TensorId in : graph.op(step.op).inputs)
            readers += in == tensor ? 1 : 0;
    return readers;
}

/// Whether \p step reads \p current, the chain's last tensor, once, as its
/// only reader, over the contraction's region and shape, and \p current
/// lives only in the tile.
bool readsChainAlone(const ir::Graph& graph, const LayerCode& layer, const OpStep& step,
                     const OpStep& contraction, ir::TensorId current) {
    const ir::Op& op = graph.op(step.op);
    if (op.outputs.size() != 1 || step.regions.size() != 1 ||
        !(step.regions[0] == contraction.regions[0]) ||
        std::count(op.inputs.begin(), op.inputs.end(), current) != 1)
        return false;
    const View* view = layer.viewOf(current);
    return view != nullptr && view->home == Home::Fused && readersOf(graph, layer, current) == 1 &&
           graph.tensor(op.outputs[0]).shape == graph.tensor(current).shape;
}

/// Whether \p step converts \p current at an end of the chain: a
/// DequantizeLinear of bytes or a Cast of int32 to f32 (first), a
/// QuantizeLinear of f32 to bytes (last), reading it as its data.
bool convertsChain(const ir::Graph& graph, const LayerCode& layer, const OpStep& step,
                   const OpStep& contraction, ir::TensorId current, ir::OpKind kind) {
    const ir::Op& op = graph.op(step.op);
    if (op.kind != kind || op.inputs.empty() || op.inputs[0] != current ||
        !readsChainAlone(graph, layer, step, contraction, current))
        return false;
    const ir::DType from = graph.tensor(current).dtype, to = graph.tensor(op.outputs[0]).dtype;
    switch (kind) {
    case ir::OpKind::DequantizeLinear:
        return byteType(from) && to == ir::DType::Float32;
    case ir::OpKind::Cast:
        return from == ir::DType::Int32 && to == ir::DType::Float32;
    default:
        return from == ir::DType::Float32 && byteType(to);
    }
}

/// Whether \p step can follow the chain whose last tensor is \p current.
bool extendsChain(const ir::Graph& graph, const LayerCode& layer, const OpStep& step,
                  const OpStep& contraction, ir::TensorId current, ir::DType type) {
    const ir::Op& op = graph.op(step.op);
    for (ir::TensorId in : op.inputs)
        if (in != ir::kNoTensor && graph.tensor(in).dtype != type)
            return false; // scalarOp's vectors are of one type
    return epilogueKind(op.kind) && op.outputs.size() == 1 &&
           graph.tensor(op.outputs[0]).dtype == type &&
           readsChainAlone(graph, layer, step, contraction, current);
}

/// Whether \p op is a float Conv of one group whose weight has more than
/// one tap: its reduction runs over taps, never in chunks.
bool tappedFloatConv(const ir::Graph& graph, const ir::Op& op) {
    if (op.kind != ir::OpKind::Conv || op.inputs.size() < 2 || op.inputs[1] == ir::kNoTensor ||
        op.attrs.getInt("group", 1) != 1)
        return false;
    const ir::Tensor& weight = graph.tensor(op.inputs[1]);
    int64_t taps = 1;
    for (size_t d = 2; d < weight.shape.size(); ++d)
        taps *= weight.shape[d];
    const ir::DType t = weight.dtype;
    return taps > 1 && (t == ir::DType::Float32 || t == ir::DType::Float64) &&
           graph.tensor(op.inputs[0]).dtype == t;
}

} // namespace

size_t epilogueLength(const ir::Graph& graph, const LayerCode& layer, std::span<const OpStep> steps,
                      size_t first) {
    const ir::Op& op = graph.op(steps[first].op);
    const bool requantized = requantizedKind(op.kind), summed = summedKind(op.kind);
    if ((!contractionKind(op.kind) && !requantized && !summed) || op.outputs.size() != 1 ||
        steps[first].regions.size() != 1)
        return 0;
    const OpStep& contraction = steps[first];
    ir::TensorId current = op.outputs[0];
    size_t next = first + 1;
    auto takes = [&](bool taken) {
        if (taken)
            current = graph.op(steps[next++].op).outputs[0];
        return taken;
    };
    if ((requantized || summed) && // its bytes dequantized, its sums cast first
        !takes(next < steps.size() &&
               convertsChain(graph, layer, steps[next], contraction, current,
                             requantized ? ir::OpKind::DequantizeLinear : ir::OpKind::Cast)))
        return 0;
    const ir::DType type = graph.tensor(current).dtype;
    if (type != ir::DType::Float32 && type != ir::DType::Float64)
        return 0;
    while (next < steps.size() &&
           takes(extendsChain(graph, layer, steps[next], contraction, current, type)))
        continue;
    takes(next < steps.size() && convertsChain(graph, layer, steps[next], contraction, current,
                                               ir::OpKind::QuantizeLinear));
    return next - first - 1;
}

std::vector<ir::TensorId> registerOnlyTensors(const ir::Graph& graph, const LayerCode& layer) {
    std::vector<ir::TensorId> tensors;
    for (size_t i = 0; i < layer.ops.size(); ++i) {
        const ir::Op& op = graph.op(layer.ops[i].op);
        if (!tappedFloatConv(graph, op))
            continue;
        const size_t length = epilogueLength(graph, layer, layer.ops, i);
        for (size_t k = i; k < i + length; ++k) // the last op's output is stored
            tensors.push_back(graph.op(layer.ops[k].op).outputs[0]);
        i += length;
    }
    return tensors;
}

} // namespace stagecraft::codegen::detail
