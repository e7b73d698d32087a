#pragma once
/// \file
/// The strategies compared on one simulator (GraphTurbo §5.2–5.4): the
/// baselines (tvm, tvm-llb, astitch, dla, ago, ios), the Fig. 15 variants,
/// the paper's method alone (gt-paper) and Stagecraft's graphturbo. Each is
/// a set of named switches over one pipeline (schedule → kernel plans →
/// streams → simulation) and the search its autotuning round may run (§5.1).
/// docs/baselines.md describes each one.

#include "kernel/plan.h"
#include "schedule/pipeline.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::sim {

enum class StrategyId : uint8_t {
    Tvm,
    TvmLlb,
    AStitch,
    Dla,
    Ago,
    Ios,
    GtGb,
    GtLb,
    GtInstances,
    GtPaper,
    GraphTurbo,
};

/// What a strategy's autotuning round varies (§5.1: "selecting their
/// optimal numbers of allocated batches for a cluster"), each by simulation.
struct Search {
    /// Samples per cluster, the loop iterations making up the batch.
    bool perCluster = true;
    /// Only samples per cluster whose working set the cluster's GB retains
    /// (Table 1: "a cluster's LLB is sufficient to retain four data
    /// batches"), loop iterations beyond.
    bool perClusterRetainedByGb = false;
    /// The level Algorithm 1 fills, LB or GB (§3.6); else LB.
    bool level = false;
    /// BFS or DFS (§3.3); else §3.3's own choice by memory utilization.
    bool order = false;
};

struct Strategy {
    StrategyId id = StrategyId::GraphTurbo;
    std::string name;
    std::string description;
    schedule::Grouping grouping = schedule::Grouping::GraphTurbo;
    /// Algorithm 1 splits groups into instances; else every group runs whole.
    bool splitsGroups = true;
    /// Every instance output declared at this scope (graph outputs stay in DDR).
    std::optional<schedule::Scope> forcedScope;
    /// §4.4's across-layer instruction scheduling; else each kernel is one
    /// in-order stream (a layer may still double-buffer its own tiles).
    bool acrossLayer = false;
    /// Stagecraft's extensions of Algorithm 1 and of launching instances.
    schedule::SplitExtensions extensions;
    bool sharedLaunches = true;
    /// Layers may double-buffer their tiles, as every strategy does (off only
    /// to measure what latency hiding inside a layer gains).
    bool doubleBuffering = true;
    Search search;
};

/// Every strategy, in the order compare prints them: tvm, tvm-llb, astitch,
/// dla, ago, ios, then gt-gb, gt-lb, gt-instances (Fig. 15), gt-paper,
/// graphturbo.
const std::vector<Strategy>& strategies();
const Strategy& strategyOf(StrategyId id);
const Strategy* findStrategy(std::string_view name);
/// "unknown strategy 'x' (expected tvm, astitch, … or graphturbo)".
std::string unknownStrategyMessage(std::string_view name);

/// \p base with the strategy's grouping, splits, scopes, extensions and
/// (ios) stage cost model.
schedule::ScheduleOptions strategyOptions(const Strategy& strategy,
                                          schedule::ScheduleOptions base = {});
/// The kernel planner's options of the strategy.
kernel::PlanOptions planOptions(const Strategy& strategy);

} // namespace stagecraft::sim
