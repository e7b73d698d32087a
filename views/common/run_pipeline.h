#pragma once
// The pipeline of stagecraft-studio: the one driver of both front ends
// (core/driver/pipeline.h) run on a loaded model, lent what a previous
// result of the same model, architecture and strategy offers (its schedule,
// the level `auto` chose), its result wrapped for the views. The step
// callback reports progress and can cancel between steps.

#include "common/pipeline_result.h"
#include "driver/optimum.h"
#include "driver/pipeline.h"
#include "support/expected.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stagecraft::views {

struct PipelineRequest {
    std::shared_ptr<const ir::Graph> graph;
    std::string modelPath;
    arch::Arch arch;
    /// A name of sim::strategies().
    std::string strategy = "graphturbo";
    /// LB, GB, or auto (nullopt): both simulated once per model,
    /// architecture and strategy, the faster kept.
    schedule::LevelChoice level;
    schedule::OrderChoice order = schedule::OrderChoice::Best;
    schedule::Overrides overrides;
    std::vector<std::string> warnings;
    /// The batch over the clusters (driver/batch_plan.h); unset: the
    /// graph's batch on every cluster.
    std::optional<schedule::ClusterPlan> clusters;
};

using PipelineStep = driver::Step;
using StepCallback = driver::StepCallback;

/// Runs \p request. \p previous, when it ran the same graph, architecture,
/// strategy, level and order, lets the schedule re-run from the earliest
/// step the new overrides touch. A cancelled run fails with "cancelled".
Expected<ResultPtr> runPipeline(const PipelineRequest& request, const PipelineResult* previous,
                                uint64_t serial, const StepCallback& onStep = {});

/// The workload of the loaded model, as `stagecraft compare` makes it for
/// the same model and --batch: the request's batch over the clusters, the
/// model's samples per cluster fixed.
driver::Workload workloadOf(const PipelineRequest& request);

/// \p request's strategy at its best configuration on workloadOf(request)
/// (driver::bestConfiguration): what Studio's Compare dock shows. The
/// request's level and order fix those parts when they are not auto and
/// best; its overrides apply. \p keepGoing is asked before every trial.
Expected<ResultPtr> runBestConfiguration(const PipelineRequest& request, uint64_t serial,
                                         const std::function<bool()>& keepGoing = {});

} // namespace stagecraft::views
