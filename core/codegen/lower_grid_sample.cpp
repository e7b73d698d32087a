// GridSample, computed as ONNX Runtime's CPU kernel computes it, in f32 (f64
// for f64 data). The grid's coordinate k (the last dim) places spatial dim
// r-1-k (x is the width). Each is denormalized, (g + 1) / 2 * (d - 1) with
// align_corners, else ((g + 1) * d - 1) / 2. Nearest mode rounds half to
// even and reads that pixel; linear interpolates between floor(x) and
// floor(x) + 1 of every spatial dim, the outermost dim last summed; cubic
// (two spatial dims) weighs the 4 x 4 pixels around the point by Keys'
// cubic with A = -0.75. A pixel outside the input reads 0 (zeros), the
// nearest border pixel (border), or is reflected into [-0.5, d - 0.5]
// ([0, d - 1] with align_corners) and truncated (reflection). Indices are
// converted with saturation and clamped, so no grid value reads outside X.

#include "codegen/internal/lowering.h"

#include <llvm/IR/Intrinsics.h>

#include <array>

namespace stagecraft::codegen::detail {

namespace {

struct Sampler {
    Emitter& e;
    const OpCall& call;
    ir::DType calc;
    bool alignCorners;
    std::string padding;
    std::vector<int64_t> extent; // X's spatial dims

    Value* c(double v) const { return e.constant(calc, v); }

    Value* toIndex(Value* x) const {
        return e.b().CreateIntrinsic(llvm::Intrinsic::fptosi_sat,
                                     {e.b().getInt64Ty(), x->getType()}, {x});
    }
    Value* toFloat(Value* i) const { return e.b().CreateSIToFP(i, e.valueType(calc)); }
    Value* unary(llvm::Intrinsic::ID id, Value* x) const {
        std::array<Value*, 1> args{x};
        return e.intrinsic(id, args);
    }

    /// The input coordinate of spatial dim \p j at output index \p idx.
    Value* coordinate(const std::vector<Value*>& idx, size_t j) const {
        std::vector<Value*> at = {idx[0]};
        at.insert(at.end(), idx.begin() + 2, idx.end());
        at.push_back(e.i64(static_cast<int64_t>(extent.size() - 1 - j)));
        Value* g = e.convert(e.load(call.inputs[1], at), inputType(call, 1), calc);
        auto& b = e.b();
        Value* shifted = b.CreateFAdd(g, c(1));
        int64_t d = extent[j];
        if (alignCorners)
            return b.CreateFMul(b.CreateFDiv(shifted, c(2)), c(static_cast<double>(d - 1)));
        return b.CreateFDiv(b.CreateFSub(b.CreateFMul(shifted, c(static_cast<double>(d))), c(1)),
                            c(2));
    }

    /// \p x reflected by the nearer border until it lies in [lo, hi].
    Value* reflect(Value* x, double lo, double hi) const {
        double range = hi - lo;
        if (range <= 0)
            return c(lo);
        auto& b = e.b();
        auto folded = [&](Value* distance, double from, double to) {
            Value* n = toIndex(b.CreateFDiv(distance, c(range)));
            Value* r = b.CreateFSub(distance, b.CreateFMul(toFloat(n), c(range)));
            Value* even = b.CreateICmpEQ(b.CreateAnd(n, e.i64(1)), e.i64(0));
            Value* near = from < to ? b.CreateFAdd(c(from), r) : b.CreateFSub(c(from), r);
            Value* far = from < to ? b.CreateFSub(c(to), r) : b.CreateFAdd(c(to), r);
            return b.CreateSelect(even, near, far);
        };
        Value* below = folded(b.CreateFSub(c(lo), x), lo, hi);
        Value* above = folded(b.CreateFSub(x, c(hi)), hi, lo);
        return b.CreateSelect(b.CreateFCmpOLT(x, c(lo)), below,
                              b.CreateSelect(b.CreateFCmpOGT(x, c(hi)), above, x));
    }

    /// X at (n, ch, \p at) under the padding mode, in the compute type.
    Value* pixel(Value* n, Value* ch, std::vector<Value*> at) const {
        std::vector<Value*> inside;
        for (size_t j = 0; j < at.size(); ++j) {
            int64_t d = extent[j];
            if (padding == "zeros") {
                inside.push_back(e.inBounds(at[j], d));
            } else if (padding == "reflection") {
                double lo = alignCorners ? 0 : -0.5;
                double hi =
                    alignCorners ? static_cast<double>(d - 1) : static_cast<double>(d) - 0.5;
                at[j] = toIndex(reflect(toFloat(at[j]), lo, hi));
            }
            at[j] = e.clamp(at[j], 0, d - 1);
        }
        at.insert(at.begin(), {n, ch});
        Value* v = e.convert(e.load(call.inputs[0], at), inputType(call, 0), calc);
        return inside.empty() ? v : e.b().CreateSelect(e.all(inside), v, c(0));
    }
};

/// The multilinear interpolation over spatial dims j.. of the corners in
/// \p low (floor) and low + 1, weighted by \p toHigh (x - floor) and
/// \p toLow (floor + 1 - x).
Value* interpolate(const Sampler& s, const std::vector<Value*>& idx, size_t j,
                   std::vector<Value*>& at, const std::vector<Value*>& low,
                   const std::vector<Value*>& toLow, const std::vector<Value*>& toHigh) {
    if (j == at.size())
        return s.pixel(idx[0], idx[1], at);
    auto& b = s.e.b();
    at[j] = low[j];
    Value* lower = interpolate(s, idx, j + 1, at, low, toLow, toHigh);
    at[j] = b.CreateAdd(low[j], s.e.i64(1));
    Value* upper = interpolate(s, idx, j + 1, at, low, toLow, toHigh);
    return b.CreateFAdd(b.CreateFMul(toLow[j], lower), b.CreateFMul(toHigh[j], upper));
}

Value* linear(const Sampler& s, const std::vector<Value*>& idx) {
    auto& b = s.e.b();
    std::vector<Value*> low, toLow, toHigh;
    for (size_t j = 0; j < s.extent.size(); ++j) {
        Value* x = s.coordinate(idx, j);
        Value* lo = s.toIndex(s.unary(llvm::Intrinsic::floor, x));
        low.push_back(lo);
        toLow.push_back(b.CreateFSub(s.toFloat(b.CreateAdd(lo, s.e.i64(1))), x));
        toHigh.push_back(b.CreateFSub(x, s.toFloat(lo)));
    }
    std::vector<Value*> at(s.extent.size());
    return interpolate(s, idx, 0, at, low, toLow, toHigh);
}

Value* nearest(const Sampler& s, const std::vector<Value*>& idx) {
    std::vector<Value*> at;
    for (size_t j = 0; j < s.extent.size(); ++j)
        at.push_back(s.toIndex(s.unary(llvm::Intrinsic::rint, s.coordinate(idx, j))));
    return s.pixel(idx[0], idx[1], at);
}

/// Keys' cubic weights of the taps at distances 1 + t, t, 1 - t, 2 - t.
std::array<Value*, 4> cubicWeights(const Sampler& s, Value* t) {
    auto& b = s.e.b();
    constexpr double a = -0.75;
    t = s.unary(llvm::Intrinsic::fabs, t);
    auto outer = [&](Value* d) {
        Value* v = b.CreateFSub(b.CreateFMul(s.c(a), d), s.c(5 * a));
        v = b.CreateFAdd(b.CreateFMul(v, d), s.c(8 * a));
        return b.CreateFSub(b.CreateFMul(v, d), s.c(4 * a));
    };
    auto inner = [&](Value* d) {
        Value* v = b.CreateFSub(b.CreateFMul(s.c(a + 2), d), s.c(a + 3));
        return b.CreateFAdd(b.CreateFMul(b.CreateFMul(v, d), d), s.c(1));
    };
    Value* oneMinus = b.CreateFSub(s.c(1), t);
    return {outer(b.CreateFAdd(t, s.c(1))), inner(t), inner(oneMinus),
            outer(b.CreateFSub(s.c(2), t))};
}

Value* weighted(const Sampler& s, const std::array<Value*, 4>& w,
                const std::array<Value*, 4>& values) {
    auto& b = s.e.b();
    Value* sum = b.CreateFMul(w[0], values[0]);
    for (size_t k = 1; k < 4; ++k)
        sum = b.CreateFAdd(sum, b.CreateFMul(w[k], values[k]));
    return sum;
}

Value* cubic(const Sampler& s, const std::vector<Value*>& idx) {
    auto& b = s.e.b();
    std::array<Value*, 2> first{}, t{};
    for (size_t j = 0; j < 2; ++j) {
        Value* x = s.coordinate(idx, j);
        Value* corner = b.CreateSub(s.toIndex(s.unary(llvm::Intrinsic::floor, x)), s.e.i64(1));
        first[j] = corner;
        t[j] = b.CreateFSub(b.CreateFSub(x, s.toFloat(corner)), s.c(1));
    }
    std::array<Value*, 4> wx = cubicWeights(s, t[1]), rows{};
    for (int64_t h = 0; h < 4; ++h) {
        std::array<Value*, 4> row{};
        for (int64_t w = 0; w < 4; ++w)
            row[static_cast<size_t>(w)] =
                s.pixel(idx[0], idx[1],
                        {b.CreateAdd(first[0], s.e.i64(h)), b.CreateAdd(first[1], s.e.i64(w))});
        rows[static_cast<size_t>(h)] = weighted(s, wx, row);
    }
    return weighted(s, cubicWeights(s, t[0]), rows);
}

} // namespace

Status lowerGridSample(Emitter& e, const OpCall& call) {
    if (call.outputs[0].base == nullptr)
        return Status::success();
    ir::DType type = outputType(call, 0);
    if (!ir::isFloatingPoint(type) || !ir::isFloatingPoint(inputType(call, 1)))
        return call.error("code generation samples floating-point X and grid only");
    const ir::Attributes& attrs = call.op().attrs;
    const ir::Shape& x = call.inputs[0].shape;
    Sampler s{e,
              call,
              type == ir::DType::Float64 ? ir::DType::Float64 : ir::DType::Float32,
              attrs.getInt("align_corners", 0) != 0,
              attrs.getString("padding_mode", "zeros"),
              std::vector<int64_t>(x.begin() + 2, x.end())};
    std::string mode = attrs.getString("mode", "linear");
    if (mode == "cubic" && s.extent.size() != 2)
        return call.error("cubic mode samples 2 spatial dims only");
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        Value* v = mode == "nearest" ? nearest(s, idx)
                   : mode == "cubic" ? cubic(s, idx)
                                     : linear(s, idx);
        e.store(call.outputs[0], idx, e.convert(v, s.calc, type));
    });
    return Status::success();
}

} // namespace stagecraft::codegen::detail
