#pragma once
/// \file
/// Memory allocation and reuse (GraphTurbo §4.3, Fig. 12). Tensors live over
/// a range of computation tasks (layers, blocks or sub-graph instances, in
/// execution order). Each memory pool (one core's LB, one cluster's GB, the
/// DDR) hands out byte offsets first-fit, so fragmentation counts; a tensor's
/// space is released after its last use and reused. When a tensor does not
/// fit, the live tensor of that pool with the longest liveness (the new one
/// included) is spilled to the pool's parent (LB -> GB -> DDR): from that task
/// on it lives in the parent pool. validateAllocation checks the result.

#include "support/expected.h"
#include "support/id.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::kernel {

using PoolId = Id<struct PoolTag>;
inline constexpr PoolId kNoPool{-1};

/// One memory with a capacity, and where its overflow goes.
struct Pool {
    std::string name;
    int64_t capacityBytes = 0;
    /// The slower pool spills go to; kNoPool: overflow is an error.
    PoolId parent = kNoPool;
};

/// The pools of one allocation, reached by their ids.
using Pools = IdVector<PoolId, Pool>;

/// A tensor (or one core's piece of it) to place.
struct AllocRequest {
    std::string name;
    int64_t bytes = 0;
    /// Computation tasks [firstTask, lastTask] during which it is live
    /// (written at firstTask, last read at lastTask), firstTask <= lastTask.
    int32_t firstTask = 0;
    int32_t lastTask = 0;
    /// The pool the schedule asks for (its scope).
    PoolId pool = kNoPool;
};

/// A request's index in the requests of one allocation.
using RequestId = Id<struct RequestTag>;

/// The requests of one allocation, reached by their ids.
using Requests = IdVector<RequestId, AllocRequest>;

/// Where a request lives from task `fromTask` on.
struct Placement {
    int32_t fromTask = 0;
    PoolId pool = kNoPool;
    int64_t offset = 0;
};

/// The placements of one request: the first at its firstTask, one more per
/// spill, in task order. The first is in the requested pool, or above it when
/// that pool could not take the tensor; each later one is in a pool above the
/// previous one: its parent, or further up when the parent spilled the tensor
/// again at that same task (only the final placement of a task is kept).
/// A zero-byte request has one placement, at offset 0 of its pool.
struct TensorAllocation {
    std::vector<Placement> placements;
    bool spilled() const { return placements.size() > 1; }
};

struct Allocation {
    Pools pools;
    /// The placements of each request.
    IdVector<RequestId, TensorAllocation> tensors;
    /// Highest end offset ever used in each pool (peak including fragmentation),
    /// over the final placements.
    IdVector<PoolId, int64_t> peakBytes;
    /// Number of spills out of each pool: a live tensor moved to the parent,
    /// or a new one the pool did not take (per level a tensor passes through).
    IdVector<PoolId, int32_t> spillsFrom;
};

/// Places \p requests in \p pools (see the file comment). Requests that start
/// at the same task are placed in request order; ties of liveness when
/// choosing whom to spill go to the larger tensor, then the later request.
/// Fails, naming the request and pool, when a tensor does not fit even alone
/// in a pool without parent, or a request is malformed.
Expected<Allocation> allocate(const Pools& pools, const Requests& requests);

/// Checks that in every pool, at every task, the live placements do not
/// overlap and stay within capacity, and that every request is placed from
/// its firstTask to its lastTask with spills only to the parent pool. The
/// error names the task, the pool and the two tensors.
Status validateAllocation(const Requests& requests, const Allocation& allocation);

/// The highest end offset in use in \p pool at each task of [0, taskCount)
/// (0 where nothing is placed there), over the final placements: what a
/// cache at the top of the pool must stay above.
std::vector<int64_t> highWaterByTask(const Requests& requests, const Allocation& allocation,
                                     PoolId pool, int32_t taskCount);

} // namespace stagecraft::kernel
