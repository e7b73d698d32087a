#pragma once
/// \file
/// Guided tours of stagecraft-studio (`resources/tours/*.json`,
/// docs/studio.md "Tours"): a tour is a list of steps, each of which sets
/// Studio up (the model, architecture, strategy, level, order and batch),
/// applies edits (overrides: ops on the host CPU, splits, merges), selects an
/// op or instance, goes to a step of the algorithm step-through,
/// raises views, and narrates in Markdown what is on screen, citing the
/// paper. `expect` states what the narration names (groups, instances per
/// group), so that a test can check the screen says it. Read strictly: an
/// unknown key or a bad value is a one-line error with its JSON path.

#include "schedule/clusters.h"
#include "schedule/pipeline.h"
#include "support/expected.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::io {

inline constexpr std::string_view kTourFormat = "stagecraft-tour";
inline constexpr int kTourVersion = 1;

/// What a step's narration names, checked against the result shown.
struct TourExpect {
    std::optional<int64_t> groups;
    /// Instances per group label ("a": 8).
    std::map<std::string, int64_t> instances;
    /// The order the schedule kept: "BFS" or "DFS".
    std::string order;
    /// Layers of the kernel the Kernel view shows (the selected instance's).
    std::optional<int64_t> kernelLayers;
};

struct TourStep {
    std::string title;
    /// "zoo:NAME", or a model file (relative to the tour file's directory).
    std::string model;
    /// An architecture preset.
    std::string arch = "stcp920";
    std::string strategy = "graphturbo";
    schedule::LevelChoice level;
    schedule::OrderChoice order = schedule::OrderChoice::Best;
    schedule::BatchChoice batch;
    int64_t seq = 0;
    /// Edits the step's schedule starts from (the overrides object of
    /// docs/schedule-format.md: merge, ungroup, split, order, scope, host).
    schedule::Overrides overrides;
    /// An op name or an instance label to select; empty for none.
    std::string select;
    /// A step of the algorithm step-through (from 1); 0 for none.
    int64_t algorithmStep = 0;
    /// Studio's view names to raise (checked by Studio).
    std::vector<std::string> views;
    /// Markdown.
    std::string narration;
    TourExpect expect;
};

struct Tour {
    /// What `--tour NAME` names.
    std::string name;
    std::string title;
    std::string description;
    std::vector<TourStep> steps;
};

/// Reads a tour; errors are one line, "<source>: <field path>: <reason>".
Expected<Tour> readTourJson(std::string_view text, std::string_view source);

} // namespace stagecraft::io
