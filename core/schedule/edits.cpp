// The checks behind user edits (see edits.h). A merge is refused when a third
// group lies on a path between the two (breadth-first search over the group
// DAG); an ungroup moves the ops reachable from the op inside its group into
// a new group, refused when that is the whole group; a forced split is
// Algorithm 1's evaluation of one (dim, factor) held to the level's capacity.

#include "schedule/edits.h"

#include "support/divisors.h"
#include "support/strings.h"

#include <algorithm>
#include <deque>

namespace stagecraft::schedule {

namespace {

/// A group (other than the two ends) on a path from \p from to \p to.
GroupId pathMiddle(const partition::Partition& p, GroupId from, GroupId to) {
    IdVector<GroupId, GroupId> parent(p.groupCount(), partition::kNoGroup);
    std::deque<GroupId> queue;
    for (GroupId c : p.consumers(from))
        if (c != to) {
            parent[c] = c;
            queue.push_back(c);
        }
    while (!queue.empty()) {
        GroupId g = queue.front();
        queue.pop_front();
        for (GroupId c : p.consumers(g)) {
            if (c == to)
                return parent[g];
            if (parent[c] == partition::kNoGroup) {
                parent[c] = parent[g];
                queue.push_back(c);
            }
        }
    }
    return partition::kNoGroup;
}

} // namespace

ir::TensorId groupOutput(const Schedule& schedule, GroupId group) {
    return schedule.groups[group].splitInfo.output;
}

std::optional<GroupId> groupWithOutput(const ir::Graph& graph, const Schedule& schedule,
                                       ir::TensorId tensor) {
    ir::OpId producer = graph.tensor(tensor).producer;
    if (producer == ir::kNoOp)
        return std::nullopt;
    GroupId group = schedule.partition.groupOf(producer);
    if (groupOutput(schedule, group) != tensor)
        return std::nullopt;
    return group;
}

Expected<partition::Partition> mergedPartition(const ir::Graph& graph,
                                               const partition::Partition& partition, GroupId a,
                                               GroupId b) {
    if (a == b)
        return Error("both ops are already in group " + partition::Partition::label(a));
    GroupId first = std::min(a, b), second = std::max(a, b);
    if (GroupId middle = pathMiddle(partition, first, second); middle != partition::kNoGroup)
        return Error("merging would create a cycle through the group of " +
                     quote(graph.op(partition.ops(middle).front()).name));
    partition::Assignment assign = partition.assignment();
    for (ir::OpId op : partition.ops(second))
        assign[op] = first;
    return partition::Partition::fromAssignment(graph, std::move(assign));
}

Expected<partition::Partition>
ungroupedPartition(const ir::Graph& graph, const partition::Partition& partition, ir::OpId start) {
    GroupId g = partition.groupOf(start);
    auto ops = partition.ops(g);
    IdVector<ir::OpId, char> reached(graph.opCount(), false);
    reached[start] = true;
    for (ir::OpId op : ops) // graph order: producers before consumers
        if (reached[op])
            for (ir::TensorId out : graph.op(op).outputs)
                for (const ir::Use& use : graph.tensor(out).uses)
                    if (partition.groupOf(use.op) == g)
                        reached[use.op] = true;
    auto moved = std::count_if(ops.begin(), ops.end(), [&](ir::OpId op) { return reached[op]; });
    if (static_cast<size_t>(moved) == ops.size())
        return Error("every op of its group follows it, nothing would be split off");
    partition::Assignment assign = partition.assignment();
    GroupId fresh = GroupId::at(partition.groupCount());
    for (ir::OpId op : ops)
        if (reached[op])
            assign[op] = fresh;
    return partition::Partition::fromAssignment(graph, std::move(assign));
}

Expected<partition::SplitCandidate> forcedSplit(const ir::Graph& graph,
                                                const partition::SemanticsCache& semantics,
                                                const Schedule& schedule, GroupId group, int dim,
                                                int64_t factor) {
    SC_ASSIGN_OR_RETURN(
        partition::SplitCandidate candidate,
        partition::evaluateSplit(graph, semantics, schedule.partition.ops(group), dim, factor));
    if (candidate.instanceBytes > schedule.capacityBytes)
        return Error("an instance of factor " + std::to_string(factor) + " needs " +
                     std::to_string(candidate.instanceBytes) + " bytes, over the " +
                     std::string(levelName(schedule.level)) + " capacity of " +
                     std::to_string(schedule.capacityBytes));
    return candidate;
}

const std::string& firstOpName(const ir::Graph& graph, const Schedule& schedule, GroupId group) {
    return graph.op(schedule.partition.ops(group).front()).name;
}

std::vector<GroupId> mergeableGroups(const ir::Graph& graph, const Schedule& schedule,
                                     const Overrides& overrides, GroupId group) {
    const partition::Partition& p = schedule.partition;
    auto producers = p.producers(group);
    auto consumers = p.consumers(group);
    std::vector<GroupId> adjacent;
    std::set_union(producers.begin(), producers.end(), consumers.begin(), consumers.end(),
                   std::back_inserter(adjacent));
    std::erase_if(adjacent, [&](GroupId other) {
        Overrides edited = overrides;
        edited.merges.push_back(
            {firstOpName(graph, schedule, group), firstOpName(graph, schedule, other)});
        return !regroup(graph, schedule.grouping->partition, edited).ok();
    });
    return adjacent;
}

bool canUngroupAt(const ir::Graph& graph, const Schedule& schedule, const Overrides& overrides,
                  ir::OpId op) {
    Overrides edited = overrides;
    edited.ungroups.push_back({graph.op(op).name});
    return regroup(graph, schedule.grouping->partition, edited).ok();
}

bool unsplitFits(const ir::Graph& graph, const Schedule& schedule, GroupId group) {
    return forcedSplit(graph, *schedule.semantics, schedule, group, 0, 1).ok();
}

std::vector<partition::SplitCandidate> splitChoices(const ir::Graph& graph,
                                                    const Schedule& schedule, GroupId group) {
    const Group& g = schedule.groups[group];
    const ir::Shape& shape = graph.tensor(g.splitInfo.output).shape;
    std::vector<partition::SplitCandidate> choices;
    for (const partition::SplitCandidate& candidate : g.splitInfo.candidates) {
        int64_t smallest = std::max<int64_t>(candidate.factor, 2);
        int offered = 0;
        for (int64_t factor : divisors(shape[static_cast<size_t>(candidate.dim)])) {
            if (factor < smallest || offered == kMaxFactorsPerDim)
                continue;
            auto choice =
                forcedSplit(graph, *schedule.semantics, schedule, group, candidate.dim, factor);
            if (!choice.ok())
                continue;
            choices.push_back(*choice);
            ++offered;
        }
    }
    return choices;
}

} // namespace stagecraft::schedule
