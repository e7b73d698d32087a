// The strategies of §5 as data (strategies.h); docs/baselines.md explains
// each one, docs/decisions.md the readings behind gt-paper and tvm-llb.

#include "sim/strategies.h"

#include "sim/ios_cost.h"
#include "support/strings.h"

#include <array>

namespace stagecraft::sim {

namespace {

using schedule::Grouping;
using schedule::Scope;

/// No extension of Algorithm 1 or of launching: the paper's method.
constexpr schedule::SplitExtensions kPaperAlgorithm1{false, false, false};

/// What the baselines tune: their samples per cluster only (they neither
/// split nor order instances, and fill no level).
constexpr Search kBatchOnly{true, false, false, false};
constexpr Search kBatchAndLevel{true, false, true, false};
constexpr Search kEverything{true, false, true, true};

std::vector<Strategy> makeStrategies() {
    std::vector<Strategy> all;
    auto add = [&](Strategy s) {
        all.push_back(std::move(s));
    };
    add({.id = StrategyId::Tvm,
         .name = "tvm",
         .description = "TVM §3 fusion, one kernel per fused group, outputs in DDR",
         .grouping = Grouping::Tvm,
         .splitsGroups = false,
         .forcedScope = Scope::DDR,
         .search = kBatchOnly});
    add({.id = StrategyId::TvmLlb,
         .name = "tvm-llb",
         .description = "TVM as the paper ran it on STCP920 (§5.1, Table 1): samples per cluster "
                        "only as many as the cluster's LLB retains, loop iterations beyond",
         .grouping = Grouping::Tvm,
         .splitsGroups = false,
         .forcedScope = Scope::DDR,
         .search = {.perClusterRetainedByGb = true}});
    add({.id = StrategyId::AStitch,
         .name = "astitch",
         .description =
             "AStitch (§5.2): stitched memory-intensive ops, tensors kept in LB, no split",
         .grouping = Grouping::AStitch,
         .splitsGroups = false,
         .search = kBatchOnly});
    add({.id = StrategyId::Dla,
         .name = "dla",
         .description = "DLA §3: convex sub-graphs of supported ops, one input and output op "
                        "each, outputs in DDR; the rest on the fallback CPU",
         .grouping = Grouping::Dla,
         .splitsGroups = false,
         .forcedScope = Scope::DDR,
         .search = kBatchOnly});
    add({.id = StrategyId::Ago,
         .name = "ago",
         .description = "AGO §IV-V: weighted acyclic clustering with intensive fusion, outputs in "
                        "DDR",
         .grouping = Grouping::Ago,
         .splitsGroups = false,
         .forcedScope = Scope::DDR,
         .search = kBatchOnly});
    add({.id = StrategyId::Ios,
         .name = "ios",
         .description = "IOS §3-4: stages by dynamic programming, each merged convs or groups run "
                        "at once on their share of the cores, outputs in DDR",
         .grouping = Grouping::Ios,
         .splitsGroups = false,
         .forcedScope = Scope::DDR,
         .search = kBatchOnly});
    add({.id = StrategyId::GtGb,
         .name = "gt-gb",
         .description = "Fig. 15 variant 1: GraphTurbo sub-graphs, outputs in GB",
         .splitsGroups = false,
         .forcedScope = Scope::GB,
         .search = kBatchAndLevel});
    add({.id = StrategyId::GtLb,
         .name = "gt-lb",
         .description = "Fig. 15 variant 2: outputs in LB as far as they fit",
         .splitsGroups = false,
         .forcedScope = Scope::LB,
         .search = kBatchAndLevel});
    add({.id = StrategyId::GtInstances,
         .name = "gt-instances",
         .description = "Fig. 15 variant 3: + instances and ordering",
         .search = kEverything});
    add({.id = StrategyId::GtPaper,
         .name = "gt-paper",
         .description = "the paper's method alone: Algorithms 1-4 at the LB level, §3.3's order, "
                        "§4's kernels with across-layer scheduling; none of Stagecraft's "
                        "extensions",
         .acrossLayer = true,
         .extensions = kPaperAlgorithm1,
         .sharedLaunches = false,
         .search = kBatchOnly});
    add({.id = StrategyId::GraphTurbo,
         .name = "graphturbo",
         .description = "Stagecraft's GraphTurbo: the paper's method, across-layer scheduling "
                        "(§4.4) and Stagecraft's extensions (re-read limit, GB fallback, resident "
                        "splits, shared launches, level and order by simulation)",
         .acrossLayer = true,
         .search = kEverything});
    return all;
}

} // namespace

const std::vector<Strategy>& strategies() {
    static const std::vector<Strategy> all = makeStrategies();
    return all;
}

const Strategy& strategyOf(StrategyId id) {
    for (const Strategy& s : strategies())
        if (s.id == id)
            return s;
    SC_ASSERT(false, "every strategy id is registered");
    return strategies().back();
}

const Strategy* findStrategy(std::string_view name) {
    for (const Strategy& s : strategies())
        if (s.name == name)
            return &s;
    return nullptr;
}

std::string unknownStrategyMessage(std::string_view name) {
    const std::vector<Strategy>& all = strategies();
    std::vector<std::string> names;
    for (size_t i = 0; i + 1 < all.size(); ++i)
        names.push_back(all[i].name);
    return "unknown strategy " + quote(std::string(name)) + " (expected " + join(names, ", ") +
           " or " + all.back().name + ")";
}

schedule::ScheduleOptions strategyOptions(const Strategy& strategy,
                                          schedule::ScheduleOptions base) {
    base.grouping = strategy.grouping;
    base.splitGroups = strategy.splitsGroups;
    base.forcedScope = strategy.forcedScope;
    base.extensions = strategy.extensions;
    if (strategy.grouping == schedule::Grouping::Ios)
        base.iosCost = [](const ir::Graph& graph, const arch::Arch& arch,
                          const partition::SemanticsCache& semantics) {
            return iosStageCost(graph, arch, semantics);
        };
    return base;
}

kernel::PlanOptions planOptions(const Strategy& strategy) {
    kernel::PlanOptions options;
    options.shareLaunches = strategy.sharedLaunches;
    options.doubleBuffering = strategy.doubleBuffering;
    options.acrossLayer = strategy.acrossLayer;
    return options;
}

} // namespace stagecraft::sim
