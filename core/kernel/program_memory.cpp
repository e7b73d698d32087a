// Allocation of a program's buffers (GraphTurbo §4.3, allocation.h): the
// LB pass over the buffers declared in LB (per core, spills to a sink), the
// GB pass over those declared in GB or DDR and the LB's spills (whole
// tensors, GB overflow to DDR), the placements merged into each buffer, the
// GB room left for the weight cache at every task, and the reuse waits: a
// layer whose buffer takes space an earlier one used waits for that one's
// users, so overlapping layers never overwrite live data.

#include "kernel/internal/layers.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>

namespace stagecraft::kernel::detail {

namespace {

/// One placement of a buffer in a pool: from its task through `until`
/// (its last reader, or the task whose spill reads it out).
struct Stay {
    int32_t task;
    BufferId buffer;
    PoolId pool;
    int64_t offset;
    int64_t bytes;
    int32_t until;
    bool spilled;
};

std::vector<Stay> stays(const Program& program) {
    std::vector<Stay> all;
    for (BufferId b : program.buffers.ids()) {
        const Buffer& buffer = program.buffers[b];
        const auto& ps = buffer.placements;
        for (size_t i = 0; i < ps.size(); ++i) {
            bool spilled = i + 1 < ps.size();
            int32_t until = spilled ? ps[i + 1].fromTask : buffer.lastTask;
            int64_t bytes = ps[i].pool == kLbPool ? buffer.pieceBytes : buffer.bytes;
            if (bytes > 0 && until >= ps[i].fromTask)
                all.push_back({ps[i].fromTask, b, ps[i].pool, ps[i].offset, bytes, until, spilled});
        }
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const Stay& a, const Stay& b) { return a.task < b.task; });
    return all;
}

/// The tasks that use \p old's bytes and must end before a layer of task
/// \p task overwrites them: its writer and readers during the stay, and
/// the layer whose spill reads it out.
void usersBefore(const Program& program, const Stay& old, int32_t task,
                 std::vector<int32_t>& waits) {
    const Buffer& b = program.buffers[old.buffer];
    auto keep = [&](int32_t t) {
        if (t >= old.task && t <= old.until && t < task)
            waits.push_back(t);
    };
    keep(b.firstTask);
    for (int32_t r : b.readers)
        keep(r);
    if (old.spilled)
        keep(old.until);
}

/// Layer::waitFor from the placements: per pool, the latest stay over
/// every byte range, whose users must finish before it is overwritten.
void addReuseWaits(Program& program) {
    std::vector<Layer*> layers(static_cast<size_t>(program.taskCount), nullptr);
    for (Kernel& k : program.kernels)
        for (Layer& l : k.layers)
            layers[static_cast<size_t>(l.task)] = &l;
    std::vector<Stay> all = stays(program);
    // offset -> (end, index into all) of the latest stay covering it.
    std::array<std::map<int64_t, std::pair<int64_t, size_t>>, 3> space;
    for (size_t i = 0; i < all.size(); ++i) {
        const Stay& stay = all[i];
        auto& map = space[stay.pool.index()];
        int64_t lo = stay.offset, hi = stay.offset + stay.bytes;
        auto it = map.lower_bound(lo);
        if (it != map.begin() && std::prev(it)->second.first > lo)
            --it;
        std::vector<std::pair<int64_t, std::pair<int64_t, size_t>>> keep;
        while (it != map.end() && it->first < hi) {
            auto [start, seg] = *it;
            usersBefore(program, all[seg.second], stay.task,
                        layers[static_cast<size_t>(stay.task)]->waitFor);
            if (start < lo)
                keep.push_back({start, {lo, seg.second}});
            if (seg.first > hi)
                keep.push_back({hi, {seg.first, seg.second}});
            it = map.erase(it);
        }
        for (auto& [start, seg] : keep)
            map[start] = seg;
        map[lo] = {hi, i};
    }
    for (Layer* l : layers) {
        std::sort(l->waitFor.begin(), l->waitFor.end());
        l->waitFor.erase(std::unique(l->waitFor.begin(), l->waitFor.end()), l->waitFor.end());
    }
}

Status allocateLb(Program& program, const arch::Arch& arch) {
    const auto& lb = arch.cluster.coreGroups.front().localBuffer;
    Pools pools = {{lb ? lb->name : "LB", lb ? lb->activationBytes() : 0, kPassParent},
                   {"spilled", std::numeric_limits<int64_t>::max() / 4, kNoPool}};
    AllocationPass& pass = program.lb;
    for (BufferId b : program.buffers.ids()) {
        Buffer& buffer = program.buffers[b];
        buffer.pieceBytes = (buffer.bytes + buffer.cores - 1) / buffer.cores;
        if (buffer.scope != Scope::LB)
            continue;
        pass.requests.push_back(
            {buffer.name, buffer.pieceBytes, buffer.firstTask, buffer.lastTask, kPassLevel});
        pass.buffers.push_back(b);
    }
    SC_ASSIGN_OR_RETURN(pass.allocation, allocate(pools, pass.requests));
    return Status::success();
}

/// The task from which a buffer declared in LB lives outside it, or -1.
int32_t spillTask(const Program& program, RequestId lbRequest) {
    for (const Placement& p : program.lb.allocation.tensors[lbRequest].placements)
        if (p.pool != kPassLevel)
            return p.fromTask;
    return -1;
}

Status allocateGb(Program& program, const arch::Arch& arch) {
    const auto& gb = arch.cluster.globalBuffer;
    Pools pools = {{gb ? gb->name : "GB", gb ? gb->bytes : 0, kPassParent},
                   {arch.ddr.name, arch.ddr.bytes, kNoPool}};
    AllocationPass& pass = program.gb;
    IdVector<BufferId, int32_t> from(program.buffers.size(), -1);
    for (BufferId b : program.buffers.ids())
        if (program.buffers[b].scope != Scope::LB)
            from[b] = program.buffers[b].firstTask;
    for (RequestId r : program.lb.requests.ids())
        from[program.lb.buffers[r]] = spillTask(program, r);
    for (BufferId b : program.buffers.ids()) {
        const Buffer& buffer = program.buffers[b];
        if (from[b] < 0)
            continue;
        PoolId pool = buffer.scope == Scope::DDR ? kPassParent : kPassLevel;
        pass.requests.push_back({buffer.name, buffer.bytes, from[b], buffer.lastTask, pool});
        pass.buffers.push_back(b);
    }
    SC_ASSIGN_OR_RETURN(pass.allocation, allocate(pools, pass.requests));
    program.weightCacheBytes =
        highWaterByTask(pass.requests, pass.allocation, kPassLevel, program.taskCount);
    for (int64_t& bytes : program.weightCacheBytes)
        bytes = std::max<int64_t>(pools[kPassLevel].capacityBytes - bytes, 0);
    return Status::success();
}

void mergePlacements(Program& program) {
    for (RequestId r : program.lb.requests.ids())
        for (const Placement& p : program.lb.allocation.tensors[r].placements)
            if (p.pool == kPassLevel)
                program.buffers[program.lb.buffers[r]].placements.push_back(
                    {p.fromTask, kLbPool, p.offset});
    for (RequestId r : program.gb.requests.ids())
        for (const Placement& p : program.gb.allocation.tensors[r].placements)
            program.buffers[program.gb.buffers[r]].placements.push_back(
                {p.fromTask, p.pool == kPassLevel ? kGbPool : kDdrPool, p.offset});
}

} // namespace

Status allocateBuffers(Program& program, const arch::Arch& arch) {
    SC_RETURN_IF_ERROR(allocateLb(program, arch));
    SC_RETURN_IF_ERROR(allocateGb(program, arch));
    mergePlacements(program);
    addReuseWaits(program);
    return Status::success();
}

} // namespace stagecraft::kernel::detail
