#pragma once
/// \file
/// Each strategy at its own optimum (GraphTurbo §5.1: "selecting their
/// optimal numbers of allocated batches for a cluster ... obtained after a
/// round of beforehand autotuning"): the configurations a strategy's search
/// allows (sim::Search) are simulated and the fastest kept. compare, Studio's
/// Compare dock, sweep and fidelity all run this one function.

#include "driver/workload.h"
#include "sim/compare.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace stagecraft::driver {

/// What the user fixed; the rest is searched.
struct Fixed {
    std::optional<int64_t> perCluster;
    schedule::LevelChoice level;
    std::optional<schedule::OrderChoice> order;
    /// `--fixed`: search nothing; what is not given takes the workload's
    /// fixed samples per cluster, the LB level and §3.3's order.
    bool everything = false;
};

/// One configuration simulated.
struct Trial {
    int64_t perCluster = 1;
    int64_t iterations = 1;
    schedule::Level level = schedule::Level::LB;
    schedule::OrderChoice order = schedule::OrderChoice::Best;
    /// Simulated latency of the whole batch; 0 when it failed (error says why).
    double latencyUs = 0;
    std::string error;
};

struct Optimum {
    sim::Evaluation eval;
    std::vector<Trial> trials;
};

/// Called before each trial with the trial's configuration; false cancels.
using TrialCallback = std::function<bool(const Trial&)>;

/// \p strategy on \p workload at its fastest configuration: samples per
/// cluster (all of the workload's choices, or those whose working set the
/// GB retains for tvm-llb), then level at each, then the other order at the
/// best; ties keep the earlier trial (more samples per cluster, LB, §3.3's
/// order). \p base carries overrides and the trace switch. The report says
/// its configuration and how it was chosen. Fails with the last trial's
/// error when every configuration fails, or "cancelled".
Expected<Optimum> bestConfiguration(const Workload& workload, const arch::Arch& arch,
                                    const sim::Strategy& strategy, const Fixed& fixed = {},
                                    const schedule::ScheduleOptions& base = {},
                                    const TrialCallback& onTrial = {});

/// The samples per cluster \p workload allows on \p clusters clusters, most
/// first: its choices that divide the cluster's share of the batch.
std::vector<int64_t> perClusterChoices(const Workload& workload, int64_t clusters);

} // namespace stagecraft::driver
