// Resources a schedule promises (GraphTurbo §3.1, §3.4, §3.5): the capacity
// is the cluster's aggregate activation LB (or its GB when Algorithm 1 fills
// GB) and every instance is marked by it; an instance's footprint holds at
// least its output slice; an instance that does not fit LB does not declare
// its output there; bindings divide the instance shapes, use at most the
// cluster's cores and bind no dim the producing op annotates as not bindable;
// graph outputs go to DDR; data moves read producers the consumer depends on,
// and every consumer with several producer instances of one group gets a
// concat of exactly those.

#include "partition/slices.h"
#include "schedule_checks.h"

#include <algorithm>
#include <map>
#include <span>

namespace stagecraft::test::detail {

namespace {

using partition::GroupId;
using schedule::InstanceId;
using schedule::Schedule;

std::string label(const Schedule& s, InstanceId i) {
    return "'" + s.instances[i].label + "'";
}

/// The bytes Algorithm 1 fills at \p level: the cluster's aggregate LB for
/// activations (docs/arch.md), or its global buffer (DDR without one).
int64_t levelCapacity(const arch::Arch& arch, schedule::Level level) {
    if (level == schedule::Level::LB)
        return arch::aggregateActivationBytes(arch);
    return arch.cluster.globalBuffer ? arch.cluster.globalBuffer->bytes : arch.ddr.bytes;
}

std::string bindingProblem(const std::string& what, const schedule::Binding& bind,
                           const ir::Shape& shape, int64_t cores) {
    if (bind.size() != shape.size())
        return what + " has a binding of rank " + std::to_string(bind.size()) + " for shape " +
               ir::formatShape(shape);
    for (size_t d = 0; d < bind.size(); ++d)
        if (bind[d] < 1 || shape[d] % bind[d] != 0)
            return what + ": binding factor " + std::to_string(bind[d]) + " does not divide " +
                   ir::formatShape(shape);
    if (schedule::coresUsed(bind) > cores)
        return what + " uses " + std::to_string(schedule::coresUsed(bind)) + " cores of " +
               std::to_string(cores);
    return {};
}

/// Bindable flags of the loops over \p tensor's dims in its producer's nest.
std::vector<bool> bindable(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                           ir::TensorId tensor) {
    ir::OpId producer = graph.tensor(tensor).producer;
    const auto& outputs = graph.op(producer).outputs;
    auto slot =
        static_cast<size_t>(std::find(outputs.begin(), outputs.end(), tensor) - outputs.begin());
    const ops::LoopNest& nest = semantics.of(producer).nests[slot];
    std::vector<bool> flags;
    for (int d = 0; d < nest.outputRank; ++d)
        flags.push_back(nest.loops[static_cast<size_t>(d)].bindable);
    return flags;
}

std::string instanceProblem(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                            const arch::Arch& arch, const Schedule& s, InstanceId id) {
    const schedule::Instance& inst = s.instances[id];
    std::string what = "instance " + label(s, id);
    ir::TensorId out = s.groups[inst.group].splitInfo.output;
    if (inst.fitsLocalBuffer != (inst.footprintBytes <= s.capacityBytes))
        return what + " is marked " + (inst.fitsLocalBuffer ? "fitting" : "not fitting") +
               " with " + std::to_string(inst.footprintBytes) + " bytes for an LB of " +
               std::to_string(s.capacityBytes);
    int64_t slice = ir::elementCount(inst.shape) * ir::dtypeSize(graph.tensor(out).dtype);
    if (inst.footprintBytes < slice)
        return what + " has a footprint of " + std::to_string(inst.footprintBytes) +
               " bytes, less than its output slice of " + std::to_string(slice);
    if (s.level == schedule::Level::LB && !inst.fitsLocalBuffer &&
        inst.scope == schedule::Scope::LB)
        return what + " does not fit LB but declares its output there";
    if (graph.isGraphOutput(out) && inst.scope != schedule::Scope::DDR)
        return what + " writes graph output " + graph.tensor(out).name + " outside DDR";
    if (std::string problem =
            bindingProblem(what, inst.bind, inst.shape, arch::coresPerCluster(arch));
        !problem.empty())
        return problem;
    std::vector<bool> flags = bindable(graph, semantics, out);
    for (size_t d = 0; d < flags.size() && d < inst.bind.size(); ++d)
        if (!flags[d] && inst.bind[d] > 1)
            return what + " binds dim " + std::to_string(d) + " of " + graph.tensor(out).name +
                   ", which its op annotates as not bindable";
    return {};
}

/// Producer instances of each instance over the needed edges, ascending.
using Preds = IdVector<InstanceId, std::vector<InstanceId>>;

bool dependsOn(const Preds& preds, InstanceId consumer, InstanceId producer) {
    const auto& list = preds[consumer];
    return std::binary_search(list.begin(), list.end(), producer);
}

std::string tensorName(const ir::Graph& graph, ir::TensorId t) {
    return graph.hasTensor(t) ? graph.tensor(t).name : std::string("no tensor");
}

/// Names of the tensors in both \p outputs and \p inputs.
std::string passed(const ir::Graph& graph, std::span<const ir::TensorId> outputs,
                   std::span<const ir::TensorId> inputs) {
    std::string names;
    for (ir::TensorId t : outputs)
        if (std::find(inputs.begin(), inputs.end(), t) != inputs.end())
            names += (names.empty() ? "" : ", ") + graph.tensor(t).name;
    return names;
}

std::string moveProblem(const ir::Graph& graph, const arch::Arch& arch, const Schedule& s,
                        const schedule::DataMove& move, const Preds& preds) {
    auto valid = [&](InstanceId i) {
        return s.instances.contains(i);
    };
    if (!valid(move.consumer) || move.sources.empty())
        return "a data move has no consumer or no source";
    std::string what =
        std::string(schedule::moveKindName(move.kind)) + " for " + label(s, move.consumer);
    GroupId group = partition::kNoGroup;
    for (InstanceId src : move.sources) {
        if (!valid(src))
            return what + " reads a missing instance";
        if (!dependsOn(preds, move.consumer, src))
            return what + " reads " + label(s, src) + ", which it does not depend on";
        GroupId g = s.instances[src].group;
        if (group != partition::kNoGroup && g != group)
            return what + " joins pieces of several groups";
        group = g;
    }
    auto outputs = s.partition.outputs(group);
    auto inputs = s.partition.inputs(s.instances[move.consumer].group);
    if (std::find(outputs.begin(), outputs.end(), move.tensor) == outputs.end() ||
        std::find(inputs.begin(), inputs.end(), move.tensor) == inputs.end())
        return what + " moves " + tensorName(graph, move.tensor) +
               ", which is not passed from the producer's group to the consumer's (passed: " +
               passed(graph, outputs, inputs) + ")";
    bool concat = move.kind == schedule::DataMove::Kind::Concat;
    if (concat != (move.sources.size() >= 2))
        return what + " has " + std::to_string(move.sources.size()) + " sources";
    if (move.kind == schedule::DataMove::Kind::Copy && move.fromScope == move.scope)
        return what + " copies within one scope";
    return bindingProblem(what, move.bind, move.shape, arch::coresPerCluster(arch));
}

/// §3.5: a consumer with several producer instances of one group gets a
/// concat of exactly those.
std::string concatProblem(const Schedule& s, const Preds& preds) {
    IdVector<InstanceId, std::vector<std::vector<InstanceId>>> concats(s.instances.size());
    for (const schedule::DataMove& move : s.moves)
        if (move.kind == schedule::DataMove::Kind::Concat) {
            std::vector<InstanceId> sources = move.sources;
            std::sort(sources.begin(), sources.end());
            concats[move.consumer].push_back(std::move(sources));
        }
    for (InstanceId c : preds.ids()) {
        std::map<GroupId, std::vector<InstanceId>> pieces;
        for (InstanceId p : preds[c])
            pieces[s.instances[p].group].push_back(p);
        for (const auto& [group, sources] : pieces)
            if (sources.size() >= 2 &&
                std::find(concats[c].begin(), concats[c].end(), sources) == concats[c].end())
                return "instance " + label(s, c) + " reads " + std::to_string(sources.size()) +
                       " instances of group " + partition::Partition::label(group) +
                       " without a concat of them";
    }
    return {};
}

} // namespace

std::string resourceProblem(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                            const arch::Arch& arch, const Schedule& s) {
    if (s.capacityBytes != levelCapacity(arch, s.level))
        return "the " + std::string(schedule::levelName(s.level)) + " capacity is " +
               std::to_string(s.capacityBytes) + " bytes, not the " +
               std::to_string(levelCapacity(arch, s.level)) + " of the architecture";
    for (InstanceId i : s.instances.ids())
        if (std::string problem = instanceProblem(graph, semantics, arch, s, i); !problem.empty())
            return problem;
    Preds preds(s.instances.size());
    for (const schedule::InstanceEdge& e : s.edges)
        if (!e.redundant)
            preds[e.to].push_back(e.from);
    for (auto& list : preds)
        std::sort(list.begin(), list.end());
    for (const schedule::DataMove& move : s.moves)
        if (std::string problem = moveProblem(graph, arch, s, move, preds); !problem.empty())
            return problem;
    return concatProblem(s, preds);
}

} // namespace stagecraft::test::detail
