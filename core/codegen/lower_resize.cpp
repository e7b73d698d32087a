// Resize. Nearest mode reads through the loop-nest model's exact index map
// (the coordinate transform and rounding as one floor division), clamped to
// the input as ONNX Runtime clamps. Linear mode interpolates between the two
// neighbours of each resized dim with the coordinate computed in float as
// ONNX Runtime computes it (coordinate clamped to the input, equal
// neighbours weighted 1/2 each), so the numbers match to rounding. Cubic
// mode weighs the four taps floor(x) - 1 .. floor(x) + 2 by Keys' cubic
// convolution with coefficient A (cubic_coeff_a), s = x - floor(x), the
// coordinate not clamped; a tap outside the input reads the border, or with
// exclude_outside weighs 0 and the others are scaled to sum to 1 (ONNX).

#include "codegen/internal/lowering.h"

#include <llvm/IR/Intrinsics.h>

#include <array>

namespace stagecraft::codegen::detail {

namespace {

struct Neighbours {
    Value* low;
    Value* high;
    Value* weightLow;
    Value* weightHigh;
};

/// The input coordinate of output index \p o of a resized dim (float).
Value* originalCoordinate(Emitter& e, const std::string& mode, Value* o, double scale, int64_t in,
                          int64_t out) {
    auto& b = e.b();
    llvm::Type* f = b.getFloatTy();
    Value* x = b.CreateSIToFP(o, f);
    auto c = [&](double v) {
        return llvm::ConstantFP::get(f, v);
    };
    if (mode == "asymmetric")
        return b.CreateFDiv(x, c(scale));
    if (mode == "tf_half_pixel_for_nearest")
        return b.CreateFDiv(b.CreateFAdd(x, c(0.5)), c(scale));
    if (mode == "align_corners")
        return out == 1 ? c(0)
                        : b.CreateFDiv(b.CreateFMul(x, c(static_cast<double>(in - 1))),
                                       c(static_cast<double>(out - 1)));
    if (mode == "pytorch_half_pixel" && out == 1)
        return c(0);
    return b.CreateFSub(b.CreateFDiv(b.CreateFAdd(x, c(0.5)), c(scale)), c(0.5));
}

Neighbours neighbours(Emitter& e, Value* coordinate, int64_t in) {
    auto& b = e.b();
    llvm::Type* f = b.getFloatTy();
    Value* zero = llvm::ConstantFP::get(f, 0.0);
    Value* last = llvm::ConstantFP::get(f, static_cast<double>(in - 1));
    Value* x = b.CreateSelect(b.CreateFCmpOLT(coordinate, zero), zero, coordinate);
    x = b.CreateSelect(b.CreateFCmpOGT(x, last), last, x);
    Value* low = e.min(b.CreateFPToSI(x, b.getInt64Ty()), e.i64(in - 1));
    Value* high = e.min(b.CreateAdd(low, e.i64(1)), e.i64(in - 1));
    std::array<Value*, 1> dLow{b.CreateFSub(x, b.CreateSIToFP(low, f))};
    std::array<Value*, 1> dHigh{b.CreateFSub(x, b.CreateSIToFP(high, f))};
    Value* toLow = e.intrinsic(llvm::Intrinsic::fabs, dLow);
    Value* toHigh = e.intrinsic(llvm::Intrinsic::fabs, dHigh);
    Value* same = b.CreateICmpEQ(low, high);
    Value* half = llvm::ConstantFP::get(f, 0.5);
    // The low neighbour is weighted by the distance to the high one.
    return {low, high, b.CreateSelect(same, half, toHigh), b.CreateSelect(same, half, toLow)};
}

/// The taps of one resized dim: input indices and their weights.
struct Taps {
    std::vector<Value*> index;
    std::vector<Value*> weight;
};

Taps linearTaps(Emitter& e, Value* coordinate, int64_t in) {
    Neighbours n = neighbours(e, coordinate, in);
    return {{n.low, n.high}, {n.weightLow, n.weightHigh}};
}

/// Keys' cubic convolution weights of the taps at distances 1 + s, s, 1 - s
/// and 2 - s from the coordinate, as ONNX Runtime computes them.
Taps cubicTaps(Emitter& e, Value* coordinate, int64_t in, double a, bool excludeOutside) {
    auto& b = e.b();
    llvm::Type* f = b.getFloatTy();
    auto c = [&](double v) {
        return llvm::ConstantFP::get(f, v);
    };
    std::array<Value*, 1> arg{coordinate};
    Value* floor = e.intrinsic(llvm::Intrinsic::floor, arg);
    Value* s = b.CreateFSub(coordinate, floor);
    Value* base = b.CreateFPToSI(floor, b.getInt64Ty());
    // |d| in [1, 2]: ((A|d| - 5A)|d| + 8A)|d| - 4A; |d| <= 1: ((A+2)|d| - (A+3))|d|^2 + 1.
    auto outer = [&](Value* d) {
        Value* v = b.CreateFSub(b.CreateFMul(c(a), d), c(5 * a));
        v = b.CreateFAdd(b.CreateFMul(v, d), c(8 * a));
        return b.CreateFSub(b.CreateFMul(v, d), c(4 * a));
    };
    auto inner = [&](Value* d) {
        Value* v = b.CreateFSub(b.CreateFMul(c(a + 2), d), c(a + 3));
        return b.CreateFAdd(b.CreateFMul(b.CreateFMul(v, d), d), c(1));
    };
    Value* oneMinus = b.CreateFSub(c(1), s);
    std::array<Value*, 4> weights{outer(b.CreateFAdd(s, c(1))), inner(s), inner(oneMinus),
                                  outer(b.CreateFAdd(oneMinus, c(1)))};
    Taps taps;
    Value* total = c(0);
    for (int64_t k = 0; k < 4; ++k) {
        Value* at = b.CreateAdd(base, e.i64(k - 1));
        Value* w = weights[static_cast<size_t>(k)];
        if (excludeOutside)
            w = b.CreateSelect(e.inBounds(at, in), w, c(0));
        total = b.CreateFAdd(total, w);
        taps.index.push_back(e.clamp(at, 0, in - 1));
        taps.weight.push_back(w);
    }
    if (excludeOutside)
        for (Value*& w : taps.weight)
            w = b.CreateFDiv(w, total);
    return taps;
}

/// Linear and cubic modes: the weighted sum over every combination of taps.
Status lowerInterpolated(Emitter& e, const OpCall& call, bool cubic) {
    const ir::Attributes& attrs = call.op().attrs;
    std::string mode = attrs.getString("coordinate_transformation_mode", "half_pixel");
    if (mode == "tf_crop_and_resize" || attrs.getInt("antialias", 0) != 0)
        return call.error("code generation does not support " + mode +
                          (attrs.getInt("antialias", 0) != 0 ? " with antialias" : ""));
    std::vector<double> scales = attrs.getFloats("scales");
    double a = attrs.getFloat("cubic_coeff_a", -0.75);
    bool excludeOutside = attrs.getInt("exclude_outside", 0) != 0;
    const ir::Shape& in = call.inputs[0].shape;
    const ir::Shape& out = call.graph->tensor(call.op().outputs[0]).shape;
    ir::DType t = outputType(call, 0);
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        std::vector<Taps> taps(in.size());
        size_t combinations = 1;
        for (size_t j = 0; j < in.size(); ++j) {
            if (in[j] == out[j] && scales[j] == 1.0) {
                taps[j] = {{idx[j]}, {nullptr}};
                continue;
            }
            Value* x = originalCoordinate(e, mode, idx[j], scales[j], in[j], out[j]);
            taps[j] = cubic ? cubicTaps(e, x, in[j], a, excludeOutside) : linearTaps(e, x, in[j]);
            combinations *= taps[j].index.size();
        }
        auto& b = e.b();
        Value* sum = llvm::ConstantFP::get(b.getFloatTy(), 0.0);
        for (size_t combination = 0; combination < combinations; ++combination) {
            std::vector<Value*> index;
            Value* weight = llvm::ConstantFP::get(b.getFloatTy(), 1.0);
            size_t rest = combination;
            for (const Taps& dim : taps) {
                size_t k = rest % dim.index.size();
                rest /= dim.index.size();
                index.push_back(dim.index[k]);
                if (dim.weight[k] != nullptr)
                    weight = b.CreateFMul(weight, dim.weight[k]);
            }
            Value* x =
                e.convert(e.load(call.inputs[0], index), inputType(call, 0), ir::DType::Float32);
            sum = b.CreateFAdd(sum, b.CreateFMul(weight, x));
        }
        e.store(call.outputs[0], idx, e.convert(sum, ir::DType::Float32, t));
    });
    return Status::success();
}

Status lowerNearest(Emitter& e, const OpCall& call) {
    const ops::AccessMap* map = call.semantics->nests[0].accessFor(0);
    const ir::Shape& in = call.inputs[0].shape;
    for (const ops::IndexExpr& expr : map->dims)
        if (expr.full)
            return call.error("code generation does not support this coordinate transformation");
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        std::vector<Value*> index;
        for (size_t j = 0; j < map->dims.size(); ++j)
            index.push_back(e.clamp(e.evalIndex(map->dims[j], idx), 0, in[j] - 1));
        e.store(call.outputs[0], idx, e.load(call.inputs[0], index));
    });
    return Status::success();
}

} // namespace

Status lowerResize(Emitter& e, const OpCall& call) {
    if (call.outputs[0].base == nullptr)
        return Status::success();
    std::string mode = call.op().attrs.getString("mode", "nearest");
    if (mode == "nearest")
        return lowerNearest(e, call);
    if ((mode == "linear" || mode == "cubic") && ir::isFloatingPoint(outputType(call, 0)))
        return lowerInterpolated(e, call, mode == "cubic");
    return call.error("code generation does not support Resize mode " + mode);
}

} // namespace stagecraft::codegen::detail
