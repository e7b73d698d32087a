// Instance edges (GraphTurbo §3.3, Fig. 6), checked from first principles.
// Every group edge A -> B gives |A| x |B| inherited instance edges; the
// schedule keeps the needed ones (Schedule::edges) and redundantEdges()
// lists the rest, so the two must partition the inherited pairs. An edge
// i -> j may be left out only when instance j does not read what i
// produces: i owns one tile of A's split output (the split dim cut into
// `factor` equal parts, the whole tensor when A is unsplit; an unsplit A owns
// every output), and j's need is its slice propagated backwards through B's
// access maps (from every output of B when B is unsplit). Outputs of a split
// A other than the split one are left out: their slices overlap (halos) and
// no single instance owns an element. A split group must reach all of its
// ops from its split output, else an instance would not know its part of them.
// A split of factor 1 is no split: its one instance runs the whole group.

#include "partition/split_info.h"
#include "schedule_checks.h"

#include <algorithm>
#include <set>

namespace stagecraft::test::detail {

namespace {

using partition::Box;
using partition::BoxMap;
using partition::GroupId;
using schedule::InstanceId;
using schedule::Schedule;

std::string label(const Schedule& s, InstanceId i) {
    return "'" + s.instances[i].label + "'";
}

bool isSplit(const schedule::Group& group) {
    return group.split && group.split->factor > 1;
}

bool intersects(const Box& a, const Box& b) {
    for (size_t d = 0; d < a.size() && d < b.size(); ++d)
        if (a[d].empty() || b[d].empty() || a[d].hi < b[d].lo || b[d].hi < a[d].lo)
            return false;
    return true;
}

/// Instance \p k (0-based) of \p group's tile of the split output.
Box ownedTile(const ir::Graph& graph, const schedule::Group& group, int64_t k) {
    Box box = partition::fullBox(graph.tensor(group.splitInfo.output).shape);
    if (isSplit(group)) {
        auto d = static_cast<size_t>(group.split->dim);
        int64_t part = (box[d].hi + 1) / group.split->factor;
        box[d] = {k * part, (k + 1) * part - 1};
    }
    return box;
}

/// What instance \p k of group \p g reads and writes.
BoxMap slices(const ir::Graph& graph, const partition::SemanticsCache& semantics, const Schedule& s,
              GroupId g, int64_t k) {
    const schedule::Group& group = s.groups[g];
    auto ops = s.partition.ops(g);
    if (isSplit(group))
        return partition::instanceBoxes(graph, semantics, ops, group.splitInfo.output,
                                        group.split->dim, group.split->factor, k);
    std::vector<std::pair<ir::TensorId, Box>> seeds;
    for (ir::TensorId t : s.partition.outputs(g))
        seeds.emplace_back(t, partition::fullBox(graph.tensor(t).shape));
    return partition::propagateBoxes(graph, semantics, ops, seeds);
}

std::string reached(const ir::Graph& graph, const Schedule& s, GroupId g, const BoxMap& boxes) {
    for (ir::OpId op : s.partition.ops(g)) {
        bool any = false;
        for (ir::TensorId out : graph.op(op).outputs)
            any = any || boxes.find(out) != nullptr;
        if (!any)
            return "op " + graph.op(op).name + " of group " + partition::Partition::label(g) +
                   " is not reached by its split of " +
                   graph.tensor(s.groups[g].splitInfo.output).name;
    }
    return {};
}

/// Outputs of \p from read by the ops of \p to.
std::vector<ir::TensorId> readAcross(const ir::Graph& graph, const Schedule& s, GroupId from,
                                     GroupId to) {
    std::vector<ir::TensorId> tensors;
    for (ir::TensorId t : s.partition.outputs(from))
        for (const ir::Use& use : graph.tensor(t).uses)
            if (s.partition.groupOf(use.op) == to) {
                tensors.push_back(t);
                break;
            }
    return tensors;
}

/// "split along dim 1 x 4 of t5, 3 outputs" or "unsplit, 1 output".
std::string describe(const ir::Graph& graph, const schedule::Group& group, size_t outputs) {
    std::string text = isSplit(group) ? "split along dim " + std::to_string(group.split->dim) +
                                            " x " + std::to_string(group.split->factor) + " of " +
                                            graph.tensor(group.splitInfo.output).name
                                      : std::string("unsplit");
    return text + ", " + std::to_string(outputs) + (outputs == 1 ? " output" : " outputs");
}

/// "ops 'Split_1', 'Add_2'": the ops of group \p g reading \p tensor.
std::string readers(const ir::Graph& graph, const Schedule& s, GroupId g, ir::TensorId tensor) {
    std::string names;
    for (const ir::Use& use : graph.tensor(tensor).uses)
        if (s.partition.groupOf(use.op) == g &&
            names.find("'" + graph.op(use.op).name + "'") == std::string::npos)
            names += (names.empty() ? "" : ", ") + ("'" + graph.op(use.op).name + "'");
    return "op(s) " + names;
}

/// The needed edges and redundantEdges() partition the inherited pairs.
std::string inheritedProblem(const Schedule& s, const IdVector<GroupId, std::set<GroupId>>& succs,
                             const std::set<std::pair<InstanceId, InstanceId>>& needed) {
    size_t inherited = 0;
    for (GroupId a : succs.ids())
        for (GroupId b : succs[a])
            inherited += s.groups[a].instances.size() * s.groups[b].instances.size();
    std::vector<std::pair<InstanceId, InstanceId>> all(needed.begin(), needed.end());
    for (const schedule::InstanceEdge& e : schedule::redundantEdges(s)) {
        GroupId from = s.instances[e.from].group;
        if (!e.redundant || needed.count({e.from, e.to}) ||
            !succs[from].count(s.instances[e.to].group))
            return "redundantEdges() lists " + label(s, e.from) + " -> " + label(s, e.to) +
                   " wrongly";
        all.emplace_back(e.from, e.to);
    }
    std::sort(all.begin(), all.end());
    if (std::adjacent_find(all.begin(), all.end()) != all.end() || all.size() != inherited)
        return "needed and redundant edges do not partition the " + std::to_string(inherited) +
               " inherited instance pairs";
    return {};
}

} // namespace

std::string edgeProblem(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                        const Schedule& s, const IdVector<GroupId, std::set<GroupId>>& succs) {
    std::set<std::pair<InstanceId, InstanceId>> needed;
    for (const schedule::InstanceEdge& e : s.edges) {
        GroupId from = s.instances[e.from].group;
        GroupId to = s.instances[e.to].group;
        if (e.redundant || !succs[from].count(to))
            return "edge " + label(s, e.from) + " -> " + label(s, e.to) +
                   " is flagged redundant or has no group edge";
        if (!needed.insert({e.from, e.to}).second)
            return "edge " + label(s, e.from) + " -> " + label(s, e.to) + " appears twice";
    }
    if (std::string problem = inheritedProblem(s, succs, needed); !problem.empty())
        return problem;
    IdVector<GroupId, std::vector<BoxMap>> needs(s.groups.size());
    for (GroupId g : s.groups.ids())
        for (size_t k = 0; k < s.groups[g].instances.size(); ++k) {
            needs[g].push_back(slices(graph, semantics, s, g, static_cast<int64_t>(k)));
            if (isSplit(s.groups[g]))
                if (std::string problem = reached(graph, s, g, needs[g].back()); !problem.empty())
                    return problem;
        }
    for (GroupId a : succs.ids())
        for (GroupId b : succs[a]) {
            const schedule::Group& producer = s.groups[a];
            const schedule::Group& consumer = s.groups[b];
            std::vector<ir::TensorId> tensors = readAcross(graph, s, a, b);
            for (size_t i = 0; i < producer.instances.size(); ++i)
                for (size_t j = 0; j < consumer.instances.size(); ++j) {
                    auto key = std::make_pair(producer.instances[i], consumer.instances[j]);
                    if (needed.count(key))
                        continue;
                    for (ir::TensorId t : tensors) {
                        const Box* want = needs[b][j].find(t);
                        bool owned = !isSplit(producer) || t == producer.splitInfo.output;
                        Box tile = isSplit(producer)
                                       ? ownedTile(graph, producer, static_cast<int64_t>(i))
                                       : partition::fullBox(graph.tensor(t).shape);
                        if (owned && want != nullptr && intersects(tile, *want))
                            return "edge " + label(s, key.first) + " -> " + label(s, key.second) +
                                   " is dropped as redundant but the consumer reads the "
                                   "producer's tile of " +
                                   graph.tensor(t).name + " through " + readers(graph, s, b, t) +
                                   " (consumer group: " +
                                   describe(graph, consumer, s.partition.outputs(b).size()) +
                                   "; producer group: " +
                                   describe(graph, producer, s.partition.outputs(a).size()) + ")";
                    }
                }
        }
    return {};
}

} // namespace stagecraft::test::detail
