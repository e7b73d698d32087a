// Pools, global pools, Reduce* and ArgMax/ArgMin: per output element, a
// register accumulates over the reduction loops of the loop-nest model.
// Taps that fall into a pool's padding are out of range and skipped; an
// average pool divides by the taps inside the input, or inside the padded
// input with count_include_pad, as ONNX Runtime does. A float maximum,
// minimum or sum (of squares too; a mean, ReduceL2's root) whose innermost
// reduction loop runs along the input's contiguous last dim keeps a vector
// of lanes instead (a whole-tensor reduction, DynamicQuantizeLinear's, was a
// chain of 800 000 compares; BERT's LayerNorm means a chain of 768 adds per
// row), folded lane by lane at the end: the same maximum or minimum, NaN
// skipped as the scalar loop skips it (only which zero of -0 and +0 is kept
// may differ); a sum of 16 partial sums, whatever the target's vectors.

#include "codegen/internal/host_reads.h"
#include "codegen/internal/lowering.h"

#include <llvm/IR/Intrinsics.h>

#include <algorithm>
#include <array>
#include <limits>

namespace stagecraft::codegen::detail {

namespace {

enum class Combine { Sum, Max, Min, Prod, AbsSum, SquareSum, ExpSum, PowSum };
enum class Finish { None, Mean, Sqrt, Log, Root };

struct Reducer {
    Combine combine = Combine::Sum;
    Finish finish = Finish::None;
};

std::optional<Reducer> reducerOf(ir::OpKind kind) {
    using enum ir::OpKind;
    if (kind == MaxPool || kind == GlobalMaxPool || kind == ReduceMax)
        return Reducer{Combine::Max, Finish::None};
    if (kind == ReduceMin)
        return Reducer{Combine::Min, Finish::None};
    if (kind == AveragePool || kind == GlobalAveragePool || kind == ReduceMean)
        return Reducer{Combine::Sum, Finish::Mean};
    if (kind == ReduceSum)
        return Reducer{Combine::Sum, Finish::None};
    if (kind == ReduceProd)
        return Reducer{Combine::Prod, Finish::None};
    if (kind == ReduceL1)
        return Reducer{Combine::AbsSum, Finish::None};
    if (kind == ReduceL2)
        return Reducer{Combine::SquareSum, Finish::Sqrt};
    if (kind == ReduceSumSquare)
        return Reducer{Combine::SquareSum, Finish::None};
    if (kind == ReduceLogSum)
        return Reducer{Combine::Sum, Finish::Log};
    if (kind == ReduceLogSumExp)
        return Reducer{Combine::ExpSum, Finish::Log};
    if (kind == LpPool || kind == GlobalLpPool)
        return Reducer{Combine::PowSum, Finish::Root};
    return std::nullopt;
}

double initialOf(Combine c) {
    switch (c) {
    case Combine::Max:
        return -std::numeric_limits<double>::infinity();
    case Combine::Min:
        return std::numeric_limits<double>::infinity();
    case Combine::Prod:
        return 1;
    default:
        return 0;
    }
}

Value* combine(Emitter& e, Combine c, Value* acc, Value* x, double p) {
    auto& b = e.b();
    std::array<Value*, 1> one{x};
    switch (c) {
    case Combine::Sum:
        return b.CreateFAdd(acc, x);
    case Combine::Max:
        return b.CreateSelect(b.CreateFCmpOGT(x, acc), x, acc);
    case Combine::Min:
        return b.CreateSelect(b.CreateFCmpOLT(x, acc), x, acc);
    case Combine::Prod:
        return b.CreateFMul(acc, x);
    case Combine::AbsSum:
        return b.CreateFAdd(acc, e.intrinsic(llvm::Intrinsic::fabs, one));
    case Combine::SquareSum:
        return b.CreateFAdd(acc, b.CreateFMul(x, x));
    case Combine::ExpSum:
        return b.CreateFAdd(acc, expOf(e, x));
    case Combine::PowSum: {
        std::array<Value*, 2> args{e.intrinsic(llvm::Intrinsic::fabs, one),
                                   llvm::ConstantFP::get(x->getType(), p)};
        return b.CreateFAdd(acc, e.intrinsic(llvm::Intrinsic::pow, args));
    }
    }
    return acc;
}

Value* finish(Emitter& e, Finish f, Value* acc, Value* count, double p) {
    auto& b = e.b();
    std::array<Value*, 1> one{acc};
    switch (f) {
    case Finish::None:
        return acc;
    case Finish::Mean:
        return b.CreateFDiv(acc, b.CreateSIToFP(count, acc->getType()));
    case Finish::Sqrt:
        return e.intrinsic(llvm::Intrinsic::sqrt, one);
    case Finish::Log:
        return e.intrinsic(llvm::Intrinsic::log, one);
    case Finish::Root: {
        std::array<Value*, 2> args{acc, llvm::ConstantFP::get(acc->getType(), 1.0 / p)};
        return e.intrinsic(llvm::Intrinsic::pow, args);
    }
    }
    return acc;
}

/// For count_include_pad: the tap is inside the padded input.
Value* insidePadded(Emitter& e, const OpCall& call, const std::vector<Value*>& index) {
    std::vector<int64_t> pads = call.op().attrs.getInts("pads");
    const ir::Shape& shape = call.inputs[0].shape;
    size_t spatial = shape.size() - 2;
    std::vector<Value*> inside;
    for (size_t i = 0; i < spatial && 2 * spatial <= pads.size(); ++i) {
        Value* shifted = e.b().CreateAdd(index[i + 2], e.i64(pads[i]));
        inside.push_back(e.inBounds(shifted, shape[i + 2] + pads[i] + pads[i + spatial]));
    }
    return e.all(inside);
}

std::vector<Range> reductionRanges(Emitter& e, const ops::LoopNest& nest) {
    std::vector<Range> ranges;
    for (size_t l = static_cast<size_t>(nest.outputRank); l < nest.loops.size(); ++l)
        ranges.push_back({e.i64(0), e.i64(nest.loops[l].extent)});
    return ranges;
}

/// The input index of a tap and whether it is inside the input.
std::pair<std::vector<Value*>, Value*> tapIndex(Emitter& e, const OpCall& call,
                                                const std::vector<Value*>& loops) {
    const ops::AccessMap* map = call.semantics->nests[0].accessFor(0);
    std::vector<Value*> index, inside;
    for (size_t j = 0; j < map->dims.size(); ++j) {
        index.push_back(e.evalIndex(map->dims[j], loops));
        inside.push_back(e.inBounds(index.back(), call.inputs[0].shape[j]));
    }
    return {index, e.all(inside)};
}

Status lowerArgReduce(Emitter& e, const OpCall& call) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    bool max = call.op().kind == ir::OpKind::ArgMax;
    bool last = call.op().attrs.getInt("select_last_index", 0) != 0;
    ir::DType in = inputType(call, 0);
    bool isFloat = ir::isFloatingPoint(in);
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        Value* best = e.slot(e.valueType(in), e.constant(in, max ? -1e300 : 1e300));
        Value* where = e.slot(e.b().getInt64Ty(), e.i64(0));
        Value* first = e.slot(e.b().getInt1Ty(), e.b().getTrue());
        e.forBox(reductionRanges(e, nest), [&](const std::vector<Value*>& red) {
            std::vector<Value*> loops(idx);
            loops.insert(loops.end(), red.begin(), red.end());
            Value* x = e.load(call.inputs[0], tapIndex(e, call, loops).first);
            Value* cur = e.b().CreateLoad(e.valueType(in), best);
            auto& b = e.b();
            Value* better =
                isFloat ? (max ? (last ? b.CreateFCmpOGE(x, cur) : b.CreateFCmpOGT(x, cur))
                               : (last ? b.CreateFCmpOLE(x, cur) : b.CreateFCmpOLT(x, cur)))
                        : (max ? (last ? b.CreateICmpSGE(x, cur) : b.CreateICmpSGT(x, cur))
                               : (last ? b.CreateICmpSLE(x, cur) : b.CreateICmpSLT(x, cur)));
            better = b.CreateOr(better, b.CreateLoad(b.getInt1Ty(), first));
            b.CreateStore(b.CreateSelect(better, x, cur), best);
            b.CreateStore(b.CreateSelect(better, red.front(), b.CreateLoad(b.getInt64Ty(), where)),
                          where);
            b.CreateStore(b.getFalse(), first);
        });
        e.store(call.outputs[0], idx,
                e.convert(e.b().CreateLoad(e.b().getInt64Ty(), where), ir::DType::Int64,
                          outputType(call, 0)));
    });
    return Status::success();
}

/// Lanes of a sum folded along a row: 16 whatever the target's vectors, so
/// that the host's and the DSA's objects add the same partial sums.
constexpr int64_t kSumLanes = 16;

/// Whether \p r is one the lanes of lowerInLanes compute: a maximum or
/// minimum (exact in any order), or a sum, of squares too, maybe then a
/// mean or a square root.
bool foldsInLanes(const Reducer& r) {
    const bool combines = r.combine == Combine::Max || r.combine == Combine::Min ||
                          r.combine == Combine::Sum || r.combine == Combine::SquareSum;
    return combines &&
           (r.finish == Finish::None || r.finish == Finish::Mean || r.finish == Finish::Sqrt);
}

/// Whether \p call is a reduction of f32 (not a pool with a window) whose
/// innermost loop reduces along the input's last dim (stride 1, no padding)
/// over at least \p lanes steps.
bool reducesAlongLastDim(const OpCall& call, int64_t lanes) {
    const ir::OpKind kind = call.op().kind;
    const ops::LoopNest& nest = call.semantics->nests[0];
    const ops::AccessMap* map = nest.accessFor(0);
    const Access& input = call.inputs[0];
    const bool windowed = kind == ir::OpKind::MaxPool || kind == ir::OpKind::AveragePool ||
                          kind == ir::OpKind::LpPool;
    if (windowed || lanes < 4 || inputType(call, 0) != ir::DType::Float32 ||
        outputType(call, 0) != ir::DType::Float32 || map == nullptr ||
        static_cast<int>(nest.loops.size()) <= nest.outputRank ||
        map->dims.size() != input.shape.size() || input.shape.empty() ||
        input.strides.back() != 1 || input.block != 0 || input.group != 1)
        return false;
    const int last = static_cast<int>(nest.loops.size()) - 1;
    if (nest.loops.back().extent < lanes || dimReadingAlone(nest, 0, last) != map->dims.size() - 1)
        return false;
    for (size_t d = 0; d < map->dims.size(); ++d)
        if (map->dims[d].full || !ops::alwaysInside(map->dims[d], nest.loops, input.shape[d]))
            return false;
    return true;
}

/// The reduction of reducesAlongLastDim in vectors of \p lanes: lane i
/// combines the row's elements i, i + lanes, ... over every reduction step,
/// then the lanes are folded in order and the result finished. A maximum or
/// minimum is the scalar loop's (NaN skipped as it skips it; only which zero
/// of -0 and +0 is kept may differ); a sum adds in that order, the same
/// whatever the schedule, since a reduction's loops are never split.
void lowerInLanes(Emitter& e, const OpCall& call, const Reducer& r, int64_t lanes) {
    const Combine c = r.combine;
    const ops::LoopNest& nest = call.semantics->nests[0];
    const ops::AccessMap* map = nest.accessFor(0);
    const auto count = static_cast<unsigned>(lanes);
    auto* vector = llvm::FixedVectorType::get(e.b().getFloatTy(), count);
    Value* initial = e.constant(ir::DType::Float32, initialOf(c));
    const int64_t extent = nest.loops.back().extent;
    const int64_t whole = extent - extent % lanes;
    int64_t elements = 1;
    for (size_t l = static_cast<size_t>(nest.outputRank); l < nest.loops.size(); ++l)
        elements *= nest.loops[l].extent;
    std::vector<Range> outer = reductionRanges(e, nest);
    outer.pop_back();
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        Value* acc = e.slot(vector, e.b().CreateVectorSplat(count, initial));
        const auto step = [&](const std::vector<Value*>& loops, int64_t read) {
            std::vector<Value*> index;
            for (const ops::IndexExpr& d : map->dims)
                index.push_back(e.evalIndex(d, loops));
            std::vector<bool> lanesRead(count, false);
            std::fill_n(lanesRead.begin(), read, true);
            Value* x = e.loadMasked(call.inputs[0], index, 0, lanesRead);
            Value* combined = combine(e, c, e.b().CreateLoad(vector, acc), x, 0);
            if (read < lanes) // the lanes past the row keep what they hold
                combined = e.b().CreateSelect(e.constantMask(lanesRead), combined,
                                              e.b().CreateLoad(vector, acc));
            e.b().CreateStore(combined, acc);
        };
        e.forBox(outer, [&](const std::vector<Value*>& red) {
            std::vector<Value*> loops(idx);
            loops.insert(loops.end(), red.begin(), red.end());
            loops.push_back(nullptr);
            e.forRange(
                {e.i64(0), e.i64(whole)},
                [&](Value* v) {
                    loops.back() = v;
                    step(loops, lanes);
                },
                lanes);
            if (whole < extent) {
                loops.back() = e.i64(whole);
                step(loops, extent - whole);
            }
        });
        Value* lanesAcc = e.b().CreateLoad(vector, acc);
        Value* result = initial;
        const Combine across = c == Combine::SquareSum ? Combine::Sum : c; // lanes hold sums
        for (unsigned i = 0; i < count; ++i)
            result = combine(e, across, result, e.b().CreateExtractElement(lanesAcc, i), 0);
        e.store(call.outputs[0], idx, finish(e, r.finish, result, e.i64(elements), 0));
    });
}

} // namespace

Status lowerReduction(Emitter& e, const OpCall& call) {
    if (call.outputs[0].base == nullptr)
        return Status::success();
    ir::OpKind kind = call.op().kind;
    if (call.outputs.size() > 1 && call.outputs[1].base != nullptr)
        return call.error("code generation does not support the Indices output");
    if (kind == ir::OpKind::ArgMax || kind == ir::OpKind::ArgMin)
        return lowerArgReduce(e, call);
    if (lowerMaxPoolAlongRow(e, call))
        return Status::success();
    std::optional<Reducer> reducer = reducerOf(kind);
    if (reducer && foldsInLanes(*reducer)) {
        const bool exact = reducer->combine == Combine::Max || reducer->combine == Combine::Min;
        const int64_t lanes = exact ? vectorBitsOf(e.module()) / 32 : kSumLanes;
        if (reducesAlongLastDim(call, lanes)) {
            lowerInLanes(e, call, *reducer, lanes);
            return Status::success();
        }
    }
    ir::DType t = outputType(call, 0);
    if (!reducer || !ir::isFloatingPoint(t))
        return call.error("code generation does not support this reduction on " +
                          std::string(ir::dtypeName(t)));
    const ops::LoopNest& nest = call.semantics->nests[0];
    double p = static_cast<double>(call.op().attrs.getInt("p", 2));
    bool includePad =
        kind == ir::OpKind::AveragePool && call.op().attrs.getInt("count_include_pad", 0) != 0;
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        Value* acc = e.slot(e.valueType(t), e.constant(t, initialOf(reducer->combine)));
        Value* count = e.slot(e.b().getInt64Ty(), e.i64(0));
        e.forBox(reductionRanges(e, nest), [&](const std::vector<Value*>& red) {
            std::vector<Value*> loops(idx);
            loops.insert(loops.end(), red.begin(), red.end());
            auto [index, inside] = tapIndex(e, call, loops);
            if (includePad) {
                Value* counted = e.b().CreateZExt(insidePadded(e, call, index), e.b().getInt64Ty());
                e.b().CreateStore(
                    e.b().CreateAdd(e.b().CreateLoad(e.b().getInt64Ty(), count), counted), count);
            }
            e.ifThen(inside, [&] {
                Value* x = e.convert(e.load(call.inputs[0], index), inputType(call, 0), t);
                Value* cur = e.b().CreateLoad(e.valueType(t), acc);
                e.b().CreateStore(combine(e, reducer->combine, cur, x, p), acc);
                if (!includePad)
                    e.b().CreateStore(
                        e.b().CreateAdd(e.b().CreateLoad(e.b().getInt64Ty(), count), e.i64(1)),
                        count);
            });
        });
        Value* result = finish(e, reducer->finish, e.b().CreateLoad(e.valueType(t), acc),
                               e.b().CreateLoad(e.b().getInt64Ty(), count), p);
        e.store(call.outputs[0], idx, result);
    });
    return Status::success();
}

} // namespace stagecraft::codegen::detail
