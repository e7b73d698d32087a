// The factors of the register-blocked contraction (blocked_plan.cpp plans
// the rest): which input is the row factor, read along the output's row,
// and which the column factor, broadcast; the blocked output loop only the
// column factor reads; the reduction loops unrolled because they move the
// row factor along the row (Conv's kw) or a padded column factor (Conv's kh
// and kw along channels); and the dims tested per reduction step. All read
// off the loop nest and the access maps, no op named.

#include "codegen/internal/blocked_plan.h"
#include "codegen/internal/host_reads.h"

#include <algorithm>

namespace stagecraft::codegen::detail {

namespace {

/// Multiply-add steps of unrolled reduction loops at most.
constexpr int64_t kMaxUnrolledSteps = 16;

/// Plain terms over a whole that may be divided exactly (ConvTranspose's
/// (ow - kw) / stride): the lanes where the division is not exact read nothing.
bool isDividedPlain(const ops::IndexExpr& expr) {
    if (expr.full || expr.mod != 0 || expr.div < 1)
        return false;
    return std::all_of(expr.terms.begin(), expr.terms.end(),
                       [](const ops::IndexTerm& t) { return t.div == 1 && t.mod == 0; });
}

bool isPlain(const ops::IndexExpr& expr) {
    if (expr.full || expr.div != 1 || expr.mod != 0)
        return false;
    return std::all_of(expr.terms.begin(), expr.terms.end(),
                       [](const ops::IndexTerm& t) { return t.div == 1 && t.mod == 0; });
}

/// True when \p expr stays in [0, extent) over every loop's whole extent.
bool alwaysInside(const ops::LoopNest& nest, const ops::IndexExpr& expr, int64_t extent) {
    return ops::alwaysInside(expr, nest.loops, extent);
}

bool readBy(const ops::AccessMap& map, int loop) {
    return std::any_of(map.dims.begin(), map.dims.end(),
                       [&](const ops::IndexExpr& d) { return readsLoop(d, loop); });
}

/// The input that reads along the row (exactly one dim of exactly one
/// factor must), and its dim; false when there is no such one.
bool chooseRowFactor(const ops::LoopNest& nest, BlockedPlan& plan) {
    const auto readsRow = [&](int slot) {
        const auto& dims = nest.accessFor(slot)->dims;
        return std::count_if(dims.begin(), dims.end(),
                             [&](const ops::IndexExpr& d) { return readsLoop(d, plan.row); });
    };
    if (readsRow(0) + readsRow(plan.secondSlot) != 1)
        return false;
    plan.rowSlot = readsRow(0) == 1 ? 0 : plan.secondSlot;
    plan.colSlot = plan.rowSlot == 0 ? plan.secondSlot : 0;
    const ops::AccessMap& rowMap = *nest.accessFor(plan.rowSlot);
    for (size_t d = 0; d < rowMap.dims.size(); ++d)
        if (readsLoop(rowMap.dims[d], plan.row))
            plan.rowDim = static_cast<int>(d);
    return isDividedPlain(rowMap.dims[static_cast<size_t>(plan.rowDim)]);
}

/// The outer loop's dims of the row factor (Conv's ih for oh): plain, apart
/// from the row's, and the column factor reads no such loop; false otherwise.
bool chooseOuter(const ops::LoopNest& nest, BlockedPlan& plan) {
    plan.outer = plan.row - 1;
    if (plan.outer < 0 || readBy(*nest.accessFor(plan.colSlot), plan.outer))
        return false;
    const ops::AccessMap& rowMap = *nest.accessFor(plan.rowSlot);
    for (size_t d = 0; d < rowMap.dims.size(); ++d) {
        if (!readsLoop(rowMap.dims[d], plan.outer))
            continue;
        if (static_cast<int>(d) == plan.rowDim || !isPlain(rowMap.dims[d]))
            return false;
        plan.outerDims.push_back(static_cast<int>(d));
    }
    return !plan.outerDims.empty();
}

/// The reduction loops the moved dims also move with (Conv's kw, and kh
/// when flattened): a suffix of the reductions, few enough steps to unroll;
/// false otherwise.
bool chooseTaps(const ops::LoopNest& nest, BlockedPlan& plan) {
    const ops::AccessMap& rowMap = *nest.accessFor(plan.rowSlot);
    for (int d : movedDims(plan))
        for (const ops::IndexTerm& t : rowMap.dims[static_cast<size_t>(d)].terms) {
            if (t.loop == plan.row || t.loop == plan.outer)
                continue;
            if (t.loop < nest.outputRank)
                return false;
            if (std::find(plan.taps.begin(), plan.taps.end(), t.loop) == plan.taps.end())
                plan.taps.push_back(t.loop);
        }
    std::sort(plan.taps.begin(), plan.taps.end());
    int64_t steps = 1;
    for (int tap : plan.taps)
        steps *= nest.loops[static_cast<size_t>(tap)].extent;
    const int firstTap = static_cast<int>(nest.loops.size() - plan.taps.size());
    for (size_t i = 0; i < plan.taps.size(); ++i)
        if (plan.taps[i] != firstTap + static_cast<int>(i))
            return false;
    for (int l = nest.outputRank; l < firstTap; ++l)
        plan.reductions.push_back(l);
    plan.restOutside = steps == 1;
    return steps <= kMaxUnrolledSteps;
}

/// The row factor's other dims to test per step (those not always inside);
/// false when one moves with a tap or a column factor dim may leave its
/// input, unless the row runs along \p channels: such dims are then its
/// colTestedDims.
bool chooseTests(const OpCall& call, BlockedPlan& plan, bool channels) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    const ops::AccessMap& rowMap = *nest.accessFor(plan.rowSlot);
    const ir::Shape& rowShape = call.inputs[static_cast<size_t>(plan.rowSlot)].shape;
    const std::vector<int> moved = movedDims(plan);
    for (size_t d = 0; d < rowMap.dims.size(); ++d) {
        if (std::find(moved.begin(), moved.end(), static_cast<int>(d)) != moved.end())
            continue;
        for (int tap : plan.taps)
            if (readsLoop(rowMap.dims[d], tap))
                return false;
        if (!alwaysInside(nest, rowMap.dims[d], rowShape[d]))
            plan.testedDims.push_back(static_cast<int>(d));
    }
    const ops::AccessMap& colMap = *nest.accessFor(plan.colSlot);
    const ir::Shape& colShape = call.inputs[static_cast<size_t>(plan.colSlot)].shape;
    for (size_t d = 0; d < colMap.dims.size(); ++d)
        if (!alwaysInside(nest, colMap.dims[d], colShape[d])) {
            if (!channels || !isPlain(colMap.dims[d]))
                return false;
            plan.colTestedDims.push_back(static_cast<int>(d));
        }
    return true;
}

/// The taps of a column factor that may leave its input (colTestedDims):
/// the loops from the first reduction loop those dims read on, unrolled
/// (a padded Conv's kh and kw), few enough steps; false otherwise.
bool chooseColumnTaps(const ops::LoopNest& nest, BlockedPlan& plan) {
    if (plan.colTestedDims.empty())
        return true;
    if (!plan.taps.empty())
        return false;
    const ops::AccessMap& colMap = *nest.accessFor(plan.colSlot);
    int firstTap = static_cast<int>(nest.loops.size());
    for (int d : plan.colTestedDims)
        for (const ops::IndexTerm& t : colMap.dims[static_cast<size_t>(d)].terms)
            if (t.loop >= nest.outputRank)
                firstTap = std::min(firstTap, t.loop);
    for (int l = firstTap; l < static_cast<int>(nest.loops.size()); ++l)
        plan.taps.push_back(l);
    const int64_t steps = stepsFrom(nest, firstTap);
    std::erase_if(plan.reductions, [&](int l) { return l >= firstTap; });
    plan.restOutside = steps == 1;
    return steps <= kMaxPaddedChannelTaps;
}

/// The largest output loop that \p map reads and \p other does not, before
/// the row or after it with more than one position (a row along channels:
/// Conv's ow), or -1.
int largestLoopOnlyIn(const ops::LoopNest& nest, int row, const ops::AccessMap& map,
                      const ops::AccessMap& other) {
    int best = -1;
    for (int l = 0; l < nest.outputRank; ++l)
        if ((l < row || (l > row && nest.loops[static_cast<size_t>(l)].extent > 1)) &&
            readBy(map, l) && !readBy(other, l) &&
            (best < 0 || nest.loops[static_cast<size_t>(l)].extent >=
                             nest.loops[static_cast<size_t>(best)].extent))
            best = l;
    return best;
}

/// The block, a loop only the column factor reads (Conv's oc, MatMul's m),
/// or -1 (a depthwise Conv reads its channel in both factors); then the
/// other output loops, those both factors read apart.
void chooseBlock(const ops::LoopNest& nest, BlockedPlan& plan) {
    const ops::AccessMap& rowMap = *nest.accessFor(plan.rowSlot);
    const ops::AccessMap& colMap = *nest.accessFor(plan.colSlot);
    plan.block = largestLoopOnlyIn(nest, plan.row, colMap, rowMap);
    for (int l = 0; l < nest.outputRank; ++l) {
        if (l == plan.row || l == plan.block || l == plan.outer)
            continue;
        (readBy(rowMap, l) && readBy(colMap, l) ? plan.shared : plan.rest).push_back(l);
    }
}

} // namespace

std::optional<BlockedPlan> planFactors(const OpCall& call, bool flatten, int row, bool channels) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    BlockedPlan plan;
    plan.row = row;
    plan.secondSlot = secondFactorSlot(call);
    if (!chooseRowFactor(nest, plan) || (flatten && !chooseOuter(nest, plan)) ||
        !chooseTaps(nest, plan) || !chooseTests(call, plan, channels) ||
        !chooseColumnTaps(nest, plan))
        return std::nullopt;
    chooseBlock(nest, plan);
    return plan;
}

} // namespace stagecraft::codegen::detail
