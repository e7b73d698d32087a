#pragma once
/// \file
/// Strategies compared on the same simulator (§5.2–5.4): the `tvm` and
/// `astitch` baselines and the GraphTurbo ablation variants of Fig. 15, each
/// a set of switches over one pipeline: schedule → kernel plans → streams →
/// simulation → report. docs/simulator.md defines every figure of a report.

#include "kernel/streams.h"
#include "schedule/pipeline.h"
#include "sim/breakdown.h"
#include "sim/simulator.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stagecraft::sim {

struct Strategy {
    std::string name;
    std::string description;
    schedule::Grouping grouping = schedule::Grouping::GraphTurbo;
    bool splitGroups = true;
    std::optional<schedule::Scope> forcedScope;
    bool acrossLayer = true;
    /// Runs with TVM's samples per cluster (Table 2) instead of GraphTurbo's.
    bool tvmBatch = false;
};

/// tvm, astitch, dla, ago, ios, then gt-gb, gt-lb, gt-instances, graphturbo
/// (Fig. 15's order).
const std::vector<Strategy>& strategies();
/// \p base with the strategy's grouping, splits, scopes and (ios) stage
/// cost model.
schedule::ScheduleOptions strategyOptions(const Strategy& strategy,
                                          schedule::ScheduleOptions base = {});
const Strategy* findStrategy(std::string_view name);
/// "unknown strategy 'x' (expected tvm, astitch, … or graphturbo)".
std::string unknownStrategyMessage(std::string_view name);

/// Table 2: the total batch and the samples per cluster of TVM and GraphTurbo.
struct BatchConfig {
    std::string label;
    int64_t totalBatch = 1;
    int64_t tvmPerCluster = 1;
    int64_t perCluster = 1;
};
/// The Table 2 row of a zoo model (BERT by sequence length), or nullopt.
std::optional<BatchConfig> table2Config(std::string_view zooModel, int64_t seq);

/// Per memory level, in the order DDR, GB, LB.
using PerLevel = std::array<int64_t, 3>;

struct Report {
    std::string strategy;
    /// The level Algorithm 1 filled (schedule::levelName).
    std::string level;
    /// The floating-point type most of the model's bytes are in ("f32",
    /// "f16"...; ir::modelPrecision), the precision simulated.
    std::string precision;
    int64_t perCluster = 1;
    int64_t iterations = 1;
    int64_t totalBatch = 1;
    /// Kernels one cluster launches per iteration.
    int64_t kernels = 0;
    double latencyUs = 0;
    /// Samples per second.
    double throughput = 0;
    /// Filled by compare(); 1 for tvm itself.
    double speedupVsTvm = 0;
    /// Bytes moved to or from each level over the whole batch.
    PerLevel trafficBytes{};
    /// Tensors (buffers: kernel outputs and the layer outputs stitched inside
    /// kernels) by declared scope (§3.4, Table 3), graph outputs (always in
    /// DDR) left out; spills are counted apart.
    PerLevel scopes{};
    int64_t graphOutputs = 0;
    /// Buffers that live in DDR at some point (declared there or spilled).
    int64_t tensorsInDdr = 0;
    int64_t kernelOutputs = 0;
    /// Spills out of LB and out of GB.
    int64_t spills = 0;
    /// Busy fraction of each unit over the cluster's cores, by unit name.
    std::vector<std::pair<std::string, double>> cuUtilization;
    /// Mean number of units busy at once over the run.
    double concurrency = 0;
    double rooflineUs = 0;
    /// rooflineUs / latencyUs.
    double efficiency = 0;
    /// Where the time and the bytes go, per run, group and kernel (breakdown.h).
    Attribution attribution;
};

/// Everything one strategy produced.
struct Evaluation {
    schedule::Schedule schedule;
    kernel::Program program;
    kernel::TaskGraph tasks;
    SimResult sim;
    Report report;
};

/// Runs \p strategy on \p graph (one cluster's samples, as \p clusters says).
/// \p base carries user overrides and order choice for the GraphTurbo runs.
Expected<Evaluation> evaluate(const ir::Graph& graph, const arch::Arch& arch,
                              const Strategy& strategy, const schedule::ClusterPlan& clusters,
                              const schedule::ScheduleOptions& base = {});

/// Lowers, simulates and reports an existing schedule (with across-layer
/// scheduling or without), named \p strategyName in the report.
Expected<Evaluation> evaluateSchedule(const ir::Graph& graph, const arch::Arch& arch,
                                      schedule::Schedule schedule, bool acrossLayer,
                                      const std::string& strategyName);

/// The roofline lower bound of running \p graph \p clusters.iterations times
/// on every cluster, in microseconds.
double rooflineUs(const ir::Graph& graph, const arch::Arch& arch,
                  const partition::SemanticsCache& semantics,
                  const schedule::ClusterPlan& clusters);

/// The level `auto` picks and why: both simulated latencies (0 for a level
/// that could not be scheduled, whose error is in \p why).
struct LevelVerdict {
    schedule::Level level = schedule::Level::LB;
    double lbUs = 0;
    double gbUs = 0;
    /// One line: "GB: graphturbo simulates 53.9 ms at GB, 75.3 ms at LB".
    std::string why;
};

/// The level Algorithm 1 fills for the GraphTurbo strategies (§3.6): the
/// one whose `graphturbo` run simulates faster, LB on a tie; a level that
/// cannot be scheduled (an override that does not fit it) loses. The paper
/// tunes its batch configurations beforehand in the same way (§5.1).
Expected<LevelVerdict> pickLevel(const ir::Graph& graph, const arch::Arch& arch,
                                 const schedule::ClusterPlan& clusters,
                                 const schedule::ScheduleOptions& base = {});

/// pickLevel(...).level.
Expected<schedule::Level> chooseLevel(const ir::Graph& graph, const arch::Arch& arch,
                                      const schedule::ClusterPlan& clusters,
                                      const schedule::ScheduleOptions& base = {});

/// Sets speedupVsTvm of every report from the one named "tvm" (0 without it).
void fillSpeedups(std::vector<Report>& reports);

} // namespace stagecraft::sim
