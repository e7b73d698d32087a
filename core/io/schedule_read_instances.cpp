// Reading the `instances` of a schedule document: each belongs to a group of
// the document, is numbered 1..instances of that group (every number once),
// is labelled as Fig. 6 labels it ("a1" = group label + index) and has a shape
// of the rank of the group output. Bindings are written without trailing 1s
// (Fig. 9) and come back padded with 1s to the rank.

#include "io/internal/doc_names.h"
#include "io/internal/doc_parts.h"
#include "support/strings.h"

namespace stagecraft::io {

namespace {

using json::Json;
using partition::Partition;
using schedule::GroupId;
using schedule::Instance;

/// Group and index of an instance, checked against the groups.
Status readPlace(const DocReader& reader, const Json& value, const std::string& path,
                 Instance& instance) {
    size_t groups = reader.schedule.groups.size();
    SC_ASSIGN_OR_RETURN(int64_t group, json::intField(value, path, "group", 0));
    if (static_cast<size_t>(group) >= groups)
        return json::errorAt(json::child(path, "group"), "no group " + std::to_string(group) +
                                                             " (the document has " +
                                                             std::to_string(groups) + ")");
    instance.group = GroupId::at(static_cast<size_t>(group));
    int64_t count = reader.instanceCounts[instance.group];
    SC_ASSIGN_OR_RETURN(instance.index, json::smallIntField(value, path, "index", 1));
    if (instance.index > count)
        return json::errorAt(json::child(path, "index"),
                             std::to_string(instance.index) + " is past the " +
                                 std::to_string(count) + " instances of group " +
                                 Partition::label(instance.group));
    std::string label = Partition::label(instance.group) + std::to_string(instance.index);
    SC_ASSIGN_OR_RETURN(instance.label, json::stringField(value, path, "label"));
    if (instance.label != label)
        return json::errorAt(json::child(path, "label"),
                             "must be " + quote(label) + " (got " + quote(instance.label) + ")");
    return {};
}

Expected<Instance> readInstance(const DocReader& reader, const Json& value,
                                const std::string& path) {
    SC_RETURN_IF_ERROR(
        json::checkObject(value, path,
                          {"label", "group", "index", "shape", "footprint_bytes", "fits_lb", "bind",
                           "scope", "first_core", "joins_stage"}));
    Instance instance;
    SC_RETURN_IF_ERROR(readPlace(reader, value, path, instance));
    SC_ASSIGN_OR_RETURN(instance.shape, json::intsField(value, path, "shape", 0));
    const schedule::Group& group = reader.schedule.groups[instance.group];
    if (group.splitInfo.output != ir::kNoTensor) {
        const ir::Tensor& output = reader.graph.tensor(group.splitInfo.output);
        if (instance.shape.size() != output.shape.size())
            return json::errorAt(json::child(path, "shape"),
                                 "has rank " + std::to_string(instance.shape.size()) +
                                     " but the group output " + quote(output.name) + " has rank " +
                                     std::to_string(output.shape.size()));
    }
    SC_ASSIGN_OR_RETURN(instance.footprintBytes, json::intField(value, path, "footprint_bytes", 0));
    SC_ASSIGN_OR_RETURN(instance.fitsLocalBuffer, json::boolField(value, path, "fits_lb"));
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> bind, json::intsField(value, path, "bind", 1));
    SC_ASSIGN_OR_RETURN(instance.bind, paddedBinding(std::move(bind), instance.shape.size(),
                                                     json::child(path, "bind")));
    SC_ASSIGN_OR_RETURN(instance.scope, scopeField(value, path, "scope"));
    if (json::optional(value, "first_core") != nullptr) {
        SC_ASSIGN_OR_RETURN(instance.firstCore, json::intField(value, path, "first_core", 0));
    }
    if (json::optional(value, "joins_stage") != nullptr) {
        SC_ASSIGN_OR_RETURN(instance.joinsStage, json::boolField(value, path, "joins_stage"));
    }
    return instance;
}

} // namespace

Status readInstances(DocReader& reader, const Json& root) {
    SC_ASSIGN_OR_RETURN(const Json* list, json::required(root, "", "instances"));
    SC_RETURN_IF_ERROR(json::checkArray(*list, "instances"));
    IdVector<GroupId, schedule::Group>& groups = reader.schedule.groups;
    for (GroupId g : groups.ids())
        groups[g].instances.assign(static_cast<size_t>(reader.instanceCounts[g]),
                                   schedule::kNoInstance);
    for (size_t i = 0; i < list->size(); ++i) {
        const std::string path = json::item("instances", i);
        SC_ASSIGN_OR_RETURN(Instance instance, readInstance(reader, (*list)[i], path));
        auto id = schedule::InstanceId::at(i);
        schedule::InstanceId& slot = groups[instance.group].instances[instance.index - 1];
        if (slot != schedule::kNoInstance)
            return json::errorAt(path, "instance " + quote(instance.label) + " is listed twice");
        slot = id;
        reader.labels.emplace(instance.label, id);
        reader.schedule.instances.push_back(std::move(instance));
    }
    for (GroupId g : groups.ids())
        for (size_t k = 0; k < groups[g].instances.size(); ++k)
            if (groups[g].instances[k] == schedule::kNoInstance)
                return json::errorAt(
                    "instances", "instance " + quote(Partition::label(g) + std::to_string(k + 1)) +
                                     " is missing");
    return {};
}

Expected<schedule::Scope> scopeField(const json::Json& object, const std::string& path,
                                     const char* key) {
    SC_ASSIGN_OR_RETURN(std::string name, json::stringField(object, path, key));
    std::optional<schedule::Scope> scope = parseScopeDoc(name);
    if (!scope)
        return json::errorAt(json::child(path, key),
                             "unknown scope " + quote(name) + " (expected LB, GB or DDR)");
    return *scope;
}

Expected<schedule::Binding> paddedBinding(std::vector<int64_t> trimmed, size_t rank,
                                          const std::string& path) {
    if (trimmed.size() > rank)
        return json::errorAt(path, "has " + std::to_string(trimmed.size()) +
                                       " factors but the tensor has rank " + std::to_string(rank));
    trimmed.resize(rank, 1);
    return trimmed;
}

} // namespace stagecraft::io
