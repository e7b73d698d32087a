#pragma once
// The one immutable result every view reads: the model, the architecture, the
// session choices that produced it and the strategy's evaluation (schedule,
// kernel plans, task graph, simulation, report). Views hold a ResultPtr and
// never modify it; a new run produces a new object.

#include "arch/arch.h"
#include "ir/graph.h"
#include "schedule/pipeline.h"
#include "sim/compare.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace stagecraft::views {

struct PipelineResult {
    std::shared_ptr<const ir::Graph> graph;
    arch::Arch arch;
    /// The model file as the session names it, and its SHA-256 (lowercase
    /// hex; empty when the result was not produced from a file).
    std::string modelPath;
    std::string modelSha256;
    /// The strategy's name (sim::strategies()).
    std::string strategy;
    /// The overrides the schedule was built with; edits start from these.
    schedule::Overrides overrides;
    /// The level as asked (nullopt: auto) and, under auto, why the level of
    /// eval.schedule was chosen (sim::LevelVerdict::why).
    schedule::LevelChoice levelChoice;
    std::string levelWhy;
    /// Under the samples per cluster `auto`, the candidates it tried (the
    /// plan is eval.schedule.clusters).
    std::string perClusterWhy;
    /// Schedule, kernel plans, tasks, simulation and report.
    sim::Evaluation eval;
    /// Import warnings.
    std::vector<std::string> warnings;
    /// Increments with every run, so views can tell results apart.
    uint64_t serial = 0;
};

using ResultPtr = std::shared_ptr<const PipelineResult>;

} // namespace stagecraft::views
