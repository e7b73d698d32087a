// IR building helpers of the op lowerings: counted loops, conditionals,
// element addressing through Access (origin and strides per dim), index
// expressions of the loop-nest model (floor division and modulo), and
// element type conversions as ONNX Cast defines them.
//
// f16 and bf16 tensors are stored as 16-bit words and computed in f32: a
// load widens, a store rounds to nearest even (docs/codegen.md, "Precision"),
// as ONNX Runtime's CPU provider computes f16 models. bf16 is converted with
// integer arithmetic, f16 with LLVM's half type (F16C on x86-64, the libgcc
// routines otherwise).

#include "codegen/internal/lowering.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/TargetParser/Triple.h>

#include <algorithm>
#include <array>
#include <cstdio>

namespace stagecraft::codegen::detail {

Emitter::Emitter(llvm::Module& module, llvm::Function* function)
    : module_(module)
    , function_(function)
    , builder_(module.getContext()) {}

Value* Emitter::i64(int64_t value) {
    return builder_.getInt64(static_cast<uint64_t>(value));
}

llvm::Type* Emitter::valueType(ir::DType dtype) {
    if (dtype == ir::DType::Float16 || dtype == ir::DType::BFloat16)
        return builder_.getFloatTy();
    return dtype == ir::DType::Bool ? builder_.getInt1Ty() : memoryType(dtype);
}

llvm::Type* Emitter::memoryType(ir::DType dtype) {
    switch (dtype) {
    case ir::DType::Float32:
        return builder_.getFloatTy();
    case ir::DType::Float64:
        return builder_.getDoubleTy();
    case ir::DType::Int8:
    case ir::DType::UInt8:
    case ir::DType::Bool:
        return builder_.getInt8Ty();
    case ir::DType::Int16:
    case ir::DType::UInt16:
    case ir::DType::Float16:
    case ir::DType::BFloat16:
        return builder_.getInt16Ty();
    case ir::DType::Int32:
    case ir::DType::UInt32:
        return builder_.getInt32Ty();
    case ir::DType::Int64:
    case ir::DType::UInt64:
        return builder_.getInt64Ty();
    default:
        return nullptr;
    }
}

Value* Emitter::constant(ir::DType dtype, double value) {
    llvm::Type* type = valueType(dtype);
    if (ir::isFloatingPoint(dtype))
        return llvm::ConstantFP::get(type, value);
    if (dtype == ir::DType::Bool)
        return builder_.getInt1(value != 0);
    return llvm::ConstantInt::get(type, static_cast<uint64_t>(static_cast<int64_t>(value)), true);
}

void Emitter::forRange(Range range, const std::function<void(Value*)>& body, int64_t step,
                       Value* stepValue, const char* name) {
    llvm::LLVMContext& ctx = context();
    llvm::BasicBlock* before = builder_.GetInsertBlock();
    auto* header = llvm::BasicBlock::Create(ctx, name, function_);
    auto* inner = llvm::BasicBlock::Create(ctx, "body", function_);
    auto* exit = llvm::BasicBlock::Create(ctx, "done", function_);
    builder_.CreateBr(header);
    builder_.SetInsertPoint(header);
    llvm::PHINode* iv = builder_.CreatePHI(builder_.getInt64Ty(), 2, "i");
    iv->addIncoming(range.lo, before);
    builder_.CreateCondBr(builder_.CreateICmpSLT(iv, range.hi), inner, exit);
    builder_.SetInsertPoint(inner);
    body(iv);
    Value* next =
        builder_.CreateAdd(iv, stepValue != nullptr ? stepValue : i64(step), "", false, true);
    iv->addIncoming(next, builder_.GetInsertBlock());
    builder_.CreateBr(header);
    builder_.SetInsertPoint(exit);
}

void Emitter::forBox(std::span<const Range> ranges,
                     const std::function<void(const std::vector<Value*>&)>& body,
                     const char* name) {
    std::vector<Value*> index;
    std::function<void(size_t)> level = [&](size_t d) {
        if (d == ranges.size()) {
            body(index);
            return;
        }
        forRange(
            ranges[d],
            [&](Value* iv) {
                index.push_back(iv);
                level(d + 1);
                index.pop_back();
            },
            1, nullptr, name);
    };
    level(0);
}

void Emitter::ifThen(Value* cond, const std::function<void()>& then,
                     const std::function<void()>& otherwise) {
    llvm::LLVMContext& ctx = context();
    auto* yes = llvm::BasicBlock::Create(ctx, "then", function_);
    auto* no = otherwise ? llvm::BasicBlock::Create(ctx, "else", function_) : nullptr;
    auto* merge = llvm::BasicBlock::Create(ctx, "merge", function_);
    builder_.CreateCondBr(cond, yes, no != nullptr ? no : merge);
    builder_.SetInsertPoint(yes);
    then();
    builder_.CreateBr(merge);
    if (no != nullptr) {
        builder_.SetInsertPoint(no);
        otherwise();
        builder_.CreateBr(merge);
    }
    builder_.SetInsertPoint(merge);
}

Value* Emitter::slot(llvm::Type* type, Value* initial) {
    llvm::BasicBlock& entry = function_->getEntryBlock();
    llvm::IRBuilder<> top(&entry, entry.begin());
    Value* address = top.CreateAlloca(type);
    builder_.CreateStore(initial, address);
    return address;
}

Value* Emitter::elementPtr(const Access& access, std::span<Value* const> index) {
    Value* offset = i64(0);
    for (size_t d = 0; d < index.size(); ++d) {
        if (d == access.blockDim && access.block > 0) { // [dim / block][...][block]
            Value* local = builder_.CreateSub(index[d], access.origin[d], "", false, true);
            Value* whole = builder_.CreateMul(builder_.CreateUDiv(local, i64(access.block)),
                                              i64(access.blockStride), "", false, true);
            Value* within = builder_.CreateMul(builder_.CreateURem(local, i64(access.block)),
                                               i64(access.group), "", false, true);
            offset = builder_.CreateAdd(offset, builder_.CreateAdd(whole, within, "", false, true),
                                        "", false, true);
            continue;
        }
        if (d == access.groupDim && access.group > 1) { // [.../ group][block][group]
            Value* local = builder_.CreateSub(index[d], access.origin[d], "", false, true);
            Value* groups = builder_.CreateMul(builder_.CreateUDiv(local, i64(access.group)),
                                               i64(access.strides[d]), "", false, true);
            Value* within = builder_.CreateURem(local, i64(access.group));
            offset = builder_.CreateAdd(offset, builder_.CreateAdd(groups, within, "", false, true),
                                        "", false, true);
            continue;
        }
        if (access.strides[d] == 0)
            continue;
        Value* local = builder_.CreateSub(index[d], access.origin[d], "", false, true);
        offset = builder_.CreateAdd(
            offset, builder_.CreateMul(local, i64(access.strides[d]), "", false, true), "", false,
            true);
    }
    return builder_.CreateInBoundsGEP(memoryType(access.dtype), access.base, offset);
}

void markAliasing(llvm::Instruction* instruction, const Access& access) {
    if (access.aliasScope == nullptr)
        return;
    instruction->setMetadata(llvm::LLVMContext::MD_alias_scope, access.aliasScope);
    instruction->setMetadata(llvm::LLVMContext::MD_noalias, access.noAlias);
}

Value* Emitter::load(const Access& access, std::span<Value* const> index) {
    llvm::LoadInst* value =
        builder_.CreateLoad(memoryType(access.dtype), elementPtr(access, index));
    markAliasing(value, access);
    switch (access.dtype) {
    case ir::DType::Bool:
        return builder_.CreateICmpNE(value, builder_.getInt8(0));
    case ir::DType::Float16:
        return builder_.CreateFPExt(builder_.CreateBitCast(value, builder_.getHalfTy()),
                                    builder_.getFloatTy());
    case ir::DType::BFloat16:
        return builder_.CreateBitCast(
            builder_.CreateShl(builder_.CreateZExt(value, builder_.getInt32Ty()), 16),
            builder_.getFloatTy());
    default:
        return value;
    }
}

Value* Emitter::toStorage(Value* value, ir::DType dtype) {
    switch (dtype) {
    case ir::DType::Bool:
        return builder_.CreateZExt(value, builder_.getInt8Ty());
    case ir::DType::Float16:
        return builder_.CreateBitCast(builder_.CreateFPTrunc(value, builder_.getHalfTy()),
                                      builder_.getInt16Ty());
    case ir::DType::BFloat16: {
        // Round to nearest even on the upper 16 bits; a NaN stays quiet NaN.
        Value* bits = builder_.CreateBitCast(value, builder_.getInt32Ty());
        Value* odd = builder_.CreateAnd(builder_.CreateLShr(bits, 16), builder_.getInt32(1));
        Value* rounded = builder_.CreateLShr(
            builder_.CreateAdd(bits, builder_.CreateAdd(builder_.getInt32(0x7fff), odd)), 16);
        Value* quiet = builder_.CreateOr(builder_.CreateLShr(bits, 16), builder_.getInt32(0x40));
        Value* nan = builder_.CreateFCmpUNO(value, value);
        return builder_.CreateTrunc(builder_.CreateSelect(nan, quiet, rounded),
                                    builder_.getInt16Ty());
    }
    default:
        return value;
    }
}

void Emitter::store(const Access& access, std::span<Value* const> index, Value* value) {
    markAliasing(builder_.CreateStore(toStorage(value, access.dtype), elementPtr(access, index)),
                 access);
}

/// The pointer \p shift elements after \p index's element of \p access,
/// not inbounds: the first lanes of a masked load may lie before the tensor.
Value* Emitter::shiftedPointer(const Access& access, std::span<Value* const> index, int64_t shift) {
    Value* at = elementPtr(access, index);
    return shift == 0 ? at : builder_.CreateGEP(memoryType(access.dtype), at, i64(shift));
}

Value* Emitter::constantMask(const std::vector<bool>& lanes) {
    std::vector<llvm::Constant*> mask;
    for (bool b : lanes)
        mask.push_back(builder_.getInt1(b));
    return llvm::ConstantVector::get(mask);
}

Value* Emitter::laneMask(const std::vector<bool>& lanes) {
    const bool maskRegisters = llvm::Triple(module_.getTargetTriple()).isX86() &&
                               vectorBitsOf(module_) >= 512 && lanes.size() <= 64;
    if (!maskRegisters)
        return constantMask(lanes);
    uint64_t bits = 0;
    for (size_t k = 0; k < lanes.size(); ++k)
        bits |= uint64_t{lanes[k]} << k;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(bits));
    const auto width = static_cast<unsigned>(lanes.size());
    llvm::Type* word = builder_.getIntNTy(width);
    const std::string name = module_.getName().str() + ".lanes" + std::to_string(width) + "." + hex;
    auto* global = llvm::cast<llvm::GlobalVariable>(module_.getOrInsertGlobal(name, word));
    if (!global->hasInitializer()) {
        // Not constant and not local: the optimizer cannot fold its loads.
        global->setInitializer(llvm::ConstantInt::get(word, bits));
        global->setVisibility(llvm::GlobalValue::HiddenVisibility);
    }
    Value* loaded = builder_.CreateLoad(word, global);
    return builder_.CreateBitCast(loaded, llvm::FixedVectorType::get(builder_.getInt1Ty(), width));
}

Value* Emitter::keptLanes(const std::vector<bool>& lanes, Value* value, Value* otherwise) {
    if (!llvm::Triple(module_.getTargetTriple()).isRISCV())
        return builder_.CreateSelect(laneMask(lanes), value, otherwise);
    Value* everyLane = builder_.getInt32(static_cast<uint32_t>(lanes.size()));
    return builder_.CreateIntrinsic(llvm::Intrinsic::vp_select, {value->getType()},
                                    {constantMask(lanes), value, otherwise, everyLane});
}

Value* Emitter::loadMasked(const Access& access, std::span<Value* const> index, int64_t shift,
                           const std::vector<bool>& read) {
    llvm::Type* word = memoryType(access.dtype);
    Value* at = shiftedPointer(access, index, shift);
    auto* type = llvm::FixedVectorType::get(word, static_cast<unsigned>(read.size()));
    const llvm::Align align = module_.getDataLayout().getABITypeAlign(word);
    llvm::Instruction* value = nullptr;
    if (std::all_of(read.begin(), read.end(), [](bool b) { return b; }))
        value = builder_.CreateAlignedLoad(type, at, align);
    else
        value = builder_.CreateMaskedLoad(type, at, align, constantMask(read),
                                          llvm::PoisonValue::get(type));
    markAliasing(value, access);
    return value;
}

Value* Emitter::loadStrided(const Access& access, std::span<Value* const> index, int64_t shift,
                            int64_t step, const std::vector<bool>& read) {
    llvm::Type* word = memoryType(access.dtype);
    Value* at = shiftedPointer(access, index, shift);
    auto* type = llvm::FixedVectorType::get(word, static_cast<unsigned>(read.size()));
    const llvm::DataLayout& layout = module_.getDataLayout();
    const auto bytes = static_cast<int64_t>(layout.getTypeAllocSize(word));
    std::array<Value*, 4> args{at, i64(step * bytes), constantMask(read),
                               builder_.getInt32(static_cast<uint32_t>(read.size()))};
    llvm::CallInst* value =
        builder_.CreateIntrinsic(llvm::Intrinsic::experimental_vp_strided_load,
                                 {type, at->getType(), builder_.getInt64Ty()}, args);
    value->addParamAttr(
        0, llvm::Attribute::getWithAlignment(module_.getContext(), layout.getABITypeAlign(word)));
    markAliasing(value, access);
    return value;
}

void Emitter::storeVector(const Access& access, std::span<Value* const> index, Value* vector,
                          int64_t count) {
    llvm::Type* word = memoryType(access.dtype);
    const llvm::Align align = module_.getDataLayout().getABITypeAlign(word);
    auto* type = llvm::cast<llvm::FixedVectorType>(vector->getType());
    if (count < 0 || count == type->getNumElements()) {
        markAliasing(builder_.CreateAlignedStore(vector, elementPtr(access, index), align), access);
        return;
    }
    Value* at = elementPtr(access, index);
    Value* all = builder_.CreateVectorSplat(type->getNumElements(), builder_.getTrue());
    std::array<Value*, 4> args{vector, at, all, builder_.getInt32(static_cast<uint32_t>(count))};
    llvm::CallInst* store =
        builder_.CreateIntrinsic(llvm::Intrinsic::vp_store, {type, at->getType()}, args);
    store->addParamAttr(1, llvm::Attribute::getWithAlignment(module_.getContext(), align));
    markAliasing(store, access);
}

void Emitter::storeStrided(const Access& access, std::span<Value* const> index, Value* vector,
                           int64_t step, int64_t count) {
    llvm::Type* word = memoryType(access.dtype);
    const auto lanes = llvm::cast<llvm::FixedVectorType>(vector->getType())->getNumElements();
    std::vector<llvm::Constant*> offsets;
    std::vector<bool> stored(lanes, false);
    for (unsigned k = 0; k < lanes; ++k) {
        offsets.push_back(builder_.getInt64(static_cast<uint64_t>(step) * k));
        stored[k] = k < static_cast<uint64_t>(count);
    }
    // Not inbounds: the lanes past count are masked off and may lie past the tensor.
    Value* pointers =
        builder_.CreateGEP(word, elementPtr(access, index), llvm::ConstantVector::get(offsets));
    const llvm::Align align = module_.getDataLayout().getABITypeAlign(word);
    markAliasing(builder_.CreateMaskedScatter(vector, pointers, align, constantMask(stored)),
                 access);
}

Value* Emitter::floorDiv(Value* a, int64_t b) {
    if (b == 1)
        return a;
    Value* q = builder_.CreateSDiv(a, i64(b));
    Value* r = builder_.CreateSRem(a, i64(b));
    Value* adjust = builder_.CreateZExt(builder_.CreateICmpSLT(r, i64(0)), builder_.getInt64Ty());
    return builder_.CreateSub(q, adjust);
}

Value* Emitter::floorMod(Value* a, int64_t b) {
    Value* r = builder_.CreateSRem(a, i64(b));
    return builder_.CreateSelect(builder_.CreateICmpSLT(r, i64(0)), builder_.CreateAdd(r, i64(b)),
                                 r);
}

Value* Emitter::evalIndex(const ops::IndexExpr& expr, std::span<Value* const> loops) {
    Value* sum = i64(expr.offset);
    for (const ops::IndexTerm& t : expr.terms) {
        Value* v = loops[static_cast<size_t>(t.loop)];
        if (t.div != 1)
            v = floorDiv(v, t.div);
        if (t.mod != 0)
            v = floorMod(v, t.mod);
        if (t.coeff != 1)
            v = builder_.CreateMul(v, i64(t.coeff), "", false, true);
        sum = builder_.CreateAdd(sum, v, "", false, true);
    }
    if (expr.div != 1)
        sum = floorDiv(sum, expr.div);
    if (expr.mod != 0)
        sum = floorMod(sum, expr.mod);
    return sum;
}

Value* Emitter::inBounds(Value* index, int64_t extent) {
    return builder_.CreateICmpULT(index, i64(extent));
}

Value* Emitter::clamp(Value* index, int64_t lo, int64_t hi) {
    return min(max(index, i64(lo)), i64(hi));
}

Value* Emitter::min(Value* a, Value* b) {
    return builder_.CreateSelect(builder_.CreateICmpSLT(a, b), a, b);
}

Value* Emitter::max(Value* a, Value* b) {
    return builder_.CreateSelect(builder_.CreateICmpSGT(a, b), a, b);
}

Value* Emitter::all(std::span<Value* const> conditions) {
    Value* result = builder_.getTrue();
    for (Value* c : conditions)
        result = builder_.CreateAnd(result, c);
    return result;
}

bool isUnsigned(ir::DType t) {
    return t == ir::DType::UInt8 || t == ir::DType::UInt16 || t == ir::DType::UInt32 ||
           t == ir::DType::UInt64 || t == ir::DType::Bool;
}

Value* Emitter::wholeToInteger(Value* value, ir::DType to) {
    llvm::Type* target = valueType(to);
    llvm::Type* words = builder_.getInt32Ty();
    if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(value->getType())) {
        target = llvm::FixedVectorType::get(target, vector->getNumElements());
        words = llvm::FixedVectorType::get(words, vector->getNumElements());
    }
    if (!llvm::Triple(module_.getTargetTriple()).isRISCV() || ir::dtypeSize(to) > 2)
        return isUnsigned(to) ? builder_.CreateFPToUI(value, target)
                              : builder_.CreateFPToSI(value, target);
    // 1.5 * 2^23 + v for |v| < 2^22 is exact and holds v in its low
    // mantissa bits, offset by the magic's own bits 0x4B400000.
    constexpr float kMagic = 12582912.0F;
    constexpr int32_t kMagicBits = 0x4B400000;
    Value* shifted = builder_.CreateBitCast(
        builder_.CreateFAdd(value, llvm::ConstantFP::get(value->getType(), kMagic)), words);
    Value* whole = builder_.CreateSub(shifted, llvm::ConstantInt::get(words, kMagicBits));
    return builder_.CreateTrunc(whole, target);
}

Value* Emitter::convert(Value* value, ir::DType from, ir::DType to) {
    if (from == to)
        return value;
    llvm::Type* target = valueType(to);
    if (to == ir::DType::Bool)
        return ir::isFloatingPoint(from)
                   ? builder_.CreateFCmpUNE(value, llvm::ConstantFP::get(value->getType(), 0.0))
                   : builder_.CreateICmpNE(value, llvm::ConstantInt::get(value->getType(), 0));
    bool fromFloat = ir::isFloatingPoint(from), toFloat = ir::isFloatingPoint(to);
    if (to == ir::DType::Float16 || to == ir::DType::BFloat16) {
        // Computed in f32: round to the narrow type now, as a store would.
        Value* wide = fromFloat ? builder_.CreateFPCast(value, target)
                                : (isUnsigned(from) ? builder_.CreateUIToFP(value, target)
                                                    : builder_.CreateSIToFP(value, target));
        Value* bits = toStorage(wide, to);
        return to == ir::DType::Float16
                   ? builder_.CreateFPExt(builder_.CreateBitCast(bits, builder_.getHalfTy()),
                                          target)
                   : builder_.CreateBitCast(
                         builder_.CreateShl(builder_.CreateZExt(bits, builder_.getInt32Ty()), 16),
                         target);
    }
    if (fromFloat && toFloat)
        return builder_.CreateFPCast(value, target);
    if (fromFloat)
        return isUnsigned(to) ? builder_.CreateFPToUI(value, target)
                              : builder_.CreateFPToSI(value, target);
    if (toFloat)
        return isUnsigned(from) ? builder_.CreateUIToFP(value, target)
                                : builder_.CreateSIToFP(value, target);
    return builder_.CreateIntCast(value, target, !isUnsigned(from));
}

Value* Emitter::callMath(const char* f32Name, const char* f64Name, std::span<Value* const> args) {
    llvm::Type* type = args.front()->getType();
    const char* name = type->isDoubleTy() ? f64Name : f32Name;
    std::vector<llvm::Type*> params(args.size(), type);
    llvm::FunctionCallee callee =
        module_.getOrInsertFunction(name, llvm::FunctionType::get(type, params, false));
    if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
        f->setDoesNotThrow();
        f->setOnlyAccessesInaccessibleMemory();
    }
    return builder_.CreateCall(callee, std::vector<Value*>(args.begin(), args.end()));
}

Value* Emitter::intrinsic(llvm::Intrinsic::ID id, std::span<Value* const> args) {
    return builder_.CreateIntrinsic(id, {args.front()->getType()},
                                    std::vector<Value*>(args.begin(), args.end()));
}

} // namespace stagecraft::codegen::detail
