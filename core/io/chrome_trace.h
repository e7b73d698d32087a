#pragma once
/// \file
/// A simulation as Chrome trace JSON (the Trace Event Format that Perfetto
/// and chrome://tracing import): a process per cluster, a thread per core
/// compute unit, per DMA channel and for the cluster's control; complete
/// ("X") events per task; counter ("C") tracks for the occupancy of every LB
/// and of the GB. Clusters run the same program (simulator.h), so each
/// cluster's process repeats the simulated one's events. docs/exports.md.

#include "ir/graph.h"
#include "sim/simulator.h"

#include <string>

namespace stagecraft::io {

struct TraceOptions {
    /// Clusters to write (each its own process); 0: all of the architecture.
    int64_t clusters = 0;
};

std::string writeChromeTrace(const ir::Graph& graph, const arch::Arch& arch,
                             const kernel::Program& program, const kernel::TaskGraph& tasks,
                             const sim::SimResult& result, const TraceOptions& options = {});

} // namespace stagecraft::io
