#pragma once
/// \file
/// Op kinds: one enumerator per op type of the default ONNX domain that
/// Stagecraft has semantics for (ops/registry.cpp), set on every ir::Op as
/// it is added to a graph (Graph::addOp), from its type and domain. Passes
/// switch on the kind, so the compiler names a kind a pass forgets; the
/// type string stays for display and for the importer, which also meets
/// ONNX ops that never reach a schedule (Constant, Shape, ...) (docs/ir.md).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

// clang-format off
/// Every op kind, in name order; X(name) once each, name the ONNX spelling.
#define STAGECRAFT_OP_KINDS(X) \
    X(Abs) X(Acos) X(Acosh) X(Add) X(And) X(ArgMax) X(ArgMin) X(Asin) X(Asinh) X(Atan) X(Atanh) \
    X(AveragePool) X(BatchNormalization) X(BitShift) X(BitwiseAnd) X(BitwiseNot) X(BitwiseOr) X(BitwiseXor) \
    X(Cast) X(Ceil) X(Celu) X(Clip) X(Concat) X(Conv) X(ConvInteger) X(ConvTranspose) X(Cos) X(Cosh) X(CumSum) \
    X(DepthToSpace) X(DequantizeLinear) X(Div) X(Dropout) X(Elu) X(Equal) X(Erf) X(Exp) X(Expand) X(Flatten) X(Floor) \
    X(Gather) X(GatherElements) X(GatherND) X(Gelu) X(Gemm) X(GlobalAveragePool) X(GlobalLpPool) \
    X(GlobalMaxPool) X(Greater) X(GreaterOrEqual) X(GridSample) X(HardSigmoid) X(HardSwish) X(Hardmax) \
    X(Identity) X(InstanceNormalization) X(IsInf) X(IsNaN) X(LayerNormalization) X(LeakyRelu) \
    X(Less) X(LessOrEqual) X(Log) X(LogSoftmax) X(LpPool) X(MatMul) X(MatMulInteger) X(Max) X(MaxPool) X(Mean) \
    X(Min) X(Mish) X(Mod) X(Mul) X(Neg) X(Not) X(OneHot) X(Or) X(PRelu) X(Pad) X(Pow) X(QLinearConv) X(QLinearMatMul) X(QuantizeLinear) X(Reciprocal) \
    X(ReduceL1) X(ReduceL2) X(ReduceLogSum) X(ReduceLogSumExp) X(ReduceMax) X(ReduceMean) \
    X(ReduceMin) X(ReduceProd) X(ReduceSum) X(ReduceSumSquare) X(Relu) X(Reshape) X(Resize) \
    X(Round) X(ScatterElements) X(ScatterND) X(Selu) X(Shrink) X(Sigmoid) X(Sign) X(Sin) X(Sinh) X(Slice) X(Softmax) X(Softplus) \
    X(Softsign) X(SpaceToDepth) X(Split) X(Sqrt) X(Squeeze) X(Sub) X(Sum) X(Tan) X(Tanh) \
    X(ThresholdedRelu) X(Tile) X(TopK) X(Transpose) X(Trilu) X(Unsqueeze) X(Where) X(Xor)
// clang-format on

namespace stagecraft::ir {

enum class OpKind : uint8_t {
    /// A type without semantics, or an op of a non-default domain.
    Unknown,
#define STAGECRAFT_OP_KIND_ENUMERATOR(name) name,
    STAGECRAFT_OP_KINDS(STAGECRAFT_OP_KIND_ENUMERATOR)
#undef STAGECRAFT_OP_KIND_ENUMERATOR
};

/// Every kind but Unknown, in name order.
std::span<const OpKind> opKinds();

/// The ONNX spelling of \p kind ("Conv"); "Unknown" for OpKind::Unknown.
std::string_view opKindName(OpKind kind);

/// True for the default ONNX domain: "" or "ai.onnx".
bool isDefaultDomain(std::string_view domain);

/// The kind of op type \p type in \p domain; Unknown outside the default
/// domain or for a type without semantics.
OpKind opKindOf(std::string_view type, std::string_view domain = {});

} // namespace stagecraft::ir
