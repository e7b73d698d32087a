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

struct Trace {
    std::vector<MergeStep> merges;
    std::vector<OrderStep> order;
    std::vector<BindStep> binding;
};

} // namespace stagecraft::partition
