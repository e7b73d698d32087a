#pragma once
/// \file
/// AGO's graph frontend and reformer (ago-arbitrary-structure-graph-
/// optimization, §IV–V): every op weighs Eq. (1) over its loop nest;
/// Algorithm 1 CLUSTER merges a hyper node with the lightest node of its
/// affix set (Definitions 2–3), heaviest candidate first, while the sum stays
/// under the threshold Td, so the partition is acyclic (Theorem 1) and may
/// hold several complex ops (intensive fusion); the reformer's SPLIT cuts
/// each sub-graph into mini-sub-graphs with at most one complex op, and JOIN
/// puts them back. docs/baselines.md gives the exact rules.

#include "partition/partition.h"
#include "partition/slices.h"

#include <vector>

namespace stagecraft::partition {

/// Eq. (1): w = c × Π log(s_l) + b over an op's loops (natural log; loops of
/// extent 1 left out), and the threshold Td. Td 0: three times the heaviest
/// op of the graph (the paper gives no value; docs/decisions.md).
struct AgoParams {
    double slope = 1;
    double bias = 0;
    double threshold = 0;
};

/// One step of CLUSTER: hyper node \p into (the heaviest candidate) took the
/// lightest node \p taken of its affix set; weights before the merge.
struct AgoMerge {
    std::vector<ir::OpId> into;
    std::vector<ir::OpId> taken;
    double intoWeight = 0;
    double takenWeight = 0;
};

struct AgoPartition {
    /// CLUSTER's sub-graphs S_i (what JOIN gives back and what runs).
    Partition subgraphs;
    /// SPLIT's mini-sub-graphs M_ij, at most one complex op each.
    Partition minis;
    /// The sub-graph of every mini-sub-graph, by mini-sub-graph.
    IdVector<GroupId, GroupId> parentOf;
    /// Eq. (1) per op and Td as used.
    IdVector<ir::OpId, double> weights;
    double threshold = 0;
    /// CLUSTER's merges over the whole graph, in order.
    std::vector<AgoMerge> merges;
};

/// Eq. (1) for \p op (its loop nests summed).
double agoWeight(const SemanticsCache& semantics, ir::OpId op, const AgoParams& params);

/// CLUSTER, then SPLIT (CLUSTER inside each sub-graph, one complex op per
/// mini-sub-graph) and JOIN. Deterministic: ties go to the node whose first
/// op comes first.
Expected<AgoPartition> partitionAgo(const ir::Graph& graph, const SemanticsCache& semantics,
                                    const AgoParams& params = {});

} // namespace stagecraft::partition
