// readScheduleJson: schedule document -> Schedule, for a given graph. The
// document is read part by part (schedule_read_groups.cpp,
// schedule_read_links.cpp), each part checked against the graph and the parts
// before it, so that every refusal names the first field at fault. Choices:
// unknown fields are errors (usually typos); the model is recognized by its
// op count and op names, not by its path (files move) or graph name; the
// trace is optional; nlohmann exceptions stop here.

#include "io/internal/doc_names.h"
#include "io/internal/doc_parts.h"
#include "io/schedule_json.h"
#include "support/strings.h"

namespace stagecraft::io {

namespace {

using json::Json;

Status readModel(const Json& root, const ir::Graph& graph, ScheduleDocInfo& info) {
    SC_ASSIGN_OR_RETURN(const Json* model, json::required(root, "", "model"));
    SC_RETURN_IF_ERROR(json::checkObject(*model, "model", {"path", "graph", "ops"}));
    SC_ASSIGN_OR_RETURN(info.modelPath, json::stringField(*model, "model", "path"));
    SC_RETURN_IF_ERROR(json::stringField(*model, "model", "graph"));
    SC_ASSIGN_OR_RETURN(int64_t ops, json::intField(*model, "model", "ops", 1));
    if (static_cast<size_t>(ops) != graph.opCount())
        return json::errorAt("model.ops", "the document is for a model with " +
                                              std::to_string(ops) + " ops, this one has " +
                                              std::to_string(graph.opCount()));
    return {};
}

Status readClusters(const Json& root, schedule::ClusterPlan& plan) {
    SC_ASSIGN_OR_RETURN(const Json* value, json::required(root, "", "clusters"));
    const std::string path = "clusters";
    SC_RETURN_IF_ERROR(json::checkObject(
        *value, path, {"count", "per_cluster", "total_batch", "iterations", "chosen_by"}));
    SC_ASSIGN_OR_RETURN(plan.clusters, json::intField(*value, path, "count", 1));
    SC_ASSIGN_OR_RETURN(plan.perCluster, json::intField(*value, path, "per_cluster", 1));
    SC_ASSIGN_OR_RETURN(plan.totalBatch, json::intField(*value, path, "total_batch", 1));
    SC_ASSIGN_OR_RETURN(plan.iterations, json::intField(*value, path, "iterations", 1));
    SC_ASSIGN_OR_RETURN(plan.chosenBy, json::stringField(*value, path, "chosen_by"));
    // total = count x per_cluster x iterations, without overflowing.
    bool consistent = plan.totalBatch % plan.clusters == 0 &&
                      (plan.totalBatch / plan.clusters) % plan.perCluster == 0 &&
                      plan.totalBatch / plan.clusters / plan.perCluster == plan.iterations;
    if (!consistent)
        return json::errorAt(path, "total_batch " + std::to_string(plan.totalBatch) +
                                       " is not count x per_cluster x iterations (" +
                                       std::to_string(plan.clusters) + " x " +
                                       std::to_string(plan.perCluster) + " x " +
                                       std::to_string(plan.iterations) + ")");
    return {};
}

Status readSettings(const Json& root, DocReader& reader, ScheduleDocInfo& info) {
    SC_ASSIGN_OR_RETURN(info.archName, json::stringField(root, "", "arch"));
    SC_ASSIGN_OR_RETURN(std::string level, json::stringField(root, "", "level"));
    std::optional<schedule::Level> parsedLevel = schedule::parseLevel(level);
    if (!parsedLevel || level != schedule::levelName(*parsedLevel))
        return json::errorAt("level", "unknown level " + quote(level) + " (expected LB or GB)");
    reader.schedule.level = *parsedLevel;
    SC_ASSIGN_OR_RETURN(reader.schedule.capacityBytes,
                        json::intField(root, "", "capacity_bytes", 0));
    SC_RETURN_IF_ERROR(readClusters(root, reader.schedule.clusters));
    SC_ASSIGN_OR_RETURN(std::string choice, json::stringField(root, "", "order_choice"));
    std::optional<schedule::OrderChoice> parsed = parseOrderChoiceDoc(choice);
    if (!parsed)
        return json::errorAt("order_choice",
                             "unknown order " + quote(choice) + " (expected bfs, dfs or best)");
    info.orderChoice = *parsed;
    SC_ASSIGN_OR_RETURN(const Json* overrides, json::required(root, "", "overrides"));
    SC_ASSIGN_OR_RETURN(info.overrides, overridesFromJson(*overrides, "overrides", false));
    return {};
}

Expected<ScheduleDocument> readDocument(std::string_view text, const ir::Graph& graph) {
    SC_ASSIGN_OR_RETURN(Json root, json::parse(text));
    SC_RETURN_IF_ERROR(json::checkFormat(root, kScheduleFormat, kScheduleVersion));
    SC_RETURN_IF_ERROR(json::checkObject(
        root, "",
        {"format", "version", "model", "arch", "level", "capacity_bytes", "clusters",
         "order_choice", "overrides", "groups", "instances", "edges", "redundant_edges",
         "order_kind", "order", "utilization", "inserted", "trace"}));
    ScheduleDocInfo info;
    DocReader reader{graph, {}, {}, {}};
    SC_RETURN_IF_ERROR(readModel(root, graph, info));
    SC_RETURN_IF_ERROR(readSettings(root, reader, info));
    SC_RETURN_IF_ERROR(readGroups(reader, root));
    SC_RETURN_IF_ERROR(readInstances(reader, root));
    SC_RETURN_IF_ERROR(readEdges(reader, root));
    SC_RETURN_IF_ERROR(readOrder(reader, root));
    SC_RETURN_IF_ERROR(readMoves(reader, root));
    if (const Json* trace = json::optional(root, "trace")) {
        SC_ASSIGN_OR_RETURN(reader.schedule.trace,
                            traceFromJson(*trace, "trace", graph, reader.labels));
        info.includeTrace = true;
    }
    return ScheduleDocument{std::move(reader.schedule), std::move(info)};
}

} // namespace

Expected<ScheduleDocument> readScheduleJson(std::string_view text, const ir::Graph& graph,
                                            std::string_view source) {
    Expected<ScheduleDocument> document = [&]() -> Expected<ScheduleDocument> {
        try {
            return readDocument(text, graph);
        } catch (const nlohmann::json::exception& e) {
            return Error(std::string("unreadable JSON: ") + e.what());
        }
    }();
    if (!document.ok() && !source.empty())
        return document.error().withContext(source);
    return document;
}

} // namespace stagecraft::io
