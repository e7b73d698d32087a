// The inspector's questions about a result (see schedule_queries.h). Ungroup
// reachability mirrors the pipeline's rule (core/schedule/overrides.cpp) so
// the button is offered only where the pipeline would split something off.

#include "inspector/schedule_queries.h"

#include <algorithm>

namespace stagecraft::views::inspector {

namespace {

size_t countFor(const PipelineResult& result, Selection::Kind kind) {
    switch (kind) {
    case Selection::Kind::Op:
        return result.graph ? result.graph->opCount() : 0;
    case Selection::Kind::Tensor:
        return result.graph ? result.graph->tensorCount() : 0;
    case Selection::Kind::Group:
        return result.eval.schedule.groups.size();
    case Selection::Kind::Instance:
        return result.eval.schedule.instances.size();
    case Selection::Kind::None:
        break;
    }
    return 0;
}

} // namespace

Selection validSelection(const PipelineResult& result, const Selection& selection) {
    if (selection.id < 0 || static_cast<size_t>(selection.id) >= countFor(result, selection.kind))
        return {};
    return selection;
}

std::optional<schedule::GroupId> groupOf(const PipelineResult& result, const Selection& selection) {
    const schedule::Schedule& s = result.eval.schedule;
    Selection valid = validSelection(result, selection);
    switch (valid.kind) {
    case Selection::Kind::Op:
        return s.partition.groupOf(valid.id);
    case Selection::Kind::Group:
        return valid.id;
    case Selection::Kind::Instance:
        return s.instances[static_cast<size_t>(valid.id)].group;
    case Selection::Kind::Tensor:
        if (ir::OpId producer = result.graph->tensor(valid.id).producer; producer != ir::kNoOp)
            return s.partition.groupOf(producer);
        return std::nullopt;
    case Selection::Kind::None:
        break;
    }
    return std::nullopt;
}

ir::TensorId groupOutput(const schedule::Schedule& schedule, schedule::GroupId group) {
    return schedule.groups[static_cast<size_t>(group)].splitInfo.output;
}

std::optional<schedule::GroupId> groupWithOutput(const PipelineResult& result,
                                                 ir::TensorId tensor) {
    ir::OpId producer = result.graph->tensor(tensor).producer;
    if (producer == ir::kNoOp)
        return std::nullopt;
    schedule::GroupId group = result.eval.schedule.partition.groupOf(producer);
    if (groupOutput(result.eval.schedule, group) != tensor)
        return std::nullopt;
    return group;
}

std::optional<ir::TensorId> pinnableTensor(const PipelineResult& result,
                                           const Selection& selection) {
    Selection valid = validSelection(result, selection);
    if (valid.kind == Selection::Kind::Tensor) {
        if (groupWithOutput(result, valid.id))
            return valid.id;
        return std::nullopt;
    }
    if (valid.kind == Selection::Kind::Group || valid.kind == Selection::Kind::Instance)
        return groupOutput(result.eval.schedule, *groupOf(result, valid));
    return std::nullopt;
}

std::vector<schedule::GroupId> adjacentGroups(const schedule::Schedule& schedule,
                                              schedule::GroupId group) {
    auto producers = schedule.partition.producers(group);
    auto consumers = schedule.partition.consumers(group);
    std::vector<schedule::GroupId> adjacent;
    std::set_union(producers.begin(), producers.end(), consumers.begin(), consumers.end(),
                   std::back_inserter(adjacent));
    return adjacent;
}

bool canUngroupAt(const ir::Graph& graph, const schedule::Schedule& schedule, ir::OpId op) {
    schedule::GroupId group = schedule.partition.groupOf(op);
    auto ops = schedule.partition.ops(group);
    std::vector<bool> reached(graph.opCount(), false);
    reached[static_cast<size_t>(op)] = true;
    size_t count = 0;
    for (ir::OpId member : ops) { // graph order: producers before consumers
        if (!reached[static_cast<size_t>(member)])
            continue;
        ++count;
        for (ir::TensorId out : graph.op(member).outputs)
            for (const ir::Use& use : graph.tensor(out).uses)
                if (schedule.partition.groupOf(use.op) == group)
                    reached[static_cast<size_t>(use.op)] = true;
    }
    return count < ops.size();
}

std::vector<schedule::InstanceId> predecessors(const schedule::Schedule& schedule,
                                               schedule::InstanceId instance) {
    std::vector<schedule::InstanceId> found;
    for (const schedule::InstanceEdge& edge : schedule.edges)
        if (edge.to == instance && !edge.redundant)
            found.push_back(edge.from);
    std::sort(found.begin(), found.end());
    return found;
}

std::vector<schedule::InstanceId> successors(const schedule::Schedule& schedule,
                                             schedule::InstanceId instance) {
    std::vector<schedule::InstanceId> found;
    for (const schedule::InstanceEdge& edge : schedule.edges)
        if (edge.from == instance && !edge.redundant)
            found.push_back(edge.to);
    std::sort(found.begin(), found.end());
    return found;
}

bool unsplitFits(const PipelineResult& result, schedule::GroupId group) {
    const schedule::Schedule& s = result.eval.schedule;
    const schedule::Group& g = s.groups[static_cast<size_t>(group)];
    return !result.graph->tensor(g.splitInfo.output).shape.empty() &&
           g.splitInfo.peakBytes <= s.capacityBytes;
}

namespace {

/// The divisors of \p n, ascending.
std::vector<int64_t> divisors(int64_t n) {
    std::vector<int64_t> low, high;
    for (int64_t d = 1; d * d <= n; ++d)
        if (n % d == 0) {
            low.push_back(d);
            if (d != n / d)
                high.push_back(n / d);
        }
    low.insert(low.end(), high.rbegin(), high.rend());
    return low;
}

} // namespace

std::vector<partition::SplitCandidate> splitChoices(const PipelineResult& result,
                                                    schedule::GroupId group) {
    const schedule::Group& g = result.eval.schedule.groups[static_cast<size_t>(group)];
    const ir::Shape& shape = result.graph->tensor(g.splitInfo.output).shape;
    std::vector<partition::SplitCandidate> choices;
    for (const partition::SplitCandidate& candidate : g.splitInfo.candidates) {
        int64_t smallest = std::max<int64_t>(candidate.factor, 2);
        int offered = 0;
        for (int64_t factor : divisors(shape[static_cast<size_t>(candidate.dim)])) {
            if (factor < smallest || offered == kMaxFactorsPerDim)
                continue;
            partition::SplitCandidate choice = candidate;
            choice.factor = factor;
            if (factor != candidate.factor)
                choice.instanceBytes = 0;
            choices.push_back(choice);
            ++offered;
        }
    }
    return choices;
}

} // namespace stagecraft::views::inspector
