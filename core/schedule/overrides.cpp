// User overrides of a schedule (issue: schedule documents). Each applies at
// the step it changes and is checked against the invariant it could break:
// merges must keep the sub-graph graph acyclic, a forced split must divide
// the dim and fit LB, a user order must be a topological permutation, a scope
// pin must name a sub-graph output. A refused override says why in one line.

#include "schedule/overrides_apply.h"
#include "schedule/stages.h"
#include "schedule/validate.h"
#include "support/strings.h"

#include <algorithm>
#include <deque>
#include <map>

namespace stagecraft::schedule::detail {

namespace {

Expected<ir::OpId> findOp(const ir::Graph& graph, const std::string& name,
                          const std::string& what) {
    auto op = graph.findOp(name);
    if (!op)
        return Error(what + ": unknown op " + quote(name));
    return *op;
}

/// A group (other than the two ends) on a path from \p from to \p to.
partition::GroupId pathMiddle(const partition::Partition& p, partition::GroupId from,
                              partition::GroupId to) {
    std::vector<partition::GroupId> parent(p.groupCount(), partition::kNoGroup);
    std::deque<partition::GroupId> queue;
    for (partition::GroupId c : p.consumers(from))
        if (c != to) {
            parent[static_cast<size_t>(c)] = c;
            queue.push_back(c);
        }
    while (!queue.empty()) {
        partition::GroupId g = queue.front();
        queue.pop_front();
        for (partition::GroupId c : p.consumers(g)) {
            if (c == to)
                return parent[static_cast<size_t>(g)];
            if (parent[static_cast<size_t>(c)] == partition::kNoGroup) {
                parent[static_cast<size_t>(c)] = parent[static_cast<size_t>(g)];
                queue.push_back(c);
            }
        }
    }
    return partition::kNoGroup;
}

Status applyMerge(const ir::Graph& graph, const partition::Partition& current,
                  std::vector<partition::GroupId>& assign, const Overrides::Merge& merge) {
    std::string what = "merge override (" + quote(merge.op1) + ", " + quote(merge.op2) + ")";
    SC_ASSIGN_OR_RETURN(ir::OpId a, findOp(graph, merge.op1, what));
    SC_ASSIGN_OR_RETURN(ir::OpId b, findOp(graph, merge.op2, what));
    partition::GroupId ga = current.groupOf(a), gb = current.groupOf(b);
    if (ga == gb)
        return Error(what + ": both ops are already in group " + partition::Partition::label(ga));
    partition::GroupId first = std::min(ga, gb), second = std::max(ga, gb);
    partition::GroupId middle = pathMiddle(current, first, second);
    if (middle != partition::kNoGroup)
        return Error(what + ": merging would create a cycle through the group of " +
                     quote(graph.op(current.ops(middle).front()).name));
    for (ir::OpId op : current.ops(second))
        assign[static_cast<size_t>(op)] = assign[static_cast<size_t>(current.ops(first).front())];
    return Status::success();
}

Status applyUngroup(const ir::Graph& graph, const partition::Partition& current,
                    std::vector<partition::GroupId>& assign, const Overrides::Ungroup& ungroup,
                    partition::GroupId fresh) {
    std::string what = "ungroup override " + quote(ungroup.op);
    SC_ASSIGN_OR_RETURN(ir::OpId start, findOp(graph, ungroup.op, what));
    partition::GroupId g = current.groupOf(start);
    auto ops = current.ops(g);
    std::vector<bool> reached(graph.opCount(), false);
    reached[static_cast<size_t>(start)] = true;
    for (ir::OpId op : ops) // graph order: producers before consumers
        if (reached[static_cast<size_t>(op)])
            for (ir::TensorId out : graph.op(op).outputs)
                for (const ir::Use& use : graph.tensor(out).uses)
                    if (current.groupOf(use.op) == g)
                        reached[static_cast<size_t>(use.op)] = true;
    size_t moved = static_cast<size_t>(std::count_if(
        ops.begin(), ops.end(), [&](ir::OpId op) { return reached[static_cast<size_t>(op)]; }));
    if (moved == ops.size())
        return Error(what + ": every op of its group follows it, nothing would be split off");
    for (ir::OpId op : ops)
        if (reached[static_cast<size_t>(op)])
            assign[static_cast<size_t>(op)] = fresh;
    return Status::success();
}

} // namespace

Expected<partition::Partition> regroup(const ir::Graph& graph, const partition::Partition& base,
                                       const Overrides& overrides) {
    partition::Partition current = base;
    for (const Overrides::Merge& merge : overrides.merges) {
        std::vector<partition::GroupId> assign(graph.opCount());
        for (size_t op = 0; op < assign.size(); ++op)
            assign[op] = current.groupOf(static_cast<ir::OpId>(op));
        SC_RETURN_IF_ERROR(applyMerge(graph, current, assign, merge));
        SC_ASSIGN_OR_RETURN(current,
                            partition::Partition::fromAssignment(graph, std::move(assign)));
    }
    for (const Overrides::Ungroup& ungroup : overrides.ungroups) {
        std::vector<partition::GroupId> assign(graph.opCount());
        for (size_t op = 0; op < assign.size(); ++op)
            assign[op] = current.groupOf(static_cast<ir::OpId>(op));
        auto fresh = static_cast<partition::GroupId>(current.groupCount());
        SC_RETURN_IF_ERROR(applyUngroup(graph, current, assign, ungroup, fresh));
        auto next = partition::Partition::fromAssignment(graph, std::move(assign));
        if (!next.ok())
            return Error("ungroup override " + quote(ungroup.op) + ": " + next.error().message());
        current = std::move(next).value();
    }
    return current;
}

Status applySplits(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                   const Overrides& overrides, Schedule& s) {
    std::map<GroupId, const Overrides::Split*> earlier;
    for (const Overrides::Split& split : overrides.splits) {
        std::string what = "split override for the group of " + quote(split.op);
        SC_ASSIGN_OR_RETURN(ir::OpId op, findOp(graph, split.op, what));
        GroupId g = s.partition.groupOf(op);
        auto [first, inserted] = earlier.emplace(g, &split);
        if (!inserted && (first->second->dim != split.dim || first->second->factor != split.factor))
            return Error(what + ": conflicts with the split override for " +
                         quote(first->second->op) + " (both name group " +
                         partition::Partition::label(g) + ")");
        auto candidate =
            partition::evaluateSplit(graph, semantics, s.partition.ops(g), split.dim, split.factor);
        if (!candidate.ok())
            return Error(what + ": " + candidate.error().message());
        if (candidate->instanceBytes > s.capacityBytes)
            return Error(what + ": an instance of factor " + std::to_string(split.factor) +
                         " needs " + std::to_string(candidate->instanceBytes) +
                         " bytes, over the LB capacity of " + std::to_string(s.capacityBytes));
        Group& group = s.groups[static_cast<size_t>(g)];
        group.split = *candidate;
        group.splitOverridden = true;
    }
    return Status::success();
}

Expected<std::vector<InstanceId>> userOrder(const Schedule& s,
                                            const std::vector<std::string>& labels) {
    std::map<std::string, InstanceId> byLabel;
    for (size_t i = 0; i < s.instances.size(); ++i)
        byLabel[s.instances[i].label] = static_cast<InstanceId>(i);
    std::vector<InstanceId> order;
    std::vector<bool> seen(s.instances.size(), false);
    for (const std::string& label : labels) {
        auto it = byLabel.find(label);
        if (it == byLabel.end())
            return Error("order override: unknown instance " + quote(label));
        if (seen[static_cast<size_t>(it->second)])
            return Error("order override: instance " + quote(label) + " appears twice");
        seen[static_cast<size_t>(it->second)] = true;
        order.push_back(it->second);
    }
    for (size_t i = 0; i < seen.size(); ++i)
        if (!seen[i])
            return Error("order override: instance " + quote(s.instances[i].label) +
                         " is missing (the order lists " + std::to_string(order.size()) + " of " +
                         std::to_string(s.instances.size()) + ")");
    if (auto valid = validateOrder(s, order); !valid.ok())
        return Error("order override: " + valid.error().message());
    return order;
}

Status applyScopePins(const ir::Graph& graph, const Overrides& overrides, Schedule& s) {
    std::map<std::string, Scope> pinned;
    for (const Overrides::ScopePin& pin : overrides.scopes) {
        std::string what = "scope pin of " + quote(pin.tensor);
        auto [first, inserted] = pinned.emplace(pin.tensor, pin.scope);
        if (!inserted && first->second != pin.scope)
            return Error(what + ": the tensor is pinned twice, to different scopes");
        auto tensor = graph.findTensor(pin.tensor);
        if (!tensor)
            return Error(what + ": unknown tensor");
        ir::OpId producer = graph.tensor(*tensor).producer;
        if (producer == ir::kNoOp)
            return Error(what + ": a graph input or weight has no scope to pin");
        GroupId g = s.partition.groupOf(producer);
        if (groupOutput(s, g) != *tensor)
            return Error(what + ": not the output of a sub-graph (it belongs to group " +
                         partition::Partition::label(g) + ", whose output is " +
                         quote(graph.tensor(groupOutput(s, g)).name) + ")");
        for (InstanceId i : s.groups[static_cast<size_t>(g)].instances)
            s.instances[static_cast<size_t>(i)].scope = pin.scope;
    }
    return Status::success();
}

} // namespace stagecraft::schedule::detail
