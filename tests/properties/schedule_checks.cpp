// Schedule properties checked independently of the engine (GraphTurbo §3).
//
// The quotient graph is rebuilt from the ops' tensors, sorted with Kahn's
// algorithm and compared with the partition's producer/consumer lists. The
// order is checked against the non-redundant edges by positions. Which edges
// must NOT be redundant is decided here from first principles (§3.3): a
// producer instance owns one tile of its group's split output (the split
// dim cut into `factor` equal parts; the whole tensor when unsplit); when
// the consumer instance's slice, propagated backwards through its group's
// access maps, reads any element of that tile, the edge is a dependency. An
// unsplit consumer needs what all of its group's outputs need, not only the
// split output's. Box propagation (partition/slices.h) is the one engine
// function used, as the definition of what an op reads.

#include "schedule_checks.h"

#include "partition/split_info.h"
#include "schedule/validate.h"

#include <algorithm>
#include <optional>
#include <set>

namespace stagecraft::test {

namespace {

using partition::Box;
using partition::BoxMap;
using partition::GroupId;
using schedule::InstanceId;
using schedule::Schedule;

std::string label(const Schedule& s, InstanceId i) {
    return "'" + s.instances[i].label + "'";
}
std::string groupName(GroupId g) {
    return "group " + partition::Partition::label(g);
}

std::string membership(const ir::Graph& graph, const Schedule& s) {
    IdVector<ir::OpId, int> seen(graph.opCount(), 0);
    for (GroupId group : s.partition.groupIds()) {
        if (s.partition.ops(group).empty())
            return groupName(group) + " is empty";
        for (ir::OpId op : s.partition.ops(group)) {
            if (!graph.hasOp(op))
                return groupName(group) + " names a missing op";
            ++seen[op];
            if (s.partition.groupOf(op) != group)
                return "op " + graph.op(op).name + " is listed in " + groupName(group) +
                       " but groupOf says otherwise";
        }
    }
    for (ir::OpId op : seen.ids())
        if (seen[op] != 1)
            return "op " + graph.op(op).name + " is in " + std::to_string(seen[op]) + " groups";
    return {};
}

/// Consumers of each group, from the ops' input tensors.
IdVector<GroupId, std::set<GroupId>> quotientEdges(const ir::Graph& graph, const Schedule& s) {
    IdVector<GroupId, std::set<GroupId>> succs(s.partition.groupCount());
    for (ir::OpId op : graph.opIds()) {
        for (ir::TensorId in : graph.op(op).inputs) {
            if (in == ir::kNoTensor || graph.tensor(in).producer == ir::kNoOp)
                continue;
            GroupId from = s.partition.groupOf(graph.tensor(in).producer);
            if (from != s.partition.groupOf(op))
                succs[from].insert(s.partition.groupOf(op));
        }
    }
    return succs;
}

std::string quotient(const IdVector<GroupId, std::set<GroupId>>& succs, const Schedule& s) {
    IdVector<GroupId, std::set<GroupId>> preds(succs.size());
    IdVector<GroupId, int> indegree(succs.size(), 0);
    for (GroupId g : succs.ids())
        for (GroupId c : succs[g]) {
            preds[c].insert(g);
            ++indegree[c];
            if (c <= g)
                return "group edge " + partition::Partition::label(g) + " -> " +
                       partition::Partition::label(c) + " goes against the numbering";
        }
    for (GroupId g : succs.ids()) {
        auto consumers = s.partition.consumers(g);
        auto producers = s.partition.producers(g);
        if (std::set<GroupId>(consumers.begin(), consumers.end()) != succs[g] ||
            std::set<GroupId>(producers.begin(), producers.end()) != preds[g])
            return groupName(g) + ": producers/consumers differ from the ops' edges";
    }
    std::vector<GroupId> ready, sorted;
    for (GroupId g : succs.ids())
        if (indegree[g] == 0)
            ready.push_back(g);
    while (!ready.empty()) {
        GroupId g = ready.back();
        ready.pop_back();
        sorted.push_back(g);
        for (GroupId c : succs[g])
            if (--indegree[c] == 0)
                ready.push_back(c);
    }
    if (sorted.size() != succs.size())
        return "the quotient graph has a cycle";
    return {};
}

std::string instances(const Schedule& s) {
    if (s.groups.size() != s.partition.groupCount())
        return "groups and partition differ in size";
    IdVector<InstanceId, int> owner(s.instances.size(), -1);
    for (GroupId g : s.groups.ids()) {
        const schedule::Group& group = s.groups[g];
        int64_t factor = group.split ? group.split->factor : 1;
        if (static_cast<int64_t>(group.instances.size()) != factor)
            return groupName(g) + " has " + std::to_string(group.instances.size()) +
                   " instances for factor " + std::to_string(factor);
        for (size_t k = 0; k < group.instances.size(); ++k) {
            InstanceId i = group.instances[k];
            if (!s.instances.contains(i) || owner[i] >= 0)
                return groupName(g) + " lists a missing or shared instance";
            owner[i] = g.value();
            const schedule::Instance& inst = s.instances[i];
            if (inst.group != g || inst.index != static_cast<int>(k) + 1 ||
                inst.label != partition::Partition::label(g) + std::to_string(k + 1))
                return "instance " + label(s, i) + " is misnumbered";
        }
    }
    if (std::find(owner.begin(), owner.end(), -1) != owner.end())
        return "an instance belongs to no group";
    return {};
}

std::string order(const Schedule& s) {
    if (s.order.size() != s.instances.size())
        return "the order has " + std::to_string(s.order.size()) + " entries for " +
               std::to_string(s.instances.size()) + " instances";
    IdVector<InstanceId, int64_t> position(s.instances.size(), -1);
    for (size_t k = 0; k < s.order.size(); ++k) {
        InstanceId i = s.order[k];
        if (!s.instances.contains(i) || position[i] >= 0)
            return "the order is not a permutation";
        position[i] = static_cast<int64_t>(k);
    }
    for (const schedule::InstanceEdge& e : s.edges)
        if (!e.redundant && position[e.to] < position[e.from])
            return "instance " + label(s, e.to) + " runs before its producer " + label(s, e.from);
    return {};
}

/// Same partition, splits, instances (identity and shape) and edges.
bool sameInstances(const Schedule& a, const Schedule& b) {
    if (a.partition.groupCount() != b.partition.groupCount() ||
        a.groups.size() != b.groups.size() || a.instances.size() != b.instances.size() ||
        a.edges.size() != b.edges.size())
        return false;
    for (GroupId g : a.groups.ids()) {
        auto opsA = a.partition.ops(g);
        auto opsB = b.partition.ops(g);
        if (!std::equal(opsA.begin(), opsA.end(), opsB.begin(), opsB.end()) ||
            a.groups[g].split != b.groups[g].split ||
            a.groups[g].splitInfo.output != b.groups[g].splitInfo.output ||
            a.groups[g].instances != b.groups[g].instances)
            return false;
    }
    for (InstanceId i : a.instances.ids())
        if (a.instances[i].group != b.instances[i].group ||
            a.instances[i].index != b.instances[i].index ||
            a.instances[i].shape != b.instances[i].shape)
            return false;
    for (size_t e = 0; e < a.edges.size(); ++e)
        if (a.edges[e].from != b.edges[e].from || a.edges[e].to != b.edges[e].to ||
            a.edges[e].redundant != b.edges[e].redundant)
            return false;
    return true;
}

} // namespace

std::string scheduleProblem(const ir::Graph& graph, const arch::Arch& arch, const Schedule& s,
                            const partition::SemanticsCache* semantics, const Schedule* checked) {
    if (Status valid = partition::validatePartition(graph, s.partition); !valid.ok())
        return "validatePartition: " + valid.error().message();
    if (Status valid = schedule::validateSchedule(graph, arch, s); !valid.ok())
        return "validateSchedule: " + valid.error().message();
    if (Status valid = schedule::validateOrder(s, s.order); !valid.ok())
        return "validateOrder: " + valid.error().message();
    if (std::string problem = membership(graph, s); !problem.empty())
        return problem;
    IdVector<GroupId, std::set<GroupId>> succs = quotientEdges(graph, s);
    if (std::string problem = quotient(succs, s); !problem.empty())
        return problem;
    if (std::string problem = instances(s); !problem.empty())
        return problem;
    if (std::string problem = order(s); !problem.empty())
        return problem;
    std::optional<partition::SemanticsCache> own;
    if (semantics == nullptr) {
        auto built = partition::SemanticsCache::build(graph);
        if (!built.ok())
            return built.error().message();
        own = std::move(*built);
        semantics = &*own;
    }
    if (checked == nullptr || !sameInstances(*checked, s))
        if (std::string problem = detail::edgeProblem(graph, *semantics, s, succs);
            !problem.empty())
            return problem;
    return detail::resourceProblem(graph, *semantics, arch, s);
}

} // namespace stagecraft::test
