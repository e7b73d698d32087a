// The register-blocked contraction's lane geometry (docs/codegen.md): which
// element of the row factor each lane of a vector reads at the unrolled
// taps' values, known when compiling. The emitter (lower_blocked.cpp) uses it
// to tell padding lanes, segments inside the input for every tap, and
// vectors whose lanes read consecutive elements (one masked load in place).

#include "codegen/internal/blocked_plan.h"

#include <utility>

namespace stagecraft::codegen::detail {

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
