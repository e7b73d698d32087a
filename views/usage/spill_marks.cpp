// Spill marks from the buffers' placements: a buffer starts in the pool of
// its declared scope; every placement in a slower pool than the one before is
// a spill. A first placement above the declared pool is a spill at the
// buffer's first task (the pool did not take the new tensor).

#include "usage/spill_marks.h"

#include <algorithm>

namespace stagecraft::views {

namespace {

kernel::PoolId declaredPool(schedule::Scope scope) {
    switch (scope) {
    case schedule::Scope::LB:
        return kernel::kLbPool;
    case schedule::Scope::GB:
        return kernel::kGbPool;
    case schedule::Scope::DDR:
        return kernel::kDdrPool;
    }
    return kernel::kLbPool;
}

double taskStart(const PipelineResult& result, int32_t task) {
    const auto& spans = result.eval.sim.layerSpans;
    return task >= 0 && static_cast<size_t>(task) < spans.size()
               ? std::max(0.0, spans[static_cast<size_t>(task)].first)
               : 0.0;
}

void addMarksOf(const PipelineResult& result, kernel::BufferId index,
                std::vector<SpillMark>& marks) {
    const kernel::Buffer& buffer = result.eval.program.buffers[index];
    if (buffer.placements.empty())
        return;
    kernel::PoolId pool = declaredPool(buffer.scope);
    int64_t offset = -1;
    for (const kernel::Placement& p : buffer.placements) {
        if (p.pool > pool) {
            SpillMark mark;
            mark.buffer = index;
            mark.tensor = buffer.tensor;
            mark.tensorName = result.graph && buffer.tensor != ir::kNoTensor
                                  ? result.graph->tensor(buffer.tensor).name
                                  : buffer.name;
            mark.cores = static_cast<int32_t>(buffer.cores);
            mark.firstCore = static_cast<int32_t>(buffer.firstCore);
            mark.from = pool;
            mark.to = p.pool;
            mark.task = p.fromTask;
            mark.time = taskStart(result, p.fromTask);
            mark.fromOffset = offset;
            mark.bytes = pool == kernel::kLbPool ? buffer.pieceBytes : buffer.bytes;
            marks.push_back(mark);
        }
        pool = p.pool;
        offset = p.offset;
    }
}

const char* shortPoolName(kernel::PoolId pool) {
    return pool == kernel::kLbPool ? "LB" : pool == kernel::kGbPool ? "GB" : "DDR";
}

} // namespace

std::vector<SpillMark> spillMarks(const PipelineResult& result) {
    std::vector<SpillMark> marks;
    for (kernel::BufferId b : result.eval.program.buffers.ids())
        addMarksOf(result, b, marks);
    return marks;
}

std::string spillLabel(const SpillMark& mark) {
    return mark.tensorName + " " + shortPoolName(mark.from) + "\u2192" + shortPoolName(mark.to);
}

} // namespace stagecraft::views
