#include "ir/graph.h"

#include "support/strings.h"

#include <queue>

#include <algorithm>
#include <functional>

namespace stagecraft::ir {

namespace {

std::string describeOp(const Op& op) {
    return quote(op.name) + " (" + op.type + ")";
}

} // namespace

TensorId Graph::addTensor(std::string name, DType dtype, Shape shape, WeightPtr data) {
    auto id = static_cast<TensorId>(tensors_.size());
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
    auto id = static_cast<OpId>(ops_.size());
    op.kind = opKindOf(op.type, op.domain);
    for (size_t slot = 0; slot < op.inputs.size(); ++slot) {
        TensorId input = op.inputs[slot];
        if (input == kNoTensor)
            continue;
        SC_ASSERT(input >= 0 && static_cast<size_t>(input) < tensors_.size(), "bad input tensor");
        tensors_[static_cast<size_t>(input)].uses.push_back({id, static_cast<int>(slot)});
    }
    for (TensorId output : op.outputs) {
        SC_ASSERT(output >= 0 && static_cast<size_t>(output) < tensors_.size(),
                  "bad output tensor");
        Tensor& tensor = tensors_[static_cast<size_t>(output)];
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
    return ops_;
}

std::optional<TensorId> Graph::findTensor(std::string_view name) const {
    auto it = tensorByName_.find(std::string(name));
    if (it == tensorByName_.end())
        return std::nullopt;
    return it->second;
}

std::optional<OpId> Graph::findOp(std::string_view name) const {
    for (size_t i = 0; i < ops_.size(); ++i)
        if (!removed_[i] && ops_[i].name == name)
            return static_cast<OpId>(i);
    return std::nullopt;
}

void Graph::replaceUses(TensorId from, TensorId to) {
    if (from == to)
        return;
    std::vector<Use> uses = tensors_[static_cast<size_t>(from)].uses;
    for (const Use& use : uses)
        setOpInput(use.op, use.slot, to);
    for (TensorId& output : outputs_)
        if (output == from)
            output = to;
}

void Graph::setOpInput(OpId opId, int slot, TensorId tensor) {
    Op& op = ops_[static_cast<size_t>(opId)];
    TensorId old = op.inputs[static_cast<size_t>(slot)];
    if (old == tensor)
        return;
    if (old != kNoTensor) {
        auto& uses = tensors_[static_cast<size_t>(old)].uses;
        uses.erase(std::remove(uses.begin(), uses.end(), Use{opId, slot}), uses.end());
    }
    op.inputs[static_cast<size_t>(slot)] = tensor;
    if (tensor != kNoTensor) {
        auto& uses = tensors_[static_cast<size_t>(tensor)].uses;
        Use use{opId, slot};
        uses.insert(std::upper_bound(uses.begin(), uses.end(), use,
                                     [](const Use& a, const Use& b) {
                                         return a.op != b.op ? a.op < b.op : a.slot < b.slot;
                                     }),
                    use);
    }
}

void Graph::renameTensor(TensorId id, std::string name) {
    Tensor& tensor = tensors_[static_cast<size_t>(id)];
    if (tensor.name == name)
        return;
    auto [it, inserted] = tensorByName_.emplace(name, id);
    SC_ASSERT(inserted, "renamed tensor to a name in use");
    tensorByName_.erase(tensor.name);
    tensor.name = std::move(name);
}

void Graph::removeOp(OpId opId) {
    if (removed_[static_cast<size_t>(opId)])
        return;
    Op& op = ops_[static_cast<size_t>(opId)];
    for (size_t slot = 0; slot < op.inputs.size(); ++slot)
        setOpInput(opId, static_cast<int>(slot), kNoTensor);
    for (TensorId output : op.outputs)
        tensors_[static_cast<size_t>(output)].producer = kNoOp;
    removed_[static_cast<size_t>(opId)] = true;
    ++removedCount_;
}

Status Graph::compact() {
    auto order = topologicalOrder(*this);
    if (!order.ok())
        return order.error();

    std::vector<bool> keepTensor(tensors_.size(), false);
    for (TensorId id : inputs_)
        keepTensor[static_cast<size_t>(id)] = true;
    for (TensorId id : outputs_)
        keepTensor[static_cast<size_t>(id)] = true;
    for (OpId id : *order) {
        for (TensorId t : ops_[static_cast<size_t>(id)].inputs)
            if (t != kNoTensor)
                keepTensor[static_cast<size_t>(t)] = true;
        for (TensorId t : ops_[static_cast<size_t>(id)].outputs)
            keepTensor[static_cast<size_t>(t)] = true;
    }

    std::vector<TensorId> newTensorId(tensors_.size(), kNoTensor);
    Graph rebuilt;
    rebuilt.info = info;
    for (size_t i = 0; i < tensors_.size(); ++i) {
        if (!keepTensor[i])
            continue;
        Tensor& t = tensors_[i];
        newTensorId[i] =
            rebuilt.addTensor(std::move(t.name), t.dtype, std::move(t.shape), std::move(t.data));
    }
    auto remap = [&](TensorId id) {
        return id == kNoTensor ? kNoTensor : newTensorId[static_cast<size_t>(id)];
    };
    for (OpId id : *order) {
        Op op = std::move(ops_[static_cast<size_t>(id)]);
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
Error cycleError(const Graph& graph, const std::vector<int>& pendingInputs) {
    // Walk backwards from any unordered op through unordered producers until
    // an op repeats: the repeated stretch is a cycle.
    OpId start = kNoOp;
    for (size_t i = 0; i < pendingInputs.size(); ++i)
        if (!graph.isRemoved(static_cast<OpId>(i)) && pendingInputs[i] > 0) {
            start = static_cast<OpId>(i);
            break;
        }
    std::vector<int> seenAt(graph.opCount(), -1);
    std::vector<OpId> path;
    OpId current = start;
    while (current != kNoOp && seenAt[static_cast<size_t>(current)] < 0) {
        seenAt[static_cast<size_t>(current)] = static_cast<int>(path.size());
        path.push_back(current);
        OpId next = kNoOp;
        for (TensorId input : graph.op(current).inputs) {
            if (input == kNoTensor)
                continue;
            OpId producer = graph.tensor(input).producer;
            if (producer != kNoOp && !graph.isRemoved(producer) &&
                pendingInputs[static_cast<size_t>(producer)] > 0) {
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
        for (size_t i = path.size();
             i-- > static_cast<size_t>(seenAt[static_cast<size_t>(current)]) + 1;)
            names.push_back(describeOp(graph.op(path[i])));
        names.push_back(describeOp(graph.op(current)));
    }
    return Error("the graph has a cycle: " + join(names, " -> "));
}

} // namespace

Expected<std::vector<OpId>> topologicalOrder(const Graph& graph) {
    size_t count = graph.opCount();
    std::vector<int> pendingInputs(count, 0);
    std::vector<std::vector<OpId>> consumers(count);
    for (size_t i = 0; i < count; ++i) {
        auto id = static_cast<OpId>(i);
        if (graph.isRemoved(id))
            continue;
        for (TensorId input : graph.op(id).inputs) {
            if (input == kNoTensor)
                continue;
            OpId producer = graph.tensor(input).producer;
            if (producer == kNoOp || graph.isRemoved(producer))
                continue;
            ++pendingInputs[i];
            consumers[static_cast<size_t>(producer)].push_back(id);
        }
    }
    std::priority_queue<OpId, std::vector<OpId>, std::greater<>> ready;
    size_t live = 0;
    for (size_t i = 0; i < count; ++i) {
        if (graph.isRemoved(static_cast<OpId>(i)))
            continue;
        ++live;
        if (pendingInputs[i] == 0)
            ready.push(static_cast<OpId>(i));
    }
    std::vector<OpId> order;
    order.reserve(live);
    while (!ready.empty()) {
        OpId id = ready.top();
        ready.pop();
        order.push_back(id);
        for (OpId consumer : consumers[static_cast<size_t>(id)])
            if (--pendingInputs[static_cast<size_t>(consumer)] == 0)
                ready.push(consumer);
    }
    if (order.size() != live)
        return cycleError(graph, pendingInputs);
    return order;
}

namespace {

Status validateLinks(const Graph& graph) {
    for (size_t i = 0; i < graph.opCount(); ++i) {
        auto id = static_cast<OpId>(i);
        if (graph.isRemoved(id))
            return Error("op " + describeOp(graph.op(id)) + " is removed but not compacted");
        const Op& op = graph.op(id);
        for (size_t slot = 0; slot < op.inputs.size(); ++slot) {
            TensorId t = op.inputs[slot];
            if (t == kNoTensor)
                continue;
            if (t < 0 || static_cast<size_t>(t) >= graph.tensorCount())
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
    for (size_t i = 0; i < graph.tensorCount(); ++i) {
        auto id = static_cast<TensorId>(i);
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
        if (id < 0 || static_cast<size_t>(id) >= graph.tensorCount())
            return Error("a graph output refers to a missing tensor");
    return Status::success();
}

} // namespace stagecraft::ir
