#pragma once
// Internal to core/sim: layer spans, tensor residencies and occupancy series
// of a finished simulation.

#include "sim/simulator.h"

namespace stagecraft::sim::detail {

void addMemoryViews(const arch::Arch& arch, const kernel::Program& program,
                    const kernel::TaskGraph& graph, SimResult& result);

} // namespace stagecraft::sim::detail
