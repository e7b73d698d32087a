// Memory allocation and reuse (GraphTurbo §4.3, Fig. 12).
//
// Note on the algorithm. Tasks are swept in increasing order. At a task the
// tensors last read before it are released, then the tensors it writes are
// placed in request order. Each pool keeps its free space as gaps ordered by
// offset and places first-fit (the lowest gap that fits), so fragmentation
// can force a higher offset or a spill. When a tensor does not fit, the live
// tensor of the pool with the longest liveness, the new one included, moves to
// the parent pool from this task on ("the one with the longest liveness ... is
// spilled to first GB and next DDR"); ties go to the larger tensor, then the
// later request. The moved tensor is placed in the parent by the same rule, so
// one task can cascade LB -> GB -> DDR.
//
// Choices where the paper is silent (docs/allocation.md): a tensor larger
// than a pool goes to the parent without spilling anyone; a tensor moved
// again at the task of its last placement keeps only the final one (so a
// placement can skip a level); peakBytes counts the final placements.
// validateAllocation at the end shares nothing with the allocator.

#include "kernel/allocation.h"

#include <algorithm>
#include <compare>
#include <map>
#include <optional>
#include <set>

namespace stagecraft::kernel {

namespace {

std::string tensorLabel(const AllocRequest& request) {
    return "tensor '" + request.name + "'";
}

std::string poolLabel(const Pools& pools, PoolId p) {
    return "pool '" + pools[p].name + "'";
}

bool inRange(const Pools& pools, PoolId p) {
    return pools.contains(p);
}

Status checkPools(const Pools& pools) {
    for (const Pool& pool : pools) {
        std::string name = "pool '" + pool.name + "'";
        if (pool.capacityBytes < 0)
            return Error(name + ": negative capacity (" + std::to_string(pool.capacityBytes) +
                         " bytes)");
        if (pool.parent != kNoPool && !inRange(pools, pool.parent))
            return Error(name + ": parent " + std::to_string(pool.parent.value()) +
                         " out of range (" + std::to_string(pools.size()) + " pools)");
        PoolId up = pool.parent;
        for (size_t steps = 0; up != kNoPool; ++steps, up = pools[up].parent)
            if (steps == pools.size())
                return Error(name + ": its chain of parents loops");
    }
    return Status::success();
}

Status checkRequest(const Pools& pools, const AllocRequest& request) {
    std::string name = tensorLabel(request);
    if (request.bytes < 0)
        return Error(name + ": negative size (" + std::to_string(request.bytes) + " bytes)");
    if (request.firstTask > request.lastTask)
        return Error(name + ": first task " + std::to_string(request.firstTask) +
                     " after last task " + std::to_string(request.lastTask));
    if (!inRange(pools, request.pool))
        return Error(name + ": pool " + std::to_string(request.pool.value()) + " out of range (" +
                     std::to_string(pools.size()) + " pools)");
    return Status::success();
}

/// The free bytes of one pool as gaps [begin, end) keyed by begin; adjacent
/// gaps are always merged.
class FreeSpace {
public:
    explicit FreeSpace(int64_t capacity) {
        if (capacity > 0)
            gaps_.emplace(0, capacity);
    }

    /// Takes \p bytes (> 0) from the lowest gap that holds them.
    std::optional<int64_t> take(int64_t bytes) {
        auto gap = std::find_if(gaps_.begin(), gaps_.end(),
                                [&](const auto& g) { return g.second - g.first >= bytes; });
        if (gap == gaps_.end())
            return std::nullopt;
        auto [begin, end] = *gap;
        gaps_.erase(gap);
        if (begin + bytes < end)
            gaps_.emplace(begin + bytes, end);
        return begin;
    }

    void give(int64_t offset, int64_t bytes) {
        int64_t begin = offset, end = offset + bytes;
        auto next = gaps_.lower_bound(begin);
        if (next != gaps_.end() && next->first == end) {
            end = next->second;
            next = gaps_.erase(next);
        }
        if (next != gaps_.begin() && std::prev(next)->second == begin) {
            begin = std::prev(next)->first;
            gaps_.erase(std::prev(next));
        }
        gaps_.emplace(begin, end);
    }

private:
    std::map<int64_t, int64_t> gaps_;
};

/// Spill order: the greatest rank leaves first.
struct Rank {
    int64_t liveness = 0;
    int64_t bytes = 0;
    RequestId request;
    auto operator<=>(const Rank&) const = default;
};

class Allocator {
public:
    Allocator(const Pools& pools, const Requests& requests)
        : pools_(pools)
        , requests_(requests) {
        for (const Pool& pool : pools)
            state_.push_back({FreeSpace(pool.capacityBytes), {}, 0});
        result_.pools = pools;
        result_.tensors.resize(requests.size());
        result_.peakBytes.assign(pools.size(), 0);
        result_.spillsFrom.assign(pools.size(), 0);
    }

    Expected<Allocation> run() {
        std::vector<RequestId> byStart = sortedBy(&AllocRequest::firstTask);
        std::vector<RequestId> byEnd = sortedBy(&AllocRequest::lastTask);
        size_t released = 0;
        for (RequestId r : byStart) {
            int32_t task = request(r).firstTask;
            for (; released < byEnd.size() && request(byEnd[released]).lastTask < task; ++released)
                release(byEnd[released]);
            SC_RETURN_IF_ERROR(start(r));
        }
        computePeaks();
        return std::move(result_);
    }

private:
    struct PoolState {
        FreeSpace free;
        std::set<Rank> live;
        int64_t liveBytes = 0;
    };

    const AllocRequest& request(RequestId r) const { return requests_[r]; }
    const Pool& pool(PoolId p) const { return pools_[p]; }
    PoolState& state(PoolId p) { return state_[p]; }
    std::vector<Placement>& placements(RequestId r) { return result_.tensors[r].placements; }

    /// Request ids stably sorted by a task field.
    std::vector<RequestId> sortedBy(int32_t AllocRequest::*task) const {
        std::vector<RequestId> order(requests_.ids().begin(), requests_.ids().end());
        std::stable_sort(order.begin(), order.end(), [&](RequestId a, RequestId b) {
            return request(a).*task < request(b).*task;
        });
        return order;
    }

    Rank rank(RequestId r) const {
        const AllocRequest& req = request(r);
        return {int64_t{req.lastTask} - req.firstTask, req.bytes, r};
    }

    Status start(RequestId r) {
        const AllocRequest& req = request(r);
        if (req.bytes == 0) { // takes no space: never competes, never spills
            record(r, req.pool, 0, req.firstTask);
            return Status::success();
        }
        return place(r, req.pool, req.firstTask);
    }

    /// Places \p r in \p p at \p task, spilling by rank until it fits.
    Status place(RequestId r, PoolId p, int32_t task) {
        if (request(r).bytes > pool(p).capacityBytes) // cannot fit even alone
            return moveUp(r, p, task);
        PoolState& s = state(p);
        for (;;) {
            if (std::optional<int64_t> offset = s.free.take(request(r).bytes)) {
                s.live.insert(rank(r));
                s.liveBytes += request(r).bytes;
                record(r, p, *offset, task);
                return Status::success();
            }
            if (pool(p).parent == kNoPool)
                return doesNotFit(r, p, task);
            if (s.live.empty() || rank(r) > *s.live.rbegin())
                return moveUp(r, p, task);
            RequestId victim = s.live.rbegin()->request;
            evict(victim, p);
            SC_RETURN_IF_ERROR(moveUp(victim, p, task));
        }
    }

    /// Sends \p r, which \p p does not keep, to the parent of \p p.
    Status moveUp(RequestId r, PoolId p, int32_t task) {
        if (pool(p).parent == kNoPool)
            return doesNotFit(r, p, task);
        ++result_.spillsFrom[p];
        return place(r, pool(p).parent, task);
    }

    void evict(RequestId r, PoolId p) {
        PoolState& s = state(p);
        s.free.give(placements(r).back().offset, request(r).bytes);
        s.live.erase(rank(r));
        s.liveBytes -= request(r).bytes;
    }

    void release(RequestId r) {
        if (request(r).bytes > 0)
            evict(r, placements(r).back().pool);
    }

    void record(RequestId r, PoolId p, int64_t offset, int32_t task) {
        std::vector<Placement>& ps = placements(r);
        if (!ps.empty() && ps.back().fromTask == task)
            ps.back() = {task, p, offset};
        else
            ps.push_back({task, p, offset});
    }

    Error doesNotFit(RequestId r, PoolId p, int32_t task) const {
        std::string message = tensorLabel(request(r)) + " (" + std::to_string(request(r).bytes) +
                              " bytes) does not fit " + poolLabel(pools_, p) + " (" +
                              std::to_string(pool(p).capacityBytes) + " bytes)";
        if (request(r).bytes <= pool(p).capacityBytes)
            message += ": " + std::to_string(state_[p].liveBytes) + " bytes live at task " +
                       std::to_string(task);
        return Error(message);
    }

    void computePeaks() {
        for (RequestId r : requests_.ids())
            for (const Placement& pl : result_.tensors[r].placements) {
                int64_t& peak = result_.peakBytes[pl.pool];
                peak = std::max(peak, pl.offset + requests_[r].bytes);
            }
    }

    const Pools& pools_;
    const Requests& requests_;
    IdVector<PoolId, PoolState> state_;
    Allocation result_;
};

} // namespace

Expected<Allocation> allocate(const Pools& pools, const Requests& requests) {
    SC_RETURN_IF_ERROR(checkPools(pools));
    for (const AllocRequest& request : requests)
        SC_RETURN_IF_ERROR(checkRequest(pools, request));
    return Allocator(pools, requests).run();
}

// ---------------------------------------------------------------------------
// validateAllocation: placements checked request by request, then one sweep
// over tasks per pool with the live intervals ordered by offset.

namespace {

/// One placement with the tasks [from, until] it covers.
struct Span {
    int32_t from = 0;
    int32_t until = 0;
    int64_t offset = 0;
    int64_t end = 0;
    RequestId request;
};

/// \returns whether \p ancestor is strictly above \p p in the pool tree.
bool isAbove(const Pools& pools, PoolId ancestor, PoolId p) {
    PoolId up = pools[p].parent;
    for (size_t steps = 0; up != kNoPool && inRange(pools, up) && steps <= pools.size(); ++steps) {
        if (up == ancestor)
            return true;
        up = pools[up].parent;
    }
    return false;
}

std::string where(int32_t task, const Pools& pools, PoolId p) {
    return "task " + std::to_string(task) + ", " + poolLabel(pools, p);
}

std::string interval(const AllocRequest& request, const Span& s) {
    return "'" + request.name + "' [" + std::to_string(s.offset) + ", " + std::to_string(s.end) +
           ")";
}

Status checkSizes(const Requests& requests, const Allocation& a) {
    if (a.tensors.size() != requests.size())
        return Error(std::to_string(a.tensors.size()) + " tensor allocations for " +
                     std::to_string(requests.size()) + " requests");
    if (a.peakBytes.size() != a.pools.size() || a.spillsFrom.size() != a.pools.size())
        return Error("peak and spill counts do not have one entry per pool");
    return checkPools(a.pools);
}

/// One placement after \p previous (kNoPool for the first) of \p request.
Status checkPlacement(const Pools& pools, const AllocRequest& request, const Placement& pl,
                      const Placement* previous) {
    std::string name = tensorLabel(request);
    std::string task = std::to_string(pl.fromTask);
    if (!inRange(pools, pl.pool))
        return Error(name + ": placement at task " + task + " in pool " +
                     std::to_string(pl.pool.value()) + " out of range");
    if (!previous && pl.fromTask != request.firstTask)
        return Error(name + ": first placement at task " + task + ", not at its first task " +
                     std::to_string(request.firstTask));
    if (!previous && pl.pool != request.pool && !isAbove(pools, pl.pool, request.pool))
        return Error(name + " is placed in " + poolLabel(pools, pl.pool) + ", neither its " +
                     poolLabel(pools, request.pool) + " nor above it");
    if (previous && pl.fromTask <= previous->fromTask)
        return Error(name + ": placement at task " + task + " does not follow the one at task " +
                     std::to_string(previous->fromTask));
    if (pl.fromTask > request.lastTask)
        return Error(name + ": placement at task " + task + " after its last task " +
                     std::to_string(request.lastTask));
    if (previous && !isAbove(pools, pl.pool, previous->pool))
        return Error(name + " spills at task " + task + " from " +
                     poolLabel(pools, previous->pool) + " to " + poolLabel(pools, pl.pool) +
                     ", which is not above it");
    if (pl.offset < 0 || pl.offset > pools[pl.pool].capacityBytes - request.bytes)
        return Error(where(pl.fromTask, pools, pl.pool) + ": " + name + " at [" +
                     std::to_string(pl.offset) + ", " + std::to_string(pl.offset + request.bytes) +
                     ") exceeds its " + std::to_string(pools[pl.pool].capacityBytes) + " bytes");
    return Status::success();
}

/// Checks every placement and collects the non-empty ones by pool.
Expected<IdVector<PoolId, std::vector<Span>>> collectSpans(const Requests& requests,
                                                           const Allocation& a) {
    IdVector<PoolId, std::vector<Span>> byPool(a.pools.size());
    for (RequestId r : requests.ids()) {
        const AllocRequest& req = requests[r];
        const std::vector<Placement>& ps = a.tensors[r].placements;
        SC_RETURN_IF_ERROR(checkRequest(a.pools, req));
        if (ps.empty())
            return Error(tensorLabel(req) + " has no placement");
        for (size_t i = 0; i < ps.size(); ++i) {
            SC_RETURN_IF_ERROR(checkPlacement(a.pools, req, ps[i], i ? &ps[i - 1] : nullptr));
            int32_t until = i + 1 < ps.size() ? ps[i + 1].fromTask - 1 : req.lastTask;
            if (req.bytes > 0)
                byPool[ps[i].pool].push_back(
                    {ps[i].fromTask, until, ps[i].offset, ps[i].offset + req.bytes, r});
        }
    }
    return byPool;
}

/// Sweeps the tasks of pool \p p: the live spans, keyed by offset, must not overlap.
Status checkOverlaps(const Requests& requests, const Pools& pools, PoolId p,
                     std::vector<Span> spans) {
    std::vector<Span> ends = spans;
    std::stable_sort(spans.begin(), spans.end(),
                     [](const Span& x, const Span& y) { return x.from < y.from; });
    std::stable_sort(ends.begin(), ends.end(),
                     [](const Span& x, const Span& y) { return x.until < y.until; });
    std::map<int64_t, const Span*> live;
    size_t ended = 0;
    for (const Span& s : spans) {
        for (; ended < ends.size() && ends[ended].until < s.from; ++ended)
            live.erase(ends[ended].offset);
        auto next = live.lower_bound(s.offset);
        const Span* other = next != live.end() && next->first < s.end ? next->second : nullptr;
        if (!other && next != live.begin() && std::prev(next)->second->end > s.offset)
            other = std::prev(next)->second;
        if (other)
            return Error(where(s.from, pools, p) + ": tensors " +
                         interval(requests[other->request], *other) + " and " +
                         interval(requests[s.request], s) + " overlap");
        live.emplace(s.offset, &s);
    }
    return Status::success();
}

/// Peaks and spill counts recomputed from the placements.
Status checkTotals(const Requests& requests, const Allocation& a) {
    IdVector<PoolId, int64_t> peaks(a.pools.size(), 0);
    IdVector<PoolId, int32_t> spills(a.pools.size(), 0);
    for (RequestId r : requests.ids()) {
        PoolId from = requests[r].pool;
        for (const Placement& pl : a.tensors[r].placements) {
            for (; from != pl.pool; from = a.pools[from].parent)
                ++spills[from];
            peaks[pl.pool] = std::max(peaks[pl.pool], pl.offset + requests[r].bytes);
        }
    }
    for (PoolId p : a.pools.ids()) {
        std::string name = poolLabel(a.pools, p);
        if (a.peakBytes[p] != peaks[p])
            return Error(name + ": peak of " + std::to_string(a.peakBytes[p]) +
                         " bytes, the placements reach " + std::to_string(peaks[p]));
        if (a.spillsFrom[p] != spills[p])
            return Error(name + ": " + std::to_string(a.spillsFrom[p]) +
                         " spills counted, the placements show " + std::to_string(spills[p]));
    }
    return Status::success();
}

} // namespace

Status validateAllocation(const Requests& requests, const Allocation& allocation) {
    SC_RETURN_IF_ERROR(checkSizes(requests, allocation));
    SC_ASSIGN_OR_RETURN(auto byPool, collectSpans(requests, allocation));
    for (PoolId p : byPool.ids())
        SC_RETURN_IF_ERROR(checkOverlaps(requests, allocation.pools, p, byPool[p]));
    return checkTotals(requests, allocation);
}

std::vector<int64_t> highWaterByTask(const Requests& requests, const Allocation& allocation,
                                     PoolId pool, int32_t taskCount) {
    // The allocation is the allocator's own: its spans are well formed.
    auto byPool = collectSpans(requests, allocation);
    std::vector<Span> spans =
        byPool && inRange(allocation.pools, pool) ? (*byPool)[pool] : std::vector<Span>{};
    std::stable_sort(spans.begin(), spans.end(),
                     [](const Span& a, const Span& b) { return a.end > b.end; });
    std::vector<int64_t> water(static_cast<size_t>(taskCount), 0);
    // Highest spans first; each task takes the first span that covers it.
    // `next[t]` leads to the first task at or after t not yet set.
    std::vector<int32_t> next(static_cast<size_t>(taskCount) + 1);
    for (int32_t t = 0; t <= taskCount; ++t)
        next[static_cast<size_t>(t)] = t;
    auto unset = [&](int32_t t) {
        while (next[static_cast<size_t>(t)] != t) {
            next[static_cast<size_t>(t)] = next[static_cast<size_t>(next[static_cast<size_t>(t)])];
            t = next[static_cast<size_t>(t)];
        }
        return t;
    };
    for (const Span& span : spans) {
        int32_t to = std::min(span.until, taskCount - 1);
        for (int32_t t = unset(std::max(span.from, 0)); t <= to; t = unset(t)) {
            water[static_cast<size_t>(t)] = span.end;
            next[static_cast<size_t>(t)] = t + 1;
        }
    }
    return water;
}

} // namespace stagecraft::kernel
