#pragma once
/// \file
/// A GraphTurbo schedule (§3): groups with their splits, the instances they
/// split into with the fine-grained dependencies between them (§3.3), the
/// instance order, each instance's core binding and output buffer scope
/// (§3.4), and the data-movement ops inserted between instances (§3.5).

#include "partition/grouping.h"
#include "partition/partition.h"
#include "partition/slices.h"
#include "partition/split_info.h"
#include "partition/trace.h"
#include "support/id.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::schedule {

using partition::GroupId;
using InstanceId = Id<struct InstanceTag>;
inline constexpr InstanceId kNoInstance{-1};

/// Where an instance's output tensor is declared.
enum class Scope { LB, GB, DDR };
std::string_view scopeName(Scope scope);
std::optional<Scope> parseScope(std::string_view name);

/// The buffer level whose capacity Algorithm 1 fills and where instance
/// outputs are declared by default: the cluster's aggregate LB (the paper's
/// text), or its GB (§3.6: "it could be replaced by GB"; docs/decisions.md).
enum class Level { LB, GB };
std::string_view levelName(Level level);
std::optional<Level> parseLevel(std::string_view name);
/// The level a user picks: LB, GB, or auto (nullopt): both simulated with
/// the graphturbo strategy and the faster kept (sim::pickLevel).
using LevelChoice = std::optional<Level>;
/// "auto", "LB" or "GB".
std::string_view levelChoiceName(LevelChoice choice);
/// "auto", "lb" or "gb" in either case; nullopt for anything else.
std::optional<LevelChoice> parseLevelChoice(std::string_view name);
/// The scope of a level, and the next slower one (where Algorithm 4 moves an
/// output whose binding mismatches).
Scope levelScope(Level level);
Scope slowerScope(Scope scope);

/// Cores per dim of a tensor (one factor per dim, 1 = not bound). The paper
/// prints it without trailing 1s: [2,4] for a rank-4 tensor bound 2 x 4.
using Binding = std::vector<int64_t>;
int64_t coresUsed(const Binding& binding);
/// The binding without trailing 1s, as in Fig. 9.
Binding trimmed(const Binding& binding);

struct Instance {
    GroupId group;
    /// 1-based position along the split dim (§3.3).
    int index = 1;
    /// "a1", "b4": group label and index, as in Fig. 6.
    std::string label;
    /// Shape of the instance's slice of the group output.
    ir::Shape shape;
    /// Footprint of the instance: its largest produced slice, halos included.
    int64_t footprintBytes = 0;
    /// False when the footprint exceeds the level's capacity (explicitly marked).
    bool fitsLocalBuffer = true;
    Binding bind;
    Scope scope = Scope::LB;
    /// The first of the cluster's cores the binding uses (its cores are
    /// firstCore .. firstCore + coresUsed(bind) - 1). 0 except for IOS's
    /// concurrent groups, which share a stage's cores (§3).
    int64_t firstCore = 0;
    /// Runs together with the instances before it in the order, back to
    /// the last one without the flag, on cores none of them uses (IOS's
    /// concurrent execution); false: it starts after all of them end.
    bool joinsStage = false;
};

struct InstanceEdge {
    InstanceId from;
    InstanceId to;
    /// Inherited from the group edge but not needed: the producer's slice is
    /// not read by the consumer (gray in Fig. 6). Schedule::edges holds the
    /// needed edges only; redundantEdges() lists these.
    bool redundant = false;
};

/// A data-movement op of §3.5, between producer instances and a consumer.
struct DataMove {
    enum class Kind { Concat, Copy, Redistribute };
    Kind kind = Kind::Concat;
    /// The instance that reads the result.
    InstanceId consumer;
    /// Producer instances whose outputs feed it (one for copy/redistribute).
    std::vector<InstanceId> sources;
    /// The tensor being moved (a producer group's output).
    ir::TensorId tensor = ir::kNoTensor;
    /// Shape, scope and binding of the result (Fig. 9 ellipses).
    ir::Shape shape;
    Scope scope = Scope::LB;
    Binding bind;
    /// Copy: the scope moved from.
    Scope fromScope = Scope::LB;
};
std::string_view moveKindName(DataMove::Kind kind);

/// Data parallelism across clusters (§2.1, §5.1).
struct ClusterPlan {
    int64_t clusters = 1;
    /// Batches (samples) each cluster processes per iteration.
    int64_t perCluster = 1;
    int64_t totalBatch = 1;
    /// totalBatch / (clusters x perCluster).
    int64_t iterations = 1;
    /// How perCluster was chosen: "given", "model" or "auto (rule)".
    std::string chosenBy;
};

/// Stages: IOS's stages one after another (§3), the groups of a stage together.
enum class OrderKind { BFS, DFS, User, Stages };

/// Who groups the ops: Algorithm 2, or a baseline's fusion rules
/// (partition/fusion.h) for the comparisons of §5.
enum class Grouping { GraphTurbo, Tvm, AStitch, Dla, Ago, Ios };
std::string_view groupingName(Grouping grouping);
std::string_view orderKindName(OrderKind kind);

struct Group {
    /// Algorithm 1's result for the group (its candidates and best split).
    partition::SplitInfo splitInfo;
    /// The split used: the best one, a user override, or none (one instance).
    std::optional<partition::SplitCandidate> split;
    bool splitOverridden = false;
    /// Instance ids of the group, in index order.
    std::vector<InstanceId> instances;
};

/// Stagecraft's additions to the paper's Algorithm 1 (docs/baselines.md,
/// "graphturbo and gt-paper"); every one off is the paper's method.
struct SplitExtensions {
    /// A split reading its inputs more than twice is refused, fewer re-reads
    /// rank first (§3.1's cost model extended to data).
    bool rereadLimit = true;
    /// At the LB level a group with no split that fits splits for the GB,
    /// its layers tiled into the LB (two levels per group).
    bool gbFallback = true;
    /// A group living in the GB takes the split that holds its live set.
    bool residentSplits = true;
    bool operator==(const SplitExtensions&) const = default;
};

struct Schedule {
    /// Algorithm 2's grouping before user regrouping; kept so that edits of
    /// later steps re-run the pipeline from where they apply.
    std::shared_ptr<const partition::GroupingResult> grouping;
    /// Op semantics of the graph, shared by re-runs.
    std::shared_ptr<const partition::SemanticsCache> semantics;
    partition::Partition partition;
    IdVector<GroupId, Group> groups;
    IdVector<InstanceId, Instance> instances;
    /// The needed edges between instances (§3.3: redundant ones are removed).
    std::vector<InstanceEdge> edges;
    /// Instances in execution order.
    std::vector<InstanceId> order;
    OrderKind orderKind = OrderKind::DFS;
    /// Memory utilization of the BFS and DFS orders (docs/scheduling.md).
    double bfsUtilization = 0;
    double dfsUtilization = 0;
    std::vector<DataMove> moves;
    ClusterPlan clusters;
    partition::Trace trace;
    /// The level Algorithm 1 filled, and its capacity the footprints were
    /// checked against.
    Level level = Level::LB;
    int64_t capacityBytes = 0;
    /// The extensions of Algorithm 1 it was built with.
    SplitExtensions extensions;
    /// Who grouped the ops.
    Grouping groupedBy = Grouping::GraphTurbo;
    /// 1 for the ops the user put on the fallback CPU (Overrides::host), by
    /// op; empty when none.
    IdVector<ir::OpId, char> hostOps;
};

/// The slices of every tensor instance \p id computes or reads (halos
/// included): its part of each op output of its group, of each input and weight.
partition::BoxMap instanceSlices(const ir::Graph& graph, const Schedule& schedule, InstanceId id);

/// Producers and consumers of each instance over the non-redundant edges,
/// ascending.
struct Adjacency {
    IdVector<InstanceId, std::vector<InstanceId>> preds;
    IdVector<InstanceId, std::vector<InstanceId>> succs;
};
Adjacency adjacency(const Schedule& schedule);

/// The edges inherited from the group edges that are not needed (the gray
/// edges of Fig. 6), flagged redundant, by producer then consumer instance.
std::vector<InstanceEdge> redundantEdges(const Schedule& schedule);

} // namespace stagecraft::schedule
