// The register-blocked lowering's integer contractions on the host
// (lower_blocked.cpp; docs/codegen.md, "Integer contractions"): ConvInteger
// and MatMulInteger, u8 or s8 factors summed in int32 as ONNX defines them,
// sum((a - a_zero) * (b - b_zero)); QLinearConv and QLinearMatMul, that sum
// (plus QLinearConv's int32 bias, the accumulators' start) requantized
// before the store as lower_quantized.cpp does it per element:
// saturate(round_half_even(sum * (a_scale * b_scale / y_scale)) + y_zero),
// the same f32 operations lane by lane. Each factor's element (a vector of
// the row factor, a broadcast of the column factor) is widened to int32 and
// its zero point subtracted, a value in [-255, 255]: an int16. On x86 the
// multiply-add is then one word dot product (vpdpwssd with AVX-512 VNNI,
// vpmaddwd and an add with AVX2 or AVX-512 BW) of the row's lanes by the
// broadcast, its high word cleared: each lane sums row * column + the row's
// high word * 0, the product vpmulld (two µops on the one port) and vpaddd
// would give; elsewhere a multiply and an add in int32. Padding lanes
// keep their sums, as the scalar lowering skips those reads (their products
// are zero). Integer sums are exact in any order, so the outputs are the
// scalar lowering's.
// An s8 weight the host stores with 4 reduction steps interleaved in its
// blocks of 16 columns (GlobalTensor::hostBlockGroup: a MatMul's B, u8 by
// s8, its zero point 0) runs in byte dot products where the target has
// AVX-512 VNNI: one 64-byte load of the weight holds 4 steps of 16 columns,
// and one vpdpbusd per tile row adds to each lane the 4 products of those
// columns by the row's 4 consecutive u8 bytes, broadcast, ONNX Runtime's
// u8 x s8 kernel. The products are of the stored u8 values, not of their
// differences from the zero point: a further dot product per step of the
// weight by bytes of 1 sums each column, and the zero point times that sum
// is taken off before the store. A QLinearConv's s8 weight stored with 4
// input channels grouped ([oc][ic / 4][kh][kw][4]) keeps its vectors along
// output positions: each step loads the u8 input's vectors of 4 channels
// as one step loads one, interleaves their bytes, and adds one vpdpbusd
// per tile row by the weight's 4 bytes broadcast; an input zero point
// other than 0 is taken off with each tile row's weight sums, the padding
// read as that zero point (ONNX's QLinearConv and ConvInteger pad with it:
// such a tap adds nothing). Sums and products fit int32 exactly, so the bits are again
// the scalar lowering's. Without VNNI the grouped weights are read as the
// word path reads any weight (a MatMul's lanes 4 bytes apart, one shuffle
// per vector).

#include "codegen/internal/blocked_plan.h"
#include "codegen/internal/host_reads.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>

#include <algorithm>
#include <optional>
#include <vector>

namespace stagecraft::codegen::detail {

namespace {

/// The input slots of factor \p slot's zero point and (requantized) scale:
/// ConvInteger's and MatMulInteger's a and b (0, 1) have theirs at 2 and 3;
/// QLinearConv's and QLinearMatMul's (0, 3) at 2, 1 and 5, 4.
int zeroSlotOf(int slot) {
    return slot + 2;
}
int scaleSlotOf(int slot) {
    return slot + 1;
}

bool isByte(ir::DType t) {
    return t == ir::DType::UInt8 || t == ir::DType::Int8;
}

/// Whether input \p slot, when given, reads the row (or the loop flattened
/// with it): its lanes would need values of their own.
bool readsAlongRow(const OpCall& call, const BlockedPlan& plan, int slot) {
    if (!call.hasInput(slot))
        return false;
    const ops::AccessMap* map = call.semantics->nests[0].accessFor(slot);
    return map == nullptr ||
           std::any_of(map->dims.begin(), map->dims.end(), [&](const ops::IndexExpr& d) {
               return d.full || readsLoop(d, plan.row) ||
                      (plan.outer >= 0 && readsLoop(d, plan.outer));
           });
}

/// Whether factor \p slot's zero point is absent or a constant of zeros:
/// byte dot products sum the stored bytes.
bool zeroOrAbsent(const OpCall& call, int slot) {
    const int zero = zeroSlotOf(slot);
    return !call.hasInput(zero) ||
           zeroConstant(*call.graph, call.op().inputs[static_cast<size_t>(zero)]);
}

/// \p v splat to the lanes of \p like when \p like is a vector type.
Value* splatLike(Emitter& e, Value* v, llvm::Type* like) {
    if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(like))
        return e.b().CreateVectorSplat(vector->getElementCount(), v);
    return v;
}

} // namespace

bool requantizes(const OpCall& call) {
    const ir::OpKind kind = call.op().kind;
    return kind == ir::OpKind::QLinearConv || kind == ir::OpKind::QLinearMatMul;
}

int secondFactorSlot(const OpCall& call) {
    return requantizes(call) ? 3 : 1;
}

bool integerFactors(const OpCall& call) {
    const ir::OpKind kind = call.op().kind;
    const bool sums = kind == ir::OpKind::ConvInteger || kind == ir::OpKind::MatMulInteger;
    if (!sums && !requantizes(call))
        return false;
    const ir::DType out = outputType(call, 0);
    return (sums ? out == ir::DType::Int32 : isByte(out)) && isByte(inputType(call, 0)) &&
           isByte(inputType(call, secondFactorSlot(call)));
}

bool integerParametersAlongRow(const OpCall& call, const BlockedPlan& plan) {
    return readsAlongRow(call, plan, zeroSlotOf(plan.rowSlot)) ||
           (requantizes(call) && readsAlongRow(call, plan, scaleSlotOf(plan.rowSlot)));
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
    return e.b().CreateSub(value, splatLike(e, zero, wide));
}

Value* integerMultiplyAdd(Emitter& e, Value* sums, Value* row, Value* column) {
    const auto lanes = llvm::cast<llvm::FixedVectorType>(sums->getType())->getNumElements();
    const int dot = wordDotOf(e.module());
    if (dot == 0 || static_cast<int>(lanes) * 32 != vectorBitsOf(e.module()))
        return e.b().CreateAdd(sums, e.b().CreateMul(row, column));
    // The broadcast's high words cleared (one scalar and per element, not a
    // vector one per row vector): each pair sums row * column + the row's
    // high word * 0.
    Value* low = e.b().CreateAnd(column, e.b().CreateVectorSplat(lanes, e.b().getInt32(0xFFFF)));
    if (dot == 2) // 512 bits only
        return e.b().CreateIntrinsic(llvm::Intrinsic::x86_avx512_vpdpwssd_512, {},
                                     {sums, row, low});
    auto* words = llvm::FixedVectorType::get(e.b().getInt16Ty(), lanes * 2);
    const auto id =
        lanes == 16 ? llvm::Intrinsic::x86_avx512_pmaddw_d_512 : llvm::Intrinsic::x86_avx2_pmadd_wd;
    Value* pairs = e.b().CreateIntrinsic(
        id, {}, {e.b().CreateBitCast(row, words), e.b().CreateBitCast(low, words)});
    return e.b().CreateAdd(sums, pairs);
}

void planByteDots(Emitter& e, const OpCall& call, BlockedPlan& plan) {
    const Access& rows = call.inputs[static_cast<size_t>(plan.rowSlot)];
    const Access& cols = call.inputs[static_cast<size_t>(plan.colSlot)];
    const bool alongRows = cols.group == kDotGroup; // a Conv's weight, else a MatMul's
    const Access& grouped = alongRows ? cols : rows;
    const int signedSlot = alongRows ? plan.colSlot : plan.rowSlot;
    const int unsignedSlot = alongRows ? plan.rowSlot : plan.colSlot;
    // VNNI's byte dot products, or two word dot products in their place
    // (byteDot) where the target has those (AVX2, AVX-512 BW).
    const int dot = wordDotOf(e.module());
    if (grouped.group != kDotGroup || dot == 0 || (plan.lanes != 16 && plan.lanes != 8) ||
        plan.lanes * 32 > vectorBitsOf(e.module()) ||
        inputType(call, signedSlot) != ir::DType::Int8 ||
        inputType(call, unsignedSlot) != ir::DType::UInt8 || !zeroOrAbsent(call, signedSlot))
        return;
    const bool rowZero = alongRows && !zeroOrAbsent(call, unsignedSlot);
    const ops::LoopNest& nest = call.semantics->nests[0];
    const ops::IndexExpr& groupedDim = nest.accessFor(signedSlot)->dims[grouped.groupDim];
    if (groupedDim.terms.size() != 1)
        return;
    const int step = groupedDim.terms[0].loop;
    const std::optional<size_t> unsignedDim = dimReadingAlone(nest, unsignedSlot, step);
    if (std::find(plan.reductions.begin(), plan.reductions.end(), step) == plan.reductions.end() ||
        dimReadingAlone(nest, signedSlot, step) != grouped.groupDim || !unsignedDim)
        return;
    // Whole groups of steps; a Conv's fewer input channels than a group
    // take one, its missing channels' weights stored as zeros.
    const int64_t steps = nest.loops[static_cast<size_t>(step)].extent;
    if (steps % kDotGroup != 0 && !(alongRows && steps < kDotGroup))
        return;
    // A MatMul's u8 rows hold 4 steps in one word; a Conv's u8 input takes
    // its 4 channels' vectors, one per step, interleaved.
    if (!alongRows &&
        (plan.reductions.size() != 1 || !plan.taps.empty() || !plan.testedDims.empty() ||
         plan.outer >= 0 || cols.strides[*unsignedDim] != 1))
        return;
    plan.dotGroup = kDotGroup;
    plan.dotLoop = step;
    plan.dotAlongRows = alongRows;
    plan.dotByWords = dot != 2;
    plan.dotRowZero = rowZero;
}

Value* groupedRowBytes(Emitter& e, const OpCall& call, const BlockedPlan& plan,
                       std::span<Value* const> index) {
    const Access& rows = call.inputs[static_cast<size_t>(plan.rowSlot)];
    const std::vector<bool> all(static_cast<size_t>(plan.lanes * plan.dotGroup), true);
    return e.loadMasked(rows, index, 0, all);
}

Value* columnBytes(Emitter& e, const OpCall& call, const BlockedPlan& plan,
                   std::span<Value* const> loops) {
    std::vector<Value*> index;
    for (const ops::IndexExpr& d : call.semantics->nests[0].accessFor(plan.colSlot)->dims)
        index.push_back(e.evalIndex(d, loops));
    const std::vector<bool> all(static_cast<size_t>(plan.dotGroup), true);
    Value* bytes = e.loadMasked(call.inputs[static_cast<size_t>(plan.colSlot)], index, 0, all);
    Value* word = e.b().CreateBitCast(bytes, e.b().getInt32Ty());
    return e.b().CreateVectorSplat(static_cast<unsigned>(plan.lanes), word);
}

Value* interleavedBytes(Emitter& e, const std::vector<Value*>& channels,
                        const std::vector<bool>& keep, Value* fill) {
    const auto lanes = static_cast<int>(keep.size());
    std::vector<Value*> kept;
    for (Value* v : channels) // a lane that reads nothing sums products of fill
        kept.push_back(std::all_of(keep.begin(), keep.end(), [](bool b) { return b; })
                           ? v
                           : e.b().CreateSelect(e.laneMask(keep), v,
                                                fill != nullptr
                                                    ? fill
                                                    : llvm::Constant::getNullValue(v->getType())));
    std::vector<int> pair(static_cast<size_t>(lanes * 2));
    for (int i = 0; i < lanes * 2; ++i)
        pair[static_cast<size_t>(i)] = i;
    Value* low = e.b().CreateShuffleVector(kept[0], kept[1], pair);
    Value* high = e.b().CreateShuffleVector(kept[2], kept[3], pair);
    std::vector<int> order; // lane p's 4 bytes: channel j's at p
    for (int p = 0; p < lanes; ++p)
        for (int j = 0; j < 4; ++j)
            order.push_back(j / 2 * lanes * 2 + j % 2 * lanes + p);
    return e.b().CreateShuffleVector(low, high, order);
}

namespace {

/// The word dot product (pmaddwd) of \p a by \p b, int16 pairs of int32
/// lanes as wide as \p lanes: lane i = a[2i] * b[2i] + a[2i + 1] * b[2i + 1].
Value* wordPairs(Emitter& e, Value* a, Value* b, unsigned lanes) {
    auto* words = llvm::FixedVectorType::get(e.b().getInt16Ty(), lanes * 2);
    // planByteDots plans 8 or 16 lanes only.
    const auto id =
        lanes == 16 ? llvm::Intrinsic::x86_avx512_pmaddw_d_512 : llvm::Intrinsic::x86_avx2_pmadd_wd;
    return e.b().CreateIntrinsic(id, {},
                                 {e.b().CreateBitCast(a, words), e.b().CreateBitCast(b, words)});
}

/// vpdpbusd without VNNI, exactly: each int32 lane's 4 bytes split into the
/// words of its even bytes and of its odd ones (u8 zero-extended, s8
/// sign-extended; every product and pair sum fits), then two word dot
/// products. The same sums, so the same bits as with VNNI.
Value* byteDotByWords(Emitter& e, Value* sums, Value* unsignedBytes, Value* signedBytes) {
    const unsigned lanes = llvm::cast<llvm::FixedVectorType>(sums->getType())->getNumElements();
    auto* words = llvm::FixedVectorType::get(e.b().getInt16Ty(), lanes * 2);
    auto splat = [&](int value) {
        return e.b().CreateVectorSplat(lanes * 2, e.b().getInt16(value));
    };
    Value* u = e.b().CreateBitCast(unsignedBytes, words);
    Value* s = e.b().CreateBitCast(signedBytes, words);
    Value* evenU = e.b().CreateAnd(u, splat(0xFF));
    Value* oddU = e.b().CreateLShr(u, splat(8));
    Value* evenS = e.b().CreateAShr(e.b().CreateShl(s, splat(8)), splat(8));
    Value* oddS = e.b().CreateAShr(s, splat(8));
    Value* even = wordPairs(e, evenU, evenS, lanes);
    Value* odd = wordPairs(e, oddU, oddS, lanes);
    return e.b().CreateAdd(e.b().CreateAdd(sums, even), odd);
}

} // namespace

Value* byteDot(Emitter& e, Value* sums, Value* unsignedBytes, Value* signedBytes) {
    if (wordDotOf(e.module()) != 2)
        return byteDotByWords(e, sums, unsignedBytes, signedBytes);
    llvm::Type* words = sums->getType();
    const bool wide = llvm::cast<llvm::FixedVectorType>(words)->getNumElements() == 16;
    return e.b().CreateIntrinsic(
        wide ? llvm::Intrinsic::x86_avx512_vpdpbusd_512 : llvm::Intrinsic::x86_avx512_vpdpbusd_256,
        {},
        {sums, e.b().CreateBitCast(unsignedBytes, words), e.b().CreateBitCast(signedBytes, words)});
}

Value* unitBytes(Emitter& e, unsigned lanes) {
    return e.b().CreateVectorSplat(lanes, e.b().getInt32(0x01010101));
}

bool hasZero(const OpCall& call, int slot) {
    return !zeroOrAbsent(call, slot);
}

Value* lessZeroTimes(Emitter& e, const OpCall& call, int factor, Value* sums, Value* weightSums,
                     std::span<Value* const> loops) {
    const int slot = zeroSlotOf(factor);
    Value* zero =
        e.convert(loadMapped(e, call, 0, slot, loops), inputType(call, slot), ir::DType::Int32);
    return e.b().CreateSub(sums, e.b().CreateMul(splatLike(e, zero, sums->getType()), weightSums));
}

Value* zeroPointBytes(Emitter& e, const OpCall& call, int factor, std::span<Value* const> loops,
                      unsigned count) {
    return e.b().CreateVectorSplat(count, loadMapped(e, call, 0, zeroSlotOf(factor), loops));
}

Value* requantizedLanes(Emitter& e, const OpCall& call, Value* sums,
                        std::span<Value* const> loops) {
    constexpr int kYScale = 6, kYZero = 7; // of both QLinearConv and QLinearMatMul
    const auto input = [&](int slot) {
        return loadMapped(e, call, 0, slot, loops);
    };
    Value* multiplier = e.b().CreateFDiv(e.b().CreateFMul(input(1), input(4)), input(kYScale));
    Value* zero = e.convert(input(kYZero), inputType(call, kYZero), ir::DType::Float32);
    const auto count = llvm::cast<llvm::FixedVectorType>(sums->getType())->getNumElements();
    auto* floats = llvm::FixedVectorType::get(e.b().getFloatTy(), count);
    Value* scaled =
        e.b().CreateFMul(e.b().CreateSIToFP(sums, floats), splatLike(e, multiplier, floats));
    return saturated(e, scaled, splatLike(e, zero, floats), outputType(call, 0));
}

} // namespace stagecraft::codegen::detail
