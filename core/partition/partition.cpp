#include "partition/partition.h"

#include "support/strings.h"

#include <queue>

#include <algorithm>
#include <functional>

namespace stagecraft::partition {

namespace {

void sortUnique(std::vector<GroupId>& values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
}

/// Ops and consumers of the groups of an assignment, numbered densely.
struct DenseGroups {
    IdVector<GroupId, std::vector<ir::OpId>> ops;
    IdVector<GroupId, std::vector<GroupId>> consumers;
};

/// Groups in topological order of the quotient graph, ties by smallest op id.
Expected<std::vector<GroupId>> groupOrder(const ir::Graph& graph, const DenseGroups& dense) {
    IdVector<GroupId, int> pending(dense.ops.size(), 0);
    for (const auto& list : dense.consumers)
        for (GroupId c : list)
            ++pending[c];
    using Entry = std::pair<ir::OpId, GroupId>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
    for (GroupId g : dense.ops.ids())
        if (pending[g] == 0)
            ready.push({dense.ops[g].front(), g});
    std::vector<GroupId> order;
    while (!ready.empty()) {
        GroupId g = ready.top().second;
        ready.pop();
        order.push_back(g);
        for (GroupId c : dense.consumers[g])
            if (--pending[c] == 0)
                ready.push({dense.ops[c].front(), c});
    }
    if (order.size() == dense.ops.size())
        return order;
    std::vector<std::string> stuck;
    for (GroupId g : dense.ops.ids())
        if (pending[g] > 0 && stuck.size() < 4)
            stuck.push_back("the group of " + quote(graph.op(dense.ops[g].front()).name));
    return Error("the grouping makes the sub-graph graph cyclic (" + join(stuck, ", ") +
                 " depend on each other)");
}

/// Renumbers \p groupOf densely in order of first op; fills \p dense.
Assignment denseNumbering(const Assignment& groupOf, DenseGroups& dense) {
    Assignment numbered(groupOf.size(), kNoGroup);
    std::vector<GroupId> remap;
    for (ir::OpId op : groupOf.ids()) {
        size_t g = groupOf[op].index();
        if (g >= remap.size())
            remap.resize(g + 1, kNoGroup);
        if (remap[g] == kNoGroup) {
            remap[g] = dense.ops.nextId();
            dense.ops.emplace_back();
        }
        numbered[op] = remap[g];
        dense.ops[remap[g]].push_back(op);
    }
    return numbered;
}

/// The groups each dense group feeds, ascending.
void denseConsumers(const ir::Graph& graph, const Assignment& numbered, DenseGroups& dense) {
    dense.consumers.resize(dense.ops.size());
    for (ir::OpId op : graph.opIds())
        for (ir::TensorId in : graph.op(op).inputs) {
            if (in == ir::kNoTensor || graph.tensor(in).producer == ir::kNoOp)
                continue;
            GroupId from = numbered[graph.tensor(in).producer];
            if (from != numbered[op])
                dense.consumers[from].push_back(numbered[op]);
        }
    for (auto& list : dense.consumers)
        sortUnique(list);
}

} // namespace

Expected<Partition> Partition::fromAssignment(const ir::Graph& graph, Assignment groupOf) {
    SC_ASSERT(groupOf.size() == graph.opCount(), "one group per op");
    DenseGroups dense;
    Assignment numbered = denseNumbering(groupOf, dense);
    denseConsumers(graph, numbered, dense);
    SC_ASSIGN_OR_RETURN(std::vector<GroupId> order, groupOrder(graph, dense));

    IdVector<GroupId, GroupId> rank(dense.ops.size());
    for (size_t i = 0; i < order.size(); ++i)
        rank[order[i]] = GroupId::at(i);
    Partition p;
    p.groupOf_.resize(graph.opCount());
    p.groups_.resize(dense.ops.size());
    for (ir::OpId op : graph.opIds())
        p.groupOf_[op] = rank[numbered[op]];
    for (GroupId g : dense.ops.ids())
        p.groups_[rank[g]].ops = std::move(dense.ops[g]);
    for (GroupId g : dense.consumers.ids())
        for (GroupId c : dense.consumers[g]) {
            p.groups_[rank[g]].consumers.push_back(rank[c]);
            p.groups_[rank[c]].producers.push_back(rank[g]);
        }
    for (Group& group : p.groups_) {
        sortUnique(group.consumers);
        sortUnique(group.producers);
    }
    // Inputs and outputs of every group.
    for (GroupId g : p.groups_.ids()) {
        Group& group = p.groups_[g];
        for (ir::OpId op : group.ops) {
            for (ir::TensorId in : graph.op(op).inputs) {
                if (in == ir::kNoTensor || graph.tensor(in).isConstant())
                    continue;
                ir::OpId producer = graph.tensor(in).producer;
                bool inside = producer != ir::kNoOp && p.groupOf_[producer] == g;
                if (!inside &&
                    std::find(group.inputs.begin(), group.inputs.end(), in) == group.inputs.end())
                    group.inputs.push_back(in);
            }
            for (ir::TensorId out : graph.op(op).outputs) {
                const ir::Tensor& t = graph.tensor(out);
                bool outside = graph.isGraphOutput(out) ||
                               std::any_of(t.uses.begin(), t.uses.end(), [&](const ir::Use& use) {
                                   return p.groupOf_[use.op] != g;
                               });
                if (outside)
                    group.outputs.push_back(out);
            }
        }
    }
    return p;
}

Partition Partition::singletons(const ir::Graph& graph) {
    Assignment groupOf(graph.opCount());
    for (ir::OpId op : graph.opIds())
        groupOf[op] = GroupId::at(op.index());
    auto partition = fromAssignment(graph, std::move(groupOf));
    SC_ASSERT(partition.ok(), "singletons of an acyclic graph are acyclic");
    return std::move(partition).value();
}

std::string Partition::label(GroupId group) {
    std::string text;
    int64_t n = group.value();
    do {
        text.insert(text.begin(), static_cast<char>('a' + n % 26));
        n = n / 26 - 1;
    } while (n >= 0);
    return text;
}

Status validatePartition(const ir::Graph& graph, const Partition& p) {
    IdVector<ir::OpId, int> seen(graph.opCount(), 0);
    for (GroupId group : p.groupIds()) {
        if (p.ops(group).empty())
            return Error("group " + Partition::label(group) + " is empty");
        if (!std::is_sorted(p.ops(group).begin(), p.ops(group).end()))
            return Error("the ops of group " + Partition::label(group) + " are not in graph order");
        for (ir::OpId op : p.ops(group)) {
            if (!graph.hasOp(op) || p.groupOf(op) != group)
                return Error("op " + std::to_string(op.value()) + " is listed in group " +
                             Partition::label(group) + " but assigned elsewhere");
            ++seen[op];
        }
        for (GroupId c : p.consumers(group))
            if (c <= group)
                return Error("group " + Partition::label(group) + " feeds group " +
                             Partition::label(c) +
                             " that comes before it: the sub-graph order is not topological");
    }
    for (ir::OpId op : seen.ids())
        if (seen[op] != 1)
            return Error("op " + quote(graph.op(op).name) + " is in " + std::to_string(seen[op]) +
                         " groups");
    for (ir::OpId op : graph.opIds())
        for (ir::TensorId in : graph.op(op).inputs) {
            if (in == ir::kNoTensor || graph.tensor(in).producer == ir::kNoOp)
                continue;
            GroupId from = p.groupOf(graph.tensor(in).producer), to = p.groupOf(op);
            if (from > to)
                return Error("op " + quote(graph.op(op).name) +
                             " reads a tensor of a later group: the quotient graph is cyclic");
            auto consumers = p.consumers(from);
            if (from != to && std::find(consumers.begin(), consumers.end(), to) == consumers.end())
                return Error("group edge " + Partition::label(from) + " -> " +
                             Partition::label(to) + " is missing");
        }
    return Status::success();
}

} // namespace stagecraft::partition
