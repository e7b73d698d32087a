// writeScheduleJson: Schedule -> schedule document. Keys are set in one fixed
// order (docs/schedule-format.md) into an ordered_json and printed by
// formatJson, so the same schedule always gives the same bytes. Ops and
// tensors are named, instances are named by label, groups by id. Bindings are
// written as Fig. 9 prints them, without trailing 1s. Redundant edges (gray in
// Fig. 6) get their own list; each list keeps the schedule's edge order.

#include "io/internal/doc_names.h"
#include "io/internal/doc_parts.h"
#include "io/schedule_json.h"

#include <cmath>

namespace stagecraft::io {

namespace {

using json::OrderedJson;
using schedule::GroupId;
using schedule::Instance;
using schedule::Schedule;

const std::string& instanceLabel(const Schedule& schedule, schedule::InstanceId id) {
    SC_ASSERT(schedule.instances.contains(id), "instance id out of range");
    return schedule.instances[id].label;
}

double finite(double value) {
    SC_ASSERT(std::isfinite(value), "a schedule number is not finite");
    return value;
}

OrderedJson candidateJson(const partition::SplitCandidate& candidate) {
    return {{"dim", candidate.dim},
            {"factor", candidate.factor},
            {"ops_split", candidate.opsSplit},
            {"instance_bytes", candidate.instanceBytes},
            {"recompute", finite(candidate.recompute)},
            {"rereads", finite(candidate.rereads)}};
}

OrderedJson optionalCandidate(const std::optional<partition::SplitCandidate>& candidate) {
    return candidate ? candidateJson(*candidate) : OrderedJson(nullptr);
}

OrderedJson groupJson(const ir::Graph& graph, const Schedule& schedule, schedule::GroupId id) {
    const schedule::Group& group = schedule.groups[id];
    const partition::SplitInfo& info = group.splitInfo;
    OrderedJson ops = OrderedJson::array();
    for (ir::OpId op : schedule.partition.ops(id))
        ops.push_back(graph.op(op).name);
    OrderedJson candidates = OrderedJson::array();
    for (const partition::SplitCandidate& candidate : info.candidates)
        candidates.push_back(candidateJson(candidate));
    bool hasOutput = info.output != ir::kNoTensor;
    OrderedJson object = OrderedJson::object();
    object["id"] = id.value();
    object["label"] = partition::Partition::label(id);
    object["ops"] = std::move(ops);
    object["output"] = hasOutput ? OrderedJson(graph.tensor(info.output).name) : nullptr;
    object["shape"] = hasOutput ? OrderedJson(graph.tensor(info.output).shape) : nullptr;
    object["peak_bytes"] = info.peakBytes;
    object["split"] = optionalCandidate(group.split);
    object["split_overridden"] = group.splitOverridden;
    object["split_info"] = {{"candidates", std::move(candidates)},
                            {"best", optionalCandidate(info.best)},
                            {"resident", optionalCandidate(info.resident)}};
    object["instances"] = group.instances.size();
    return object;
}

OrderedJson instanceJson(const Instance& instance) {
    OrderedJson object = {{"label", instance.label},
                          {"group", instance.group.value()},
                          {"index", instance.index},
                          {"shape", instance.shape},
                          {"footprint_bytes", instance.footprintBytes},
                          {"fits_lb", instance.fitsLocalBuffer},
                          {"bind", schedule::trimmed(instance.bind)},
                          {"scope", scopeDocName(instance.scope)}};
    if (instance.firstCore != 0)
        object["first_core"] = instance.firstCore;
    if (instance.joinsStage)
        object["joins_stage"] = true;
    return object;
}

OrderedJson moveJson(const ir::Graph& graph, const Schedule& schedule,
                     const schedule::DataMove& move) {
    OrderedJson sources = OrderedJson::array();
    for (schedule::InstanceId source : move.sources)
        sources.push_back(instanceLabel(schedule, source));
    OrderedJson object = OrderedJson::object();
    object["kind"] = moveKindDocName(move.kind);
    object["consumer"] = instanceLabel(schedule, move.consumer);
    object["sources"] = std::move(sources);
    object["tensor"] = graph.tensor(move.tensor).name;
    object["shape"] = move.shape;
    object["scope"] = scopeDocName(move.scope);
    object["bind"] = schedule::trimmed(move.bind);
    if (move.kind == schedule::DataMove::Kind::Copy)
        object["from_scope"] = scopeDocName(move.fromScope);
    return object;
}

OrderedJson edgesJson(const Schedule& schedule, bool redundant) {
    OrderedJson edges = OrderedJson::array();
    for (const schedule::InstanceEdge& edge : schedule.edges)
        if (edge.redundant == redundant)
            edges.push_back({{"from", instanceLabel(schedule, edge.from)},
                             {"to", instanceLabel(schedule, edge.to)}});
    return edges;
}

OrderedJson orderJson(const Schedule& schedule) {
    OrderedJson order = OrderedJson::array();
    for (schedule::InstanceId id : schedule.order)
        order.push_back({{"group", schedule.instances[id].group.value()},
                         {"instance", instanceLabel(schedule, id)}});
    return order;
}

OrderedJson clustersJson(const schedule::ClusterPlan& plan) {
    return {{"count", plan.clusters},
            {"per_cluster", plan.perCluster},
            {"total_batch", plan.totalBatch},
            {"iterations", plan.iterations},
            {"chosen_by", plan.chosenBy}};
}

} // namespace

std::string writeScheduleJson(const ir::Graph& graph, const Schedule& schedule,
                              const ScheduleDocInfo& info) {
    SC_ASSERT(schedule.groups.size() == schedule.partition.groupCount(),
              "schedule groups and partition disagree");
    OrderedJson groups = OrderedJson::array();
    for (GroupId g : schedule.groups.ids())
        groups.push_back(groupJson(graph, schedule, g));
    OrderedJson instances = OrderedJson::array();
    for (const Instance& instance : schedule.instances)
        instances.push_back(instanceJson(instance));
    OrderedJson moves = OrderedJson::array();
    for (const schedule::DataMove& move : schedule.moves)
        moves.push_back(moveJson(graph, schedule, move));

    OrderedJson root = OrderedJson::object();
    root["format"] = kScheduleFormat;
    root["version"] = kScheduleVersion;
    root["model"] = {
        {"path", info.modelPath}, {"graph", graph.info.name}, {"ops", graph.opCount()}};
    root["arch"] = info.archName;
    root["level"] = schedule::levelName(schedule.level);
    root["capacity_bytes"] = schedule.capacityBytes;
    root["clusters"] = clustersJson(schedule.clusters);
    root["order_choice"] = orderChoiceDocName(info.orderChoice);
    root["overrides"] = overridesToJson(info.overrides);
    root["groups"] = std::move(groups);
    root["instances"] = std::move(instances);
    root["edges"] = edgesJson(schedule, false);
    root["redundant_edges"] = edgesJson(schedule, true);
    root["order_kind"] = orderKindDocName(schedule.orderKind);
    root["order"] = orderJson(schedule);
    root["utilization"] = {{"bfs", finite(schedule.bfsUtilization)},
                           {"dfs", finite(schedule.dfsUtilization)}};
    root["inserted"] = std::move(moves);
    if (info.includeTrace)
        root["trace"] = traceToJson(graph, schedule.trace);
    return json::formatJson(root);
}

} // namespace stagecraft::io
