#pragma once
/// \file
/// The scheduling pipeline: grouping (Algorithm 2) -> user regrouping ->
/// splits (Algorithm 1 or overrides) -> instances and their DAG (§3.3) ->
/// order (BFS, Algorithm 3 DFS, best or user) -> binding and scopes
/// (Algorithm 4, then scope pins) -> data movement (§3.5). Overrides are
/// validated against the schedule they apply to and refused with a reason.

#include "arch/arch.h"
#include "partition/ios_scheduler.h"
#include "schedule/schedule.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::schedule {

enum class OrderChoice { BFS, DFS, Best };

/// "bfs", "dfs" or "best" (the CLI's --order).
std::optional<OrderChoice> parseOrderChoice(std::string_view name);

/// The user's edits of a schedule. Groups are named by any op they contain,
/// instances by label ("a3"), tensors by name.
struct Overrides {
    struct Split {
        std::string op;
        int dim = 0;
        int64_t factor = 1;
        bool operator==(const Split&) const = default;
    };
    struct Merge {
        std::string op1;
        std::string op2;
        bool operator==(const Merge&) const = default;
    };
    struct Ungroup {
        /// The group containing this op splits into the ops reachable from it
        /// inside the group, and the rest.
        std::string op;
        bool operator==(const Ungroup&) const = default;
    };
    struct ScopePin {
        std::string tensor;
        Scope scope = Scope::LB;
        bool operator==(const ScopePin&) const = default;
    };
    std::vector<Merge> merges;
    std::vector<Ungroup> ungroups;
    std::vector<Split> splits;
    /// Empty: no user order.
    std::vector<std::string> order;
    std::vector<ScopePin> scopes;
    /// Ops run on the architecture's fallback CPU whatever the accelerator
    /// supports (DLA §2.2: "assigning some parts on CPU"), by name.
    std::vector<std::string> host;

    bool empty() const;
    bool operator==(const Overrides&) const = default;
};

struct ScheduleOptions {
    OrderChoice order = OrderChoice::Best;
    Level level = Level::LB;
    ClusterPlan clusters;
    Overrides overrides;
    /// Algorithm 1's parameters; capacityBytes 0 means "from the architecture".
    partition::SplitParams split;
    SplitExtensions extensions;
    bool recordTrace = true;
    Grouping grouping = Grouping::GraphTurbo;
    /// False: every group runs whole as one instance (the baselines and the
    /// first two variants of Fig. 15 do not split sub-graphs).
    bool splitGroups = true;
    /// Set: every instance output is declared at this scope (tvm: DDR; the
    /// first variant of Fig. 15: GB); graph outputs stay in DDR.
    std::optional<Scope> forcedScope;
    /// IOS (Grouping::Ios): the stage latencies of a graph (sim::iosStageCost
    /// in the strategies; the simulator's rates live above this library)
    /// and the pruning P(r, s) of §4.3, s at most the cluster's cores.
    std::function<partition::IosCostModel(const ir::Graph&, const arch::Arch&,
                                          const partition::SemanticsCache&)>
        iosCost;
    partition::IosPruning iosPruning{3, 8, 4'000'000};
    /// DLA (Grouping::Dla): false runs the maximal connected convex
    /// sub-graphs as they are extracted, without the post-prune (§3, the
    /// baseline of Fig. 5).
    bool dlaPostPrune = true;
};

/// Schedules \p graph (one cluster's batch) on \p arch. Fails with a reason
/// when an override is invalid (unknown op, a merge that would create a
/// cycle, a factor that does not divide, a footprint over capacity, a
/// non-topological order naming the violated dependency, a scope pin on a
/// tensor that is not a group output).
Expected<Schedule> buildSchedule(const ir::Graph& graph, const arch::Arch& arch,
                                 const ScheduleOptions& options);

/// Re-runs the pipeline for \p options from the earliest step their
/// overrides touch, reusing \p base's grouping (Algorithm 2 does not depend on
/// overrides; DLA's extraction does, through the host ops, and is re-run).
/// The result equals buildSchedule(graph, arch, options).
Expected<Schedule> reschedule(const Schedule& base, const ir::Graph& graph, const arch::Arch& arch,
                              const ScheduleOptions& options);

} // namespace stagecraft::schedule
