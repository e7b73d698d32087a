// The fill of a matrix unit's array (docs/simulator.md, "The array's fill").
// A matrix unit of R × C multiply-accumulators runs a contraction with its
// reduction down the rows and its output features across the columns, as a
// weight-stationary array holds one R × C block of the weight at a time. A
// reduction of K per output element takes ⌈K / R⌉ passes of R rows, so the
// rows are filled K / (R ⌈K / R⌉); the features likewise along the columns.
// The op runs at that share of the unit's rate, for every strategy alike:
//   - MatMul (and the integer forms): K = the first operand's last dim,
//     features = the second's last dim (1 for a vector);
//   - Gemm: K from the first operand (transA), features = the output's dim 1;
//   - Conv (and the integer forms): per group, K = input channels × kernel
//     taps (the weight's dims after the first), features = output channels
//     (a depthwise conv: K = its taps, one column);
//   - ConvTranspose: per group, K = input channels × taps, features = output
//     channels per group.
// Other complex ops, and units without an array, run at the full rate. The
// roofline keeps the unit's peak.

#include "kernel/internal/layers.h"

#include <algorithm>

namespace stagecraft::kernel::detail {

namespace {

struct Contraction {
    int64_t reduction = 0;
    int64_t features = 0;
};

const ir::Shape* shapeOf(const ir::Graph& graph, const ir::Op& op, size_t slot) {
    if (slot >= op.inputs.size() || op.inputs[slot] == ir::kNoTensor)
        return nullptr;
    return &graph.tensor(op.inputs[slot]).shape;
}

int64_t product(const ir::Shape& shape, size_t from) {
    int64_t p = 1;
    for (size_t i = from; i < shape.size(); ++i)
        p *= std::max<int64_t>(shape[i], 1);
    return p;
}

/// A conv's reduction and features per group, its weight at \p weightSlot.
Contraction convContraction(const ir::Graph& graph, const ir::Op& op, size_t weightSlot,
                            bool transposed) {
    const ir::Shape* w = shapeOf(graph, op, weightSlot);
    int64_t groups = std::max<int64_t>(op.attrs.getInt("group", 1), 1);
    if (w == nullptr || w->size() < 2)
        return {};
    if (transposed) // [Cin, Cout/g, taps...]
        return {(*w)[0] / groups * product(*w, 2), (*w)[1]};
    return {product(*w, 1), (*w)[0] / groups}; // [Cout, Cin/g, taps...]
}

Contraction contractionOf(const ir::Graph& graph, ir::OpId id) {
    const ir::Op& op = graph.op(id);
    if (op.outputs.empty())
        return {};
    const ir::Shape& out = graph.tensor(op.outputs.front()).shape;
    switch (op.kind) {
    case ir::OpKind::MatMul:
    case ir::OpKind::MatMulInteger:
    case ir::OpKind::QLinearMatMul: {
        const ir::Shape* a = shapeOf(graph, op, 0);
        const ir::Shape* b = shapeOf(graph, op, op.kind == ir::OpKind::QLinearMatMul ? 3 : 1);
        if (a == nullptr || b == nullptr || a->empty() || b->empty())
            return {};
        return {a->back(), b->size() == 1 ? 1 : b->back()};
    }
    case ir::OpKind::Gemm: {
        const ir::Shape* a = shapeOf(graph, op, 0);
        if (a == nullptr || a->size() != 2 || out.size() != 2)
            return {};
        return {op.attrs.getInt("transA", 0) != 0 ? (*a)[0] : (*a)[1], out[1]};
    }
    case ir::OpKind::Conv:
    case ir::OpKind::ConvInteger:
        return convContraction(graph, op, 1, false);
    case ir::OpKind::QLinearConv:
        return convContraction(graph, op, 3, false);
    case ir::OpKind::ConvTranspose:
        return convContraction(graph, op, 1, true);
    default:
        return {};
    }
}

/// The share of \p side lanes that \p extent fills over its passes.
double sideFill(int64_t extent, int64_t side) {
    if (side <= 0 || extent <= 0)
        return 1;
    int64_t passes = (extent + side - 1) / side;
    return static_cast<double>(extent) / static_cast<double>(passes * side);
}

} // namespace

double arrayFill(const ir::Graph& graph, const arch::ComputeUnit& unit, ir::OpId op) {
    if (unit.kind != arch::UnitKind::Matrix || unit.arrayRows <= 0 || unit.arrayCols <= 0)
        return 1;
    Contraction c = contractionOf(graph, op);
    if (c.reduction <= 0 || c.features <= 0)
        return 1;
    return sideFill(c.reduction, unit.arrayRows) * sideFill(c.features, unit.arrayCols);
}

} // namespace stagecraft::kernel::detail
