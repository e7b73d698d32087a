// The scheduling pipeline (GraphTurbo §3): Algorithm 2's grouping, user
// regrouping, splits, instances, order, binding and scopes, data movement.
// Each step reads the previous one's result only, so reschedule() can reuse
// the grouping (the one step overrides never change).

#include "schedule/pipeline.h"

#include "partition/ago_partition.h"
#include "partition/dla_extraction.h"
#include "partition/fusion.h"
#include "schedule/internal/baseline_trace.h"
#include "schedule/internal/ios_stages.h"
#include "schedule/internal/overrides_apply.h"
#include "schedule/internal/stages.h"

#include <map>

namespace stagecraft::schedule {

std::optional<OrderChoice> parseOrderChoice(std::string_view name) {
    if (name == "bfs")
        return OrderChoice::BFS;
    if (name == "dfs")
        return OrderChoice::DFS;
    if (name == "best")
        return OrderChoice::Best;
    return std::nullopt;
}

namespace {

partition::SplitParams effectiveParams(const arch::Arch& arch, const ScheduleOptions& options) {
    partition::SplitParams params = partition::splitParamsFor(arch);
    if (options.level == Level::GB) {
        params.capacityBytes =
            arch.cluster.globalBuffer ? arch.cluster.globalBuffer->bytes : arch.ddr.bytes;
        params.capacityIsGlobal = arch.cluster.globalBuffer.has_value();
        if (const arch::Path* path = arch::findPath(arch, arch::Memory::DDR, arch::Memory::GB);
            path != nullptr)
            params.offCoreBytesPerSecond = path->bandwidthGBps * 1e9;
    } else if (arch.cluster.globalBuffer) {
        // Two levels: a group with no split that fits the LB splits for the
        // GB, and its layers are tiled into the LB (§3.6, §4.1).
        params.fallbackCapacityBytes = arch.cluster.globalBuffer->bytes;
    }
    if (options.split.capacityBytes > 0) {
        params.capacityBytes = options.split.capacityBytes;
        params.recomputeCostModel = options.split.recomputeCostModel;
        params.maxInputRereads = options.split.maxInputRereads;
        params.fallbackCapacityBytes = options.split.fallbackCapacityBytes;
    }
    if (!options.extensions.rereadLimit)
        params.maxInputRereads = 0;
    if (!options.extensions.gbFallback)
        params.fallbackCapacityBytes = 0;
    params.residentSplits = options.extensions.residentSplits;
    return params;
}

/// SplitInfo per group of \p partition: reused from the grouping where the
/// group is unchanged, computed for regrouped ones.
IdVector<GroupId, partition::SplitInfo> splitsFor(const ir::Graph& graph,
                                                  const partition::SemanticsCache& semantics,
                                                  const partition::GroupingResult& grouping,
                                                  const partition::Partition& partition,
                                                  const partition::SplitParams& params) {
    std::map<std::vector<ir::OpId>, GroupId> known;
    for (GroupId g : grouping.partition.groupIds()) {
        auto ops = grouping.partition.ops(g);
        known.emplace(std::vector<ir::OpId>(ops.begin(), ops.end()), g);
    }
    IdVector<GroupId, partition::SplitInfo> splits;
    for (GroupId g : partition.groupIds()) {
        auto ops = partition.ops(g);
        auto it = known.find(std::vector<ir::OpId>(ops.begin(), ops.end()));
        partition::SplitParams finalParams = params;
        finalParams.finalSplit = true;
        splits.push_back(it != known.end()
                             ? grouping.splits[it->second]
                             : partition::computeSplitInfo(graph, semantics, ops, finalParams));
    }
    return splits;
}

Status chooseOrder(const ir::Graph& graph, const ScheduleOptions& options, const Adjacency& a,
                   Schedule& s) {
    bool stages = s.groupedBy == Grouping::Ios; // IOS's order, not Algorithm 3's
    partition::Trace* trace = options.recordTrace && !stages ? &s.trace : nullptr;
    std::vector<InstanceId> bfs = detail::bfsOrder(s, a);
    std::vector<InstanceId> dfs = detail::dfsOrder(s, a, trace);
    detail::MemoryUse bfsUse = detail::memoryUse(graph, s, a, bfs);
    detail::MemoryUse dfsUse = detail::memoryUse(graph, s, a, dfs);
    s.bfsUtilization = bfsUse.utilization;
    s.dfsUtilization = dfsUse.utilization;
    if (!options.overrides.order.empty()) {
        SC_ASSIGN_OR_RETURN(s.order, detail::userOrder(s, options.overrides.order));
        s.orderKind = OrderKind::User;
        return Status::success();
    }
    if (stages) {
        s.order = detail::stageOrder(s, a, *s.grouping);
        s.orderKind = OrderKind::Stages;
        return Status::success();
    }
    bool useBfs = options.order == OrderChoice::BFS;
    if (options.order == OrderChoice::Best)
        useBfs = bfsUse.overflow < dfsUse.overflow ||
                 (bfsUse.overflow == dfsUse.overflow && bfsUse.utilization > dfsUse.utilization);
    s.order = useBfs ? std::move(bfs) : std::move(dfs);
    s.orderKind = useBfs ? OrderKind::BFS : OrderKind::DFS;
    return Status::success();
}

/// DLA §3: the sub-graphs of ops the accelerator runs (arch::acceleratorRuns,
/// less the user's host ops), pruned into parts with one input and one output
/// operator; each other op alone, on the fallback CPU.
Expected<partition::Partition> dlaGrouping(const ir::Graph& graph, const arch::Arch& arch,
                                           const partition::SemanticsCache& semantics,
                                           const ScheduleOptions& options,
                                           partition::Trace* trace) {
    using HostOps = IdVector<ir::OpId, char>;
    SC_ASSIGN_OR_RETURN(HostOps host, detail::hostOps(graph, arch, options.overrides));
    IdVector<ir::OpId, char> supported;
    for (ir::OpId op : graph.opIds()) {
        bool runs = arch::acceleratorRuns(arch, graph.op(op).kind, semantics.of(op).category);
        supported.push_back(runs && (host.empty() || !host[op]) ? 1 : 0);
    }
    SC_ASSIGN_OR_RETURN(partition::DlaExtraction extraction,
                        partition::extractDlaSubgraphs(graph, supported));
    if (trace != nullptr)
        trace->dla = detail::dlaTrace(graph, extraction);
    return std::move(options.dlaPostPrune ? extraction.parts : extraction.extracted);
}

/// A baseline's grouping with the SplitInfo of each group (Algorithm 1 when
/// groups are split, none otherwise); AGO's and DLA's steps into \p trace.
Expected<partition::GroupingResult> baselineGrouping(const ir::Graph& graph, const arch::Arch& arch,
                                                     const partition::SemanticsCache& semantics,
                                                     const partition::SplitParams& params,
                                                     const ScheduleOptions& options,
                                                     partition::Trace* trace) {
    partition::GroupingResult result;
    if (options.grouping == Grouping::Dla) {
        SC_ASSIGN_OR_RETURN(result.partition, dlaGrouping(graph, arch, semantics, options, trace));
    } else if (options.grouping == Grouping::Ios) {
        if (!options.iosCost)
            return Error("ios: no stage cost model (the strategy sets one)");
        partition::IosPruning pruning = options.iosPruning;
        int64_t cores = arch.cluster.coreGroups.empty() ? 1 : arch.cluster.coreGroups[0].count;
        pruning.maxGroups =
            static_cast<int>(std::min<int64_t>(std::max(pruning.maxGroups, 1), cores));
        partition::IosCostModel cost = options.iosCost(graph, arch, semantics);
        SC_ASSIGN_OR_RETURN(result, detail::iosGrouping(graph, cost, pruning, trace));
    } else if (options.grouping == Grouping::Ago) {
        SC_ASSIGN_OR_RETURN(partition::AgoPartition ago, partition::partitionAgo(graph, semantics));
        if (trace != nullptr)
            trace->ago = detail::agoTrace(graph, ago);
        result.partition = std::move(ago.subgraphs);
    } else {
        result.partition = options.grouping == Grouping::Tvm
                               ? partition::groupTvm(graph, semantics)
                               : partition::groupAStitch(graph, semantics);
    }
    for (GroupId g : result.partition.groupIds()) {
        auto ops = result.partition.ops(g);
        if (options.splitGroups) {
            result.splits.push_back(partition::computeSplitInfo(graph, semantics, ops, params));
            continue;
        }
        partition::SplitInfo info;
        info.output = partition::primaryOutput(graph, ops);
        result.splits.push_back(std::move(info));
    }
    return result;
}

/// The switches of Fig. 15 and the baselines: unsplit groups keep no split.
void dropSplits(const ScheduleOptions& options, Schedule& s) {
    if (options.splitGroups)
        return;
    for (Group& group : s.groups)
        group.split.reset();
}

/// Every instance output at the forced scope, graph outputs in DDR.
void forceScopes(const ir::Graph& graph, const ScheduleOptions& options, Schedule& s) {
    if (!options.forcedScope)
        return;
    for (Instance& inst : s.instances) {
        bool graphOutput = false;
        for (ir::TensorId out : s.partition.outputs(inst.group))
            graphOutput = graphOutput || graph.isGraphOutput(out);
        inst.scope = graphOutput ? Scope::DDR : *options.forcedScope;
    }
}

Expected<Schedule> runFromRegrouping(const ir::Graph& graph, const arch::Arch& arch,
                                     const ScheduleOptions& options, Schedule s) {
    const partition::SemanticsCache& semantics = *s.semantics;
    partition::SplitParams params = effectiveParams(arch, options);
    s.capacityBytes = params.capacityBytes;
    s.extensions = options.extensions;
    s.level = options.level;
    s.clusters = options.clusters;
    s.groupedBy = options.grouping;
    SC_ASSIGN_OR_RETURN(s.hostOps, detail::hostOps(graph, arch, options.overrides));
    SC_ASSIGN_OR_RETURN(s.partition, regroup(graph, s.grouping->partition, options.overrides));
    IdVector<GroupId, partition::SplitInfo> splits =
        splitsFor(graph, semantics, *s.grouping, s.partition, params);
    s.groups.clear();
    for (partition::SplitInfo& info : splits) {
        Group group;
        group.split = info.resident ? info.resident : info.best;
        group.splitInfo = std::move(info);
        s.groups.push_back(std::move(group));
    }
    dropSplits(options, s);
    SC_RETURN_IF_ERROR(detail::applySplits(graph, semantics, options.overrides, s));
    SC_RETURN_IF_ERROR(detail::buildInstances(graph, semantics, s));
    Adjacency adjacency = schedule::adjacency(s);
    SC_RETURN_IF_ERROR(chooseOrder(graph, options, adjacency, s));
    detail::DimMatcher matcher(graph, semantics, s);
    detail::bindAndScope(graph, arch, semantics, matcher, adjacency, s,
                         options.recordTrace ? &s.trace : nullptr);
    if (s.groupedBy == Grouping::Ios && !arch.cluster.coreGroups.empty())
        detail::shareStageCores(s, adjacency, *s.grouping, arch.cluster.coreGroups[0].count);
    forceScopes(graph, options, s);
    SC_RETURN_IF_ERROR(detail::applyScopePins(graph, options.overrides, s));
    detail::insertDataMoves(matcher, adjacency, s);
    return s;
}

} // namespace

Expected<Schedule> buildSchedule(const ir::Graph& graph, const arch::Arch& arch,
                                 const ScheduleOptions& options) {
    Schedule s;
    SC_ASSIGN_OR_RETURN(partition::SemanticsCache semantics,
                        partition::SemanticsCache::build(graph));
    s.semantics = std::make_shared<const partition::SemanticsCache>(std::move(semantics));
    partition::SplitParams params = effectiveParams(arch, options);
    partition::GroupingResult grouping;
    if (options.grouping == Grouping::GraphTurbo) {
        SC_ASSIGN_OR_RETURN(grouping,
                            partition::groupGraphTurbo(graph, *s.semantics, params,
                                                       options.recordTrace ? &s.trace : nullptr));
    } else {
        SC_ASSIGN_OR_RETURN(grouping, baselineGrouping(graph, arch, *s.semantics, params, options,
                                                       options.recordTrace ? &s.trace : nullptr));
    }
    s.grouping = std::make_shared<const partition::GroupingResult>(std::move(grouping));
    return runFromRegrouping(graph, arch, options, std::move(s));
}

Expected<Schedule> reschedule(const Schedule& base, const ir::Graph& graph, const arch::Arch& arch,
                              const ScheduleOptions& options) {
    if (!base.grouping || !base.semantics ||
        effectiveParams(arch, options).capacityBytes != base.capacityBytes ||
        options.level != base.level || options.grouping != base.groupedBy ||
        !(options.extensions == base.extensions) || options.grouping == Grouping::Dla ||
        options.grouping == Grouping::Ios ||
        (base.groupedBy != Grouping::GraphTurbo && options.splitGroups))
        return buildSchedule(graph, arch, options);
    Schedule s;
    s.grouping = base.grouping;
    s.semantics = base.semantics;
    if (options.recordTrace) {
        s.trace.merges = base.trace.merges;
        s.trace.ago = base.trace.ago;
    }
    return runFromRegrouping(graph, arch, options, std::move(s));
}

} // namespace stagecraft::schedule
