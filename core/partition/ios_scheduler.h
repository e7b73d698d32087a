#pragma once
/// \file
/// IOS's inter-operator scheduler (ios-inter-operator-scheduler.txt §3-4,
/// Algorithm 1). A block's ops are cut into stages run one after another; a
/// stage runs either as one merged operator (operator merge: ops of one type)
/// or as groups run concurrently, the ops of a group in sequence (concurrent
/// execution; a group is a connected component of the stage's ops). Dynamic
/// programming over the ops left to schedule (the states) takes every ending
/// of a state (ops with no edge to the rest of it) as its last stage;
/// schedule pruning P(r, s) keeps the endings of at most s groups of at most
/// r ops (§4.3). Stage latencies come from the caller's cost model (the paper
/// measures them on the device).

#include "ir/graph.h"
#include "support/expected.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace stagecraft::partition {

/// One stage of an IOS schedule.
struct IosStage {
    /// The stage's groups, each in graph order, ordered by first op.
    std::vector<std::vector<ir::OpId>> groups;
    /// True: the ops run as one merged operator; false: the groups run
    /// concurrently.
    bool merged = false;
    double latency = 0;
    /// The DP's state this stage ends (§4.1): the schedule units scheduled
    /// up to and including it, and cost[S], their least latency.
    int64_t stateUnits = 0;
    double stateCost = 0;
    /// The endings of that state the DP priced (P(r, s) allows them), and
    /// the total of the cheapest other one, cost[S - S'] + its stage
    /// (infinity when the stage was the only ending).
    int64_t endings = 0;
    double runnerUpCost = 0;
};

/// Schedule pruning P(r, s) of §4.3; 0 leaves a bound off.
struct IosPruning {
    /// r: the most ops in one group.
    int maxGroupOps = 0;
    /// s: the most groups in one stage.
    int maxGroups = 0;
    /// Not the paper's: the most endings the DP may enumerate (0: no
    /// bound). A block too wide for it gives a schedule without stages,
    /// boundReached set, so that a caller can cut it smaller.
    int64_t maxEndings = 0;
};

/// Stage latencies.
struct IosCostModel {
    /// Of \p groups run concurrently, each group's ops in sequence.
    std::function<double(const std::vector<std::vector<ir::OpId>>& groups)> concurrent;
    /// Of \p ops merged into one operator; nullopt when they cannot merge.
    /// Unset: operator merge is never chosen.
    std::function<std::optional<double>(const std::vector<ir::OpId>& ops)> merged;
};

struct IosSchedule {
    /// In execution order.
    std::vector<IosStage> stages;
    double latency = 0;
    /// States solved (the empty one included) and (S, S') pairs tried: the
    /// transitions of §4.2 that satisfy the pruning.
    int64_t states = 0;
    int64_t transitions = 0;
    /// The DP passed IosPruning::maxEndings and gave up: no stages.
    bool boundReached = false;
};

/// The most schedule units a block may have (states are bit sets).
inline constexpr size_t kIosMaxBlockOps = 64;

/// An optimal schedule of \p block (ops of \p graph, each once) under
/// \p cost among those \p pruning allows. Edges are the block's tensors
/// between its ops. Fails when the block is empty or has more than
/// kIosMaxBlockOps ops, and when no schedule has a finite latency.
Expected<IosSchedule> scheduleIos(const ir::Graph& graph, std::vector<ir::OpId> block,
                                  const IosCostModel& cost, const IosPruning& pruning = {});

/// As scheduleIos over schedule units (§6: IOS schedules "Conv-Relu" and
/// "Relu-SepConv" units, not single ops): every unit stays whole in one
/// group, the pruning's r counts units, and the cost model gets the ops of
/// the units. Fails as scheduleIos does, and when an op is in two units.
Expected<IosSchedule> scheduleIosUnits(const ir::Graph& graph,
                                       std::vector<std::vector<ir::OpId>> units,
                                       const IosCostModel& cost, const IosPruning& pruning = {});

/// IOS's schedule units of \p block (§6, Table 2), ordered by first op:
/// chains of ops that each read only the one output of the previous one,
/// itself read by nothing else, with at most one complex op (Conv, MatMul,
/// Gemm), or a depthwise Conv and the 1x1 Conv after it (a SepConv); an
/// activation that feeds a complex op so starts that op's unit ("Relu-SepConv")
/// unless its own unit has no complex op yet. docs/baselines.md shows them on
/// Inception-v3's last block and a NASNet-A cell.
std::vector<std::vector<ir::OpId>> iosScheduleUnits(const ir::Graph& graph,
                                                    std::vector<ir::OpId> block);

} // namespace stagecraft::partition
