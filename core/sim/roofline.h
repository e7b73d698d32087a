#pragma once
/// \file
/// The roofline lower bound of a run (docs/simulator.md, "Roofline"): the
/// larger of the compute bound (every op at the rate of every unit of a
/// cluster that runs it, at the precision simulated) and the compulsory DDR
/// traffic (the complex ops' weights once, every graph output of every
/// sample) over the chip's DDR bandwidth. No simulated run beats it.

#include "partition/slices.h"
#include "schedule/schedule.h"

namespace stagecraft::sim {

/// The roofline lower bound of running \p graph \p clusters.iterations
/// times on every cluster, in microseconds.
double rooflineUs(const ir::Graph& graph, const arch::Arch& arch,
                  const partition::SemanticsCache& semantics,
                  const schedule::ClusterPlan& clusters);

/// Bytes of the constant inputs of \p graph's complex ops, each once: the
/// weights the roofline's compulsory DDR traffic reads.
double compulsoryWeightBytes(const ir::Graph& graph, const partition::SemanticsCache& semantics);

/// The same bound with every contraction at the share of its unit's array
/// it fills (docs/simulator.md, "The array's fill"): what a schedule at
/// best reaches once the array's shape is counted, in microseconds. At
/// least rooflineUs.
double rooflineAtFillUs(const ir::Graph& graph, const arch::Arch& arch,
                        const partition::SemanticsCache& semantics,
                        const schedule::ClusterPlan& clusters);

} // namespace stagecraft::sim
