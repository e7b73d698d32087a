// The scalar functions of elementwise ops (ONNX operator definitions): one
// output element from the input elements at the same point. Floating-point
// ops use LLVM intrinsics where they exist and libm otherwise (tanhf, erff:
// the DSA's runtime or the host's C library provides them); the numbers
// are checked against ONNX Runtime by the tests (docs/codegen.md).

#include "codegen/internal/lowering.h"

#include <llvm/IR/Intrinsics.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace stagecraft::codegen::detail {

namespace {

// clang-format off
constexpr std::string_view kScalarOps[] = {
    "Abs", "Add", "And", "BatchNormalization", "Cast", "Ceil", "Celu", "Clip", "Cos", "Div",
    "Elu", "Equal", "Erf", "Exp", "Floor", "Gelu", "Greater", "GreaterOrEqual", "HardSigmoid",
    "HardSwish", "IsInf", "IsNaN", "LeakyRelu", "Less", "LessOrEqual", "Log", "Max", "Mean", "Min",
    "Mish", "Mod", "Mul", "Neg", "Not", "Or", "PRelu", "Pow", "Reciprocal", "Relu", "Round",
    "Selu", "Sigmoid", "Sign", "Sin", "Softplus", "Softsign", "Sqrt", "Sub", "Sum", "Tan", "Tanh",
    "ThresholdedRelu", "Where", "Xor",
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

    llvm::IRBuilder<>& b() const { return e.b(); }
    bool isFloat() const { return ir::isFloatingPoint(out); }
    /// Argument \p i converted to the output type.
    Value* arg(size_t i) const { return e.convert(args[i], types[i], out); }
    Value* c(double value) const { return e.constant(out, value); }
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
    Value* exp(Value* x) const { return call1(llvm::Intrinsic::exp, x); }
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
Value* compare(const Point& p, std::string_view type) {
    auto& b = p.b();
    ir::DType t = p.types[0];
    Value* x = p.args[0];
    Value* y = p.e.convert(p.args[1], p.types[1], t);
    if (ir::isFloatingPoint(t)) {
        if (type == "Equal")
            return b.CreateFCmpOEQ(x, y);
        if (type == "Less")
            return b.CreateFCmpOLT(x, y);
        if (type == "LessOrEqual")
            return b.CreateFCmpOLE(x, y);
        if (type == "Greater")
            return b.CreateFCmpOGT(x, y);
        return b.CreateFCmpOGE(x, y);
    }
    if (type == "Equal")
        return b.CreateICmpEQ(x, y);
    if (type == "Less")
        return b.CreateICmpSLT(x, y);
    if (type == "LessOrEqual")
        return b.CreateICmpSLE(x, y);
    if (type == "Greater")
        return b.CreateICmpSGT(x, y);
    return b.CreateICmpSGE(x, y);
}

/// Ops over any number of inputs: Sum, Mean, Max, Min (and binary arithmetic).
Value* variadic(const Point& p, std::string_view type) {
    Value* acc = p.arg(0);
    for (size_t i = 1; i < p.args.size(); ++i) {
        if (p.args[i] == nullptr)
            continue;
        Value* x = p.arg(i);
        if (type == "Add" || type == "Sum" || type == "Mean")
            acc = p.add(acc, x);
        else if (type == "Sub")
            acc = p.sub(acc, x);
        else if (type == "Mul")
            acc = p.mul(acc, x);
        else if (type == "Div")
            acc = p.div(acc, x);
        else if (type == "Max")
            acc = p.maxOf(acc, x);
        else
            acc = p.minOf(acc, x);
    }
    if (type == "Mean")
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

Value* clip(const Point& p) {
    double lo = p.attr("min", -std::numeric_limits<double>::infinity());
    double hi = p.attr("max", std::numeric_limits<double>::infinity());
    Value* x = p.arg(0);
    if (!p.isFloat()) {
        lo = std::max(lo, -9.2e18);
        hi = std::min(hi, 9.2e18);
    }
    return p.maxOf(p.minOf(x, p.c(hi)), p.c(lo));
}

/// Unary activations and math functions of floating-point values.
Value* activation(const Point& p, std::string_view type) {
    Value* x = p.arg(0);
    auto& b = p.b();
    if (type == "Relu")
        return p.select(p.gt(x, p.c(0)), x, p.c(0));
    if (type == "Sigmoid")
        return b.CreateFDiv(p.c(1), p.add(p.c(1), p.exp(b.CreateFNeg(x))));
    if (type == "Tanh")
        return p.math("tanhf", "tanh", x);
    if (type == "Erf")
        return p.math("erff", "erf", x);
    if (type == "Exp")
        return p.exp(x);
    if (type == "Log")
        return p.log(x);
    if (type == "Sqrt")
        return p.call1(llvm::Intrinsic::sqrt, x);
    if (type == "Sin")
        return p.call1(llvm::Intrinsic::sin, x);
    if (type == "Cos")
        return p.call1(llvm::Intrinsic::cos, x);
    if (type == "Tan")
        return p.math("tanf", "tan", x);
    if (type == "Floor")
        return p.call1(llvm::Intrinsic::floor, x);
    if (type == "Ceil")
        return p.call1(llvm::Intrinsic::ceil, x);
    if (type == "Round")
        return p.call1(llvm::Intrinsic::roundeven, x);
    if (type == "Reciprocal")
        return b.CreateFDiv(p.c(1), x);
    if (type == "Softplus")
        return p.softplus(x);
    if (type == "Softsign")
        return b.CreateFDiv(x, p.add(p.c(1), p.call1(llvm::Intrinsic::fabs, x)));
    if (type == "LeakyRelu")
        return p.select(p.lt(x, p.c(0)), p.mul(p.c(p.attr("alpha", 0.01)), x), x);
    if (type == "Elu")
        return p.elu(x, p.attr("alpha", 1.0));
    if (type == "Celu") {
        double alpha = p.attr("alpha", 1.0);
        Value* scaled = b.CreateFDiv(x, p.c(alpha));
        return p.select(p.gt(x, p.c(0)), x, p.mul(p.c(alpha), p.sub(p.exp(scaled), p.c(1))));
    }
    if (type == "Selu")
        return p.mul(p.c(p.attr("gamma", 1.0507009873554805)),
                     p.elu(x, p.attr("alpha", 1.6732632423543772)));
    if (type == "ThresholdedRelu")
        return p.select(p.gt(x, p.c(p.attr("alpha", 1.0))), x, p.c(0));
    if (type == "HardSigmoid")
        return p.maxOf(
            p.minOf(p.add(p.mul(p.c(p.attr("alpha", 0.2)), x), p.c(p.attr("beta", 0.5))), p.c(1)),
            p.c(0));
    if (type == "HardSwish")
        return p.mul(x,
                     p.maxOf(p.minOf(p.add(p.mul(p.c(1.0 / 6.0), x), p.c(0.5)), p.c(1)), p.c(0)));
    if (type == "Mish")
        return p.mul(x, p.math("tanhf", "tanh", p.softplus(x)));
    if (type == "Gelu") {
        if (p.call.op().attrs.getString("approximate", "none") == "tanh") {
            Value* inner = p.mul(p.c(0.7978845608028654),
                                 p.add(x, p.mul(p.c(0.044715), p.mul(x, p.mul(x, x)))));
            return p.mul(p.mul(p.c(0.5), x), p.add(p.c(1), p.math("tanhf", "tanh", inner)));
        }
        Value* erf = p.math("erff", "erf", p.mul(x, p.c(0.7071067811865476)));
        return p.mul(p.mul(p.c(0.5), x), p.add(p.c(1), erf));
    }
    return nullptr;
}

/// Ops that work on integers as well as floats.
Value* generic(const Point& p, std::string_view type) {
    auto& b = p.b();
    if (type == "Abs")
        return p.isFloat() ? p.call1(llvm::Intrinsic::fabs, p.arg(0))
                           : p.select(p.lt(p.arg(0), p.c(0)), b.CreateNeg(p.arg(0)), p.arg(0));
    if (type == "Neg")
        return p.isFloat() ? b.CreateFNeg(p.arg(0)) : b.CreateNeg(p.arg(0));
    if (type == "Sign")
        return p.select(p.gt(p.arg(0), p.c(0)), p.c(1),
                        p.select(p.lt(p.arg(0), p.c(0)), p.c(-1), p.c(0)));
    if (type == "Pow") {
        Value* y = p.e.convert(p.args[1], p.types[1], p.out);
        std::array<Value*, 2> a{p.arg(0), y};
        return p.isFloat() ? p.e.callMath("powf", "pow", a) : nullptr;
    }
    if (type == "Mod") {
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
    if (type == "PRelu")
        return p.select(p.lt(p.arg(0), p.c(0)), p.mul(p.arg(1), p.arg(0)), p.arg(0));
    if (type == "Clip")
        return clip(p);
    if (type == "Cast")
        return p.e.convert(p.args[0], p.types[0], p.out);
    if (type == "Where")
        return p.select(p.args[0], p.arg(1), p.arg(2));
    return nullptr;
}

Value* logical(const Point& p, std::string_view type) {
    auto& b = p.b();
    if (type == "Not")
        return b.CreateNot(p.args[0]);
    if (type == "And")
        return b.CreateAnd(p.args[0], p.args[1]);
    if (type == "Or")
        return b.CreateOr(p.args[0], p.args[1]);
    if (type == "Xor")
        return b.CreateXor(p.args[0], p.args[1]);
    if (type == "IsNaN")
        return b.CreateFCmpUNO(p.args[0], p.args[0]);
    if (type == "IsInf") {
        Value* x = p.call1(llvm::Intrinsic::fabs, p.args[0]);
        return b.CreateFCmpOEQ(x, llvm::ConstantFP::getInfinity(x->getType()));
    }
    return compare(p, type);
}

bool isLogical(std::string_view type) {
    for (std::string_view t : {"Not", "And", "Or", "Xor", "IsNaN", "IsInf", "Equal", "Less",
                               "LessOrEqual", "Greater", "GreaterOrEqual"})
        if (t == type)
            return true;
    return false;
}

bool isVariadic(std::string_view type) {
    for (std::string_view t : {"Add", "Sub", "Mul", "Div", "Sum", "Mean", "Max", "Min"})
        if (t == type)
            return true;
    return false;
}

} // namespace

bool isScalarOp(std::string_view type) {
    return std::find(std::begin(kScalarOps), std::end(kScalarOps), type) != std::end(kScalarOps);
}

Expected<Value*> scalarOp(Emitter& e, const OpCall& call, std::span<Value* const> args,
                          std::span<const ir::DType> inTypes, ir::DType outType) {
    const std::string& type = call.op().type;
    Point p{e, call, args, inTypes, outType};
    Value* result = nullptr;
    if (isLogical(type))
        result = logical(p, type);
    else if (isVariadic(type))
        result = variadic(p, type);
    else if (type == "BatchNormalization")
        result = batchNorm(p);
    else if ((result = generic(p, type)) == nullptr && p.isFloat())
        result = activation(p, type);
    if (result == nullptr)
        return call.error("code generation does not support " + type + " on " +
                          std::string(ir::dtypeName(outType)));
    return result;
}

} // namespace stagecraft::codegen::detail
