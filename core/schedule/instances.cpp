// Sub-graph instances (GraphTurbo §3.3, Fig. 6).
//
//
// A group split by (dim, factor) becomes `factor` instances numbered 1..factor
// along the split dim, each computing its slice of the group output. Edges
// are inherited from the group edges: every producer instance to every
// consumer instance. An inherited edge is redundant (gray in Fig. 6) when the
// consumer instance does not read the producer instance's slice: the slices
// are compared as boxes, the consumer's need found by propagating its output
// slice backwards through its group's access maps (halos included). Only the
// needed edges are kept; redundantEdges() lists the others for display.

#include "partition/split_info.h"
#include "schedule/internal/stages.h"
#include "support/limits.h"
#include "support/strings.h"

#include <algorithm>

namespace stagecraft::schedule::detail {

using partition::Box;
using partition::BoxMap;

namespace {

/// What one instance costs in memory, edges, moves and plans included, and
/// what one examined producer/consumer instance pair costs: the caps of
/// checkInstanceCounts are the memory cap divided by these.
constexpr int64_t kBytesPerInstance = 4096;
constexpr int64_t kBytesPerEdgePair = 256;

} // namespace

const std::vector<int>& DimMatcher::map(GroupId group, ir::TensorId tensor) {
    auto key = std::make_pair(group, tensor);
    if (auto it = cache_.find(key); it != cache_.end())
        return it->second;
    ir::TensorId output = groupOutput(schedule_, group);
    const ir::Shape& shape = graph_.tensor(output).shape;
    std::vector<int> dims(shape.size(), -1);
    auto ops = schedule_.partition.ops(group);
    for (size_t k = 0; k < shape.size(); ++k) {
        if (shape[k] < 2)
            continue;
        BoxMap boxes =
            partition::instanceBoxes(graph_, semantics_, ops, output, static_cast<int>(k), 2, 0);
        const Box* box = boxes.find(tensor);
        if (box == nullptr)
            continue;
        std::vector<int> restricted = partition::restrictedDims(*box, graph_.tensor(tensor).shape);
        if (restricted.size() == 1)
            dims[k] = restricted.front();
    }
    return cache_.emplace(key, std::move(dims)).first->second;
}

ir::Shape DimMatcher::pieceShape(InstanceId instance, ir::TensorId tensor) {
    const Instance& inst = schedule_.instances[instance];
    const Group& group = schedule_.groups[inst.group];
    const ir::Shape& whole = graph_.tensor(tensor).shape;
    if (tensor == group.splitInfo.output)
        return inst.shape;
    if (!group.split || group.split->factor <= 1)
        return whole;
    BoxMap boxes = partition::instanceBoxes(graph_, semantics_, schedule_.partition.ops(inst.group),
                                            group.splitInfo.output, group.split->dim,
                                            group.split->factor, inst.index - 1);
    const Box* box = boxes.find(tensor);
    if (box == nullptr)
        return whole;
    ir::Shape shape;
    for (const ops::Interval& range : *box)
        shape.push_back(range.size());
    return shape;
}

Binding DimMatcher::bindingOn(InstanceId instance, ir::TensorId tensor) {
    const Instance& inst = schedule_.instances[instance];
    if (tensor == groupOutput(schedule_, inst.group))
        return inst.bind;
    const std::vector<int>& dims = map(inst.group, tensor);
    Binding b(graph_.tensor(tensor).shape.size(), 1);
    for (size_t k = 0; k < inst.bind.size() && k < dims.size(); ++k)
        if (dims[k] >= 0 && static_cast<size_t>(dims[k]) < b.size())
            b[static_cast<size_t>(dims[k])] = inst.bind[k];
    return b;
}

Binding DimMatcher::toOutputDims(GroupId group, ir::TensorId tensor, const Binding& onTensor) {
    if (tensor == groupOutput(schedule_, group))
        return onTensor;
    const std::vector<int>& dims = map(group, tensor);
    Binding b(dims.size(), 1);
    for (size_t k = 0; k < dims.size(); ++k)
        if (dims[k] >= 0 && static_cast<size_t>(dims[k]) < onTensor.size())
            b[k] = onTensor[static_cast<size_t>(dims[k])];
    return b;
}

const std::vector<ir::TensorId>& DimMatcher::shared(GroupId producer, GroupId consumer) {
    auto key = std::make_pair(producer, consumer);
    if (auto it = shared_.find(key); it != shared_.end())
        return it->second;
    return shared_.emplace(key, sharedTensors(schedule_, producer, consumer)).first->second;
}

std::vector<ir::TensorId> sharedTensors(const Schedule& s, GroupId producer, GroupId consumer) {
    auto inputs = s.partition.inputs(consumer);
    ir::TensorId primary = groupOutput(s, producer);
    std::vector<ir::TensorId> shared;
    for (ir::TensorId t : s.partition.outputs(producer))
        if (std::find(inputs.begin(), inputs.end(), t) != inputs.end())
            shared.insert(t == primary ? shared.begin() : shared.end(), t);
    return shared;
}

namespace {

bool intersects(const Box& a, const Box& b) {
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
        if (a[i].empty() || b[i].empty() || a[i].hi < b[i].lo || b[i].hi < a[i].lo)
            return false;
    return true;
}

void addInstances(const ir::Graph& graph, Schedule& s, GroupId g) {
    Group& group = s.groups[g];
    const ir::Tensor& out = graph.tensor(group.splitInfo.output);
    int64_t factor = group.split ? group.split->factor : 1;
    int dim = group.split ? group.split->dim : 0;
    int64_t footprint = group.split ? group.split->instanceBytes : group.splitInfo.peakBytes;
    for (int64_t i = 1; i <= factor; ++i) {
        Instance instance;
        instance.group = g;
        instance.index = static_cast<int>(i);
        instance.label = partition::Partition::label(g) + std::to_string(i);
        instance.shape = out.shape;
        if (!instance.shape.empty())
            instance.shape[static_cast<size_t>(dim)] /= factor;
        instance.footprintBytes = footprint;
        instance.fitsLocalBuffer = footprint <= s.capacityBytes;
        group.instances.push_back(InstanceId::at(s.instances.size()));
        s.instances.push_back(std::move(instance));
    }
}

} // namespace

/// Boxes of every tensor instance \p index (0-based) of group \p g touches.
/// A split instance computes its slice of the split output (the group's
/// other outputs are reached by the split, SplitInfo checks it); an unsplit
/// one computes every output of the group whole.
BoxMap sliceOf(const ir::Graph& graph, const partition::SemanticsCache& semantics,
               const Schedule& s, GroupId g, int64_t index) {
    const Group& group = s.groups[g];
    if (group.split && group.split->factor > 1)
        return partition::instanceBoxes(graph, semantics, s.partition.ops(g),
                                        group.splitInfo.output, group.split->dim,
                                        group.split->factor, index);
    std::vector<std::pair<ir::TensorId, Box>> seeds;
    for (ir::TensorId out : s.partition.outputs(g))
        seeds.emplace_back(out, partition::fullBox(graph.tensor(out).shape));
    if (seeds.empty()) // a group without outputs still computes its split output
        seeds.emplace_back(group.splitInfo.output,
                           partition::fullBox(graph.tensor(group.splitInfo.output).shape));
    return partition::propagateBoxes(graph, semantics, s.partition.ops(g), seeds);
}

namespace {

/// Boxes each instance of \p g produces or needs, computed once per instance.
std::vector<BoxMap> slicesOfGroup(const ir::Graph& graph,
                                  const partition::SemanticsCache& semantics, const Schedule& s,
                                  GroupId g) {
    std::vector<BoxMap> slices;
    const Group& group = s.groups[g];
    for (size_t i = 0; i < group.instances.size(); ++i)
        slices.push_back(sliceOf(graph, semantics, s, g, static_cast<int64_t>(i)));
    return slices;
}

/// Marks in \p needed (producer-major) the producer instances each consumer
/// instance reads \p tensor from.
void markNeeds(const ir::Graph& graph, const Schedule& s, GroupId producer, ir::TensorId tensor,
               const std::vector<BoxMap>& produced, const std::vector<BoxMap>& needed,
               std::vector<char>& needs) {
    const Group& p = s.groups[producer];
    size_t fp = p.instances.size(), fc = needed.size();
    bool sliced = p.split && p.splitInfo.output == tensor;
    Box whole = partition::fullBox(graph.tensor(tensor).shape);
    for (size_t k = 0; k < fc; ++k) {
        const Box* want = needed[k].find(tensor);
        if (want == nullptr || partition::boxElements(*want) == 0)
            continue;
        if (sliced) { // producer slices are consecutive ranges along the split dim
            int64_t length =
                graph.tensor(tensor).shape[static_cast<size_t>(p.split->dim)] / p.split->factor;
            const ops::Interval& range = (*want)[static_cast<size_t>(p.split->dim)];
            for (int64_t j = range.lo / length;
                 j <= range.hi / length && j < static_cast<int64_t>(fp); ++j)
                needs[static_cast<size_t>(j) * fc + k] = 1;
            continue;
        }
        for (size_t j = 0; j < fp; ++j) {
            const Box* made = produced[j].find(tensor);
            if (intersects(made != nullptr ? *made : whole, *want))
                needs[j * fc + k] = 1;
        }
    }
}

void addEdges(const ir::Graph& graph, Schedule& s, GroupId producer, GroupId consumer,
              const std::vector<BoxMap>& produced, const std::vector<BoxMap>& needed) {
    const Group& p = s.groups[producer];
    const Group& c = s.groups[consumer];
    std::vector<char> needs(p.instances.size() * c.instances.size(), 0);
    for (ir::TensorId t : sharedTensors(s, producer, consumer))
        markNeeds(graph, s, producer, t, produced, needed, needs);
    for (size_t j = 0; j < p.instances.size(); ++j)
        for (size_t k = 0; k < c.instances.size(); ++k)
            if (needs[j * c.instances.size() + k] != 0)
                s.edges.push_back({p.instances[j], c.instances[k], false});
}

int64_t factorOf(const Group& group) {
    return group.split ? group.split->factor : 1;
}

std::string describeGroup(const ir::Graph& graph, const Schedule& s, GroupId g) {
    const ir::Op& op = graph.op(s.partition.ops(g).front());
    return "group " + partition::Partition::label(g) + " (op " + quote(op.name) + ", " + op.type +
           ")";
}

/// The instances and the instance pairs whose edges are examined grow with
/// the split factors; hostile shapes (a Relu over 2^41 elements) would ask
/// for millions. Both are checked against the memory cap before anything is
/// allocated (docs/limits.md).
Status checkInstanceCounts(const ir::Graph& graph, const Schedule& s) {
    const int64_t maxInstances = memoryCap() / kBytesPerInstance;
    const int64_t maxPairs = memoryCap() / kBytesPerEdgePair;
    int64_t instances = 0;
    int64_t pairs = 0;
    for (GroupId g : s.groups.ids()) {
        int64_t factor = factorOf(s.groups[g]);
        instances += factor;
        if (instances > maxInstances)
            return Error(describeGroup(graph, s, g) + ": split into " + std::to_string(factor) +
                         " instances; the schedule would have more than " +
                         std::to_string(maxInstances) +
                         " instances (set STAGECRAFT_MAX_MEMORY to allow more)");
        for (GroupId c : s.partition.consumers(g)) {
            pairs += factor * factorOf(s.groups[c]);
            if (pairs > maxPairs)
                return Error(
                    describeGroup(graph, s, g) + " and " + describeGroup(graph, s, c) + ": " +
                    std::to_string(factor) + " x " + std::to_string(factorOf(s.groups[c])) +
                    " instance pairs; the schedule would examine more than " +
                    std::to_string(maxPairs) + " (set STAGECRAFT_MAX_MEMORY to allow more)");
        }
    }
    return Status::success();
}

} // namespace

Status buildInstances(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                      Schedule& s) {
    SC_RETURN_IF_ERROR(checkInstanceCounts(graph, s));
    s.instances.clear();
    s.edges.clear();
    for (GroupId g : s.groups.ids()) {
        s.groups[g].instances.clear();
        addInstances(graph, s, g);
    }
    IdVector<GroupId, std::vector<BoxMap>> slices(s.groups.size());
    for (GroupId g : s.groups.ids())
        slices[g] = slicesOfGroup(graph, semantics, s, g);
    for (GroupId g : s.groups.ids())
        for (GroupId c : s.partition.consumers(g))
            addEdges(graph, s, g, c, slices[g], slices[c]);
    return Status::success();
}

} // namespace stagecraft::schedule::detail

namespace stagecraft::schedule {

partition::BoxMap instanceSlices(const ir::Graph& graph, const Schedule& schedule, InstanceId id) {
    const Instance& inst = schedule.instances[id];
    return detail::sliceOf(graph, *schedule.semantics, schedule, inst.group, inst.index - 1);
}

std::vector<InstanceEdge> redundantEdges(const Schedule& s) {
    IdVector<InstanceId, std::vector<InstanceId>> succs(s.instances.size());
    for (const InstanceEdge& e : s.edges)
        succs[e.from].push_back(e.to);
    for (auto& list : succs)
        std::sort(list.begin(), list.end());
    std::vector<InstanceEdge> redundant;
    for (GroupId g : s.groups.ids())
        for (GroupId c : s.partition.consumers(g))
            for (InstanceId j : s.groups[g].instances)
                for (InstanceId k : s.groups[c].instances) {
                    const auto& list = succs[j];
                    if (!std::binary_search(list.begin(), list.end(), k))
                        redundant.push_back({j, k, true});
                }
    return redundant;
}

} // namespace stagecraft::schedule
