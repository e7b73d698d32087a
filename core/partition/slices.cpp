// Box propagation and footprints (GraphTurbo §3.1, §3.3). An
// instance's slice of its group's output flows backwards through the group's
// ops: each op's parallel loops range over its output's box, its reduction
// loops over their whole extent, and ops::indexRange gives the box of every
// input (halos of windows included, `full` accesses whole). Where several
// ops read a tensor, its box is the union (the hull per dim) of what they read.

#include "partition/slices.h"

#include <algorithm>

namespace stagecraft::partition {

Expected<SemanticsCache> SemanticsCache::build(const ir::Graph& graph) {
    SemanticsCache cache;
    cache.semantics_.reserve(graph.opCount());
    for (ir::OpId op : graph.opIds()) {
        SC_ASSIGN_OR_RETURN(ops::OpSemantics semantics, ops::semanticsOf(graph, op));
        cache.semantics_.push_back(std::move(semantics));
    }
    return cache;
}

Box fullBox(const ir::Shape& shape) {
    Box box;
    box.reserve(shape.size());
    for (int64_t extent : shape)
        box.push_back({0, extent - 1});
    return box;
}

int64_t boxElements(const Box& box) {
    int64_t count = 1;
    for (const ops::Interval& interval : box)
        count *= interval.size();
    return count;
}

std::vector<int> restrictedDims(const Box& box, const ir::Shape& shape) {
    std::vector<int> dims;
    for (size_t i = 0; i < box.size() && i < shape.size(); ++i)
        if (box[i].size() < shape[i])
            dims.push_back(static_cast<int>(i));
    return dims;
}

namespace {

size_t slotHash(ir::TensorId id, size_t mask) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(id.value())) * 0x9E3779B97F4A7C15ULL >>
            32) &
           mask;
}

} // namespace

int firstRestrictedDim(const Box& box, const ir::Shape& shape) {
    for (size_t i = 0; i < box.size() && i < shape.size(); ++i)
        if (box[i].size() < shape[i])
            return static_cast<int>(i);
    return -1;
}

const Box* BoxMap::find(ir::TensorId id) const {
    if (dense_) {
        int32_t slot = id.index() < slots_.size() ? slots_[id.index()] : -1;
        return slot < 0 ? nullptr : &entries_[static_cast<size_t>(slot)].second;
    }
    if (slots_.empty())
        return nullptr;
    size_t mask = slots_.size() - 1;
    for (size_t i = slotHash(id, mask);; i = (i + 1) & mask) {
        int32_t slot = slots_[i];
        if (slot < 0)
            return nullptr;
        if (entries_[static_cast<size_t>(slot)].first == id)
            return &entries_[static_cast<size_t>(slot)].second;
    }
}

int32_t* BoxMap::slotFor(ir::TensorId id) {
    if (dense_) {
        if (id.index() >= slots_.size())
            slots_.resize(id.index() + 1, -1);
        return &slots_[id.index()];
    }
    size_t mask = slots_.size() - 1;
    for (size_t i = slotHash(id, mask);; i = (i + 1) & mask) {
        int32_t& slot = slots_[i];
        if (slot < 0 || entries_[static_cast<size_t>(slot)].first == id)
            return &slot;
    }
}

void BoxMap::indexDensely(size_t tensors) {
    dense_ = true;
    slots_.assign(tensors, -1);
    for (size_t e = 0; e < entries_.size(); ++e)
        *slotFor(entries_[e].first) = static_cast<int32_t>(e);
}

void BoxMap::reserve(size_t entries) {
    entries_.reserve(entries);
    if (dense_)
        return;
    if (entries * 2 <= slots_.size())
        return;
    size_t slots = 16;
    while (slots < entries * 2)
        slots *= 2;
    slots_.assign(slots, -1);
    for (size_t e = 0; e < entries_.size(); ++e)
        *slotFor(entries_[e].first) = static_cast<int32_t>(e);
}

void BoxMap::grow() {
    slots_.assign(std::max<size_t>(16, slots_.size() * 2), -1);
    for (size_t e = 0; e < entries_.size(); ++e)
        *slotFor(entries_[e].first) = static_cast<int32_t>(e);
}

void BoxMap::merge(ir::TensorId id, Box box) {
    if (!dense_ && (entries_.size() + 1) * 2 > slots_.size())
        grow();
    int32_t* slot = slotFor(id);
    if (*slot < 0) {
        *slot = static_cast<int32_t>(entries_.size());
        entries_.emplace_back(id, std::move(box));
        return;
    }
    Box& current = entries_[static_cast<size_t>(*slot)].second;
    for (size_t i = 0; i < current.size() && i < box.size(); ++i) {
        if (box[i].empty())
            continue;
        if (current[i].empty())
            current[i] = box[i];
        else
            current[i] = {std::min(current[i].lo, box[i].lo), std::max(current[i].hi, box[i].hi)};
    }
}

namespace {

/// \p loops: scratch space, reused across ops.
void propagateThroughOp(const ir::Graph& graph, const ops::OpSemantics& semantics, const ir::Op& op,
                        BoxMap& boxes, std::vector<ops::Interval>& loops) {
    for (size_t k = 0; k < op.outputs.size() && k < semantics.nests.size(); ++k) {
        const Box* out = boxes.find(op.outputs[k]);
        if (out == nullptr)
            continue;
        const ops::LoopNest& nest = semantics.nests[k];
        loops.assign(nest.loops.size(), {});
        for (size_t i = 0; i < nest.loops.size(); ++i)
            loops[i] = static_cast<int>(i) < nest.outputRank && i < out->size()
                           ? (*out)[i]
                           : ops::Interval{0, nest.loops[i].extent - 1};
        for (const ops::AccessMap& access : nest.inputs) {
            ir::TensorId tensor = op.inputs[static_cast<size_t>(access.operand)];
            const ir::Shape& shape = graph.tensor(tensor).shape;
            Box in(shape.size());
            for (size_t d = 0; d < shape.size() && d < access.dims.size(); ++d)
                in[d] = ops::indexRange(access.dims[d], loops, shape[d]);
            boxes.merge(tensor, std::move(in));
        }
    }
}

} // namespace

BoxMap propagateBoxes(const ir::Graph& graph, const SemanticsCache& semantics,
                      std::span<const ir::OpId> ops,
                      std::span<const std::pair<ir::TensorId, Box>> outputBoxes) {
    BoxMap boxes;
    if (ops.size() * 8 >= graph.tensorCount())
        boxes.indexDensely(graph.tensorCount());
    boxes.reserve(outputBoxes.size() + 3 * ops.size()); // an output and about two inputs per op
    for (const auto& [tensor, box] : outputBoxes)
        boxes.merge(tensor, box);
    std::vector<ops::Interval> loops;
    for (auto it = ops.rbegin(); it != ops.rend(); ++it)
        propagateThroughOp(graph, semantics.of(*it), graph.op(*it), boxes, loops);
    return boxes;
}

int64_t producedPeakBytes(const ir::Graph& graph, std::span<const ir::OpId> ops,
                          const BoxMap* boxes) {
    int64_t peak = 0;
    for (ir::OpId op : ops)
        for (ir::TensorId out : graph.op(op).outputs) {
            const ir::Tensor& t = graph.tensor(out);
            const Box* box = boxes != nullptr ? boxes->find(out) : nullptr;
            int64_t elements = box != nullptr ? boxElements(*box) : t.elementCount();
            peak = std::max(peak, elements * ir::dtypeSize(t.dtype));
        }
    return peak;
}

} // namespace stagecraft::partition
