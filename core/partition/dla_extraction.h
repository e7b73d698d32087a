#pragma once
/// \file
/// DLA sub-graph extraction (§3 of "DLA: sub-graph extraction for
/// heterogeneous computation"): the ops the accelerator supports form
/// maximal connected convex sub-graphs, each then pruned into parts with one
/// input operator and one output operator; every other op runs alone on the
/// host CPU. docs/baselines.md gives the exact rules.

#include "partition/partition.h"

#include <vector>

namespace stagecraft::partition {

/// The extraction of one graph.
struct DlaExtraction {
    /// The maximal connected convex sub-graphs of supported ops (before the
    /// post-prune), each unsupported op alone.
    Partition extracted;
    /// The parts after the post-prune: what runs.
    Partition parts;
    /// Per group of `parts`: 1 when it runs on the accelerator, 0 on the host.
    IdVector<GroupId, char> onAccelerator;
};

/// Extracts the sub-graphs of \p graph whose ops are marked in \p supported
/// (indexed by op). Deterministic: merges and parts follow graph order.
Expected<DlaExtraction> extractDlaSubgraphs(const ir::Graph& graph,
                                            const IdVector<ir::OpId, char>& supported);

/// The input operators of \p ops (sorted): ops that read a non-constant
/// tensor produced outside \p ops or a graph input.
std::vector<ir::OpId> inputOperators(const ir::Graph& graph, const std::vector<ir::OpId>& ops);

/// The output operators of \p ops (sorted): ops with an output read outside
/// \p ops or that is a graph output.
std::vector<ir::OpId> outputOperators(const ir::Graph& graph, const std::vector<ir::OpId>& ops);

} // namespace stagecraft::partition
