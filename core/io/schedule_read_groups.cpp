// Reading the `groups` of a schedule document. The partition
// is rebuilt with Partition::fromAssignment, which numbers groups in its own
// topological order; the document's numbering must be that one (the writer
// writes it), otherwise every reference by group id would point elsewhere.
// Splits are checked against the group output: the dim must exist and the
// factor divide its extent; a group has as many instances as its factor.

#include "io/internal/doc_names.h"
#include "io/internal/doc_parts.h"
#include "ir/shape.h"
#include "support/strings.h"

namespace stagecraft::io {

namespace {

using json::Json;
using partition::Partition;
using partition::SplitCandidate;
using schedule::GroupId;

/// The group output tensor, or kNoTensor for null.
struct GroupOutput {
    ir::TensorId tensor = ir::kNoTensor;
    size_t rank = 0;
};

Expected<SplitCandidate> readCandidate(const Json& value, const std::string& path,
                                       const ir::Graph& graph, const GroupOutput& output) {
    SC_RETURN_IF_ERROR(json::checkObject(
        value, path, {"dim", "factor", "ops_split", "instance_bytes", "recompute", "rereads"}));
    if (output.tensor == ir::kNoTensor)
        return json::errorAt(path, "a group without an output has no split");
    SplitCandidate candidate;
    SC_ASSIGN_OR_RETURN(candidate.dim, json::smallIntField(value, path, "dim", 0));
    SC_ASSIGN_OR_RETURN(candidate.factor, json::intField(value, path, "factor", 1));
    SC_ASSIGN_OR_RETURN(candidate.opsSplit, json::intField(value, path, "ops_split", 0));
    SC_ASSIGN_OR_RETURN(candidate.instanceBytes, json::intField(value, path, "instance_bytes", 0));
    SC_ASSIGN_OR_RETURN(candidate.recompute, json::numberField(value, path, "recompute"));
    if (json::optional(value, "rereads") != nullptr) { // absent from files before it existed
        SC_ASSIGN_OR_RETURN(candidate.rereads, json::numberField(value, path, "rereads"));
    }
    const ir::Tensor& tensor = graph.tensor(output.tensor);
    if (static_cast<size_t>(candidate.dim) >= output.rank)
        return json::errorAt(json::child(path, "dim"),
                             "dim " + std::to_string(candidate.dim) + " is out of range for " +
                                 quote(tensor.name) + " of rank " + std::to_string(output.rank));
    int64_t extent = tensor.shape[static_cast<size_t>(candidate.dim)];
    if (extent % candidate.factor != 0)
        return json::errorAt(json::child(path, "factor"),
                             std::to_string(candidate.factor) + " does not divide dim " +
                                 std::to_string(candidate.dim) + " of " + quote(tensor.name) +
                                 " (extent " + std::to_string(extent) + ")");
    return candidate;
}

Expected<std::optional<SplitCandidate>>
readOptionalCandidate(const Json& object, const std::string& path, const char* key,
                      const ir::Graph& graph, const GroupOutput& output) {
    SC_ASSIGN_OR_RETURN(const Json* value, json::required(object, path, key));
    if (value->is_null())
        return std::optional<SplitCandidate>();
    SC_ASSIGN_OR_RETURN(SplitCandidate candidate,
                        readCandidate(*value, json::child(path, key), graph, output));
    return std::optional<SplitCandidate>(candidate);
}

Expected<std::vector<ir::OpId>> readGroupOps(const Json& group, const std::string& path,
                                             const ir::Graph& graph, partition::Assignment& groupOf,
                                             GroupId id) {
    SC_ASSIGN_OR_RETURN(std::vector<std::string> names, json::stringsField(group, path, "ops"));
    if (names.empty())
        return json::errorAt(json::child(path, "ops"), "must list at least one op");
    std::vector<ir::OpId> ops;
    for (size_t k = 0; k < names.size(); ++k) {
        const std::string at = json::item(json::child(path, "ops"), k);
        std::optional<ir::OpId> op = graph.findOp(names[k]);
        if (!op)
            return json::errorAt(at, "unknown op " + quote(names[k]));
        GroupId& owner = groupOf[*op];
        if (owner != partition::kNoGroup)
            return json::errorAt(at, "op " + quote(names[k]) + " is already in group " +
                                         Partition::label(owner));
        owner = id;
        ops.push_back(*op);
    }
    return ops;
}

Expected<GroupOutput> readGroupOutput(const Json& group, const std::string& path,
                                      const ir::Graph& graph, const partition::Assignment& groupOf,
                                      GroupId id) {
    SC_ASSIGN_OR_RETURN(const Json* name, json::required(group, path, "output"));
    SC_ASSIGN_OR_RETURN(const Json* shape, json::required(group, path, "shape"));
    if (name->is_null()) {
        if (!shape->is_null())
            return json::mustBe(json::child(path, "shape"), "null (the group has no output)",
                                *shape);
        return GroupOutput{};
    }
    SC_ASSIGN_OR_RETURN(std::string text, json::getName(*name, json::child(path, "output")));
    std::optional<ir::TensorId> tensor = graph.findTensor(text);
    if (!tensor)
        return json::errorAt(json::child(path, "output"), "unknown tensor " + quote(text));
    const ir::Tensor& t = graph.tensor(*tensor);
    if (t.producer == ir::kNoOp || groupOf[t.producer] != id)
        return json::errorAt(json::child(path, "output"), "tensor " + quote(text) +
                                                              " is not produced by group " +
                                                              Partition::label(id));
    SC_ASSIGN_OR_RETURN(ir::Shape dims, json::getInts(*shape, json::child(path, "shape"), 0));
    if (dims != t.shape)
        return json::errorAt(json::child(path, "shape"), "must be the shape of " + quote(text) +
                                                             " (" + ir::formatShape(t.shape) + ")");
    return GroupOutput{*tensor, t.shape.size()};
}

/// The fields of group \p id read after its ops (which all groups need first).
Status readGroupSplit(DocReader& reader, const Json& group, const std::string& path, GroupId id,
                      const partition::Assignment& groupOf) {
    schedule::Group& target = reader.schedule.groups[id];
    SC_ASSIGN_OR_RETURN(GroupOutput output,
                        readGroupOutput(group, path, reader.graph, groupOf, id));
    target.splitInfo.output = output.tensor;
    SC_ASSIGN_OR_RETURN(target.splitInfo.peakBytes, json::intField(group, path, "peak_bytes", 0));
    SC_ASSIGN_OR_RETURN(target.split,
                        readOptionalCandidate(group, path, "split", reader.graph, output));
    SC_ASSIGN_OR_RETURN(target.splitOverridden, json::boolField(group, path, "split_overridden"));
    SC_ASSIGN_OR_RETURN(const Json* info, json::required(group, path, "split_info"));
    const std::string infoPath = json::child(path, "split_info");
    SC_RETURN_IF_ERROR(json::checkObject(*info, infoPath, {"candidates", "best", "resident"}));
    SC_ASSIGN_OR_RETURN(const Json* candidates, json::required(*info, infoPath, "candidates"));
    const std::string listPath = json::child(infoPath, "candidates");
    SC_RETURN_IF_ERROR(json::checkArray(*candidates, listPath));
    for (size_t k = 0; k < candidates->size(); ++k) {
        SC_ASSIGN_OR_RETURN(
            SplitCandidate candidate,
            readCandidate((*candidates)[k], json::item(listPath, k), reader.graph, output));
        target.splitInfo.candidates.push_back(candidate);
    }
    SC_ASSIGN_OR_RETURN(target.splitInfo.best,
                        readOptionalCandidate(*info, infoPath, "best", reader.graph, output));
    if (info->contains("resident")) { // optional: documents before it have none
        SC_ASSIGN_OR_RETURN(
            target.splitInfo.resident,
            readOptionalCandidate(*info, infoPath, "resident", reader.graph, output));
    }
    SC_ASSIGN_OR_RETURN(int64_t count, json::intField(group, path, "instances", 1));
    int64_t factor = target.split ? target.split->factor : 1;
    if (count != factor)
        return json::errorAt(json::child(path, "instances"), "must be " + std::to_string(factor) +
                                                                 ", the split factor (got " +
                                                                 std::to_string(count) + ")");
    reader.instanceCounts.push_back(count);
    return {};
}

/// Rebuilds the partition; the document's group ids must be its numbering.
Status buildPartition(DocReader& reader, const partition::Assignment& groupOf,
                      const std::vector<ir::OpId>& firstOps) {
    for (ir::OpId op : groupOf.ids())
        if (groupOf[op] == partition::kNoGroup)
            return json::errorAt("groups",
                                 "op " + quote(reader.graph.op(op).name) + " is in no group");
    auto built = Partition::fromAssignment(reader.graph, groupOf);
    if (!built.ok())
        return built.error().withContext("groups");
    for (size_t g = 0; g < firstOps.size(); ++g) {
        GroupId number = built->groupOf(firstOps[g]);
        if (number != GroupId::at(g))
            return json::errorAt(json::item("groups", g),
                                 "groups must be listed in the topological order of the "
                                 "partition (this group is number " +
                                     std::to_string(number.value()) + ")");
    }
    reader.schedule.partition = std::move(built).value();
    return {};
}

} // namespace

Status readGroups(DocReader& reader, const Json& root) {
    SC_ASSIGN_OR_RETURN(const Json* groups, json::required(root, "", "groups"));
    SC_RETURN_IF_ERROR(json::checkArray(*groups, "groups"));
    partition::Assignment groupOf(reader.graph.opCount(), partition::kNoGroup);
    std::vector<ir::OpId> firstOps;
    for (size_t g = 0; g < groups->size(); ++g) {
        const Json& group = (*groups)[g];
        const std::string path = json::item("groups", g);
        const GroupId expected = GroupId::at(g);
        SC_RETURN_IF_ERROR(
            json::checkObject(group, path,
                              {"id", "label", "ops", "output", "shape", "peak_bytes", "split",
                               "split_overridden", "split_info", "instances"}));
        SC_ASSIGN_OR_RETURN(int64_t id, json::intField(group, path, "id", 0));
        if (id != static_cast<int64_t>(g))
            return json::errorAt(json::child(path, "id"),
                                 "must be " + std::to_string(g) + " (groups are listed by id)");
        std::string label = Partition::label(expected);
        SC_ASSIGN_OR_RETURN(std::string written, json::stringField(group, path, "label"));
        if (written != label)
            return json::errorAt(json::child(path, "label"),
                                 "must be " + quote(label) + " (got " + quote(written) + ")");
        SC_ASSIGN_OR_RETURN(std::vector<ir::OpId> ops,
                            readGroupOps(group, path, reader.graph, groupOf, expected));
        firstOps.push_back(ops.front());
    }
    SC_RETURN_IF_ERROR(buildPartition(reader, groupOf, firstOps));
    reader.schedule.groups.resize(groups->size());
    for (size_t g = 0; g < groups->size(); ++g)
        SC_RETURN_IF_ERROR(
            readGroupSplit(reader, (*groups)[g], json::item("groups", g), GroupId::at(g), groupOf));
    return {};
}

} // namespace stagecraft::io
