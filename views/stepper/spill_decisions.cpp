// The spills of §4.3 read back from the kernel plans. Each allocation pass
// (LB per core, then GB/DDR per cluster) keeps its requests and placements:
// a placement after the first is a live tensor moved to the parent memory,
// a first placement outside the requested memory is a new tensor that memory
// did not take. For each, the tensors live in the same memory at that task
// give the comparison of the longest-liveness rule ("out1 … lives across
// seven cts but others across fewer", Fig. 12).

#include "stepper/algorithm_steps.h"

#include <algorithm>

namespace stagecraft::views {
namespace {

using kernel::AllocationPass;
using kernel::Placement;
using kernel::PoolId;
using kernel::RequestId;

/// The pool of \p placements in effect at \p task, before (\p before) or
/// after the moves made at that task; kernel::kNoPool when not yet placed.
PoolId poolAt(const std::vector<Placement>& placements, int32_t task, bool before) {
    PoolId pool = kernel::kNoPool;
    for (const Placement& p : placements)
        if (p.fromTask < task || (!before && p.fromTask == task))
            pool = p.pool;
    return pool;
}

struct PassView {
    const AllocationPass& pass;
    /// The scopes of the pass's pool 0 and pool 1.
    schedule::Scope scopes[2];

    schedule::Scope scopeOf(PoolId pool) const {
        return scopes[pool == kernel::kPassLevel ? 0 : 1];
    }
};

/// Fills the comparison with the other tensors live in \p pool at \p task.
void compareLiveness(const PassView& view, RequestId spilled, PoolId pool,
                     SpillDecision& decision) {
    const auto& requests = view.pass.requests;
    for (RequestId q : requests.ids()) {
        const kernel::AllocRequest& other = requests[q];
        if (q == spilled || other.bytes == 0 || other.firstTask > decision.task ||
            other.lastTask < decision.task)
            continue;
        const auto& placements = view.pass.allocation.tensors[q].placements;
        if (poolAt(placements, decision.task, true) != pool &&
            poolAt(placements, decision.task, false) != pool)
            continue;
        ++decision.othersLive;
        decision.longestOther =
            std::max<int64_t>(decision.longestOther, int64_t{other.lastTask} - other.firstTask + 1);
    }
}

SpillDecision decisionFor(const PassView& view, RequestId request, PoolId from, PoolId to,
                          int32_t task) {
    const kernel::AllocRequest& req = view.pass.requests[request];
    SpillDecision decision;
    decision.buffer = view.pass.buffers[request];
    decision.task = task;
    decision.from = view.scopeOf(from);
    decision.to = view.scopeOf(to);
    decision.liveness = int64_t{req.lastTask} - req.firstTask + 1;
    decision.remaining = int64_t{req.lastTask} - task + 1;
    decision.onArrival = task == req.firstTask && from == req.pool;
    const auto& pools = view.pass.allocation.pools;
    decision.largerThanMemory = req.bytes > pools[from].capacityBytes;
    compareLiveness(view, request, from, decision);
    return decision;
}

void passSpills(const PassView& view, std::vector<SpillDecision>& out) {
    const auto& requests = view.pass.requests;
    for (RequestId r : requests.ids()) {
        const auto& placements = view.pass.allocation.tensors[r].placements;
        if (placements.empty())
            continue;
        if (placements.front().pool != requests[r].pool)
            out.push_back(decisionFor(view, r, requests[r].pool, placements.front().pool,
                                      placements.front().fromTask));
        for (size_t k = 1; k < placements.size(); ++k)
            out.push_back(decisionFor(view, r, placements[k - 1].pool, placements[k].pool,
                                      placements[k].fromTask));
    }
}

} // namespace

std::vector<SpillDecision> spillDecisions(const kernel::Program& program) {
    using schedule::Scope;
    std::vector<SpillDecision> out;
    // The LB pass spills into a sink the GB pass then places: one level up.
    passSpills({program.lb, {Scope::LB, Scope::GB}}, out);
    passSpills({program.gb, {Scope::GB, Scope::DDR}}, out);
    std::stable_sort(out.begin(), out.end(), [](const SpillDecision& a, const SpillDecision& b) {
        return a.task < b.task;
    });
    return out;
}

} // namespace stagecraft::views
