#pragma once
// Pipeline results for the GUI suites: a zoo model written with a given batch
// into a temporary directory, imported and run through the studio's pipeline
// (views::runPipeline), as stagecraft-studio would show it.

#include "common/pipeline_result.h"
#include "common/run_pipeline.h"

#include <cstdint>
#include <string>

namespace stagecraft::test {

struct ResultSpec {
    /// A zoo model ("resnet50", "fig3-chain", ...).
    std::string zoo = "fig3-chain";
    int64_t batch = 0;
    int64_t seq = 0;
    std::string arch = "teaching";
    std::string strategy = "graphturbo";
    schedule::Level level = schedule::Level::LB;
    schedule::Overrides overrides = {};
};

/// The request runPipeline gets for \p spec (the model is imported once per
/// spec and kept for the process).
views::PipelineRequest requestFor(const ResultSpec& spec);

/// The result for \p spec; the test aborts with the error when it fails.
views::ResultPtr resultFor(const ResultSpec& spec);

} // namespace stagecraft::test
