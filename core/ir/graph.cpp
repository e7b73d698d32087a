#include "ir/graph.h"

#include "support/strings.h"

#include <queue>

#include <algorithm>
#include <functional>
#include <set>

namespace stagecraft::ir {

namespace {

std::string describeOp(const Op& op) {
    return quote(op.name) + " (" + op.type + ")";
}

} // namespace

TensorId Graph::addTensor(std::string name, DType dtype, Shape shape, WeightPtr data) {
    TensorId id = tensors_.nextId();
    auto [it, inserted] = tensorByName_.emplace(name, id);
    SC_ASSERT(inserted, "tensor names must be unique");
    Tensor tensor;
    tensor.name = std::move(name);
    tensor.dtype = dtype;
    tensor.shape = std::move(shape);
    tensor.data = std::move(data);
    tensors_.push_back(std::move(tensor));
    return id;
}

OpId Graph::addOp(Op op) {
    OpId id = ops_.nextId();
    op.kind = opKindOf(op.type, op.domain);
    for (size_t slot = 0; slot < op.inputs.size(); ++slot) {
        TensorId input = op.inputs[slot];
        if (input == kNoTensor)
            continue;
        SC_ASSERT(tensors_.contains(input), "bad input tensor");
        tensors_[input].uses.push_back({id, static_cast<int>(slot)});
    }
    for (TensorId output : op.outputs) {
        SC_ASSERT(tensors_.contains(output), "bad output tensor");
        Tensor& tensor = tensors_[output];
        SC_ASSERT(tensor.producer == kNoOp, "a tensor can only have one producer");
        tensor.producer = id;
    }
    ops_.push_back(std::move(op));
    removed_.push_back(false);
    return id;
}

bool Graph::isGraphInput(TensorId id) const {
    return std::find(inputs_.begin(), inputs_.end(), id) != inputs_.end();
}

bool Graph::isGraphOutput(TensorId id) const {
    return std::find(outputs_.begin(), outputs_.end(), id) != outputs_.end();
}

std::span<const Op> Graph::ops() const {
    SC_ASSERT(removedCount_ == 0, "ops() needs compact() after removals");
    return ops_.values();
}

std::optional<TensorId> Graph::findTensor(std::string_view name) const {
    auto it = tensorByName_.find(std::string(name));
    if (it == tensorByName_.end())
        return std::nullopt;
    return it->second;
}

std::optional<OpId> Graph::findOp(std::string_view name) const {
    for (OpId id : ops_.ids())
        if (!isRemoved(id) && ops_[id].name == name)
            return id;
    return std::nullopt;
}

void Graph::replaceUses(TensorId from, TensorId to) {
    if (from == to)
        return;
    std::vector<Use> uses = tensors_[from].uses;
    for (const Use& use : uses)
        setOpInput(use.op, use.slot, to);
    for (TensorId& output : outputs_)
        if (output == from)
            output = to;
}

void Graph::setOpInput(OpId opId, int slot, TensorId tensor) {
    Op& op = ops_[opId];
    TensorId old = op.inputs[static_cast<size_t>(slot)];
    if (old == tensor)
        return;
    if (old != kNoTensor) {
        auto& uses = tensors_[old].uses;
        uses.erase(std::remove(uses.begin(), uses.end(), Use{opId, slot}), uses.end());
    }
    op.inputs[static_cast<size_t>(slot)] = tensor;
    if (tensor != kNoTensor) {
        auto& uses = tensors_[tensor].uses;
        Use use{opId, slot};
        uses.insert(std::upper_bound(uses.begin(), uses.end(), use,
                                     [](const Use& a, const Use& b) {
                                         return a.op != b.op ? a.op < b.op : a.slot < b.slot;
                                     }),
                    use);
    }
}

void Graph::renameTensor(TensorId id, std::string name) {
    Tensor& tensor = tensors_[id];
    if (tensor.name == name)
        return;
    auto [it, inserted] = tensorByName_.emplace(name, id);
    SC_ASSERT(inserted, "renamed tensor to a name in use");
    tensorByName_.erase(tensor.name);
    tensor.name = std::move(name);
}

void Graph::removeOp(OpId opId) {
    if (isRemoved(opId))
        return;
    Op& op = ops_[opId];
    for (size_t slot = 0; slot < op.inputs.size(); ++slot)
        setOpInput(opId, static_cast<int>(slot), kNoTensor);
    for (TensorId output : op.outputs)
        tensors_[output].producer = kNoOp;
    removed_[opId.index()] = true;
    ++removedCount_;
}

Status Graph::compact() {
    auto order = topologicalOrder(*this);
    if (!order.ok())
        return order.error();

    IdVector<TensorId, char> keepTensor(tensors_.size(), false);
    for (TensorId id : inputs_)
        keepTensor[id] = true;
    for (TensorId id : outputs_)
        keepTensor[id] = true;
    for (OpId id : *order) {
        for (TensorId t : ops_[id].inputs)
            if (t != kNoTensor)
                keepTensor[t] = true;
        for (TensorId t : ops_[id].outputs)
            keepTensor[t] = true;
    }

    IdVector<TensorId, TensorId> newTensorId(tensors_.size(), kNoTensor);
    Graph rebuilt;
    rebuilt.info = info;
    for (TensorId id : tensors_.ids()) {
        if (!keepTensor[id])
            continue;
        Tensor& t = tensors_[id];
        newTensorId[id] =
            rebuilt.addTensor(std::move(t.name), t.dtype, std::move(t.shape), std::move(t.data));
    }
    auto remap = [&](TensorId id) {
        return id == kNoTensor ? kNoTensor : newTensorId[id];
    };
    for (OpId id : *order) {
        Op op = std::move(ops_[id]);
        std::transform(op.inputs.begin(), op.inputs.end(), op.inputs.begin(), remap);
        std::transform(op.outputs.begin(), op.outputs.end(), op.outputs.begin(), remap);
        rebuilt.addOp(std::move(op));
    }
    std::vector<TensorId> inputs, outputs;
    std::transform(inputs_.begin(), inputs_.end(), std::back_inserter(inputs), remap);
    std::transform(outputs_.begin(), outputs_.end(), std::back_inserter(outputs), remap);
    rebuilt.setInputs(std::move(inputs));
    rebuilt.setOutputs(std::move(outputs));
    *this = std::move(rebuilt);
    return Status::success();
}

namespace {

/// Finds one cycle among the ops Kahn's algorithm could not order and names it.
Error cycleError(const Graph& graph, const IdVector<OpId, int>& pendingInputs) {
    // Walk backwards from any unordered op through unordered producers until
    // an op repeats: the repeated stretch is a cycle.
    OpId start = kNoOp;
    for (OpId id : pendingInputs.ids())
        if (!graph.isRemoved(id) && pendingInputs[id] > 0) {
            start = id;
            break;
        }
    IdVector<OpId, int> seenAt(graph.opCount(), -1);
    std::vector<OpId> path;
    OpId current = start;
    while (current != kNoOp && seenAt[current] < 0) {
        seenAt[current] = static_cast<int>(path.size());
        path.push_back(current);
        OpId next = kNoOp;
        for (TensorId input : graph.op(current).inputs) {
            if (input == kNoTensor)
                continue;
            OpId producer = graph.tensor(input).producer;
            if (producer != kNoOp && !graph.isRemoved(producer) && pendingInputs[producer] > 0) {
                next = producer;
                break;
            }
        }
        current = next;
    }
    // path holds current, then its producer, its producer's producer...: the
    // cycle read forwards is current, then that stretch reversed, then current.
    std::vector<std::string> names;
    if (current != kNoOp) {
        names.push_back(describeOp(graph.op(current)));
        for (size_t i = path.size(); i-- > static_cast<size_t>(seenAt[current]) + 1;)
            names.push_back(describeOp(graph.op(path[i])));
        names.push_back(describeOp(graph.op(current)));
    }
    return Error("the graph has a cycle: " + join(names, " -> "));
}

} // namespace

Expected<std::vector<OpId>> topologicalOrder(const Graph& graph) {
    size_t count = graph.opCount();
    IdVector<OpId, int> pendingInputs(count, 0);
    IdVector<OpId, std::vector<OpId>> consumers(count);
    for (OpId id : graph.opIds()) {
        if (graph.isRemoved(id))
            continue;
        for (TensorId input : graph.op(id).inputs) {
            if (input == kNoTensor)
                continue;
            OpId producer = graph.tensor(input).producer;
            if (producer == kNoOp || graph.isRemoved(producer))
                continue;
            ++pendingInputs[id];
            consumers[producer].push_back(id);
        }
    }
    std::priority_queue<OpId, std::vector<OpId>, std::greater<>> ready;
    size_t live = 0;
    for (OpId id : graph.opIds()) {
        if (graph.isRemoved(id))
            continue;
        ++live;
        if (pendingInputs[id] == 0)
            ready.push(id);
    }
    std::vector<OpId> order;
    order.reserve(live);
    while (!ready.empty()) {
        OpId id = ready.top();
        ready.pop();
        order.push_back(id);
        for (OpId consumer : consumers[id])
            if (--pendingInputs[consumer] == 0)
                ready.push(consumer);
    }
    if (order.size() != live)
        return cycleError(graph, pendingInputs);
    return order;
}

namespace {

Status validateLinks(const Graph& graph) {
    for (OpId id : graph.opIds()) {
        if (graph.isRemoved(id))
            return Error("op " + describeOp(graph.op(id)) + " is removed but not compacted");
        const Op& op = graph.op(id);
        for (size_t slot = 0; slot < op.inputs.size(); ++slot) {
            TensorId t = op.inputs[slot];
            if (t == kNoTensor)
                continue;
            if (!graph.hasTensor(t))
                return Error("op " + describeOp(op) + " reads a tensor id out of range");
            const auto& uses = graph.tensor(t).uses;
            if (std::find(uses.begin(), uses.end(), Use{id, static_cast<int>(slot)}) == uses.end())
                return Error("tensor " + quote(graph.tensor(t).name) +
                             " does not list its use by " + describeOp(op));
            OpId producer = graph.tensor(t).producer;
            if (producer != kNoOp && producer >= id)
                return Error("op " + describeOp(op) + " comes before the producer of its input " +
                             quote(graph.tensor(t).name));
        }
        for (TensorId t : op.outputs)
            if (graph.tensor(t).producer != id)
                return Error("tensor " + quote(graph.tensor(t).name) + " does not name " +
                             describeOp(op) + " as its producer");
    }
    return Status::success();
}

Status validateTensors(const Graph& graph) {
    for (TensorId id : graph.tensorIds()) {
        const Tensor& t = graph.tensor(id);
        int writers =
            (t.producer != kNoOp) + (t.isConstant() ? 1 : 0) + (graph.isGraphInput(id) ? 1 : 0);
        if (writers != 1)
            return Error("tensor " + quote(t.name) +
                         " must come from exactly one of an op, a graph input or constant data");
        for (int64_t dim : t.shape)
            if (dim < 0)
                return Error("tensor " + quote(t.name) + " has a dynamic shape " +
                             formatShape(t.shape));
        if (t.dtype == DType::Undefined)
            return Error("tensor " + quote(t.name) + " has no element type");
        if (graph.findTensor(t.name) != id)
            return Error("tensor name " + quote(t.name) + " is not unique");
        for (const Use& use : t.uses)
            if (graph.op(use.op).inputs[static_cast<size_t>(use.slot)] != id)
                return Error("tensor " + quote(t.name) + " lists a use that does not read it");
        if (t.isConstant() && t.data->byteSize() != t.byteSize())
            return Error("tensor " + quote(t.name) + " has " + std::to_string(t.data->byteSize()) +
                         " bytes of data for " + std::to_string(t.byteSize()) + " bytes of shape");
    }
    return Status::success();
}

} // namespace

Status validateGraph(const Graph& graph) {
    SC_RETURN_IF_ERROR(validateLinks(graph));
    SC_RETURN_IF_ERROR(validateTensors(graph));
    for (TensorId id : graph.outputs())
        if (!graph.hasTensor(id))
            return Error("a graph output refers to a missing tensor");
    return Status::success();
}

std::vector<std::string> graphInputsBehind(const Graph& graph, TensorId tensor, size_t maxVisited) {
    std::set<std::string> names;
    std::vector<TensorId> todo{tensor};
    std::set<TensorId> seen;
    while (!todo.empty() && seen.size() < maxVisited) {
        TensorId id = todo.back();
        todo.pop_back();
        if (id == kNoTensor || !seen.insert(id).second)
            continue;
        const Tensor& t = graph.tensor(id);
        if (graph.isGraphInput(id))
            names.insert(t.name);
        else if (t.producer != kNoOp)
            for (TensorId in : graph.op(t.producer).inputs)
                todo.push_back(in);
    }
    return {names.begin(), names.end()};
}

} // namespace stagecraft::ir
