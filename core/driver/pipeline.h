#pragma once
/// \file
/// The pipeline both front ends run (the CLI's schedule-based commands and
/// stagecraft-studio): a strategy's schedule of a loaded model at a level
/// (or at the one `auto` picks), its kernel plans and simulation, then the
/// code plan, validated. Progress is reported and cancellation asked before
/// each step.

#include "codegen/code_plan.h"
#include "sim/compare.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace stagecraft::driver {

struct Request {
    /// The loaded model; it must outlive the call.
    const ir::Graph* graph = nullptr;
    arch::Arch arch;
    /// A name of sim::strategies().
    std::string strategy = "graphturbo";
    /// LB, GB, or auto (nullopt): both simulated, the faster kept.
    schedule::LevelChoice level;
    schedule::OrderChoice order = schedule::OrderChoice::Best;
    schedule::Overrides overrides;
    /// Samples one cluster processes (perClusterBatch of the graph).
    int64_t perCluster = 1;
    /// The batch over the clusters as the user gave it (the CLI's --batch);
    /// unset: perCluster samples on every cluster.
    std::optional<schedule::ClusterPlan> clusters;
    /// Keep the algorithm trace in the schedule (Studio's step-through).
    bool recordTrace = true;
};

/// What an earlier run of the same graph, architecture and strategy lends
/// the next: the level `auto` chose (kept through edits, so an edit does not
/// flip the level under the user) and its schedule (re-run from the earliest
/// step the new overrides touch when the level is the same).
struct Reuse {
    const schedule::Schedule* schedule = nullptr;
    /// Set when the earlier run chose its level by `auto`.
    schedule::LevelChoice autoLevel;
    std::string autoWhy;
};

enum class Step { Schedule, Simulate };

/// Called before each step; returning false cancels the run.
using StepCallback = std::function<bool(Step)>;

/// A schedule, not yet simulated.
struct Planned {
    schedule::Schedule schedule;
    /// Why `auto` chose the level ("" when the request named one).
    std::string levelWhy;
};

struct Scheduled {
    sim::Evaluation eval;
    /// Why `auto` chose the level ("" when the request named one).
    std::string levelWhy;
};

/// Samples one cluster processes: dim 0 of the graph's first input (1 when
/// the graph has none or it is rank 0).
int64_t perClusterBatch(const ir::Graph& graph);

/// Schedules \p request (the Schedule step only; `auto` still simulates
/// both levels to choose).
Expected<Planned> scheduleOnly(const Request& request, const Reuse& reuse = {},
                               const StepCallback& onStep = {});

/// Schedules and simulates \p request. A cancelled run fails with
/// "cancelled"; an unknown strategy or a missing graph fails naming it.
Expected<Scheduled> scheduleAndSimulate(const Request& request, const Reuse& reuse = {},
                                        const StepCallback& onStep = {});

/// The code plan of a simulated schedule, checked by
/// codegen::validateCodePlan: what every emission and run starts from.
Expected<codegen::CodePlan> planCode(const ir::Graph& graph, const sim::Evaluation& eval);

} // namespace stagecraft::driver
