#pragma once
/// \file
/// The algorithm trace: each algorithm records its steps as data, for the
/// teaching views and `stagecraft schedule --explain`. Every step carries one
/// sentence that names the paper section it illustrates.

#include "ir/graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::partition {

/// One merge attempt of Algorithm 2 (§3.2).
struct MergeStep {
    /// Repeat round of Algorithm 2 (lines 5-15), from 1.
    int round = 0;
    /// "straight", "diamond" or "branch" (Fig. 4).
    std::string pattern;
    /// The sub-graphs of the pattern that would merge, each by its first op
    /// (replaying the accepted merges from single ops rebuilds every group).
    std::vector<ir::OpId> parts;
    /// Their op counts.
    std::vector<int64_t> partSizes;
    /// Their splitting factors (best split), 0 when a part has none.
    std::vector<int64_t> factors;
    /// Factor of the merged sub-graph, 0 when it has none.
    int64_t mergedFactor = 0;
    /// "rule (i)" or "rule (ii)".
    std::string rule;
    bool merged = false;
    std::string explanation;
};

/// One step of Algorithm 3 (§3.3, Fig. 7b-e): the lists after the step.
struct OrderStep {
    std::vector<std::string> visit;
    std::vector<std::string> ready;
    std::vector<std::string> order;
    std::string explanation;
};

/// One decision of Algorithm 4 (§3.4).
struct BindStep {
    std::string instance;
    /// "plain", "inferred", "mismatch", "updated", "skipped".
    std::string action;
    std::vector<int64_t> bind;
    std::string scope;
    std::string explanation;
};

/// One merge of AGO's CLUSTER (ago-arbitrary-structure-graph-optimization.txt
/// §IV-B, Algorithm 1): the heaviest candidate took the lightest node of its
/// affix set.
struct AgoStep {
    /// The two hyper nodes, each by its first op, with their op counts and
    /// Eq. (1) weights before the merge.
    ir::OpId into = ir::kNoOp;
    ir::OpId taken = ir::kNoOp;
    int64_t intoOps = 0;
    int64_t takenOps = 0;
    double intoWeight = 0;
    double takenWeight = 0;
    /// Td: the merged weight stays below it.
    double threshold = 0;
    std::string explanation;
};

/// One sub-graph of DLA's extraction (dla-subgraph-extraction-heterogeneous.txt
/// §3) and the parts its post-prune cut it into (Fig. 3).
struct DlaStep {
    /// The sub-graph by its first op, and its op count.
    ir::OpId first = ir::kNoOp;
    int64_t ops = 0;
    /// False: one op the accelerator does not run, alone on the host CPU.
    bool onAccelerator = true;
    /// Each part by its first op, and its op count.
    std::vector<ir::OpId> parts;
    std::vector<int64_t> partSizes;
    std::string explanation;
};

/// One stage of IOS's schedule (ios-inter-operator-scheduler.txt, Algorithm
/// 1), in execution order, with the DP of its block (§4.2).
struct IosStep {
    /// The block, counted from 0, its schedule units, the states the DP
    /// solved and the (S, S') pairs it tried (the same for every stage of
    /// the block).
    int64_t block = 0;
    int64_t units = 0;
    int64_t states = 0;
    int64_t transitions = 0;
    /// Each group by its first op, and its op count.
    std::vector<ir::OpId> groups;
    std::vector<int64_t> groupSizes;
    /// The groups run as one merged operator (§3); false: at once.
    bool merged = false;
    /// The stage's latency by the stage cost, ns.
    double latencyNs = 0;
    /// The DP's state the stage ends: its schedule units and cost[S] (ns),
    /// the endings of it the DP priced, and the total of the cheapest other
    /// one (ns; -1 when there was none). IosStage has the same.
    int64_t stateUnits = 0;
    double stateCostNs = 0;
    int64_t endings = 0;
    double runnerUpNs = -1;
    /// Wall time of the block's DP, ms. It differs from run to run, so it
    /// is neither in the explanation nor in schedule documents.
    double searchMs = 0;
    std::string explanation;
};

struct Trace {
    std::vector<MergeStep> merges;
    std::vector<OrderStep> order;
    std::vector<BindStep> binding;
    /// The `ago` strategy's grouping (empty for the others).
    std::vector<AgoStep> ago;
    /// The `dla` strategy's grouping (empty for the others).
    std::vector<DlaStep> dla;
    /// The `ios` strategy's stages (empty for the others).
    std::vector<IosStep> ios;
};

} // namespace stagecraft::partition
