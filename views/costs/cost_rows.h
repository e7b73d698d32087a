#pragma once
// The rows of the cost table: each group or each kernel of a result with
// where its simulated time and bytes go (sim::Attribution, docs/simulator.md
// "Attribution"), the bytes it moves to and from each memory level and the
// spills its layers make, and its energy when the architecture has an energy
// table (sim/energy.h). Kernel rows add up to their group's row, and the
// rows of either grain to the run: time to the latency, bytes to the report's
// traffic per level, spills to the report's, energy to the report's.

#include "common/pipeline_result.h"
#include "common/selection.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stagecraft::views {

enum class CostGrain { Groups, Kernels };

struct CostRow {
    /// "a" for a group, "a3" for a kernel (its instance's label).
    std::string label;
    /// The group's label (a kernel's group).
    std::string group;
    /// What selecting the row selects: the group, or the kernel's instance.
    Selection selection;
    int32_t kernels = 0;
    /// Scaled to the whole batch, as the report (sim/breakdown.h).
    sim::Breakdown breakdown;
    /// Bytes moved to or from DDR, GB and LB over the whole batch.
    sim::PerLevel traffic{};
    /// Spills made while its layers run, per level left (as sim::Report::spills).
    int64_t spills = 0;
    /// Ops the row computes, and the name of the first in graph order (which
    /// tells groups apart where labels do not).
    int64_t ops = 0;
    std::string firstOp;
    /// Its energy over the whole batch; nullopt when the architecture has no
    /// energy table (unknown, never 0).
    std::optional<sim::Energy> energy;

    double computeNs() const;
    /// Launch and sync.
    double controlNs() const;
    /// The share of its time in which some unit computes (0..1).
    double computeShare() const;
    /// Weight loads, activation loads/stores and spills: bytes of each.
    int64_t bytesOf(sim::Cause cause) const;
};

std::vector<CostRow> costRows(const PipelineResult& result, CostGrain grain);

} // namespace stagecraft::views
