#include "kernel/op_time.h"

#include "kernel/internal/layers.h"

namespace stagecraft::kernel {

Expected<OpWork> wholeOpWork(const ir::Graph& graph, const arch::Arch& arch,
                             const partition::SemanticsCache& semantics, ir::OpId op) {
    return detail::opWork(graph, arch, semantics, partition::BoxMap{}, op);
}

} // namespace stagecraft::kernel
