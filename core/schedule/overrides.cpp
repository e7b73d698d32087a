// User overrides of a schedule (issue: schedule documents). Each applies at
// the step it changes and is checked against the invariant it could break:
// merges must keep the sub-graph graph acyclic, a forced split must divide
// the dim and fit the level's capacity, a user order must be a topological
// permutation, a scope pin must name a sub-graph output. The grouping, split
// and scope checks are edits.h's, which front ends ask before offering an
// edit. A refused override says why in one line.

#include "schedule/edits.h"
#include "schedule/internal/overrides_apply.h"
#include "schedule/internal/stages.h"
#include "schedule/validate.h"
#include "support/strings.h"

#include <map>

namespace stagecraft::schedule {

namespace {

Expected<ir::OpId> findOp(const ir::Graph& graph, const std::string& name,
                          const std::string& what) {
    auto op = graph.findOp(name);
    if (!op)
        return Error(what + ": unknown op " + quote(name));
    return *op;
}

} // namespace

Expected<partition::Partition> regroup(const ir::Graph& graph, const partition::Partition& base,
                                       const Overrides& overrides) {
    partition::Partition current = base;
    for (const Overrides::Merge& merge : overrides.merges) {
        std::string what = "merge override (" + quote(merge.op1) + ", " + quote(merge.op2) + ")";
        SC_ASSIGN_OR_RETURN(ir::OpId a, findOp(graph, merge.op1, what));
        SC_ASSIGN_OR_RETURN(ir::OpId b, findOp(graph, merge.op2, what));
        auto merged = mergedPartition(graph, current, current.groupOf(a), current.groupOf(b));
        if (!merged.ok())
            return Error(what + ": " + merged.error().message());
        current = std::move(merged).value();
    }
    for (const Overrides::Ungroup& ungroup : overrides.ungroups) {
        std::string what = "ungroup override " + quote(ungroup.op);
        SC_ASSIGN_OR_RETURN(ir::OpId op, findOp(graph, ungroup.op, what));
        auto split = ungroupedPartition(graph, current, op);
        if (!split.ok())
            return Error(what + ": " + split.error().message());
        current = std::move(split).value();
    }
    return current;
}

namespace detail {

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
        auto candidate = forcedSplit(graph, semantics, s, g, split.dim, split.factor);
        if (!candidate.ok())
            return Error(what + ": " + candidate.error().message());
        Group& group = s.groups[g];
        group.split = *candidate;
        group.splitOverridden = true;
    }
    return Status::success();
}

Expected<std::vector<InstanceId>> userOrder(const Schedule& s,
                                            const std::vector<std::string>& labels) {
    std::map<std::string, InstanceId> byLabel;
    for (InstanceId i : s.instances.ids())
        byLabel[s.instances[i].label] = i;
    std::vector<InstanceId> order;
    IdVector<InstanceId, bool> seen(s.instances.size(), false);
    for (const std::string& label : labels) {
        auto it = byLabel.find(label);
        if (it == byLabel.end())
            return Error("order override: unknown instance " + quote(label));
        if (seen[it->second])
            return Error("order override: instance " + quote(label) + " appears twice");
        seen[it->second] = true;
        order.push_back(it->second);
    }
    for (InstanceId i : seen.ids())
        if (!seen[i])
            return Error("order override: instance " + quote(s.instances[i].label) +
                         " is missing (the order lists " + std::to_string(order.size()) + " of " +
                         std::to_string(s.instances.size()) + ")");
    if (auto valid = validateOrder(s, order); !valid.ok())
        return Error("order override: " + valid.error().message());
    return order;
}

Expected<IdVector<ir::OpId, char>> hostOps(const ir::Graph& graph, const arch::Arch& arch,
                                           const Overrides& overrides) {
    IdVector<ir::OpId, char> marked;
    for (const std::string& name : overrides.host) {
        SC_ASSIGN_OR_RETURN(ir::OpId op, findOp(graph, name, "host override"));
        if (!arch.fallbackCpu)
            return Error("host override of " + quote(name) + ": architecture " + quote(arch.name) +
                         " has no fallback CPU");
        if (marked.empty())
            marked = IdVector<ir::OpId, char>(graph.opCount(), 0);
        marked[op] = 1;
    }
    return marked;
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
        std::optional<GroupId> g = groupWithOutput(graph, s, *tensor);
        if (!g) {
            GroupId owner = s.partition.groupOf(producer);
            return Error(what + ": not the output of a sub-graph (it belongs to group " +
                         partition::Partition::label(owner) + ", whose output is " +
                         quote(graph.tensor(groupOutput(s, owner)).name) + ")");
        }
        for (InstanceId i : s.groups[*g].instances)
            s.instances[i].scope = pin.scope;
    }
    return Status::success();
}

} // namespace detail

} // namespace stagecraft::schedule
