#pragma once
// The pipeline of stagecraft-studio as one Qt-free function: schedule (from
// scratch, or re-run from the earliest step the overrides touch when a
// previous result of the same model, architecture and strategy exists) →
// kernel plans → instruction streams → simulation → report. The caller loads
// the model; the step callback reports progress and can cancel between steps.

#include "common/pipeline_result.h"
#include "support/expected.h"

#include <functional>
#include <memory>
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
};

enum class PipelineStep { Schedule, Simulate };

/// Called before each step; returning false cancels the run.
using StepCallback = std::function<bool(PipelineStep)>;

/// Samples one cluster processes: dim 0 of the graph's first input (1 when
/// the graph has none or it is rank 0).
int64_t perClusterBatch(const ir::Graph& graph);

/// Runs \p request. \p previous, when it ran the same graph, architecture,
/// strategy, level and order, lets the schedule re-run from the earliest
/// step the new overrides touch. A cancelled run fails with "cancelled".
Expected<ResultPtr> runPipeline(const PipelineRequest& request, const PipelineResult* previous,
                                uint64_t serial, const StepCallback& onStep = {});

} // namespace stagecraft::views
