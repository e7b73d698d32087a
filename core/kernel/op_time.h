#pragma once
/// \file
/// The simulator's compute time of one whole op, outside any kernel plan:
/// for cost models that price ops before they are planned (IOS's stages).

#include "kernel/plan.h"

namespace stagecraft::kernel {

/// The work of \p op whole and its time on one unit of one core, on the unit
/// the simulator would run it on (kernel/layers.cpp's rule); an error naming
/// the op when no unit can run it.
Expected<OpWork> wholeOpWork(const ir::Graph& graph, const arch::Arch& arch,
                             const partition::SemanticsCache& semantics, ir::OpId op);

} // namespace stagecraft::kernel
