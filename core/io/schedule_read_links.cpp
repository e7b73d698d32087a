// Reading what links the instances of a schedule document: the instance DAG
// (`edges`, `redundant_edges`: only along group edges, each pair once), the
// order (every instance once, with its group; then validateOrder checks it is
// topological) and the inserted data-movement ops of §3.5 (sources of the
// group that produces the moved tensor; one source for copy and redistribute;
// `from_scope` for copies only). Edges come back as the non-redundant ones
// followed by the redundant ones, each list in document order.

#include "io/internal/doc_names.h"
#include "io/internal/doc_parts.h"
#include "schedule/validate.h"
#include "support/strings.h"

#include <algorithm>
#include <set>
#include <utility>

namespace stagecraft::io {

namespace {

using json::Json;
using partition::Partition;
using schedule::InstanceId;

Expected<InstanceId> instanceField(const DocReader& reader, const Json& object,
                                   const std::string& path, const char* key) {
    SC_ASSIGN_OR_RETURN(std::string label, json::stringField(object, path, key));
    auto it = reader.labels.find(label);
    if (it == reader.labels.end())
        return json::errorAt(json::child(path, key), "unknown instance " + quote(label));
    return it->second;
}

const schedule::Instance& instanceOf(const DocReader& reader, InstanceId id) {
    return reader.schedule.instances[id];
}

Status readEdgeList(DocReader& reader, const Json& root, const char* key, bool redundant,
                    std::set<std::pair<InstanceId, InstanceId>>& seen) {
    SC_ASSIGN_OR_RETURN(const Json* list, json::required(root, "", key));
    SC_RETURN_IF_ERROR(json::checkArray(*list, key));
    const Partition& partition = reader.schedule.partition;
    for (size_t i = 0; i < list->size(); ++i) {
        const std::string path = json::item(key, i);
        SC_RETURN_IF_ERROR(json::checkObject((*list)[i], path, {"from", "to"}));
        SC_ASSIGN_OR_RETURN(InstanceId from, instanceField(reader, (*list)[i], path, "from"));
        SC_ASSIGN_OR_RETURN(InstanceId to, instanceField(reader, (*list)[i], path, "to"));
        const schedule::Instance& producer = instanceOf(reader, from);
        const schedule::Instance& consumer = instanceOf(reader, to);
        auto producers = partition.producers(consumer.group);
        if (std::find(producers.begin(), producers.end(), producer.group) == producers.end())
            return json::errorAt(path, quote(producer.label) + " -> " + quote(consumer.label) +
                                           " does not follow a group edge (group " +
                                           Partition::label(producer.group) + " does not feed " +
                                           Partition::label(consumer.group) + ")");
        if (!seen.insert({from, to}).second)
            return json::errorAt(path, "edge " + quote(producer.label) + " -> " +
                                           quote(consumer.label) + " is listed twice");
        reader.schedule.edges.push_back({from, to, redundant});
    }
    return {};
}

Status readOrderList(DocReader& reader, const Json& list) {
    SC_RETURN_IF_ERROR(json::checkArray(list, "order"));
    IdVector<schedule::InstanceId, bool> listed(reader.schedule.instances.size(), false);
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string path = json::item("order", i);
        SC_RETURN_IF_ERROR(json::checkObject(list[i], path, {"group", "instance"}));
        SC_ASSIGN_OR_RETURN(InstanceId id, instanceField(reader, list[i], path, "instance"));
        const schedule::Instance& instance = instanceOf(reader, id);
        SC_ASSIGN_OR_RETURN(int64_t group, json::intField(list[i], path, "group", 0));
        if (group != instance.group.value())
            return json::errorAt(json::child(path, "group"),
                                 "instance " + quote(instance.label) + " is in group " +
                                     std::to_string(instance.group.value()) + ", not " +
                                     std::to_string(group));
        if (listed[id])
            return json::errorAt(path, "instance " + quote(instance.label) + " is listed twice");
        listed[id] = true;
        reader.schedule.order.push_back(id);
    }
    for (schedule::InstanceId id : listed.ids())
        if (!listed[id])
            return json::errorAt("order", "instance " + quote(reader.schedule.instances[id].label) +
                                              " is missing");
    return {};
}

Status readSources(const DocReader& reader, const Json& move, const std::string& path,
                   schedule::DataMove& target) {
    SC_ASSIGN_OR_RETURN(const Json* list, json::required(move, path, "sources"));
    const std::string at = json::child(path, "sources");
    SC_RETURN_IF_ERROR(json::checkArray(*list, at));
    size_t expected = target.kind == schedule::DataMove::Kind::Concat ? 0 : 1;
    if (list->empty() || (expected == 1 && list->size() != 1))
        return json::errorAt(at, std::string("must list ") +
                                     (expected == 1 ? "exactly one" : "at least one") +
                                     " source instance (got " + std::to_string(list->size()) + ")");
    const ir::Tensor& tensor = reader.graph.tensor(target.tensor);
    const Partition& partition = reader.schedule.partition;
    for (size_t k = 0; k < list->size(); ++k) {
        SC_ASSIGN_OR_RETURN(std::string label, json::getString((*list)[k], json::item(at, k)));
        auto it = reader.labels.find(label);
        if (it == reader.labels.end())
            return json::errorAt(json::item(at, k), "unknown instance " + quote(label));
        const schedule::Instance& source = instanceOf(reader, it->second);
        if (tensor.producer == ir::kNoOp || partition.groupOf(tensor.producer) != source.group)
            return json::errorAt(json::item(at, k), "tensor " + quote(tensor.name) +
                                                        " is not an output of group " +
                                                        Partition::label(source.group));
        target.sources.push_back(it->second);
    }
    return {};
}

Expected<schedule::DataMove> readMove(const DocReader& reader, const Json& move,
                                      const std::string& path) {
    SC_RETURN_IF_ERROR(json::checkObject(
        move, path,
        {"kind", "consumer", "sources", "tensor", "shape", "scope", "bind", "from_scope"}));
    schedule::DataMove target;
    SC_ASSIGN_OR_RETURN(std::string kind, json::stringField(move, path, "kind"));
    std::optional<schedule::DataMove::Kind> parsed = parseMoveKindDoc(kind);
    if (!parsed)
        return json::errorAt(json::child(path, "kind"),
                             "unknown kind " + quote(kind) +
                                 " (expected concat, copy or redistribute)");
    target.kind = *parsed;
    SC_ASSIGN_OR_RETURN(target.consumer, instanceField(reader, move, path, "consumer"));
    SC_ASSIGN_OR_RETURN(std::string name, json::nameField(move, path, "tensor"));
    std::optional<ir::TensorId> tensor = reader.graph.findTensor(name);
    if (!tensor)
        return json::errorAt(json::child(path, "tensor"), "unknown tensor " + quote(name));
    target.tensor = *tensor;
    SC_RETURN_IF_ERROR(readSources(reader, move, path, target));
    SC_ASSIGN_OR_RETURN(target.shape, json::intsField(move, path, "shape", 0));
    size_t rank = reader.graph.tensor(*tensor).shape.size();
    if (target.shape.size() != rank)
        return json::errorAt(json::child(path, "shape"),
                             "has rank " + std::to_string(target.shape.size()) + " but " +
                                 quote(name) + " has rank " + std::to_string(rank));
    SC_ASSIGN_OR_RETURN(target.scope, scopeField(move, path, "scope"));
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> bind, json::intsField(move, path, "bind", 1));
    SC_ASSIGN_OR_RETURN(target.bind,
                        paddedBinding(std::move(bind), rank, json::child(path, "bind")));
    bool isCopy = target.kind == schedule::DataMove::Kind::Copy;
    if (isCopy) {
        SC_ASSIGN_OR_RETURN(target.fromScope, scopeField(move, path, "from_scope"));
    } else if (json::optional(move, "from_scope")) {
        return json::errorAt(json::child(path, "from_scope"), "only a copy has from_scope");
    }
    return target;
}

} // namespace

Status readEdges(DocReader& reader, const Json& root) {
    std::set<std::pair<InstanceId, InstanceId>> seen;
    SC_RETURN_IF_ERROR(readEdgeList(reader, root, "edges", false, seen));
    return readEdgeList(reader, root, "redundant_edges", true, seen);
}

Status readOrder(DocReader& reader, const Json& root) {
    SC_ASSIGN_OR_RETURN(std::string kind, json::stringField(root, "", "order_kind"));
    std::optional<schedule::OrderKind> parsed = parseOrderKindDoc(kind);
    if (!parsed)
        return json::errorAt("order_kind",
                             "unknown order kind " + quote(kind) + " (expected bfs, dfs or user)");
    reader.schedule.orderKind = *parsed;
    SC_ASSIGN_OR_RETURN(const Json* list, json::required(root, "", "order"));
    SC_RETURN_IF_ERROR(readOrderList(reader, *list));
    if (Status valid = schedule::validateOrder(reader.schedule, reader.schedule.order); !valid.ok())
        return valid.error().withContext("order");
    SC_ASSIGN_OR_RETURN(const Json* utilization, json::required(root, "", "utilization"));
    SC_RETURN_IF_ERROR(json::checkObject(*utilization, "utilization", {"bfs", "dfs"}));
    SC_ASSIGN_OR_RETURN(reader.schedule.bfsUtilization,
                        json::numberField(*utilization, "utilization", "bfs"));
    SC_ASSIGN_OR_RETURN(reader.schedule.dfsUtilization,
                        json::numberField(*utilization, "utilization", "dfs"));
    return {};
}

Status readMoves(DocReader& reader, const Json& root) {
    SC_ASSIGN_OR_RETURN(const Json* list, json::required(root, "", "inserted"));
    SC_RETURN_IF_ERROR(json::checkArray(*list, "inserted"));
    for (size_t i = 0; i < list->size(); ++i) {
        SC_ASSIGN_OR_RETURN(schedule::DataMove move,
                            readMove(reader, (*list)[i], json::item("inserted", i)));
        reader.schedule.moves.push_back(std::move(move));
    }
    return {};
}

} // namespace stagecraft::io
