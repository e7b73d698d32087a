// The scalar functions of elementwise ops (ONNX operator definitions): one
// output element from the input elements at the same point. Floating-point
// ops use LLVM intrinsics where they exist and libm otherwise (tanhf, erff:
// the DSA's runtime or the host's C library provides them); the numbers
// are checked against ONNX Runtime by the tests (docs/codegen.md).

#include "codegen/internal/lowering.h"
#include "ir/const_tensor.h"

#include <llvm/IR/Intrinsics.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace stagecraft::codegen::detail {

namespace {

using enum ir::OpKind;

// clang-format off
constexpr ir::OpKind kScalarOps[] = {
    Abs, Acos, Acosh, Add, And, Asin, Asinh, Atan, Atanh, BatchNormalization, BitShift, BitwiseAnd,
    BitwiseNot, BitwiseOr, BitwiseXor, Cast, Ceil, Celu, Clip, Cos, Cosh, Div, Elu, Equal, Erf,
    Exp, Floor, Gelu, Greater, GreaterOrEqual, HardSigmoid, HardSwish, IsInf, IsNaN, LeakyRelu,
    Less, LessOrEqual, Log, Max, Mean, Min, Mish, Mod, Mul, Neg, Not, Or, PRelu, Pow, Reciprocal,
    Relu, Round, Selu, Shrink, Sigmoid, Sign, Sin, Sinh, Softplus, Softsign, Sqrt, Sub, Sum, Tan,
    Tanh, ThresholdedRelu, Where, Xor,
};
// clang-format on

using llvm::Intrinsic::ID;

/// Values and types of one evaluation.
struct Point {
    Emitter& e;
    const OpCall& call;
    std::span<Value* const> args;
    std::span<const ir::DType> types;
    ir::DType out;
    /// Lanes when the arguments are vectors (an epilogue, lower_epilogue.cpp),
    /// else 0: constants are then splats.
    unsigned lanes = 0;

    llvm::IRBuilder<>& b() const { return e.b(); }
    bool isFloat() const { return ir::isFloatingPoint(out); }
    /// Argument \p i converted to the output type.
    Value* arg(size_t i) const { return e.convert(args[i], types[i], out); }
    Value* c(double value) const {
        Value* constant = e.constant(out, value);
        return lanes > 0 ? b().CreateVectorSplat(lanes, constant) : constant;
    }
    double attr(std::string_view name, double fallback) const {
        return call.op().attrs.getFloat(name, fallback);
    }
    Value* call1(ID id, Value* x) const {
        std::array<Value*, 1> a{x};
        return e.intrinsic(id, a);
    }
    Value* math(const char* f32, const char* f64, Value* x) const {
        std::array<Value*, 1> a{x};
        return e.callMath(f32, f64, a);
    }
    Value* exp(Value* x) const { return expOf(e, x); }
    Value* erf(Value* x) const { return erfOf(e, x); }
    Value* log(Value* x) const { return call1(llvm::Intrinsic::log, x); }
    Value* select(Value* cond, Value* a, Value* bb) const { return b().CreateSelect(cond, a, bb); }
    Value* gt(Value* x, Value* y) const {
        return isFloat() ? b().CreateFCmpOGT(x, y) : b().CreateICmpSGT(x, y);
    }
    Value* lt(Value* x, Value* y) const {
        return isFloat() ? b().CreateFCmpOLT(x, y) : b().CreateICmpSLT(x, y);
    }
    Value* add(Value* x, Value* y) const {
        return isFloat() ? b().CreateFAdd(x, y) : b().CreateAdd(x, y);
    }
    Value* sub(Value* x, Value* y) const {
        return isFloat() ? b().CreateFSub(x, y) : b().CreateSub(x, y);
    }
    Value* mul(Value* x, Value* y) const {
        return isFloat() ? b().CreateFMul(x, y) : b().CreateMul(x, y);
    }
    Value* div(Value* x, Value* y) const {
        return isFloat() ? b().CreateFDiv(x, y) : b().CreateSDiv(x, y);
    }
    Value* maxOf(Value* x, Value* y) const { return select(gt(y, x), y, x); }
    Value* minOf(Value* x, Value* y) const { return select(lt(y, x), y, x); }
    /// x > 0 ? x : alpha * (exp(x) - 1)
    Value* elu(Value* x, double alpha) const {
        return select(gt(x, c(0)), x, mul(c(alpha), sub(exp(x), c(1))));
    }
    Value* softplus(Value* x) const { return log(add(exp(x), c(1))); }
};

/// Comparisons are made in the first input's type.
Value* compare(const Point& p, ir::OpKind kind) {
    auto& b = p.b();
    ir::DType t = p.types[0];
    Value* x = p.args[0];
    Value* y = p.e.convert(p.args[1], p.types[1], t);
    if (ir::isFloatingPoint(t)) {
        if (kind == Equal)
            return b.CreateFCmpOEQ(x, y);
        if (kind == Less)
            return b.CreateFCmpOLT(x, y);
        if (kind == LessOrEqual)
            return b.CreateFCmpOLE(x, y);
        if (kind == Greater)
            return b.CreateFCmpOGT(x, y);
        return b.CreateFCmpOGE(x, y);
    }
    if (kind == Equal)
        return b.CreateICmpEQ(x, y);
    if (kind == Less)
        return b.CreateICmpSLT(x, y);
    if (kind == LessOrEqual)
        return b.CreateICmpSLE(x, y);
    if (kind == Greater)
        return b.CreateICmpSGT(x, y);
    return b.CreateICmpSGE(x, y);
}

/// Ops over any number of inputs: Sum, Mean, Max, Min (and binary arithmetic).
Value* variadic(const Point& p, ir::OpKind kind) {
    Value* acc = p.arg(0);
    for (size_t i = 1; i < p.args.size(); ++i) {
        if (p.args[i] == nullptr)
            continue;
        Value* x = p.arg(i);
        if (kind == Add || kind == Sum || kind == Mean)
            acc = p.add(acc, x);
        else if (kind == Sub)
            acc = p.sub(acc, x);
        else if (kind == Mul)
            acc = p.mul(acc, x);
        else if (kind == Div)
            acc = p.div(acc, x);
        else if (kind == Max)
            acc = p.maxOf(acc, x);
        else
            acc = p.minOf(acc, x);
    }
    if (kind == Mean)
        acc = p.div(acc, p.c(static_cast<double>(p.args.size())));
    return acc;
}

Value* batchNorm(const Point& p) {
    double eps = p.attr("epsilon", 1e-5);
    Value* x = p.arg(0);
    Value* scale = p.arg(1);
    Value* bias = p.arg(2);
    Value* mean = p.arg(3);
    Value* var = p.arg(4);
    Value* inv = p.div(p.c(1), p.call1(llvm::Intrinsic::sqrt, p.add(var, p.c(eps))));
    return p.add(p.mul(p.mul(p.sub(x, mean), inv), scale), bias);
}

/// Clip's bound \p slot (1: min, 2: max) when computed at run time, else null.
Value* runtimeBound(const Point& p, size_t slot) {
    return p.args.size() > slot && p.args[slot] != nullptr ? p.arg(slot) : nullptr;
}

/// x clipped from below (\p lower) or above by \p bound.
Value* clipBy(const Point& p, Value* x, Value* bound, bool lower) {
    auto& b = p.b();
    if (p.isFloat())
        return lower ? p.maxOf(x, bound) : p.minOf(x, bound);
    bool u = isUnsigned(p.out);
    Value* beyond = lower ? (u ? b.CreateICmpUGT(bound, x) : b.CreateICmpSGT(bound, x))
                          : (u ? b.CreateICmpULT(bound, x) : b.CreateICmpSLT(bound, x));
    return b.CreateSelect(beyond, bound, x);
}

/// Clip: min first, then max (with min > max every value becomes max, as
/// ONNX says). A bound is an attribute, or an input computed at run time.
Value* clip(const Point& p) {
    double lo = p.attr("min", -std::numeric_limits<double>::infinity());
    double hi = p.attr("max", std::numeric_limits<double>::infinity());
    Value* x = p.arg(0);
    Value* low = runtimeBound(p, 1);
    Value* high = runtimeBound(p, 2);
    if (p.isFloat()) {
        x = clipBy(p, x, low ? low : p.c(lo), true);
        return clipBy(p, x, high ? high : p.c(hi), false);
    }
    // An integer clips only at constant bounds inside its type: the defaults
    // (+-inf) clip nothing, and a constant outside the type would wrap.
    auto [least, most] = integerRange(p.out);
    lo = std::min(lo, most);
    hi = std::max(hi, least);
    if (low != nullptr || lo > least)
        x = clipBy(p, x, low ? low : p.c(std::ceil(lo)), true);
    if (high != nullptr || hi < most)
        x = clipBy(p, x, high ? high : p.c(std::floor(hi)), false);
    return x;
}

/// The inverse and hyperbolic trigonometric functions (libm's), or null.
Value* trigonometric(const Point& p, ir::OpKind kind, Value* x) {
    struct Name {
        ir::OpKind kind;
        const char* f32;
        const char* f64;
    };
    static constexpr Name kNames[] = {
        {Acos, "acosf", "acos"},    {Asin, "asinf", "asin"},    {Atan, "atanf", "atan"},
        {Acosh, "acoshf", "acosh"}, {Asinh, "asinhf", "asinh"}, {Atanh, "atanhf", "atanh"},
        {Cosh, "coshf", "cosh"},    {Sinh, "sinhf", "sinh"},
    };
    for (const Name& n : kNames)
        if (n.kind == kind)
            return p.math(n.f32, n.f64, x);
    return nullptr;
}

/// Bitwise ops of integers, or null.
Value* bitwise(const Point& p, ir::OpKind kind) {
    if (p.isFloat())
        return nullptr;
    auto& b = p.b();
    if (kind == BitwiseNot)
        return b.CreateNot(p.arg(0));
    if (kind == BitwiseAnd)
        return b.CreateAnd(p.arg(0), p.arg(1));
    if (kind == BitwiseOr)
        return b.CreateOr(p.arg(0), p.arg(1));
    if (kind == BitwiseXor)
        return b.CreateXor(p.arg(0), p.arg(1));
    if (kind == BitShift) // ONNX shifts unsigned integers only
        return p.call.op().attrs.getString("direction", "") == "LEFT"
                   ? b.CreateShl(p.arg(0), p.arg(1))
                   : b.CreateLShr(p.arg(0), p.arg(1));
    return nullptr;
}

/// Shrink: x + bias below -lambd, x - bias above lambd, else 0.
Value* shrink(const Point& p) {
    double lambd = p.attr("lambd", 0.5), bias = p.attr("bias", 0.0);
    Value* x = p.arg(0);
    Value* above = p.select(p.gt(x, p.c(lambd)), p.sub(x, p.c(bias)), p.c(0));
    return p.select(p.lt(x, p.c(-lambd)), p.add(x, p.c(bias)), above);
}

/// Whether the op's input 1 is a constant of the one value 2: a float Pow
/// then squares, as ONNX Runtime computes it (LayerNorm's Pow(x, 2); powf
/// ran 6 x longer).
bool squares(const Point& p) {
    const ir::Op& op = p.call.op();
    if (op.inputs.size() < 2 || op.inputs[1] == ir::kNoTensor)
        return false;
    const ir::Tensor& t = p.call.graph->tensor(op.inputs[1]);
    if (!t.isConstant() || !t.data || ir::elementCount(t.shape) != 1)
        return false;
    auto bytes = t.data->bytes();
    return bytes.ok() && ir::readDouble(t.dtype, *bytes, 0) == 2.0;
}

/// Pow of integers as ONNX Runtime computes it: in double, truncated back.
Value* integerPow(const Point& p) {
    auto& e = p.e;
    std::array<Value*, 2> a{e.convert(p.args[0], p.types[0], ir::DType::Float64),
                            e.convert(p.args[1], p.types[1], ir::DType::Float64)};
    return e.convert(e.callMath("powf", "pow", a), ir::DType::Float64, p.out);
}

/// Unary activations and math functions of floating-point values.
Value* activation(const Point& p, ir::OpKind kind) {
    Value* x = p.arg(0);
    auto& b = p.b();
    if (kind == Relu)
        return p.select(p.gt(x, p.c(0)), x, p.c(0));
    if (kind == Sigmoid)
        return b.CreateFDiv(p.c(1), p.add(p.c(1), p.exp(b.CreateFNeg(x))));
    if (kind == Tanh)
        return p.math("tanhf", "tanh", x);
    if (kind == Erf)
        return p.erf(x);
    if (kind == Exp)
        return p.exp(x);
    if (kind == Log)
        return p.log(x);
    if (kind == Sqrt)
        return p.call1(llvm::Intrinsic::sqrt, x);
    if (kind == Sin)
        return p.call1(llvm::Intrinsic::sin, x);
    if (kind == Cos)
        return p.call1(llvm::Intrinsic::cos, x);
    if (kind == Tan)
        return p.math("tanf", "tan", x);
    if (Value* inverse = trigonometric(p, kind, x))
        return inverse;
    if (kind == Floor)
        return p.call1(llvm::Intrinsic::floor, x);
    if (kind == Ceil)
        return p.call1(llvm::Intrinsic::ceil, x);
    if (kind == Round)
        return p.call1(llvm::Intrinsic::roundeven, x);
    if (kind == Reciprocal)
        return b.CreateFDiv(p.c(1), x);
    if (kind == Softplus)
        return p.softplus(x);
    if (kind == Softsign)
        return b.CreateFDiv(x, p.add(p.c(1), p.call1(llvm::Intrinsic::fabs, x)));
    if (kind == LeakyRelu)
        return p.select(p.lt(x, p.c(0)), p.mul(p.c(p.attr("alpha", 0.01)), x), x);
    if (kind == Elu)
        return p.elu(x, p.attr("alpha", 1.0));
    if (kind == Celu) {
        double alpha = p.attr("alpha", 1.0);
        Value* scaled = b.CreateFDiv(x, p.c(alpha));
        return p.select(p.gt(x, p.c(0)), x, p.mul(p.c(alpha), p.sub(p.exp(scaled), p.c(1))));
    }
    if (kind == Selu)
        return p.mul(p.c(p.attr("gamma", 1.0507009873554805)),
                     p.elu(x, p.attr("alpha", 1.6732632423543772)));
    if (kind == ThresholdedRelu)
        return p.select(p.gt(x, p.c(p.attr("alpha", 1.0))), x, p.c(0));
    if (kind == HardSigmoid)
        return p.maxOf(
            p.minOf(p.add(p.mul(p.c(p.attr("alpha", 0.2)), x), p.c(p.attr("beta", 0.5))), p.c(1)),
            p.c(0));
    if (kind == HardSwish)
        return p.mul(x,
                     p.maxOf(p.minOf(p.add(p.mul(p.c(1.0 / 6.0), x), p.c(0.5)), p.c(1)), p.c(0)));
    if (kind == Mish)
        return p.mul(x, p.math("tanhf", "tanh", p.softplus(x)));
    if (kind == Gelu) {
        if (p.call.op().attrs.getString("approximate", "none") == "tanh") {
            Value* inner = p.mul(p.c(0.7978845608028654),
                                 p.add(x, p.mul(p.c(0.044715), p.mul(x, p.mul(x, x)))));
            return p.mul(p.mul(p.c(0.5), x), p.add(p.c(1), p.math("tanhf", "tanh", inner)));
        }
        Value* erf = p.erf(p.mul(x, p.c(0.7071067811865476)));
        return p.mul(p.mul(p.c(0.5), x), p.add(p.c(1), erf));
    }
    return nullptr;
}

/// Ops that work on integers as well as floats.
Value* generic(const Point& p, ir::OpKind kind) {
    auto& b = p.b();
    if (kind == Abs)
        return p.isFloat() ? p.call1(llvm::Intrinsic::fabs, p.arg(0))
                           : p.select(p.lt(p.arg(0), p.c(0)), b.CreateNeg(p.arg(0)), p.arg(0));
    if (kind == Neg)
        return p.isFloat() ? b.CreateFNeg(p.arg(0)) : b.CreateNeg(p.arg(0));
    if (kind == Sign)
        return p.select(p.gt(p.arg(0), p.c(0)), p.c(1),
                        p.select(p.lt(p.arg(0), p.c(0)), p.c(-1), p.c(0)));
    if (kind == Pow) {
        if (p.isFloat() && squares(p))
            return b.CreateFMul(p.arg(0), p.arg(0));
        Value* y = p.e.convert(p.args[1], p.types[1], p.out);
        std::array<Value*, 2> a{p.arg(0), y};
        return p.isFloat() ? p.e.callMath("powf", "pow", a) : integerPow(p);
    }
    if (kind == Shrink)
        return shrink(p);
    if (Value* bits = bitwise(p, kind))
        return bits;
    if (kind == Mod) {
        bool fmod = p.call.op().attrs.getInt("fmod", 0) != 0;
        if (p.isFloat() || fmod)
            return p.isFloat() ? b.CreateFRem(p.arg(0), p.arg(1))
                               : b.CreateSRem(p.arg(0), p.arg(1));
        Value* r = b.CreateSRem(p.arg(0), p.arg(1));
        Value* fix = b.CreateAnd(
            b.CreateICmpNE(r, p.c(0)),
            b.CreateICmpNE(b.CreateICmpSLT(r, p.c(0)), b.CreateICmpSLT(p.arg(1), p.c(0))));
        return p.select(fix, b.CreateAdd(r, p.arg(1)), r);
    }
    if (kind == PRelu)
        return p.select(p.lt(p.arg(0), p.c(0)), p.mul(p.arg(1), p.arg(0)), p.arg(0));
    if (kind == Clip)
        return clip(p);
    if (kind == Cast)
        return p.e.convert(p.args[0], p.types[0], p.out);
    if (kind == Where)
        return p.select(p.args[0], p.arg(1), p.arg(2));
    return nullptr;
}

Value* logical(const Point& p, ir::OpKind kind) {
    auto& b = p.b();
    if (kind == Not)
        return b.CreateNot(p.args[0]);
    if (kind == And)
        return b.CreateAnd(p.args[0], p.args[1]);
    if (kind == Or)
        return b.CreateOr(p.args[0], p.args[1]);
    if (kind == Xor)
        return b.CreateXor(p.args[0], p.args[1]);
    if (kind == IsNaN)
        return b.CreateFCmpUNO(p.args[0], p.args[0]);
    if (kind == IsInf) {
        Value* x = p.args[0];
        Value* positive = b.CreateFCmpOEQ(x, llvm::ConstantFP::getInfinity(x->getType()));
        Value* negative = b.CreateFCmpOEQ(x, llvm::ConstantFP::getInfinity(x->getType(), true));
        bool wantPositive = p.call.op().attrs.getInt("detect_positive", 1) != 0;
        bool wantNegative = p.call.op().attrs.getInt("detect_negative", 1) != 0;
        if (wantPositive && wantNegative)
            return b.CreateOr(positive, negative);
        if (wantPositive || wantNegative)
            return wantPositive ? positive : negative;
        return b.getFalse();
    }
    return compare(p, kind);
}

bool isLogical(ir::OpKind kind) {
    for (ir::OpKind t :
         {Not, And, Or, Xor, IsNaN, IsInf, Equal, Less, LessOrEqual, Greater, GreaterOrEqual})
        if (t == kind)
            return true;
    return false;
}

bool isVariadic(ir::OpKind kind) {
    for (ir::OpKind t : {Add, Sub, Mul, Div, Sum, Mean, Max, Min})
        if (t == kind)
            return true;
    return false;
}

} // namespace

bool isScalarOp(ir::OpKind kind) {
    return std::find(std::begin(kScalarOps), std::end(kScalarOps), kind) != std::end(kScalarOps);
}

Expected<Value*> scalarOp(Emitter& e, const OpCall& call, std::span<Value* const> args,
                          std::span<const ir::DType> inTypes, ir::DType outType) {
    ir::OpKind kind = call.op().kind;
    Point p{e, call, args, inTypes, outType};
    for (Value* arg : args)
        if (auto* vector = arg ? llvm::dyn_cast<llvm::FixedVectorType>(arg->getType()) : nullptr)
            p.lanes = vector->getNumElements();
    Value* result = nullptr;
    if (isLogical(kind))
        result = logical(p, kind);
    else if (isVariadic(kind))
        result = variadic(p, kind);
    else if (kind == BatchNormalization)
        result = batchNorm(p);
    else if ((result = generic(p, kind)) == nullptr && p.isFloat())
        result = activation(p, kind);
    if (result == nullptr)
        return call.error("code generation does not support " + call.op().type + " on " +
                          std::string(ir::dtypeName(outType)));
    return result;
}

std::pair<double, double> integerRange(ir::DType t) {
    double bits = static_cast<double>(8 * ir::dtypeSize(t));
    if (isUnsigned(t))
        return {0.0, std::min(std::exp2(bits) - 1, 1.8e19)};
    return {std::max(-std::exp2(bits - 1), -9.2e18), std::min(std::exp2(bits - 1) - 1, 9.2e18)};
}

} // namespace stagecraft::codegen::detail
