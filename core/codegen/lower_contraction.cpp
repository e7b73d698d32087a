// Conv, MatMul and Gemm: sums of products over the reduction loops of the
// loop-nest model. On the host, a row of the last output dim (ow, n) of
// constant width up to kRegisterRow is accumulated in registers over every
// reduction step and stored once: memory accumulation of a short row
// (ResNet-50's 7- and 14-wide rows) made the vectorized loop store
// overlapping windows of the row at every step, and ResNet-50 took 1.7x as
// long (372 against 221 ms, two cores). A wider or tiled row, or any row on
// RISC-V, is initialised (Conv: its bias), then accumulated in memory with the last
// output dim innermost, so the inner loop is a plain strided multiply-add
// the vectorizers can widen. Its bounds are narrowed so that every affine
// read stays inside its input (the padding of a Conv is cut off the loop
// instead of tested per element); reads that do not depend on the inner
// loop are tested once around it. Both sum each element's products in the
// same order, so their bits agree.
// Gemm scales by alpha and adds beta*C afterwards, as ONNX defines it.
// ConvTranspose reads its input through a floor division that must be exact,
// and accumulates in a register per output element instead; a tap loop of
// coefficient +-1 in such an index runs over its exact values only (from
// the first, in steps of the stride), skipping what the test would skip.

#include "codegen/internal/lowering.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/TargetParser/Triple.h>

#include <algorithm>
#include <array>
#include <optional>

namespace stagecraft::codegen::detail {

namespace {

/// The slots whose elements are multiplied (Conv's bias and Gemm's C are not).
constexpr int kProductSlots = 2;
/// Inner rows up to this width accumulate in registers.
constexpr int64_t kRegisterRow = 64;

bool references(const ops::IndexExpr& expr, int loop) {
    return std::any_of(expr.terms.begin(), expr.terms.end(),
                       [&](const ops::IndexTerm& t) { return t.loop == loop; });
}

/// An expression coeff*loop + rest with coeff > 0 and plain terms: its valid
/// loop range can be computed instead of tested.
bool isNarrowable(const ops::IndexExpr& expr, int loop) {
    if (expr.full || expr.div != 1 || expr.mod != 0)
        return false;
    int count = 0;
    for (const ops::IndexTerm& t : expr.terms)
        if (t.loop == loop) {
            if (t.div != 1 || t.mod != 0 || t.coeff <= 0)
                return false;
            ++count;
        }
    return count == 1;
}

int64_t coeffOf(const ops::IndexExpr& expr, int loop) {
    for (const ops::IndexTerm& t : expr.terms)
        if (t.loop == loop)
            return t.coeff;
    return 0;
}

ops::IndexExpr without(const ops::IndexExpr& expr, int loop) {
    ops::IndexExpr rest = expr;
    rest.terms.erase(std::remove_if(rest.terms.begin(), rest.terms.end(),
                                    [&](const ops::IndexTerm& t) { return t.loop == loop; }),
                     rest.terms.end());
    return rest;
}

Value* ceilDiv(Emitter& e, Value* a, int64_t c) {
    return e.b().CreateNeg(e.floorDiv(e.b().CreateNeg(a), c));
}

/// Initial value of an output element: a convolution's bias, else 0.
Value* initialValue(Emitter& e, const OpCall& call, const std::vector<Value*>& idx) {
    ir::OpKind kind = call.op().kind;
    if ((kind == ir::OpKind::Conv || kind == ir::OpKind::ConvTranspose) && call.hasInput(2)) {
        std::vector<Value*> loops(call.semantics->nests[0].loops.size(), e.i64(0));
        std::copy(idx.begin(), idx.end(), loops.begin());
        return loadMapped(e, call, 0, 2, loops);
    }
    return e.constant(outputType(call, 0), 0);
}

/// The two factors at \p loops; out-of-range reads (only for maps that
/// could not be narrowed) make the first factor zero.
std::pair<Value*, Value*> factors(Emitter& e, const OpCall& call, const std::vector<Value*>& loops,
                                  int inner, bool guardAll = false) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    std::vector<Value*> values, guards;
    for (int slot = 0; slot < kProductSlots; ++slot) {
        const ops::AccessMap* map = nest.accessFor(slot);
        const ir::Shape& shape = call.inputs[static_cast<size_t>(slot)].shape;
        std::vector<Value*> index;
        for (size_t j = 0; j < map->dims.size(); ++j) {
            Value* i = e.evalIndex(map->dims[j], loops);
            if (references(map->dims[j], inner) &&
                (guardAll || !isNarrowable(map->dims[j], inner))) {
                guards.push_back(e.inBounds(i, shape[j]));
                i = e.clamp(i, 0, std::max<int64_t>(shape[j] - 1, 0));
            }
            index.push_back(i);
        }
        values.push_back(e.load(call.inputs[static_cast<size_t>(slot)], index));
    }
    if (!guards.empty())
        values[0] =
            e.b().CreateSelect(e.all(guards), values[0], e.constant(outputType(call, 0), 0));
    return {values[0], values[1]};
}

/// acc + x * w, fused where the target has a fused multiply-add (as the
/// GEMM kernels of ONNX Runtime use it).
Value* multiplyAdd(Emitter& e, Value* x, Value* w, Value* acc) {
    std::array<Value*, 3> args{x, w, acc};
    return e.intrinsic(llvm::Intrinsic::fmuladd, args);
}

/// The inner loop's range narrowed to reads inside every input, and the
/// condition that the reads not depending on it are inside.
std::pair<Range, Value*> innerRange(Emitter& e, const OpCall& call, std::vector<Value*>& loops,
                                    int inner, Range range) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    std::vector<Value*> inside;
    loops[static_cast<size_t>(inner)] = e.i64(0);
    for (int slot = 0; slot < kProductSlots; ++slot) {
        const ops::AccessMap* map = nest.accessFor(slot);
        const ir::Shape& shape = call.inputs[static_cast<size_t>(slot)].shape;
        for (size_t j = 0; j < map->dims.size(); ++j) {
            const ops::IndexExpr& expr = map->dims[j];
            if (!references(expr, inner)) {
                inside.push_back(e.inBounds(e.evalIndex(expr, loops), shape[j]));
            } else if (isNarrowable(expr, inner)) {
                int64_t c = coeffOf(expr, inner);
                Value* rest = e.evalIndex(without(expr, inner), loops);
                range.lo = e.max(range.lo, ceilDiv(e, e.b().CreateNeg(rest), c));
                Value* last = e.floorDiv(e.b().CreateSub(e.i64(shape[j] - 1), rest), c);
                range.hi = e.min(range.hi, e.b().CreateAdd(last, e.i64(1)));
            }
        }
    }
    return {range, e.all(inside)};
}

Status finalizeGemm(Emitter& e, const OpCall& call) {
    const ir::Attributes& attrs = call.op().attrs;
    double alpha = attrs.getFloat("alpha", 1.0), beta = attrs.getFloat("beta", 1.0);
    bool withC = call.hasInput(2) && beta != 0;
    if (alpha == 1.0 && !withC)
        return Status::success();
    ir::DType t = outputType(call, 0);
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        Value* v = e.b().CreateFMul(e.load(call.outputs[0], idx), e.constant(t, alpha));
        if (withC) {
            std::vector<Value*> loops(call.semantics->nests[0].loops.size(), e.i64(0));
            std::copy(idx.begin(), idx.end(), loops.begin());
            Value* c = e.convert(loadMapped(e, call, 0, 2, loops), inputType(call, 2), t);
            v = e.b().CreateFAdd(v, e.b().CreateFMul(c, e.constant(t, beta)));
        }
        e.store(call.outputs[0], idx, v);
    });
    return Status::success();
}

/// One reduction step of accumulateInRegister at \p loops: acc += x * w
/// where every read is inside (and, with \p exact, every division exact).
void accumulateStep(Emitter& e, const OpCall& call, bool exact, const std::vector<Value*>& loops,
                    Value* acc) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    const ir::DType t = outputType(call, 0);
    std::vector<Value*> ok;
    std::vector<std::vector<Value*>> indices(kProductSlots);
    for (int slot = 0; slot < kProductSlots; ++slot) {
        const ops::AccessMap* map = nest.accessFor(slot);
        const ir::Shape& shape = call.inputs[static_cast<size_t>(slot)].shape;
        for (size_t j = 0; j < map->dims.size(); ++j) {
            ops::IndexExpr expr = map->dims[j];
            if (exact && expr.div > 1) {
                ops::IndexExpr numerator = expr;
                numerator.div = 1;
                numerator.mod = 0;
                Value* num = e.evalIndex(numerator, loops);
                ok.push_back(e.b().CreateICmpEQ(e.floorMod(num, expr.div), e.i64(0)));
            }
            Value* i = e.evalIndex(expr, loops);
            ok.push_back(e.inBounds(i, shape[j]));
            indices[static_cast<size_t>(slot)].push_back(i);
        }
    }
    e.ifThen(e.all(ok), [&] {
        Value* x = e.load(call.inputs[0], indices[0]);
        Value* w = e.load(call.inputs[1], indices[1]);
        Value* sum = multiplyAdd(e, x, w, e.b().CreateLoad(e.valueType(t), acc));
        e.b().CreateStore(sum, acc);
    });
}

/// For ConvTranspose: the input dim whose floor division decides the
/// reduction loop \p loop's exact steps, when \p loop has coefficient +-1
/// there and every other term is a loop before it: then only every div-th
/// value of the loop divides exactly, from a start the outer loops give.
const ops::IndexExpr* steppingDim(const OpCall& call, int loop) {
    for (int slot = 0; slot < kProductSlots; ++slot)
        for (const ops::IndexExpr& expr : call.semantics->nests[0].accessFor(slot)->dims) {
            if (expr.div <= 1 || expr.mod != 0 || !references(expr, loop))
                continue;
            const bool plain =
                std::all_of(expr.terms.begin(), expr.terms.end(), [&](const auto& t) {
                    return t.div == 1 && t.mod == 0 &&
                           (t.loop < loop || (t.loop == loop && (t.coeff == 1 || t.coeff == -1)));
                });
            return plain ? &expr : nullptr;
        }
    return nullptr;
}

/// The reduction loop \p loop from its first exact value in steps of the
/// division (every other value would be skipped by the exactness test), or
/// over its whole extent.
void forReduction(Emitter& e, const OpCall& call, int loop, std::vector<Value*>& loops,
                  const std::function<void(Value*)>& body) {
    const int64_t extent = call.semantics->nests[0].loops[static_cast<size_t>(loop)].extent;
    const ops::IndexExpr* expr = steppingDim(call, loop);
    if (expr == nullptr) {
        e.forRange({e.i64(0), e.i64(extent)}, body);
        return;
    }
    ops::IndexExpr rest = without(*expr, loop);
    rest.div = 1;
    Value* value = e.evalIndex(rest, loops);
    if (coeffOf(*expr, loop) == 1)
        value = e.b().CreateNeg(value);
    e.forRange({e.floorMod(value, expr->div), e.i64(extent)}, body, expr->div);
}

/// Register accumulation per output element; with \p exact, a read through
/// a floor division happens only when the division is exact (ConvTranspose),
/// its reduction loops stepped over the exact values where they can be.
void accumulateInRegister(Emitter& e, const OpCall& call, bool exact) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    ir::DType t = outputType(call, 0);
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        Value* acc = e.slot(e.valueType(t), initialValue(e, call, idx));
        std::vector<Value*> loops(idx);
        loops.resize(nest.loops.size(), nullptr);
        std::function<void(size_t)> level = [&](size_t l) {
            if (l < nest.loops.size()) {
                auto body = [&](Value* v) {
                    loops[l] = v;
                    level(l + 1);
                };
                if (exact)
                    forReduction(e, call, static_cast<int>(l), loops, body);
                else
                    e.forRange({e.i64(0), e.i64(nest.loops[l].extent)}, body);
                return;
            }
            accumulateStep(e, call, exact, loops, acc);
        };
        level(static_cast<size_t>(nest.outputRank));
        e.store(call.outputs[0], idx, e.b().CreateLoad(e.valueType(t), acc));
    });
}

/// The inner region's width when it is a constant of at most kRegisterRow
/// and the target vectorizes a register row: RVV's SLP vectorizer left it
/// scalar (test_codegen's bertMatmulKernelsAreVectorized found no vsetvli),
/// where the loop vectorizer widens the memory accumulation's inner loop.
std::optional<int64_t> registerRowWidth(Emitter& e, const Range& row) {
    if (llvm::Triple(e.module().getTargetTriple()).isRISCV())
        return std::nullopt;
    auto* lo = llvm::dyn_cast<llvm::ConstantInt>(row.lo);
    auto* hi = llvm::dyn_cast<llvm::ConstantInt>(row.hi);
    if (lo == nullptr || hi == nullptr)
        return std::nullopt;
    const int64_t width = hi->getSExtValue() - lo->getSExtValue();
    if (width < 1 || width > kRegisterRow)
        return std::nullopt;
    return width;
}

/// A row of \p width outputs accumulated in registers over every reduction
/// step, stored once: each element sums the same products in the same order
/// as the memory accumulation, skipping the same padding positions (their
/// loads are clamped into the input and their results not kept).
void accumulateRowInRegisters(Emitter& e, const OpCall& call, int64_t width,
                              const std::vector<Range>& outer,
                              const std::vector<Range>& reductions) {
    const ir::DType t = outputType(call, 0);
    const int inner = call.semantics->nests[0].outputRank - 1;
    const Range row = call.regions[0].back();
    const int64_t first = llvm::cast<llvm::ConstantInt>(row.lo)->getSExtValue();
    e.forBox(outer, [&](const std::vector<Value*>& idx) {
        std::vector<Value*> accumulators;
        for (int64_t k = 0; k < width; ++k) {
            std::vector<Value*> at(idx);
            at.push_back(e.i64(first + k));
            accumulators.push_back(e.slot(e.valueType(t), initialValue(e, call, at)));
        }
        e.forBox(reductions, [&](const std::vector<Value*>& red) {
            std::vector<Value*> loops(idx);
            loops.push_back(nullptr);
            loops.insert(loops.end(), red.begin(), red.end());
            auto [range, inside] = innerRange(e, call, loops, inner, row);
            e.ifThen(inside, [&] {
                for (int64_t k = 0; k < width; ++k) {
                    Value* j = e.i64(first + k);
                    loops[static_cast<size_t>(inner)] = j;
                    std::array<Value*, 2> within{e.b().CreateICmpSGE(j, range.lo),
                                                 e.b().CreateICmpSLT(j, range.hi)};
                    auto [x, w] = factors(e, call, loops, inner, true);
                    Value* acc = accumulators[static_cast<size_t>(k)];
                    Value* old = e.b().CreateLoad(e.valueType(t), acc);
                    Value* sum = multiplyAdd(e, x, w, old);
                    e.b().CreateStore(e.b().CreateSelect(e.all(within), sum, old), acc);
                }
            });
        });
        for (int64_t k = 0; k < width; ++k) {
            std::vector<Value*> at(idx);
            at.push_back(e.i64(first + k));
            e.store(call.outputs[0], at,
                    e.b().CreateLoad(e.valueType(t), accumulators[static_cast<size_t>(k)]));
        }
    });
}

} // namespace

Status lowerContraction(Emitter& e, const OpCall& call) {
    if (call.outputs[0].base == nullptr)
        return Status::success();
    if (!ir::isFloatingPoint(outputType(call, 0)))
        return call.error("code generation supports floating-point contractions only");
    const ops::LoopNest& nest = call.semantics->nests[0];
    int rank = nest.outputRank;
    if (rank == 0) {
        accumulateInRegister(e, call, false);
        return finalizeGemm(e, call);
    }
    int inner = rank - 1;
    std::vector<Range> outer(call.regions[0].begin(), call.regions[0].end() - 1);
    std::vector<Range> reductions;
    for (size_t l = static_cast<size_t>(rank); l < nest.loops.size(); ++l)
        reductions.push_back({e.i64(0), e.i64(nest.loops[l].extent)});
    if (lowerBlockedContraction(e, call))
        return call.op().kind == ir::OpKind::Gemm ? finalizeGemm(e, call) : Status::success();
    if (std::optional<int64_t> width = registerRowWidth(e, call.regions[0].back())) {
        accumulateRowInRegisters(e, call, *width, outer, reductions);
        return call.op().kind == ir::OpKind::Gemm ? finalizeGemm(e, call) : Status::success();
    }
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        e.store(call.outputs[0], idx, initialValue(e, call, idx));
    });
    e.forBox(outer, [&](const std::vector<Value*>& idx) {
        e.forBox(reductions, [&](const std::vector<Value*>& red) {
            std::vector<Value*> loops(idx);
            loops.push_back(nullptr);
            loops.insert(loops.end(), red.begin(), red.end());
            auto [range, inside] = innerRange(e, call, loops, inner, call.regions[0].back());
            e.ifThen(inside, [&] {
                e.forRange(range, [&](Value* j) {
                    loops[static_cast<size_t>(inner)] = j;
                    std::vector<Value*> at(loops.begin(), loops.begin() + rank);
                    auto [x, w] = factors(e, call, loops, inner);
                    Value* sum = multiplyAdd(e, x, w, e.load(call.outputs[0], at));
                    e.store(call.outputs[0], at, sum);
                });
            });
        });
    });
    if (call.op().kind == ir::OpKind::Gemm)
        return finalizeGemm(e, call);
    return Status::success();
}

Status lowerConvTranspose(Emitter& e, const OpCall& call) {
    if (call.outputs[0].base == nullptr)
        return Status::success();
    if (!ir::isFloatingPoint(outputType(call, 0)))
        return call.error("code generation supports floating-point contractions only");
    if (!lowerBlockedContraction(e, call))
        accumulateInRegister(e, call, true);
    return Status::success();
}

} // namespace stagecraft::codegen::detail
