// The register-blocked contraction's lane geometry (docs/codegen.md): which
// element of the row factor each lane of a vector reads at the unrolled
// taps' values, known when compiling. The emitter (lower_blocked.cpp) uses it
// to tell padding lanes, segments inside the input for every tap, and
// vectors whose lanes read consecutive elements (one masked load in place);
// the block positions of a plan along channels, and which of them read
// padding at each tap (skipped when compiling); and the index arithmetic at
// constant loop values the plan shares.

#include "codegen/internal/blocked_plan.h"
#include "codegen/internal/host_reads.h"

#include <algorithm>
#include <utility>

namespace stagecraft::codegen::detail {

std::vector<int> movedDims(const BlockedPlan& plan) {
    std::vector<int> dims{plan.rowDim};
    dims.insert(dims.end(), plan.outerDims.begin(), plan.outerDims.end());
    return dims;
}

bool readsLoop(const ops::IndexExpr& expr, int loop) {
    return std::any_of(expr.terms.begin(), expr.terms.end(),
                       [&](const ops::IndexTerm& t) { return t.loop == loop; });
}

int64_t constantIndex(const ops::IndexExpr& expr, const std::vector<int64_t>& loops) {
    int64_t sum = expr.offset;
    for (const ops::IndexTerm& t : expr.terms)
        sum += t.coeff * loops[static_cast<size_t>(t.loop)];
    return sum;
}

std::optional<int64_t> exactIndex(const ops::IndexExpr& expr, const std::vector<int64_t>& loops) {
    const int64_t sum = constantIndex(expr, loops);
    if (sum % expr.div != 0)
        return std::nullopt;
    return sum / expr.div;
}

std::optional<int64_t> constantOf(Value* v) {
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(v))
        return c->getSExtValue();
    return std::nullopt;
}

std::optional<int64_t> constantExtent(const Range& range) {
    std::optional<int64_t> lo = constantOf(range.lo), hi = constantOf(range.hi);
    if (lo && hi)
        return *hi - *lo;
    auto* add = llvm::dyn_cast<llvm::BinaryOperator>(range.hi);
    if (add != nullptr && add->getOpcode() == llvm::Instruction::Add &&
        add->getOperand(0) == range.lo)
        return constantOf(add->getOperand(1));
    return std::nullopt;
}

std::pair<int64_t, int64_t> positionValues(const BlockedPlan& plan, int64_t position) {
    if (plan.outer < 0)
        return {0, position};
    return {plan.outerFirst + position / plan.width, plan.first + position % plan.width};
}

std::optional<int64_t> laneAddress(const OpCall& call, const BlockedPlan& plan, int64_t position,
                                   const std::vector<int64_t>& taps) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    std::vector<int64_t> values(nest.loops.size(), 0);
    const auto [outer, row] = positionValues(plan, position);
    values[static_cast<size_t>(plan.row)] = row;
    if (plan.outer >= 0)
        values[static_cast<size_t>(plan.outer)] = outer;
    for (size_t i = 0; i < plan.taps.size(); ++i)
        values[static_cast<size_t>(plan.taps[i])] = taps[i];
    const ops::AccessMap& map = *nest.accessFor(plan.rowSlot);
    const Access& rows = call.inputs[static_cast<size_t>(plan.rowSlot)];
    int64_t address = 0;
    for (int d : movedDims(plan)) {
        std::optional<int64_t> index = exactIndex(map.dims[static_cast<size_t>(d)], values);
        if (!index || *index < 0 || *index >= rows.shape[static_cast<size_t>(d)])
            return std::nullopt;
        address += *index * rows.strides[static_cast<size_t>(d)];
    }
    return address;
}

bool columnInside(const OpCall& call, const BlockedPlan& plan, int64_t position,
                  const std::vector<int64_t>& taps) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    std::vector<int64_t> values(nest.loops.size(), 0);
    if (plan.blockOuter >= 0) {
        values[static_cast<size_t>(plan.blockOuter)] =
            plan.blockOuterFirst + position / plan.blockWidth;
        values[static_cast<size_t>(plan.block)] = plan.blockFirst + position % plan.blockWidth;
    } else {
        values[static_cast<size_t>(plan.block)] = position;
    }
    for (size_t i = 0; i < plan.taps.size(); ++i)
        values[static_cast<size_t>(plan.taps[i])] = taps[i];
    const ops::AccessMap& map = *nest.accessFor(plan.colSlot);
    const ir::Shape& shape = call.inputs[static_cast<size_t>(plan.colSlot)].shape;
    return std::all_of(plan.colTestedDims.begin(), plan.colTestedDims.end(), [&](int d) {
        if (std::find(plan.colGuardedDims.begin(), plan.colGuardedDims.end(), d) !=
            plan.colGuardedDims.end())
            return true; // tested at run time, once per step of the tile
        const int64_t index = constantIndex(map.dims[static_cast<size_t>(d)], values);
        return index >= 0 && index < shape[static_cast<size_t>(d)];
    });
}

void flattenBlock(const OpCall& call, BlockedPlan& plan) {
    const int outer = plan.block - 1;
    auto rest = std::find(plan.rest.begin(), plan.rest.end(), outer);
    if (plan.block < 1 || rest == plan.rest.end())
        return;
    const Range& blocks = call.regions[0][static_cast<size_t>(plan.block)];
    const Range& outers = call.regions[0][static_cast<size_t>(outer)];
    std::optional<int64_t> first = constantOf(blocks.lo), last = constantOf(blocks.hi);
    std::optional<int64_t> outerFirst = constantOf(outers.lo), outerLast = constantOf(outers.hi);
    if (!first || !last || !outerFirst || !outerLast || *last <= *first ||
        *outerLast <= *outerFirst)
        return;
    plan.rest.erase(rest);
    plan.blockOuter = outer;
    plan.blockOuterFirst = *outerFirst;
    plan.blockFirst = *first;
    plan.blockWidth = *last - *first;
    plan.blockPositions = plan.blockWidth * (*outerLast - *outerFirst);
}

int64_t flatPositions(const OpCall& call, const BlockedPlan& plan) {
    if (plan.block < 1)
        return 0;
    const std::optional<int64_t> width =
        constantExtent(call.regions[0][static_cast<size_t>(plan.block)]);
    const std::optional<int64_t> rows =
        constantExtent(call.regions[0][static_cast<size_t>(plan.block - 1)]);
    return width && rows ? *width * *rows : 0;
}

bool planPadding(const OpCall& call, BlockedPlan& plan) {
    if (plan.block < 0)
        return false;
    if (plan.blockOuter < 0) { // the block's own range, its tiles unrolled
        const Range& range = call.regions[0][static_cast<size_t>(plan.block)];
        std::optional<int64_t> first = constantOf(range.lo), last = constantOf(range.hi);
        if (!first || !last || *last <= *first)
            return false;
        plan.blockFirst = *first;
        plan.blockWidth = *last - *first;
        plan.blockPositions = plan.blockWidth;
    }
    const ops::LoopNest& nest = call.semantics->nests[0];
    const ops::AccessMap& colMap = *nest.accessFor(plan.colSlot);
    const auto isTap = [&](int loop) {
        return std::find(plan.taps.begin(), plan.taps.end(), loop) != plan.taps.end();
    };
    for (int d : plan.colTestedDims) {
        const auto& terms = colMap.dims[static_cast<size_t>(d)].terms;
        const auto readsBlock = [&](const ops::IndexTerm& t) {
            return t.loop == plan.block || t.loop == plan.blockOuter;
        };
        if (std::all_of(terms.begin(), terms.end(),
                        [&](const ops::IndexTerm& t) { return readsBlock(t) || isTap(t.loop); }))
            continue; // known per position when compiling
        if (std::any_of(terms.begin(), terms.end(), readsBlock))
            return false;
        plan.colGuardedDims.push_back(d); // the same for every position of a tile
    }
    return true;
}

bool tilesOutsideSegments(const OpCall& call, const BlockedPlan& plan) {
    const ops::LoopNest& nest = call.semantics->nests[0];
    int64_t steps = 1;
    for (int l = nest.outputRank; l < static_cast<int>(nest.loops.size()); ++l)
        steps *= nest.loops[static_cast<size_t>(l)].extent;
    const int64_t weightBytes = plan.width * steps * ir::dtypeSize(outputType(call, 0));
    return plan.blockOuter >= 0 && plan.blockPositions > plan.width &&
           weightBytes * 2 <= hostLocalBytes();
}

std::vector<std::vector<int64_t>> tapSteps(const ops::LoopNest& nest, const BlockedPlan& plan) {
    std::vector<std::vector<int64_t>> steps{{}};
    for (int tap : plan.taps) {
        std::vector<std::vector<int64_t>> next;
        for (const std::vector<int64_t>& s : steps)
            for (int64_t v = 0; v < nest.loops[static_cast<size_t>(tap)].extent; ++v) {
                next.push_back(s);
                next.back().push_back(v);
            }
        steps = std::move(next);
    }
    return steps;
}

bool segmentInside(const OpCall& call, const BlockedPlan& plan, int64_t first, int64_t width) {
    for (const std::vector<int64_t>& taps : tapSteps(call.semantics->nests[0], plan))
        for (int64_t lane = first; lane < first + width; ++lane)
            if (!laneAddress(call, plan, lane, taps))
                return false;
    return true;
}

std::optional<std::vector<bool>> steppedLanes(const std::vector<int64_t>& offset, int64_t first,
                                              int64_t step, int64_t lanes) {
    std::vector<bool> reading(static_cast<size_t>(lanes), false);
    for (size_t k = 0; k < offset.size(); ++k) {
        if (offset[k] < 0)
            continue;
        if (offset[k] != (static_cast<int64_t>(k) - first) * step)
            return std::nullopt;
        reading[k] = true;
    }
    return reading;
}

} // namespace stagecraft::codegen::detail
