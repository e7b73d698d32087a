// The lowering of each op kind (codegen/internal/lowering.h, lowerOp): the
// one switch over every ir::OpKind in the code generator, so a kind added to
// the IR is placed here before anything compiles.

#include "codegen/internal/lowering.h"

namespace stagecraft::codegen::detail {

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
        return lowerIntegerContraction(e, call);
    case TopK:
    case Unknown:
        break;
    }
    return call.error("code generation does not support this op type");
}

} // namespace stagecraft::codegen::detail
