// Stores u8 weights of zero point 128 as s8 (ImportOptions::signWeights).
// ConvInteger, MatMulInteger, QLinearConv and QLinearMatMul take their
// weight (second factor) as u8 or s8; a constant u8 weight whose constant
// zero point is 128 in every channel (symmetric quantization, which ONNX
// Runtime's ConvInteger demands in u8) means w - 128, which is exactly the
// s8 value of w ^ 0x80 with zero point 0. The rewrite keeps every sum, and
// lets the host run such a weight by byte dot products, which multiply u8
// by s8 (codegen.md, "Byte dot products"). docs/onnx-import.md, "Simplify".

#include "onnx/internal/import_session.h"
#include "support/strings.h"

#include <algorithm>

namespace stagecraft::onnxio {

namespace {

using ir::Graph;
using ir::OpId;
using ir::TensorId;

/// The weight's input slot of \p kind, or -1; its zero point is 2 after it.
int weightSlotOf(ir::OpKind kind) {
    switch (kind) {
    case ir::OpKind::ConvInteger:
    case ir::OpKind::MatMulInteger:
        return 1;
    case ir::OpKind::QLinearConv:
    case ir::OpKind::QLinearMatMul:
        return 3;
    default:
        return -1;
    }
}

/// Input \p slot of \p op, or kNoTensor where the op has none.
TensorId inputAt(const ir::Op& op, int slot) {
    return slot >= 0 && static_cast<size_t>(slot) < op.inputs.size()
               ? op.inputs[static_cast<size_t>(slot)]
               : ir::kNoTensor;
}

/// Whether \p t is a u8 constant whose every byte is 128.
bool allCentred(const Graph& g, TensorId t) {
    if (t == ir::kNoTensor || !g.tensor(t).isConstant() || g.tensor(t).dtype != ir::DType::UInt8)
        return false;
    auto bytes = g.tensor(t).data->bytes();
    return bytes.ok() && !bytes->empty() &&
           std::all_of(bytes->begin(), bytes->end(),
                       [](std::byte b) { return b == std::byte{128}; });
}

std::string freshName(const Graph& g, const std::string& base) {
    std::string name = base;
    for (int k = 2; g.findTensor(name); ++k)
        name = base + "_" + std::to_string(k);
    return name;
}

/// Rewrites \p id's weight and zero point when they qualify.
bool signWeight(Graph& g, OpId id) {
    const ir::Op& op = g.op(id);
    const int slot = weightSlotOf(op.kind);
    const TensorId weight = inputAt(op, slot);
    const TensorId zero = inputAt(op, slot + 2);
    if (weight == ir::kNoTensor || !g.tensor(weight).isConstant() ||
        g.tensor(weight).dtype != ir::DType::UInt8 || !allCentred(g, zero))
        return false;
    // Copies: adding tensors moves the graph's.
    const ir::Tensor w = g.tensor(weight);
    const ir::Tensor z = g.tensor(zero);
    const ir::WeightPtr source = w.data;
    auto flipped =
        ir::makeDerivedWeight(w.byteSize(), "u8 weight less 128 as s8 for " + quote(op.name),
                              [source]() -> Expected<std::vector<std::byte>> {
                                  SC_ASSIGN_OR_RETURN(auto bytes, source->bytes());
                                  std::vector<std::byte> out(bytes.begin(), bytes.end());
                                  for (std::byte& b : out)
                                      b ^= std::byte{0x80};
                                  return out;
                              });
    const TensorId signedWeight =
        g.addTensor(freshName(g, w.name + ".s8"), ir::DType::Int8, w.shape, flipped);
    const TensorId signedZero =
        g.addTensor(freshName(g, z.name + ".s8"), ir::DType::Int8, z.shape,
                    ir::makeInlineWeight(std::vector<std::byte>(
                        static_cast<size_t>(z.elementCount()), std::byte{0})));
    g.setOpInput(id, slot, signedWeight);
    g.setOpInput(id, slot + 2, signedZero);
    return true;
}

} // namespace

int signWeights(Graph& graph) {
    int signedOps = 0;
    for (OpId id : graph.opIds())
        if (!graph.isRemoved(id) && signWeight(graph, id))
            ++signedOps;
    return signedOps;
}

} // namespace stagecraft::onnxio
