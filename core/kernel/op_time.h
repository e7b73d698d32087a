#pragma once
/// \file
/// The simulator's compute time of one whole op, outside any kernel plan:
/// for cost models that price ops before they are planned (IOS's stages),
/// and the array's fill the simulator runs it at.

#include "kernel/plan.h"

namespace stagecraft::kernel {

/// The work of \p op whole and its time on one unit of one core, on the unit
/// the simulator would run it on (kernel/layers.cpp's rule); an error naming
/// the op when no unit can run it.
Expected<OpWork> wholeOpWork(const ir::Graph& graph, const arch::Arch& arch,
                             const partition::SemanticsCache& semantics, ir::OpId op);

/// The share of its unit's array of multiply-accumulators \p op fills on the
/// unit the simulator would run it on (docs/simulator.md, "The array's
/// fill"): 1 for an op that is no contraction, a unit without an array, or
/// an op no unit runs.
double arrayFillOf(const ir::Graph& graph, const arch::Arch& arch,
                   const partition::SemanticsCache& semantics, ir::OpId op);

} // namespace stagecraft::kernel
