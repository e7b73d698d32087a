#pragma once
// The data the report's timeline and occupancy charts are drawn from, as
// JSON for a `<script type="application/json">`: one lane per resource slot
// (control, compute units, DMA channels), every task as [lane, start, end,
// kind, kernel], and the occupancy of each memory over time. Past a budget
// the longest tasks are kept and the occupancy is resampled (the maximum of
// each time bucket); `sampled` says what was dropped.

#include "ir/graph.h"
#include "sim/compare.h"

#include <cstddef>
#include <string>

namespace stagecraft::cli {

struct TimelineBudget {
    /// Tasks drawn at most.
    size_t spans = 30000;
    /// Occupancy points over all memories at most.
    size_t occupancyPoints = 16000;
};

/// The JSON text of \p ev's timeline and occupancy; no string of the model
/// goes in (lanes are named by the architecture, kernels by their labels).
std::string timelineJson(const sim::Evaluation& ev, const TimelineBudget& budget = {});

} // namespace stagecraft::cli
