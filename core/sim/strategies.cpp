// The strategies of §5 as data (strategies.h); docs/baselines.md explains
// each one, docs/decisions.md the readings behind gt-paper and tvm-llb.

#include "sim/strategies.h"

#include "sim/ios_cost.h"
#include "support/strings.h"

#include <utility>

namespace stagecraft::sim {

namespace {

using schedule::Grouping;
using schedule::Scope;

/// No extension of Algorithm 1 or of launching: the paper's method.
constexpr schedule::SplitExtensions kPaperAlgorithm1{false, false, false};

/// What the baselines tune: their samples per cluster only (they neither
/// split nor order instances, and fill no level).
constexpr Search kBatchOnly{true, false, false, false};
constexpr Search kRetainedBatchOnly{true, true, false, false};
constexpr Search kBatchAndLevel{true, false, true, false};
constexpr Search kEverything{true, false, true, true};

/// A strategy that splits no group, with its search and scopes.
Strategy unsplit(StrategyId id, std::string name, std::string description, Grouping grouping,
                 std::optional<Scope> scope, Search search) {
    Strategy s;
    s.id = id;
    s.name = std::move(name);
    s.description = std::move(description);
    s.grouping = grouping;
    s.splitsGroups = false;
    s.forcedScope = scope;
    s.search = search;
    return s;
}

/// A GraphTurbo strategy that splits its groups.
Strategy splitting(StrategyId id, std::string name, std::string description, bool acrossLayer,
                   Search search) {
    Strategy s;
    s.id = id;
    s.name = std::move(name);
    s.description = std::move(description);
    s.acrossLayer = acrossLayer;
    s.search = search;
    return s;
}

std::vector<Strategy> makeStrategies() {
    std::vector<Strategy> all;
    all.push_back(unsplit(StrategyId::Tvm, "tvm",
                          "TVM §3 fusion, one kernel per fused group, outputs in DDR",
                          Grouping::Tvm, Scope::DDR, kBatchOnly));
    all.push_back(unsplit(StrategyId::TvmLlb, "tvm-llb",
                          "TVM as the paper ran it on STCP920 (§5.1, Table 1): samples per "
                          "cluster only as many as the cluster's LLB retains, loop iterations "
                          "beyond",
                          Grouping::Tvm, Scope::DDR, kRetainedBatchOnly));
    all.push_back(
        unsplit(StrategyId::AStitch, "astitch",
                "AStitch (§5.2): stitched memory-intensive ops, tensors kept in LB, no split",
                Grouping::AStitch, std::nullopt, kBatchOnly));
    all.push_back(unsplit(StrategyId::Dla, "dla",
                          "DLA §3: convex sub-graphs of supported ops, one input and output op "
                          "each, outputs in DDR; the rest on the fallback CPU",
                          Grouping::Dla, Scope::DDR, kBatchOnly));
    all.push_back(
        unsplit(StrategyId::Ago, "ago",
                "AGO §IV-V: weighted acyclic clustering with intensive fusion, outputs in DDR",
                Grouping::Ago, Scope::DDR, kBatchOnly));
    all.push_back(unsplit(StrategyId::Ios, "ios",
                          "IOS §3-4: stages by dynamic programming, each merged convs or groups "
                          "run at once on their share of the cores, outputs in DDR",
                          Grouping::Ios, Scope::DDR, kBatchOnly));
    all.push_back(unsplit(StrategyId::GtGb, "gt-gb",
                          "Fig. 15 variant 1: GraphTurbo sub-graphs, outputs in GB",
                          Grouping::GraphTurbo, Scope::GB, kBatchAndLevel));
    all.push_back(unsplit(StrategyId::GtLb, "gt-lb",
                          "Fig. 15 variant 2: outputs in LB as far as they fit",
                          Grouping::GraphTurbo, Scope::LB, kBatchAndLevel));
    all.push_back(splitting(StrategyId::GtInstances, "gt-instances",
                            "Fig. 15 variant 3: + instances and ordering", false, kEverything));
    Strategy paper = splitting(StrategyId::GtPaper, "gt-paper",
                               "the paper's method alone: Algorithms 1-4 at the LB level, §3.3's "
                               "order, §4's kernels with across-layer scheduling; none of "
                               "Stagecraft's extensions",
                               true, kBatchOnly);
    paper.extensions = kPaperAlgorithm1;
    paper.sharedLaunches = false;
    all.push_back(paper);
    all.push_back(splitting(StrategyId::GraphTurbo, "graphturbo",
                            "Stagecraft's GraphTurbo: the paper's method, across-layer scheduling "
                            "(§4.4) and Stagecraft's extensions (re-read limit, GB fallback, "
                            "resident splits, shared launches, level and order by simulation)",
                            true, kEverything));
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
