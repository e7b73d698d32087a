#pragma once
/// \file
/// A strategy's run on the simulator (§5.2–5.4): schedule → kernel plans →
/// streams → simulation → report, the same pipeline for every strategy
/// (strategies.h). docs/simulator.md defines every figure of a report.

#include "kernel/streams.h"
#include "schedule/pipeline.h"
#include "sim/breakdown.h"
#include "sim/energy.h"
#include "sim/simulator.h"
#include "sim/strategies.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace stagecraft::sim {

/// Per memory level, in the order DDR, GB, LB.
using PerLevel = std::array<int64_t, 3>;

struct Report {
    std::string strategy;
    /// The level Algorithm 1 filled (schedule::levelName), "" for a strategy
    /// that fills none (its groups are not split).
    std::string level;
    /// The order of its instances: "bfs", "dfs", "stages" (IOS), "user"; ""
    /// for a strategy that does not split groups.
    std::string order;
    /// How its configuration (samples per cluster, level, order) was chosen:
    /// "tuned" by simulating `trials` configurations in `searchMs` of wall
    /// time (§5.1's autotuning round), or "fixed" as given.
    std::string chosenBy = "fixed";
    int64_t trials = 1;
    double searchMs = 0;
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
    /// The batch's energy (energy.h); unset when the architecture has no
    /// energy table: unknown, never 0.
    std::optional<EnergyReport> energy;

    /// Millijoules of the batch; nullopt when unknown.
    std::optional<double> energyMj() const;
    /// Energy-delay product, millijoules x milliseconds; nullopt when unknown.
    std::optional<double> edpMjMs() const;
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

/// Lowers, simulates and reports an existing schedule as \p strategy lowers
/// its own (across-layer scheduling or not, shared launches or not).
Expected<Evaluation> evaluateSchedule(const ir::Graph& graph, const arch::Arch& arch,
                                      schedule::Schedule schedule, const Strategy& strategy);

/// "4 per cluster x 4 iterations, level GB, order dfs" (level and order
/// "-" where the strategy has none).
std::string configurationText(const Report& report);

/// Sets speedupVsTvm of every report from the one named "tvm" (0 without it).
void fillSpeedups(std::vector<Report>& reports);

} // namespace stagecraft::sim
