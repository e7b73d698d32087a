// Resize. Nearest mode reads through the loop-nest model's exact index map
// (the coordinate transform and rounding as one floor division), clamped to
// the input as ONNX Runtime clamps. Linear mode interpolates between the two
// neighbours of each resized dim with the coordinate computed in float as
// ONNX Runtime computes it (coordinate clamped to the input, equal
// neighbours weighted 1/2 each), so the numbers match to rounding.
// Cubic mode is not supported by code generation.

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

Status lowerLinear(Emitter& e, const OpCall& call) {
    const ir::Attributes& attrs = call.op().attrs;
    std::string mode = attrs.getString("coordinate_transformation_mode", "half_pixel");
    if (mode == "tf_crop_and_resize" || attrs.getInt("antialias", 0) != 0)
        return call.error("code generation does not support " + mode +
                          (attrs.getInt("antialias", 0) != 0 ? " with antialias" : ""));
    std::vector<double> scales = attrs.getFloats("scales");
    const ir::Shape& in = call.inputs[0].shape;
    const ir::Shape& out = call.graph->tensor(call.op().outputs[0]).shape;
    ir::DType t = outputType(call, 0);
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        std::vector<std::optional<Neighbours>> around(in.size());
        for (size_t j = 0; j < in.size(); ++j)
            if (in[j] != out[j] || scales[j] != 1.0)
                around[j] = neighbours(
                    e, originalCoordinate(e, mode, idx[j], scales[j], in[j], out[j]), in[j]);
        auto& b = e.b();
        Value* sum = llvm::ConstantFP::get(b.getFloatTy(), 0.0);
        size_t resized = 0;
        for (const auto& n : around)
            resized += n.has_value() ? 1 : 0;
        for (size_t corner = 0; corner < (size_t{1} << resized); ++corner) {
            std::vector<Value*> index;
            Value* weight = llvm::ConstantFP::get(b.getFloatTy(), 1.0);
            size_t bit = 0;
            for (size_t j = 0; j < in.size(); ++j) {
                if (!around[j]) {
                    index.push_back(idx[j]);
                    continue;
                }
                bool high = ((corner >> bit++) & 1) != 0;
                index.push_back(high ? around[j]->high : around[j]->low);
                weight = b.CreateFMul(weight, high ? around[j]->weightHigh : around[j]->weightLow);
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
    if (mode == "linear" && ir::isFloatingPoint(outputType(call, 0)))
        return lowerLinear(e, call);
    return call.error("code generation does not support Resize mode " + mode);
}

} // namespace stagecraft::codegen::detail
