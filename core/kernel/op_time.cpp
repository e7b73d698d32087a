#include "kernel/op_time.h"

#include "kernel/internal/layers.h"

namespace stagecraft::kernel {

Expected<OpWork> wholeOpWork(const ir::Graph& graph, const arch::Arch& arch,
                             const partition::SemanticsCache& semantics, ir::OpId op) {
    return detail::opWork(graph, arch, semantics, partition::BoxMap{}, op);
}

double arrayFillOf(const ir::Graph& graph, const arch::Arch& arch,
                   const partition::SemanticsCache& semantics, ir::OpId op) {
    Expected<int32_t> unit = detail::unitFor(graph, arch, op, semantics.of(op).category);
    if (!unit.ok() || *unit < 0)
        return 1.0;
    const auto& units = arch.cluster.coreGroups.front().units;
    if (static_cast<size_t>(*unit) >= units.size())
        return 1.0;
    return detail::arrayFill(graph, units[static_cast<size_t>(*unit)], op);
}

} // namespace stagecraft::kernel
