// The quantization ops, as ONNX defines them and ONNX Runtime computes them:
// - QuantizeLinear: y = saturate(round_half_even(x / scale) + zero_point),
//   in f32;
// - DequantizeLinear: y = (x - zero_point) * scale, the difference in int32;
// - ConvInteger, MatMulInteger: sum((a - a_zero) * (b - b_zero)) in int32;
// - QLinearConv, QLinearMatMul: that sum (plus QLinearConv's int32 bias)
//   requantized: saturate(round_half_even(sum * (a_scale * b_scale /
//   y_scale)) + y_zero_point), the multiplier in f32 as ONNX Runtime forms it.
// The sums accumulate in a register per output element; reads in a
// convolution's padding are skipped (they hold the zero point, so their
// product is zero). On the host the register-blocked lowering takes the
// contractions where it applies, with the same sums (blocked_integer.cpp);
// this lowering is riscv64's and the rest's.

#include "codegen/internal/lowering.h"

#include <llvm/IR/Intrinsics.h>

#include <array>

namespace stagecraft::codegen::detail {

namespace {

using ir::DType;

/// The input slots of one integer contraction.
struct Slots {
    int a = 0, aScale = -1, aZero = 2;
    int b = 1, bScale = -1, bZero = 3;
    int yScale = -1, yZero = -1, bias = -1;
};

Slots slotsOf(ir::OpKind kind) {
    if (kind == ir::OpKind::QLinearConv || kind == ir::OpKind::QLinearMatMul)
        return {0, 1, 2, 3, 4, 5, 6, 7, kind == ir::OpKind::QLinearConv ? 8 : -1};
    return {};
}

/// Input \p slot read through its map at \p loops and converted to \p to;
/// \p fallback when the input is omitted.
Value* operand(Emitter& e, const OpCall& call, int slot, std::span<Value* const> loops, DType to,
               double fallback) {
    if (slot < 0 || !call.hasInput(slot))
        return e.constant(to, fallback);
    return e.convert(loadMapped(e, call, 0, slot, loops), inputType(call, slot), to);
}

Value* roundEven(Emitter& e, Value* value) {
    std::array<Value*, 1> arg{value};
    return e.intrinsic(llvm::Intrinsic::roundeven, arg);
}

Value* quantizePoint(Emitter& e, const OpCall& call, std::span<Value* const> idx, DType out) {
    Value* x = operand(e, call, 0, idx, DType::Float32, 0);
    Value* scale = operand(e, call, 1, idx, DType::Float32, 1);
    Value* zero = operand(e, call, 2, idx, DType::Float32, 0);
    return quantized(e, x, scale, zero, out);
}

Value* dequantizePoint(Emitter& e, const OpCall& call, std::span<Value* const> idx, DType out) {
    Value* x = operand(e, call, 0, idx, DType::Int32, 0);
    Value* zero = operand(e, call, 2, idx, DType::Int32, 0);
    Value* scale = operand(e, call, 1, idx, DType::Float32, 1);
    return e.convert(dequantized(e, x, zero, scale), DType::Float32, out);
}

/// The loop values of an output point with every reduction loop at 0.
std::vector<Value*> atOutput(Emitter& e, const OpCall& call, const std::vector<Value*>& idx) {
    std::vector<Value*> loops(call.semantics->nests[0].loops.size(), e.i64(0));
    std::copy(idx.begin(), idx.end(), loops.begin());
    return loops;
}

/// The int32 sum of (a - a_zero) * (b - b_zero) at output point \p idx.
Value* integerSum(Emitter& e, const OpCall& call, const Slots& s, const std::vector<Value*>& idx) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    std::vector<Value*> here = atOutput(e, call, idx);
    Value* aZero = operand(e, call, s.aZero, here, DType::Int32, 0);
    Value* bZero = operand(e, call, s.bZero, here, DType::Int32, 0);
    std::vector<Range> reductions;
    for (size_t l = static_cast<size_t>(nest.outputRank); l < nest.loops.size(); ++l)
        reductions.push_back({e.i64(0), e.i64(nest.loops[l].extent)});
    Value* acc = e.slot(e.valueType(DType::Int32), e.constant(DType::Int32, 0));
    e.forBox(reductions, [&](const std::vector<Value*>& red) {
        std::vector<Value*> loops(idx);
        loops.insert(loops.end(), red.begin(), red.end());
        std::vector<Value*> inside;
        std::array<std::vector<Value*>, 2> indices;
        std::array<int, 2> slots{s.a, s.b};
        for (size_t k = 0; k < 2; ++k) {
            const ops::AccessMap* map = nest.accessFor(slots[k]);
            const ir::Shape& shape = call.inputs[static_cast<size_t>(slots[k])].shape;
            for (size_t j = 0; j < map->dims.size(); ++j) {
                Value* i = e.evalIndex(map->dims[j], loops);
                inside.push_back(e.inBounds(i, shape[j]));
                indices[k].push_back(i);
            }
        }
        e.ifThen(e.all(inside), [&] {
            Value* a = e.convert(e.load(call.inputs[static_cast<size_t>(s.a)], indices[0]),
                                 inputType(call, s.a), DType::Int32);
            Value* b = e.convert(e.load(call.inputs[static_cast<size_t>(s.b)], indices[1]),
                                 inputType(call, s.b), DType::Int32);
            Value* product = e.b().CreateMul(e.b().CreateSub(a, aZero), e.b().CreateSub(b, bZero));
            Value* sum = e.b().CreateAdd(e.b().CreateLoad(e.valueType(DType::Int32), acc), product);
            e.b().CreateStore(sum, acc);
        });
    });
    return e.b().CreateLoad(e.valueType(DType::Int32), acc);
}

/// The int32 sum requantized to \p out (QLinearConv, QLinearMatMul).
Value* requantize(Emitter& e, const OpCall& call, const Slots& s, const std::vector<Value*>& idx,
                  Value* sum, DType out) {
    std::vector<Value*> here = atOutput(e, call, idx);
    if (s.bias >= 0 && call.hasInput(s.bias))
        sum = e.b().CreateAdd(sum, operand(e, call, s.bias, here, DType::Int32, 0));
    Value* aScale = operand(e, call, s.aScale, here, DType::Float32, 1);
    Value* bScale = operand(e, call, s.bScale, here, DType::Float32, 1);
    Value* yScale = operand(e, call, s.yScale, here, DType::Float32, 1);
    Value* multiplier = e.b().CreateFDiv(e.b().CreateFMul(aScale, bScale), yScale);
    Value* scaled = e.b().CreateFMul(e.convert(sum, DType::Int32, DType::Float32), multiplier);
    Value* zero = operand(e, call, s.yZero, here, DType::Float32, 0);
    return saturated(e, scaled, zero, out);
}

} // namespace

Value* saturated(Emitter& e, Value* value, Value* zero, DType out) {
    auto bound = [&](double end) {
        Value* c = e.constant(DType::Float32, end);
        auto* lanes = llvm::dyn_cast<llvm::VectorType>(value->getType());
        return lanes ? e.b().CreateVectorSplat(lanes->getElementCount(), c) : c;
    };
    Value* rounded = e.b().CreateFAdd(roundEven(e, value), zero);
    auto [lo, hi] = integerRange(out);
    Value* clamped = e.b().CreateMaxNum(rounded, bound(lo));
    clamped = e.b().CreateMinNum(clamped, bound(hi));
    return e.wholeToInteger(clamped, out);
}

Value* quantized(Emitter& e, Value* x, Value* scale, Value* zero, DType out) {
    return saturated(e, e.b().CreateFDiv(x, scale), zero, out);
}

Value* dequantized(Emitter& e, Value* x, Value* zero, Value* scale) {
    Value* difference = e.b().CreateSub(x, zero);
    llvm::Type* floats = e.b().getFloatTy();
    if (auto* lanes = llvm::dyn_cast<llvm::VectorType>(difference->getType()))
        floats = llvm::VectorType::get(floats, lanes->getElementCount());
    return e.b().CreateFMul(e.b().CreateSIToFP(difference, floats), scale);
}

Status lowerQuantize(Emitter& e, const OpCall& call) {
    if (call.outputs[0].base == nullptr)
        return Status::success();
    DType out = outputType(call, 0);
    bool quantize = call.op().kind == ir::OpKind::QuantizeLinear;
    // Rows of a plane joined into one loop: 16 lanes over 56 x 56, not 7 x 8 and a tail.
    forJoinedBox(e, call.regions[0], joinedRowWidth(call, 0), [&](const std::vector<Value*>& idx) {
        Value* value =
            quantize ? quantizePoint(e, call, idx, out) : dequantizePoint(e, call, idx, out);
        e.store(call.outputs[0], idx, value);
    });
    return Status::success();
}

Status lowerIntegerContraction(Emitter& e, const OpCall& call) {
    if (call.outputs[0].base == nullptr)
        return Status::success();
    DType out = outputType(call, 0);
    Slots s = slotsOf(call.op().kind);
    bool requantized = s.yScale >= 0;
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        Value* sum = integerSum(e, call, s, idx);
        Value* value =
            requantized ? requantize(e, call, s, idx, sum, out) : e.convert(sum, DType::Int32, out);
        e.store(call.outputs[0], idx, value);
    });
    return Status::success();
}

} // namespace stagecraft::codegen::detail
