// The lowering of each op kind (codegen/internal/lowering.h, lowerOp): the
// one switch over every ir::OpKind in the code generator, so a kind added to
// the IR is placed here before anything compiles.

#include "codegen/internal/lowering.h"
#include "ir/graph.h"

#include <algorithm>
#include <set>

namespace stagecraft::codegen::detail {

namespace {

/// "--value A=V --value B=V" for the graph inputs the first \p slots inputs
/// of \p call are computed from; empty when they are computed from none.
std::string valuesToGive(const OpCall& call, size_t slots) {
    std::set<std::string> names;
    for (size_t slot = 0; slot < std::min(slots, call.op().inputs.size()); ++slot)
        for (const std::string& name : ir::graphInputsBehind(*call.graph, call.op().inputs[slot]))
            names.insert(name);
    std::string flags;
    for (const std::string& name : names)
        flags += (flags.empty() ? "--value " : " --value ") + name + "=V";
    return flags;
}

/// Why code generation refuses an op it has no lowering for: an If or Loop
/// the import could not fold (and what value would fold it), an op whose
/// output shape depends on the data, or an op type it does not know.
Error unsupported(const OpCall& call) {
    const std::string& type = call.op().type;
    if (type == "If" || type == "Loop") {
        // If: its condition; Loop: its trip count and start condition.
        std::string values = valuesToGive(call, type == "If" ? 1 : 2);
        std::string what = type == "If" ? "an If whose condition the import did not know"
                                        : "a Loop the import could not unroll";
        if (!values.empty())
            return call.error(what + " runs no code: give " + values +
                              " so that the import can fold it");
        return call.error(what + " runs no code: " +
                          (type == "If" ? "its condition depends on no input but is not a "
                                          "constant the import could fold"
                                        : "its trip count and condition depend on no input, "
                                          "so it is too long to unroll (over 256 iterations "
                                          "or 4,096 ops) or exits on data"));
    }
    if (type == "NonZero" || type == "Unique" || type == "NonMaxSuppression")
        return call.error("its output's shape depends on the data, and kernels have static "
                          "shapes; code generation does not support it");
    return call.error("code generation does not support this op type");
}

} // namespace

/// The lowering of each kind. Every kind is listed, so a new one must be
/// placed here before the code generator compiles; the elementwise and
/// movement kinds go to lowerPointwise, which refuses those it cannot compute.
Status lowerOp(Emitter& e, const OpCall& call) {
    using enum ir::OpKind;
    switch (call.op().kind) {
    case Conv:
    case MatMul:
    case Gemm:
        return lowerContraction(e, call);
    case ConvTranspose:
        return lowerConvTranspose(e, call);
    case Concat:
        return lowerConcat(e, call);
    case Pad:
        return lowerPad(e, call);
    case Gather:
    case GatherElements:
        return lowerGather(e, call);
    case Resize:
        return lowerResize(e, call);
    case GridSample:
        return lowerGridSample(e, call);
    case Softmax:
    case LogSoftmax:
    case Hardmax:
    case LayerNormalization:
    case InstanceNormalization:
        return lowerNormalization(e, call);
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
    case MaxPool:
    case AveragePool:
    case LpPool:
    case GlobalAveragePool:
    case GlobalMaxPool:
    case GlobalLpPool:
    case ArgMax:
    case ArgMin:
        return lowerReduction(e, call);
    case Abs:
    case Acos:
    case Acosh:
    case Add:
    case And:
    case Asin:
    case Asinh:
    case Atan:
    case Atanh:
    case BatchNormalization:
    case BitShift:
    case BitwiseAnd:
    case BitwiseNot:
    case BitwiseOr:
    case BitwiseXor:
    case Cast:
    case Ceil:
    case Celu:
    case Clip:
    case Cos:
    case Cosh:
    case DepthToSpace:
    case Div:
    case Dropout:
    case Elu:
    case Equal:
    case Erf:
    case Exp:
    case Expand:
    case Flatten:
    case Floor:
    case Gelu:
    case Greater:
    case GreaterOrEqual:
    case HardSigmoid:
    case HardSwish:
    case Identity:
    case IsInf:
    case IsNaN:
    case LeakyRelu:
    case Less:
    case LessOrEqual:
    case Log:
    case Max:
    case Mean:
    case Min:
    case Mish:
    case Mod:
    case Mul:
    case Neg:
    case Not:
    case Or:
    case PRelu:
    case Pow:
    case Reciprocal:
    case Relu:
    case Reshape:
    case Round:
    case Selu:
    case Shrink:
    case Sigmoid:
    case Sign:
    case Sin:
    case Sinh:
    case Slice:
    case Softplus:
    case Softsign:
    case SpaceToDepth:
    case Split:
    case Sqrt:
    case Squeeze:
    case Sub:
    case Sum:
    case Tan:
    case Tanh:
    case ThresholdedRelu:
    case Tile:
    case Transpose:
    case Unsqueeze:
    case Where:
    case Xor:
        return lowerPointwise(e, call);
    case Trilu:
        return lowerTrilu(e, call);
    case CumSum:
    case OneHot:
    case GatherND:
    case ScatterElements:
    case ScatterND:
        return lowerIndexed(e, call);
    case QuantizeLinear:
    case DequantizeLinear:
        return lowerQuantize(e, call);
    case ConvInteger:
    case MatMulInteger:
    case QLinearConv:
    case QLinearMatMul:
        if (call.outputs[0].base != nullptr && lowerBlockedContraction(e, call))
            return Status::success();
        return lowerIntegerContraction(e, call);
    case TopK:
    case Unknown:
        break;
    }
    return unsupported(call);
}

} // namespace stagecraft::codegen::detail
