// A windowed MaxPool on x86 in vectors along the output row: each vector
// of output positions takes the maximum over the window's taps, a tap's
// lanes read with one masked load (a stride-2 pool: the span its lanes
// cover, masked to every second element, then a shuffle). Lanes whose
// input position falls in the padding, or past the row, are masked off
// and read as -inf, which the maximum never keeps; the taps run in the
// order the scalar loop runs them, so each lane is the scalar loop's
// result, bit for bit (ResNet-50's 3 x 3 stride-2 MaxPool ran one output
// element at a time, a bounds test per tap). A vector whose every tap's
// span lies inside the row loads each whole, unmasked (a run of such
// vectors found when compiling where the row's start is known).

#include "codegen/internal/blocked_plan.h"
#include "codegen/internal/lowering.h"

#include <llvm/TargetParser/Triple.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <tuple>
#include <utility>

namespace stagecraft::codegen::detail {

namespace {

/// Input elements a tap's span may cover per lane (its stride) at most.
constexpr int64_t kMaxPoolStride = 4;

/// The stride along the input's last dim of the output row's loop in
/// \p call's input map, where only that dim reads the row, plainly: else 0.
int64_t rowStrideOf(const OpCall& call) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    const ops::AccessMap* map = nest.accessFor(0);
    const int row = nest.outputRank - 1;
    if (map == nullptr || map->dims.size() != call.inputs[0].shape.size() || map->dims.empty())
        return 0;
    for (size_t d = 0; d + 1 < map->dims.size(); ++d)
        if (map->dims[d].full || readsLoop(map->dims[d], row))
            return 0;
    const ops::IndexExpr& last = map->dims.back();
    if (last.full || last.div != 1 || last.mod != 0)
        return 0;
    int64_t stride = 0;
    for (const ops::IndexTerm& t : last.terms) {
        if (t.div != 1 || t.mod != 0 || t.loop < row)
            return 0;
        if (t.loop == row)
            stride += t.coeff;
    }
    return stride;
}

/// Whether \p a is laid out plainly along its last dim (stride 1).
bool contiguousRows(const Access& a) {
    const size_t last = a.shape.size() - 1;
    return !a.strides.empty() && a.strides.back() == 1 && a.group == 1 &&
           (a.block == 0 || a.blockDim != last);
}

/// \p span elements of \p call's input from \p index's (whose last index
/// may lie before or past the row), element j read where \p wanted[j] is
/// set and it lies inside the row, else -inf.
Value* loadSpan(Emitter& e, const OpCall& call, std::vector<Value*> index,
                const std::vector<bool>& wanted) {
    auto& b = e.b();
    const Access& input = call.inputs[0];
    const size_t last = index.size() - 1;
    const auto span = static_cast<unsigned>(wanted.size());
    Value* first = index[last];
    index[last] = input.origin[last];
    Value* rowStart = e.elementPtr(input, index);
    Value* at = b.CreateGEP(b.getFloatTy(), rowStart, b.CreateSub(first, input.origin[last]));
    std::vector<llvm::Constant*> steps;
    for (unsigned j = 0; j < span; ++j)
        steps.push_back(b.getInt32(j));
    Value* positions = b.CreateAdd(b.CreateVectorSplat(span, b.CreateTrunc(first, b.getInt32Ty())),
                                   llvm::ConstantVector::get(steps));
    const auto width = static_cast<uint32_t>(input.shape.back());
    Value* inside = b.CreateICmpULT(positions, b.CreateVectorSplat(span, b.getInt32(width)));
    Value* mask = b.CreateAnd(inside, e.constantMask(wanted));
    auto* type = llvm::FixedVectorType::get(b.getFloatTy(), span);
    Value* lowest = llvm::ConstantFP::getInfinity(b.getFloatTy(), true);
    llvm::Instruction* loaded =
        b.CreateMaskedLoad(type, at, llvm::Align(4), mask, b.CreateVectorSplat(span, lowest));
    markAliasing(loaded, input);
    return loaded;
}

/// A whole span of \p span elements of \p call's input from \p index's,
/// inside the row: one plain load.
Value* loadWholeSpan(Emitter& e, const OpCall& call, const std::vector<Value*>& index,
                     int64_t span) {
    auto* type = llvm::FixedVectorType::get(e.b().getFloatTy(), static_cast<unsigned>(span));
    llvm::Instruction* loaded =
        e.b().CreateAlignedLoad(type, e.elementPtr(call.inputs[0], index), llvm::Align(4));
    markAliasing(loaded, call.inputs[0]);
    return loaded;
}

/// Whether the input's last index grows with every tap (a MaxPool's
/// dilations are positive): the window's first and last taps bound a span.
bool tapsMoveForward(const OpCall& call) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    const ops::IndexExpr& last = nest.accessFor(0)->dims.back();
    return std::all_of(last.terms.begin(), last.terms.end(),
                       [](const ops::IndexTerm& t) { return t.coeff >= 0; });
}

/// Whether every tap's whole span (\p lanes * \p stride elements) of the
/// vector of output positions from \p outer + \p first lies inside the row:
/// the first tap's from lane 0's element, the last tap's to its end.
Value* spansInside(Emitter& e, const OpCall& call, std::vector<Value*> outer, Value* first,
                   int64_t lanes, int64_t stride) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    const ops::IndexExpr& last = nest.accessFor(0)->dims.back();
    outer.push_back(first);
    std::vector<Value*> low(outer), high(outer);
    for (size_t l = static_cast<size_t>(nest.outputRank); l < nest.loops.size(); ++l) {
        low.push_back(e.i64(0));
        high.push_back(e.i64(nest.loops[l].extent - 1));
    }
    auto& b = e.b();
    Value* start = e.evalIndex(last, low);
    Value* end = b.CreateAdd(e.evalIndex(last, high), e.i64(lanes * stride - 1));
    return b.CreateAnd(b.CreateICmpSGE(start, e.i64(0)),
                       b.CreateICmpSLT(end, e.i64(call.inputs[0].shape.back())));
}

/// The whole vectors [a, b) of the \p count from position \p lo along
/// the row whose spans all lie inside it (spansInside, folded to a constant
/// when compiling; a contiguous run, the taps moving forward), or nullopt
/// where it does not fold.
std::optional<std::pair<int64_t, int64_t>> innerVectors(Emitter& e, const OpCall& call,
                                                        const std::vector<Value*>& outer,
                                                        int64_t lo, int64_t count, int64_t lanes,
                                                        int64_t stride) {
    int64_t a = count, b = count;
    for (int64_t v = 0; v < count; ++v) {
        const std::optional<int64_t> inside =
            constantOf(spansInside(e, call, outer, e.i64(lo + v * lanes), lanes, stride));
        if (!inside)
            return std::nullopt;
        if (*inside != 0 && a == count)
            a = v;
        if (*inside == 0 && a < count && b == count)
            b = v;
    }
    return std::pair{a, b};
}

/// The maximum over the window of the \p count output positions from
/// \p outer + \p first along the row, stored in one store; \p inside:
/// every tap's span lies inside the row (spansInside), read whole.
void emitVector(Emitter& e, const OpCall& call, std::vector<Value*> outer, Value* first,
                int64_t lanes, int64_t count, int64_t stride, bool inside = false) {
    auto& b = e.b();
    const ops::LoopNest& nest = call.semantics->nests[0];
    const ops::AccessMap& map = *nest.accessFor(0);
    auto* vector = llvm::FixedVectorType::get(b.getFloatTy(), static_cast<unsigned>(lanes));
    Value* lowest = llvm::ConstantFP::getInfinity(b.getFloatTy(), true);
    Value* acc = e.slot(vector, b.CreateVectorSplat(static_cast<unsigned>(lanes), lowest));
    outer.push_back(first);
    std::vector<Range> taps;
    for (size_t l = static_cast<size_t>(nest.outputRank); l < nest.loops.size(); ++l)
        taps.push_back({e.i64(0), e.i64(nest.loops[l].extent)});
    std::vector<bool> wanted(static_cast<size_t>(lanes * stride), false);
    for (int64_t i = 0; i < count; ++i)
        wanted[static_cast<size_t>(i * stride)] = true;
    std::vector<int> picked;
    for (int64_t i = 0; i < lanes; ++i)
        picked.push_back(static_cast<int>(i * stride));
    e.forBox(taps, [&](const std::vector<Value*>& tap) {
        std::vector<Value*> loops(outer);
        loops.insert(loops.end(), tap.begin(), tap.end());
        std::vector<Value*> index, rows;
        for (size_t d = 0; d < map.dims.size(); ++d) {
            index.push_back(e.evalIndex(map.dims[d], loops));
            if (d + 1 < map.dims.size())
                rows.push_back(e.inBounds(index.back(), call.inputs[0].shape[d]));
        }
        e.ifThen(e.all(rows), [&] {
            Value* x = inside ? loadWholeSpan(e, call, index, lanes * stride)
                              : loadSpan(e, call, index, wanted);
            if (stride > 1)
                x = b.CreateShuffleVector(x, picked);
            Value* held = b.CreateLoad(vector, acc);
            b.CreateStore(b.CreateSelect(b.CreateFCmpOGT(x, held), x, held), acc);
        });
    });
    e.storeVector(call.outputs[0], outer, b.CreateLoad(vector, acc), count);
}

/// The \p whole positions from \p lo of the row at \p outer in whole
/// vectors: those inside the row read their spans whole (with \p forward
/// taps), in a loop of their own where that is known when compiling, else
/// by one test per vector.
void emitRowVectors(Emitter& e, const OpCall& call, const std::vector<Value*>& outer, Value* lo,
                    int64_t whole, int64_t lanes, int64_t stride, bool forward) {
    if (whole == 0)
        return;
    auto vectors = [&](Value* from, Value* to, const std::function<void(Value*)>& body) {
        e.forRange({from, to}, body, lanes);
    };
    const std::optional<int64_t> first = constantOf(lo);
    std::optional<std::pair<int64_t, int64_t>> inner;
    if (forward && first)
        inner = innerVectors(e, call, outer, *first, whole / lanes, lanes, stride);
    if (inner) {
        const auto [a, b] = *inner;
        for (const auto& [from, to, inside] :
             {std::tuple{int64_t{0}, a, false}, std::tuple{a, b, true},
              std::tuple{b, whole / lanes, false}})
            if (to > from)
                vectors(e.i64(*first + from * lanes), e.i64(*first + to * lanes), [&](Value* at) {
                    emitVector(e, call, outer, at, lanes, lanes, stride, inside);
                });
        return;
    }
    vectors(lo, e.b().CreateAdd(lo, e.i64(whole)), [&](Value* at) {
        if (!forward) {
            emitVector(e, call, outer, at, lanes, lanes, stride);
            return;
        }
        e.ifThen(
            spansInside(e, call, outer, at, lanes, stride),
            [&] { emitVector(e, call, outer, at, lanes, lanes, stride, true); },
            [&] { emitVector(e, call, outer, at, lanes, lanes, stride); });
    });
}

} // namespace

bool lowerMaxPoolAlongRow(Emitter& e, const OpCall& call) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    const int lanesBits = vectorBitsOf(e.module());
    if (call.op().kind != ir::OpKind::MaxPool ||
        !llvm::Triple(e.module().getTargetTriple()).isX86() || lanesBits < 256 ||
        inputType(call, 0) != ir::DType::Float32 || outputType(call, 0) != ir::DType::Float32 ||
        nest.outputRank < 1 || call.regions[0].size() != static_cast<size_t>(nest.outputRank) ||
        !contiguousRows(call.inputs[0]) || !contiguousRows(call.outputs[0]))
        return false;
    const int64_t stride = rowStrideOf(call);
    const std::optional<int64_t> extent = constantExtent(call.regions[0].back());
    if (stride < 1 || stride > kMaxPoolStride || !extent || *extent < 2 ||
        call.inputs[0].shape.back() > std::numeric_limits<int32_t>::max() / 2)
        return false;
    const int64_t lanes = lanesBits / 32;
    const int64_t whole = *extent - *extent % lanes;
    std::vector<Range> outer(call.regions[0].begin(), call.regions[0].end() - 1);
    const Range& row = call.regions[0].back();
    const bool forward = tapsMoveForward(call);
    e.forBox(outer, [&](const std::vector<Value*>& idx) {
        emitRowVectors(e, call, idx, row.lo, whole, lanes, stride, forward);
        if (whole < *extent)
            emitVector(e, call, idx, e.b().CreateAdd(row.lo, e.i64(whole)), lanes, *extent - whole,
                       stride);
    });
    return true;
}

} // namespace stagecraft::codegen::detail
