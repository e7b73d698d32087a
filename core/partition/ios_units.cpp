// IOS's schedule units (ios_scheduler.h, §6 and Table 2 of the paper): the
// paper schedules "Conv-Relu" units on Inception-v3 and SqueezeNet and
// "Relu-SepConv" units on NasNet and RandWire. Ops are taken in graph order;
// an op joins the unit of the op it reads from when that link is one to one
// (it reads only that op's single output, which nothing else reads) and the
// unit stays a single operator: at most one complex op, or a depthwise Conv
// and the 1x1 Conv after it. An activation whose output goes to a complex op
// alone starts that op's unit instead of ending the previous one, once the
// previous unit has its complex op (Relu-SepConv, not SepConv-Relu).

#include "ops/semantics.h"
#include "partition/ios_scheduler.h"

#include <algorithm>

namespace stagecraft::partition {

namespace {

bool isComplex(const ir::Op& op) {
    return ops::categoryOf(op.kind) == ops::Category::Complex;
}

bool isDepthwise(const ir::Graph& graph, const ir::Op& op) {
    if (op.kind != ir::OpKind::Conv || op.inputs.empty())
        return false;
    int64_t group = op.attrs.getInt("group", 1);
    const ir::Shape& in = graph.tensor(op.inputs.front()).shape;
    return group > 1 && in.size() > 1 && in[1] == group;
}

bool isPointwise(const ir::Op& op) {
    std::vector<int64_t> kernel = op.attrs.getInts("kernel_shape");
    return op.kind == ir::OpKind::Conv && op.attrs.getInt("group", 1) == 1 && !kernel.empty() &&
           std::all_of(kernel.begin(), kernel.end(), [](int64_t k) { return k == 1; });
}

/// The op whose single output \p op alone reads (constants aside), when
/// nothing else reads it; kNoOp otherwise.
ir::OpId soleProducer(const ir::Graph& graph, ir::OpId op) {
    ir::TensorId read = ir::kNoTensor;
    for (ir::TensorId in : graph.op(op).inputs) {
        if (in == ir::kNoTensor || graph.tensor(in).isConstant())
            continue;
        if (read != ir::kNoTensor && read != in)
            return ir::kNoOp;
        read = in;
    }
    if (read == ir::kNoTensor || graph.isGraphOutput(read) || graph.tensor(read).uses.size() != 1)
        return ir::kNoOp;
    ir::OpId producer = graph.tensor(read).producer;
    if (producer == ir::kNoOp || graph.op(producer).outputs.size() != 1)
        return ir::kNoOp;
    return producer;
}

/// The op that alone reads \p op's single output, when \p op is its sole producer.
ir::OpId soleConsumer(const ir::Graph& graph, ir::OpId op) {
    const ir::Op& o = graph.op(op);
    if (o.outputs.size() != 1 || graph.tensor(o.outputs.front()).uses.size() != 1)
        return ir::kNoOp;
    ir::OpId next = graph.tensor(o.outputs.front()).uses.front().op;
    return soleProducer(graph, next) == op ? next : ir::kNoOp;
}

class UnitBuilder {
public:
    explicit UnitBuilder(const ir::Graph& graph)
        : graph_(graph)
        , unitOf_(graph.opCount(), -1) {}

    std::vector<std::vector<ir::OpId>> build(const std::vector<ir::OpId>& block) {
        for (ir::OpId op : block)
            unitOf_[op] = -2; // in the block, not placed yet
        for (ir::OpId op : block) {
            ir::OpId from = soleProducer(graph_, op);
            int unit = from == ir::kNoOp ? -1 : unitOf_[from];
            if (unit < 0 || units_[static_cast<size_t>(unit)].back() != from || !joins(unit, op)) {
                unit = static_cast<int>(units_.size());
                units_.emplace_back();
            }
            units_[static_cast<size_t>(unit)].push_back(op);
            unitOf_[op] = unit;
        }
        return std::move(units_);
    }

private:
    bool joins(int unit, ir::OpId op) const {
        const auto& ops = units_[static_cast<size_t>(unit)];
        std::vector<ir::OpId> complex;
        for (ir::OpId o : ops)
            if (isComplex(graph_.op(o)))
                complex.push_back(o);
        const ir::Op& o = graph_.op(op);
        if (isComplex(o))
            return complex.empty() ||
                   (complex.size() == 1 && complex.front() == ops.back() &&
                    isDepthwise(graph_, graph_.op(complex.front())) && isPointwise(o));
        if (complex.empty())
            return true;
        ir::OpId next = soleConsumer(graph_, op);
        return next == ir::kNoOp || !isComplex(graph_.op(next)); // leads the next unit
    }

    const ir::Graph& graph_;
    IdVector<ir::OpId, int> unitOf_;
    std::vector<std::vector<ir::OpId>> units_;
};

} // namespace

std::vector<std::vector<ir::OpId>> iosScheduleUnits(const ir::Graph& graph,
                                                    std::vector<ir::OpId> block) {
    std::sort(block.begin(), block.end());
    block.erase(std::unique(block.begin(), block.end()), block.end());
    return UnitBuilder(graph).build(block);
}

} // namespace stagecraft::partition
