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

/// Groups in topological order of the quotient graph, ties by smallest op id.
Expected<std::vector<GroupId>> groupOrder(const ir::Graph& graph,
                                          const std::vector<std::vector<ir::OpId>>& ops,
                                          const std::vector<std::vector<GroupId>>& consumers) {
    size_t count = ops.size();
    std::vector<int> pending(count, 0);
    for (const auto& list : consumers)
        for (GroupId c : list)
            ++pending[static_cast<size_t>(c)];
    using Entry = std::pair<ir::OpId, GroupId>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
    for (size_t g = 0; g < count; ++g)
        if (pending[g] == 0)
            ready.push({ops[g].front(), static_cast<GroupId>(g)});
    std::vector<GroupId> order;
    while (!ready.empty()) {
        GroupId g = ready.top().second;
        ready.pop();
        order.push_back(g);
        for (GroupId c : consumers[static_cast<size_t>(g)])
            if (--pending[static_cast<size_t>(c)] == 0)
                ready.push({ops[static_cast<size_t>(c)].front(), c});
    }
    if (order.size() == count)
        return order;
    std::vector<std::string> stuck;
    for (size_t g = 0; g < count && stuck.size() < 4; ++g)
        if (pending[g] > 0)
            stuck.push_back("the group of " + quote(graph.op(ops[g].front()).name));
    return Error("the grouping makes the sub-graph graph cyclic (" + join(stuck, ", ") +
                 " depend on each other)");
}

} // namespace

Expected<Partition> Partition::fromAssignment(const ir::Graph& graph,
                                              std::vector<GroupId> groupOf) {
    SC_ASSERT(groupOf.size() == graph.opCount(), "one group per op");
    // Dense numbering in order of first op.
    std::vector<GroupId> dense(graph.opCount(), kNoGroup);
    std::vector<std::vector<ir::OpId>> ops;
    {
        std::vector<GroupId> remap;
        for (size_t op = 0; op < groupOf.size(); ++op) {
            auto g = static_cast<size_t>(groupOf[op]);
            if (g >= remap.size())
                remap.resize(g + 1, kNoGroup);
            if (remap[g] == kNoGroup) {
                remap[g] = static_cast<GroupId>(ops.size());
                ops.emplace_back();
            }
            dense[op] = remap[g];
            ops[static_cast<size_t>(remap[g])].push_back(static_cast<ir::OpId>(op));
        }
    }
    std::vector<std::vector<GroupId>> consumers(ops.size());
    for (size_t op = 0; op < graph.opCount(); ++op)
        for (ir::TensorId in : graph.op(static_cast<ir::OpId>(op)).inputs) {
            if (in == ir::kNoTensor || graph.tensor(in).producer == ir::kNoOp)
                continue;
            GroupId from = dense[static_cast<size_t>(graph.tensor(in).producer)];
            if (from != dense[op])
                consumers[static_cast<size_t>(from)].push_back(dense[op]);
        }
    for (auto& list : consumers)
        sortUnique(list);
    SC_ASSIGN_OR_RETURN(std::vector<GroupId> order, groupOrder(graph, ops, consumers));

    std::vector<GroupId> rank(ops.size());
    for (size_t i = 0; i < order.size(); ++i)
        rank[static_cast<size_t>(order[i])] = static_cast<GroupId>(i);
    Partition p;
    p.groupOf_.resize(graph.opCount());
    p.groups_.resize(ops.size());
    for (size_t op = 0; op < graph.opCount(); ++op)
        p.groupOf_[op] = rank[static_cast<size_t>(dense[op])];
    for (size_t g = 0; g < ops.size(); ++g)
        p.groups_[static_cast<size_t>(rank[g])].ops = std::move(ops[g]);
    for (size_t g = 0; g < consumers.size(); ++g)
        for (GroupId c : consumers[g]) {
            p.groups_[static_cast<size_t>(rank[g])].consumers.push_back(
                rank[static_cast<size_t>(c)]);
            p.groups_[static_cast<size_t>(rank[static_cast<size_t>(c)])].producers.push_back(
                rank[g]);
        }
    for (Group& group : p.groups_) {
        sortUnique(group.consumers);
        sortUnique(group.producers);
    }
    // Inputs and outputs of every group.
    for (size_t g = 0; g < p.groups_.size(); ++g) {
        Group& group = p.groups_[g];
        for (ir::OpId op : group.ops) {
            for (ir::TensorId in : graph.op(op).inputs) {
                if (in == ir::kNoTensor || graph.tensor(in).isConstant())
                    continue;
                ir::OpId producer = graph.tensor(in).producer;
                bool inside = producer != ir::kNoOp &&
                              p.groupOf_[static_cast<size_t>(producer)] == static_cast<GroupId>(g);
                if (!inside &&
                    std::find(group.inputs.begin(), group.inputs.end(), in) == group.inputs.end())
                    group.inputs.push_back(in);
            }
            for (ir::TensorId out : graph.op(op).outputs) {
                const ir::Tensor& t = graph.tensor(out);
                bool outside =
                    graph.isGraphOutput(out) ||
                    std::any_of(t.uses.begin(), t.uses.end(), [&](const ir::Use& use) {
                        return p.groupOf_[static_cast<size_t>(use.op)] != static_cast<GroupId>(g);
                    });
                if (outside)
                    group.outputs.push_back(out);
            }
        }
    }
    return p;
}

Partition Partition::singletons(const ir::Graph& graph) {
    std::vector<GroupId> groupOf(graph.opCount());
    for (size_t i = 0; i < groupOf.size(); ++i)
        groupOf[i] = static_cast<GroupId>(i);
    auto partition = fromAssignment(graph, std::move(groupOf));
    SC_ASSERT(partition.ok(), "singletons of an acyclic graph are acyclic");
    return std::move(partition).value();
}

std::string Partition::label(GroupId group) {
    std::string text;
    int64_t n = group;
    do {
        text.insert(text.begin(), static_cast<char>('a' + n % 26));
        n = n / 26 - 1;
    } while (n >= 0);
    return text;
}

Status validatePartition(const ir::Graph& graph, const Partition& p) {
    std::vector<int> seen(graph.opCount(), 0);
    for (size_t g = 0; g < p.groupCount(); ++g) {
        auto group = static_cast<GroupId>(g);
        if (p.ops(group).empty())
            return Error("group " + Partition::label(group) + " is empty");
        if (!std::is_sorted(p.ops(group).begin(), p.ops(group).end()))
            return Error("the ops of group " + Partition::label(group) + " are not in graph order");
        for (ir::OpId op : p.ops(group)) {
            if (op < 0 || static_cast<size_t>(op) >= graph.opCount() || p.groupOf(op) != group)
                return Error("op " + std::to_string(op) + " is listed in group " +
                             Partition::label(group) + " but assigned elsewhere");
            ++seen[static_cast<size_t>(op)];
        }
        for (GroupId c : p.consumers(group))
            if (c <= group)
                return Error("group " + Partition::label(group) + " feeds group " +
                             Partition::label(c) +
                             " that comes before it: the sub-graph order is not topological");
    }
    for (size_t op = 0; op < seen.size(); ++op)
        if (seen[op] != 1)
            return Error("op " + quote(graph.op(static_cast<ir::OpId>(op)).name) + " is in " +
                         std::to_string(seen[op]) + " groups");
    for (size_t op = 0; op < graph.opCount(); ++op)
        for (ir::TensorId in : graph.op(static_cast<ir::OpId>(op)).inputs) {
            if (in == ir::kNoTensor || graph.tensor(in).producer == ir::kNoOp)
                continue;
            GroupId from = p.groupOf(graph.tensor(in).producer),
                    to = p.groupOf(static_cast<ir::OpId>(op));
            if (from > to)
                return Error("op " + quote(graph.op(static_cast<ir::OpId>(op)).name) +
                             " reads a tensor of a later group: the quotient graph is cyclic");
            auto consumers = p.consumers(from);
            if (from != to && std::find(consumers.begin(), consumers.end(), to) == consumers.end())
                return Error("group edge " + Partition::label(from) + " -> " +
                             Partition::label(to) + " is missing");
        }
    return Status::success();
}

} // namespace stagecraft::partition
