// Queries of a kernel program (plan.h): where a buffer lives at a task.

#include "kernel/plan.h"

namespace stagecraft::kernel {

Scope poolScope(PoolId pool) {
    return pool == kLbPool ? Scope::LB : pool == kGbPool ? Scope::GB : Scope::DDR;
}

Scope scopeAt(const Program& program, BufferId buffer, int32_t task) {
    const auto& placements = program.buffers[buffer].placements;
    PoolId pool = placements.front().pool;
    for (const Placement& p : placements)
        if (p.fromTask <= task)
            pool = p.pool;
    return poolScope(pool);
}

} // namespace stagecraft::kernel
