// The register-blocked lowering's integer contractions on the host
// (lower_blocked.cpp; docs/codegen.md, "Integer contractions"): ConvInteger
// and MatMulInteger, u8 or s8 factors summed in int32 as ONNX defines them,
// sum((a - a_zero) * (b - b_zero)). Each factor's element (a vector of the
// row factor, a broadcast of the column factor) is widened to int32 and its
// zero point subtracted before the multiply-add, a multiply and an add in
// int32; padding lanes keep their sums, as the scalar lowering skips those
// reads (their products are zero). Integer sums are exact in any order, so
// the outputs are the scalar lowering's.

#include "codegen/internal/blocked_plan.h"

namespace stagecraft::codegen::detail {

namespace {

/// The input slot of the zero point of factor \p slot (0 or 1).
int zeroSlotOf(int slot) {
    return slot + 2;
}

bool isByte(ir::DType t) {
    return t == ir::DType::UInt8 || t == ir::DType::Int8;
}

} // namespace

bool integerFactors(const OpCall& call) {
    const ir::OpKind kind = call.op().kind;
    return (kind == ir::OpKind::ConvInteger || kind == ir::OpKind::MatMulInteger) &&
           outputType(call, 0) == ir::DType::Int32 && isByte(inputType(call, 0)) &&
           isByte(inputType(call, 1));
}

bool zeroPointAlongRow(const OpCall& call, const BlockedPlan& plan) {
    const int zero = zeroSlotOf(plan.rowSlot);
    if (!call.hasInput(zero))
        return false;
    const ops::AccessMap* map = call.semantics->nests[0].accessFor(zero);
    return map == nullptr ||
           std::any_of(map->dims.begin(), map->dims.end(), [&](const ops::IndexExpr& d) {
               return d.full || readsLoop(d, plan.row) ||
                      (plan.outer >= 0 && readsLoop(d, plan.outer));
           });
}

Value* widenedFactor(Emitter& e, const OpCall& call, int slot, Value* value,
                     std::span<Value* const> loops) {
    llvm::Type* wide = e.b().getInt32Ty();
    if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(value->getType()))
        wide = llvm::FixedVectorType::get(wide, vector->getNumElements());
    value = inputType(call, slot) == ir::DType::UInt8 ? e.b().CreateZExt(value, wide)
                                                      : e.b().CreateSExt(value, wide);
    const int zeroSlot = zeroSlotOf(slot);
    if (!call.hasInput(zeroSlot))
        return value;
    Value* zero = e.convert(loadMapped(e, call, 0, zeroSlot, loops), inputType(call, zeroSlot),
                            ir::DType::Int32);
    if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(wide))
        zero = e.b().CreateVectorSplat(vector->getElementCount(), zero);
    return e.b().CreateSub(value, zero);
}

} // namespace stagecraft::codegen::detail
