// Schedule invariants (validateOrder, validateSchedule): what every test
// checks after scheduling.

#include "schedule/validate.h"

#include "schedule/internal/stages.h"
#include "support/strings.h"

namespace stagecraft::schedule {

namespace {

const std::string& labelOf(const Schedule& s, InstanceId i) {
    return s.instances[i].label;
}

Status validateInstances(const ir::Graph& graph, const Schedule& s) {
    for (GroupId g : s.groups.ids()) {
        const Group& group = s.groups[g];
        int64_t factor = group.split ? group.split->factor : 1;
        std::string name = "group " + partition::Partition::label(g);
        if (static_cast<int64_t>(group.instances.size()) != factor)
            return Error(name + " has " + std::to_string(group.instances.size()) +
                         " instances for split factor " + std::to_string(factor));
        const ir::Shape& shape = graph.tensor(group.splitInfo.output).shape;
        for (size_t k = 0; k < group.instances.size(); ++k) {
            const Instance& inst = s.instances[group.instances[k]];
            if (inst.group != g || inst.index != static_cast<int>(k) + 1)
                return Error(name + ": instance " + inst.label + " is misnumbered");
            ir::Shape whole = inst.shape;
            if (group.split)
                whole[static_cast<size_t>(group.split->dim)] *= factor;
            if (whole != shape)
                return Error("instance " + inst.label + " of shape " + ir::formatShape(inst.shape) +
                             " does not tile the group output " + ir::formatShape(shape));
            if (inst.fitsLocalBuffer != (inst.footprintBytes <= s.capacityBytes))
                return Error("instance " + inst.label + " is marked wrongly for the LB capacity");
        }
    }
    return Status::success();
}

Status validateEdges(const Schedule& s) {
    for (const InstanceEdge& e : s.edges) {
        if (!s.instances.contains(e.from) || !s.instances.contains(e.to))
            return Error("an instance edge refers to a missing instance");
        GroupId from = s.instances[e.from].group;
        GroupId to = s.instances[e.to].group;
        auto consumers = s.partition.consumers(from);
        if (std::find(consumers.begin(), consumers.end(), to) == consumers.end())
            return Error("edge " + labelOf(s, e.from) + " -> " + labelOf(s, e.to) +
                         " has no group edge");
    }
    return Status::success();
}

Status validateBindings(const ir::Graph& graph, const arch::Arch& arch, const Schedule& s) {
    int64_t cores = arch::coresPerCluster(arch);
    for (const Instance& inst : s.instances) {
        if (inst.bind.size() != inst.shape.size())
            return Error("instance " + inst.label + " has a binding of the wrong rank");
        for (size_t d = 0; d < inst.bind.size(); ++d)
            if (inst.bind[d] < 1 || inst.shape[d] % inst.bind[d] != 0)
                return Error("instance " + inst.label + ": binding factor " +
                             std::to_string(inst.bind[d]) + " does not divide dim " +
                             std::to_string(d) + " of " + ir::formatShape(inst.shape));
        if (coresUsed(inst.bind) > cores)
            return Error("instance " + inst.label + " is bound to " +
                         std::to_string(coresUsed(inst.bind)) + " cores, more than the cluster's " +
                         std::to_string(cores));
        if (inst.firstCore < 0 || inst.firstCore + coresUsed(inst.bind) > cores)
            return Error("instance " + inst.label + " runs on cores from " +
                         std::to_string(inst.firstCore) + ", past the cluster's " +
                         std::to_string(cores));
        if (graph.isGraphOutput(groupOutput(s, inst.group)) && inst.scope != Scope::DDR)
            return Error("instance " + inst.label + " writes a graph output outside DDR");
    }
    return Status::success();
}

/// The instances of a stage (IOS's concurrent execution) run at once, so
/// their cores must not overlap, and a stage has a first instance.
Status validateStages(const Schedule& s) {
    std::vector<std::pair<int64_t, int64_t>> used; // [first, end) of the stage's instances
    for (size_t i = 0; i < s.order.size(); ++i) {
        const Instance& inst = s.instances[s.order[i]];
        int64_t first = inst.firstCore, end = inst.firstCore + coresUsed(inst.bind);
        if (!inst.joinsStage) {
            used.assign(1, {first, end});
            continue;
        }
        if (i == 0)
            return Error("instance " + inst.label + " joins a stage but runs first");
        for (auto [from, to] : used)
            if (first < to && from < end)
                return Error("instance " + inst.label + " joins a stage on cores " +
                             std::to_string(first) + ".." + std::to_string(end - 1) +
                             " that another instance of the stage uses");
        used.push_back({first, end});
    }
    return Status::success();
}

Status validateMoves(const Schedule& s) {
    for (const DataMove& move : s.moves) {
        if (!s.instances.contains(move.consumer) || move.sources.empty())
            return Error("a data move has no consumer or no source");
        for (InstanceId src : move.sources)
            if (!s.instances.contains(src))
                return Error("a data move reads a missing instance");
        if (move.kind == DataMove::Kind::Concat && move.sources.size() < 2)
            return Error("a concat for " + labelOf(s, move.consumer) +
                         " joins fewer than two pieces");
    }
    return Status::success();
}

} // namespace

Status validateOrder(const Schedule& s, std::span<const InstanceId> order) {
    IdVector<InstanceId, int64_t> position(s.instances.size(), -1);
    for (size_t k = 0; k < order.size(); ++k) {
        InstanceId i = order[k];
        if (!s.instances.contains(i))
            return Error("the order names a missing instance");
        if (position[i] >= 0)
            return Error("instance " + quote(labelOf(s, i)) + " appears twice in the order");
        position[i] = static_cast<int64_t>(k);
    }
    for (InstanceId i : position.ids())
        if (position[i] < 0)
            return Error("instance " + quote(s.instances[i].label) + " is missing from the order");
    for (const InstanceEdge& e : s.edges)
        if (!e.redundant && position[e.to] < position[e.from])
            return Error("instance " + quote(labelOf(s, e.to)) + " comes before its producer " +
                         quote(labelOf(s, e.from)));
    return Status::success();
}

Status validateSchedule(const ir::Graph& graph, const arch::Arch& arch, const Schedule& s) {
    SC_RETURN_IF_ERROR(partition::validatePartition(graph, s.partition));
    if (s.groups.size() != s.partition.groupCount())
        return Error("the schedule has " + std::to_string(s.groups.size()) +
                     " groups for a partition of " + std::to_string(s.partition.groupCount()));
    SC_RETURN_IF_ERROR(validateInstances(graph, s));
    SC_RETURN_IF_ERROR(validateEdges(s));
    SC_RETURN_IF_ERROR(validateOrder(s, s.order));
    SC_RETURN_IF_ERROR(validateBindings(graph, arch, s));
    SC_RETURN_IF_ERROR(validateStages(s));
    return validateMoves(s);
}

} // namespace stagecraft::schedule
