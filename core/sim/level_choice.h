#pragma once
/// \file
/// The level `auto` picks for a GraphTurbo strategy (§3.6, §5.1): both
/// levels simulated, the faster kept, the choice said with both latencies.

#include "sim/compare.h"

namespace stagecraft::sim {

/// The level `auto` picks and why: both simulated latencies (0 for a level
/// that could not be scheduled, whose error is in \p why).
struct LevelVerdict {
    schedule::Level level = schedule::Level::LB;
    double lbUs = 0;
    double gbUs = 0;
    /// One line: "GB: graphturbo simulates 53.9 ms at GB, 75.3 ms at LB".
    std::string why;
};

/// The level Algorithm 1 fills for \p strategy (graphturbo by default): the
/// one whose run simulates faster, LB on a tie; a level that cannot be
/// scheduled (an override that does not fit it) loses.
Expected<LevelVerdict> pickLevel(const ir::Graph& graph, const arch::Arch& arch,
                                 const schedule::ClusterPlan& clusters,
                                 const schedule::ScheduleOptions& base = {},
                                 const Strategy& strategy = strategyOf(StrategyId::GraphTurbo));

/// pickLevel(...).level.
Expected<schedule::Level> chooseLevel(const ir::Graph& graph, const arch::Arch& arch,
                                      const schedule::ClusterPlan& clusters,
                                      const schedule::ScheduleOptions& base = {});

} // namespace stagecraft::sim
