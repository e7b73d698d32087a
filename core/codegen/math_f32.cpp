// exp and erf of f32 values as inline IR instead of libm calls (issue 18:
// BERT-base spent 16 % of its host run in scalar expf and erff). The same
// operations serve a scalar and a vectorized loop, so an element's bits do
// not depend on the lane or the tile that computes it, and the loop
// vectorizer can widen elementwise loops that call them. f64, and the
// riscv64 objects (see inlined below), keep libm.
//
// exp(x): n = round(x / ln 2), r = x - n ln 2 (ln 2 split in two for an
// exact product), exp(r) by its Taylor series to r^7 (|r| <= ln 2 / 2, the
// first term left out is below 1e-8 relative), times 2^n formed in two
// halves so that subnormal results stay exact in the exponent. x past the
// f32 range gives +inf or 0 (the series then runs on 0, forming no
// subnormal: x86 charges a microcode assist for each), NaN stays NaN.
//
// erf(x): for |x| < 0.5 its odd Taylor series to x^11 (next term below
// 3e-8 relative); for 0.5 <= |x| < 4, 1 - t P(t) exp(-x^2) with t = 1 /
// (1 + 0.3275911 |x|) (Abramowitz and Stegun 7.1.26, absolute error below
// 1.5e-7, so below 3e-7 relative there); 1 beyond; the sign of x restored.

#include "codegen/internal/lowering.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/TargetParser/Triple.h>

#include <array>
#include <initializer_list>
#include <limits>

namespace stagecraft::codegen::detail {

namespace {

Value* fma(Emitter& e, Value* a, Value* b, Value* c) {
    std::array<Value*, 3> args{a, b, c};
    return e.intrinsic(llvm::Intrinsic::fmuladd, args);
}

Value* constantLike(Value* like, double v) {
    return llvm::ConstantFP::get(like->getType(), v);
}

/// c[0] + x (c[1] + x (c[2] + ...)), Horner's rule with fused steps.
Value* polynomial(Emitter& e, Value* x, std::initializer_list<double> coefficients) {
    const double* c = coefficients.end();
    Value* sum = constantLike(x, *--c);
    while (c != coefficients.begin())
        sum = fma(e, sum, x, constantLike(x, *--c));
    return sum;
}

/// 2^n for an integer-valued f32 \p n in [-126, 127].
Value* powerOfTwo(Emitter& e, Value* n) {
    llvm::Type* i32 = e.b().getInt32Ty();
    if (auto* v = llvm::dyn_cast<llvm::VectorType>(n->getType()))
        i32 = llvm::VectorType::get(i32, v->getElementCount());
    Value* bits = e.b().CreateShl(
        e.b().CreateAdd(e.b().CreateFPToSI(n, i32), llvm::ConstantInt::get(i32, 127)),
        llvm::ConstantInt::get(i32, 23));
    return e.b().CreateBitCast(bits, n->getType());
}

Value* absolute(Emitter& e, Value* x) {
    std::array<Value*, 1> a{x};
    return e.intrinsic(llvm::Intrinsic::fabs, a);
}

} // namespace

Value* expF32(Emitter& e, Value* x) {
    auto& b = e.b();
    // Below -103.97 the result is 0: the series then runs on 0, since at
    // -104 it would form a subnormal that the select discards, and a
    // subnormal result costs a microcode assist on x86 (a softmax row of
    // -1e4 masks ran 7 x slower).
    Value* underflows = b.CreateFCmpOLT(x, constantLike(x, -103.97208404541016));
    Value* clamped =
        e.intrinsic(llvm::Intrinsic::minnum,
                    std::array<Value*, 2>{b.CreateSelect(underflows, constantLike(x, 0.0), x),
                                          constantLike(x, 89.0)});
    std::array<Value*, 1> scaled{b.CreateFMul(clamped, constantLike(x, 1.4426950408889634))};
    Value* n = e.intrinsic(llvm::Intrinsic::rint, scaled);
    Value* r = fma(e, n, constantLike(x, -0.693145751953125), clamped);
    r = fma(e, n, constantLike(x, -1.4286068203094172e-06), r);
    Value* p =
        polynomial(e, r, {1.0, 1.0, 0.5, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040});
    Value* half = e.intrinsic(llvm::Intrinsic::trunc,
                              std::array<Value*, 1>{b.CreateFMul(n, constantLike(x, 0.5))});
    Value* y =
        b.CreateFMul(b.CreateFMul(p, powerOfTwo(e, half)), powerOfTwo(e, b.CreateFSub(n, half)));
    y = b.CreateSelect(b.CreateFCmpOGT(x, constantLike(x, 88.72283935546875)),
                       constantLike(x, std::numeric_limits<double>::infinity()), y);
    y = b.CreateSelect(underflows, constantLike(x, 0.0), y);
    return b.CreateSelect(b.CreateFCmpUNO(x, x), x, y);
}

Value* erfF32(Emitter& e, Value* x) {
    auto& b = e.b();
    Value* a = absolute(e, x);
    Value* a2 = b.CreateFMul(a, a);
    // 2/sqrt(pi) (a - a^3/3 + a^5/10 - a^7/42 + a^9/216 - a^11/1320)
    Value* small = b.CreateFMul(
        a, polynomial(e, a2,
                      {1.1283791670955126, -0.37612638903183754, 0.11283791670955126,
                       -0.026866170645131252, 0.005223977625442188, -0.0008548327023450852}));
    Value* t = b.CreateFDiv(constantLike(x, 1.0),
                            fma(e, a, constantLike(x, 0.3275911), constantLike(x, 1.0)));
    Value* tail = b.CreateFMul(b.CreateFMul(t, polynomial(e, t,
                                                          {0.254829592, -0.284496736, 1.421413741,
                                                           -1.453152027, 1.061405429})),
                               expF32(e, b.CreateFNeg(a2)));
    Value* large = b.CreateFSub(constantLike(x, 1.0), tail);
    Value* y = b.CreateSelect(b.CreateFCmpOLT(a, constantLike(x, 0.5)), small, large);
    y = b.CreateSelect(b.CreateFCmpOGE(a, constantLike(x, 4.0)), constantLike(x, 1.0), y);
    std::array<Value*, 2> sign{y, x};
    y = e.intrinsic(llvm::Intrinsic::copysign, sign);
    return b.CreateSelect(b.CreateFCmpUNO(x, x), x, y);
}

namespace {

/// f32 on the host: qemu-riscv64 7.2, which runs the riscv64 objects in the
/// tests, aborts on the vector code LLVM makes of expF32 (an assertion in
/// its decoder), so those objects keep libm.
bool inlined(Emitter& e, Value* x) {
    return x->getType()->getScalarType()->isFloatTy() &&
           !llvm::Triple(e.module().getTargetTriple()).isRISCV();
}

} // namespace

Value* expOf(Emitter& e, Value* x) {
    if (inlined(e, x))
        return expF32(e, x);
    std::array<Value*, 1> a{x};
    return e.intrinsic(llvm::Intrinsic::exp, a);
}

Value* erfOf(Emitter& e, Value* x) {
    if (inlined(e, x))
        return erfF32(e, x);
    std::array<Value*, 1> a{x};
    return e.callMath("erff", "erf", a);
}

} // namespace stagecraft::codegen::detail
