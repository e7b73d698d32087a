// The cost of an op: MACs, FLOPs and bytes (docs/op-semantics.md, "Costs"),
// the inputs of GraphTurbo §3.1's recomputation cost model and of the
// simulator's roofline bound (FLOPs against peak compute, bytes against DDR).
//
// MACs: complex ops only. Conv, MatMul and Gemm do one multiply-accumulate
// per point of their loop nest. ConvTranspose's nest is a gather over its
// output whose (o, k) pairs mostly read nothing when stride > 1, so its MACs
// are the real multiply count N*Cin*prod(input spatial)*(Cout/G)*prod(kernel).
// FLOPs: 2 per MAC for complex ops; output elements times a per-op count for
// elementwise ops (the table below: 1 for arithmetic, comparisons, Relu,
// Clip, Cast; 4 for a transcendental function; the sum of the parts for
// composites); 0 for injective ops (pure data movement; Resize's linear taps
// included); the product of all loop extents for reductions and pools (one
// operation per element visited); a stated count per output element for the
// Softmax family and the normalizations; 0 for opaque ops (unknown work).
// Bytes: every distinct present input tensor once, every output once.

#include "ops/internal/cost.h"

#include <algorithm>
#include <variant>

namespace stagecraft::ops::detail {

namespace {

int64_t product(const std::vector<LoopDim>& loops, size_t count) {
    int64_t total = 1;
    for (size_t i = 0; i < count; ++i)
        total *= loops[i].extent;
    return total;
}

int64_t convTransposeMacs(const OpContext& ctx) {
    const ir::Shape& x = ctx.inputShape(0);
    const ir::Shape& w = ctx.inputShape(1); // [Cin, Cout/G, kernel...]
    int64_t macs = x[0] * x[1] * w[1];
    for (size_t i = 2; i < x.size(); ++i)
        macs *= x[i] * w[i];
    return macs;
}

/// Operations per output element of an elementwise kind whose count does
/// not depend on its attributes or inputs; 0 for every other kind. Every
/// kind is listed, so a new one cannot be forgotten here.
int64_t fixedElementwiseCount(ir::OpKind kind) {
    using enum ir::OpKind;
    switch (kind) {
    case Abs:
    case Add:
    case And:
    case BitShift:
    case BitwiseAnd:
    case BitwiseNot:
    case BitwiseOr:
    case BitwiseXor:
    case Cast:
    case Ceil:
    case Clip:
    case Div:
    case Dropout:
    case Equal:
    case Floor:
    case Greater:
    case GreaterOrEqual:
    case Identity:
    case IsInf:
    case IsNaN:
    case Less:
    case LessOrEqual:
    case Mod:
    case Mul:
    case Neg:
    case Not:
    case Or:
    case Reciprocal:
    case Relu:
    case Round:
    case Sign:
    case Sub:
    case ThresholdedRelu:
    case Trilu:
    case Where:
    case Xor:
        return 1;
    case Acos:
    case Acosh:
    case Asin:
    case Asinh:
    case Atan:
    case Atanh:
    case Cos:
    case Cosh:
    case Erf:
    case Exp:
    case Log:
    case Pow:
    case Sigmoid:
    case Sin:
    case Sinh:
    case Sqrt:
    case Tan:
    case Tanh:
        return 4; // a transcendental function
    case LeakyRelu:
        return 2; // compare, multiply
    case PRelu:
        return 2; // compare, multiply
    case Shrink:
        return 2; // compare, add
    case Softsign:
        return 3; // abs, add, divide
    case HardSigmoid:
        return 4; // multiply, add, min, max
    case BatchNormalization:
        return 4; // subtract mean, times 1/sqrt(var), times scale, add bias
    case QuantizeLinear:
        return 4; // divide, round, add the zero point, saturate
    case DequantizeLinear:
        return 2; // subtract the zero point, multiply
    case HardSwish:
        return 5; // HardSigmoid, multiply
    case Elu:
        return 7; // compare, exp, subtract, multiply
    case Selu:
        return 8; // Elu, multiply
    case Softplus:
        return 9; // exp, add, log
    case Celu:
        return 10; // divide, exp, subtract, multiply, min, max, add
    case Mish:
        return 14; // Softplus, tanh, multiply
    case Unknown:
    case Sum:
    case Max:
    case Min:
    case Mean:
    case Gelu:
    case ArgMax:
    case ArgMin:
    case AveragePool:
    case Concat:
    case Conv:
    case ConvTranspose:
    case DepthToSpace:
    case Expand:
    case Flatten:
    case CumSum:
    case Gather:
    case GatherElements:
    case GatherND:
    case Gemm:
    case GridSample:
    case ConvInteger:
    case MatMulInteger:
    case QLinearConv:
    case QLinearMatMul:
    case GlobalAveragePool:
    case GlobalLpPool:
    case GlobalMaxPool:
    case Hardmax:
    case InstanceNormalization:
    case LayerNormalization:
    case LogSoftmax:
    case LpPool:
    case MatMul:
    case MaxPool:
    case OneHot:
    case Pad:
    case ReduceL1:
    case ReduceL2:
    case ReduceLogSum:
    case ReduceLogSumExp:
    case ReduceMax:
    case ReduceMean:
    case ReduceMin:
    case ReduceProd:
    case ReduceSum:
    case ReduceSumSquare:
    case Reshape:
    case Resize:
    case ScatterElements:
    case ScatterND:
    case Slice:
    case Softmax:
    case SpaceToDepth:
    case Split:
    case Squeeze:
    case Tile:
    case TopK:
    case Transpose:
    case Unsqueeze:
        return 0;
    }
    return 0;
}

int presentInputs(const ir::Op& op) {
    return static_cast<int>(std::count_if(op.inputs.begin(), op.inputs.end(),
                                          [](ir::TensorId t) { return t != ir::kNoTensor; }));
}

} // namespace

int64_t elementwiseCost(const ir::Op& op) {
    using enum ir::OpKind;
    if (op.kind == Sum || op.kind == Max || op.kind == Min)
        return std::max(1, presentInputs(op) - 1); // n - 1 binary operations
    if (op.kind == Mean)
        return std::max(1, presentInputs(op)); // n - 1 additions and a scale
    if (op.kind == Gelu) {
        const ir::AttrValue* approximate = op.attrs.find("approximate");
        const auto* text = approximate ? std::get_if<std::string>(approximate) : nullptr;
        // exact: divide, erf, add, multiply, multiply; tanh: a cubic polynomial (6), tanh, 2 more
        return text && *text == "tanh" ? 12 : 8;
    }
    return fixedElementwiseCount(op.kind);
}

int64_t normalizationCost(ir::OpKind kind) {
    using enum ir::OpKind;
    if (kind == Softmax || kind == LogSoftmax)
        return 8; // max, subtract, exp, accumulate, divide (or subtract the log-sum)
    if (kind == Hardmax)
        return 2; // compare, write
    if (kind == LayerNormalization || kind == InstanceNormalization)
        return 7; // mean, subtract, square, accumulate, normalize, scale, bias
    return 0;
}

OpCost computeCost(const OpContext& ctx, Category category, const std::vector<LoopNest>& nests) {
    OpCost cost;
    const ir::Op& op = ctx.op();
    std::vector<ir::TensorId> inputs = op.inputs; // each read once (a Concat may have 10^5)
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    for (ir::TensorId t : inputs)
        if (t != ir::kNoTensor)
            cost.bytesRead += ctx.graph().tensor(t).byteSize();
    for (ir::TensorId t : op.outputs)
        cost.bytesWritten += ctx.graph().tensor(t).byteSize();
    if (nests.empty())
        return cost;

    const LoopNest& nest = nests.front();
    int64_t outputElements = product(nest.loops, static_cast<size_t>(nest.outputRank));
    int64_t allPoints = product(nest.loops, nest.loops.size());
    switch (category) {
    case Category::Complex:
        cost.macs = op.kind == ir::OpKind::ConvTranspose ? convTransposeMacs(ctx) : allPoints;
        cost.flops = 2 * cost.macs;
        break;
    case Category::Elementwise:
        cost.flops = outputElements * elementwiseCost(op);
        break;
    case Category::Reduction: {
        int64_t perElement = normalizationCost(op.kind);
        cost.flops = perElement ? outputElements * perElement : allPoints;
        break;
    }
    case Category::Injective:
    case Category::Opaque:
        break;
    }
    return cost;
}

} // namespace stagecraft::ops::detail
