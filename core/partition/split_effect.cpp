// What one split does to a sub-graph (see split_effect.h): the instance's
// boxes are propagated through the access maps (slices.h) for a probe factor
// (the factor, or 2 for factor 1), and each op, output and input is counted
// from them.

#include "partition/internal/split_effect.h"

#include <algorithm>
#include <map>
#include <unordered_set>

namespace stagecraft::partition::detail {

namespace {

int64_t opWork(const ir::Graph& graph, const SemanticsCache& semantics, ir::OpId op) {
    const ops::OpSemantics& s = semantics.of(op);
    if (s.cost.flops > 0)
        return s.cost.flops;
    return graph.tensor(graph.op(op).outputs[0])
        .elementCount(); // data movement: one op per element
}

double bytesOf(const ir::Tensor& t, const Box* box) {
    if (box == nullptr)
        return static_cast<double>(t.byteSize());
    return static_cast<double>(boxElements(*box)) * static_cast<double>(ir::dtypeSize(t.dtype));
}

} // namespace

bool inGroup(std::span<const ir::OpId> ops, ir::OpId op) {
    return std::binary_search(ops.begin(), ops.end(), op);
}

std::vector<ir::TensorId> groupOutputs(const ir::Graph& graph, std::span<const ir::OpId> ops) {
    std::vector<ir::TensorId> outputs;
    for (ir::OpId op : ops)
        for (ir::TensorId out : graph.op(op).outputs) {
            const ir::Tensor& t = graph.tensor(out);
            if (graph.isGraphOutput(out) ||
                std::any_of(t.uses.begin(), t.uses.end(),
                            [&](const ir::Use& u) { return !inGroup(ops, u.op); }))
                outputs.push_back(out);
        }
    return outputs;
}

ir::TensorId largestOf(const ir::Graph& graph, std::span<const ir::OpId> ops,
                       std::span<const ir::TensorId> outputs) {
    ir::TensorId best = ir::kNoTensor;
    for (ir::TensorId out : outputs)
        if (best == ir::kNoTensor || graph.tensor(out).byteSize() >= graph.tensor(best).byteSize())
            best = out;
    return best != ir::kNoTensor ? best : graph.op(ops.back()).outputs[0];
}

SplitEvaluator::SplitEvaluator(const ir::Graph& graph, const SemanticsCache& semantics,
                               std::span<const ir::OpId> ops, std::vector<ir::TensorId> outputs)
    : graph_(graph)
    , semantics_(semantics)
    , ops_(ops)
    , output_(largestOf(graph, ops, outputs))
    , outputs_(std::move(outputs)) {}

SplitEffect SplitEvaluator::evaluate(int dim, int64_t factor, bool withLiveSet) const {
    SplitEffect effect;
    int64_t probe = factor > 1 ? factor : 2;
    int64_t extent = graph_.tensor(output_).shape[static_cast<size_t>(dim)];
    if (extent < probe)
        return countUnsplit(factor);
    BoxMap boxes = instanceBoxes(graph_, semantics_, ops_, output_, dim, probe, probe / 2);
    for (ir::TensorId out : outputs_) {
        const Box* box = boxes.find(out);
        bool restricted = box != nullptr && firstRestrictedDim(*box, graph_.tensor(out).shape) >= 0;
        if (factor > 1 && out != output_ && (box == nullptr || !restricted))
            effect.valid = false; // another output the instances could not divide
    }
    for (ir::OpId op : ops_)
        account(op, boxes, factor, effect);
    countInputReads(boxes, effect);
    effect.footprint =
        factor > 1 ? producedPeakBytes(graph_, ops_, &boxes) : producedPeakBytes(graph_, ops_);
    if (withLiveSet)
        effect.liveSet = liveSetBytes(factor > 1 ? &boxes : nullptr);
    return effect;
}

int64_t SplitEvaluator::liveSetBytes(const BoxMap* boxes) const {
    std::map<ir::TensorId, size_t> lastUse;
    for (size_t i = 0; i < ops_.size(); ++i)
        for (ir::TensorId in : graph_.op(ops_[i]).inputs)
            if (in != ir::kNoTensor)
                lastUse[in] = i;
    int64_t live = 0, peak = 0;
    std::vector<int64_t> releasedAfter(ops_.size(), 0);
    for (size_t i = 0; i < ops_.size(); ++i) {
        for (ir::TensorId out : graph_.op(ops_[i]).outputs) {
            const ir::Tensor& t = graph_.tensor(out);
            auto bytes =
                static_cast<int64_t>(bytesOf(t, boxes != nullptr ? boxes->find(out) : nullptr));
            live += bytes;
            if (std::find(outputs_.begin(), outputs_.end(), out) != outputs_.end())
                continue; // held until the instance ends
            auto it = lastUse.find(out);
            releasedAfter[it != lastUse.end() ? it->second : i] += bytes;
        }
        peak = std::max(peak, live);
        live -= releasedAfter[i];
    }
    return peak;
}

/// Inputs from outside the group, each counted once: activations and
/// weights apart.
void SplitEvaluator::countInputReads(const BoxMap& boxes, SplitEffect& effect) const {
    std::unordered_set<int32_t> seen;
    for (ir::OpId op : ops_)
        for (ir::TensorId in : graph_.op(op).inputs) {
            if (in == ir::kNoTensor)
                continue;
            ir::OpId producer = graph_.tensor(in).producer;
            if ((producer != ir::kNoOp && inGroup(ops_, producer)) ||
                !seen.insert(in.value()).second)
                continue;
            const ir::Tensor& t = graph_.tensor(in);
            bool weight = t.isConstant();
            (weight ? effect.weightBytes : effect.inputBytes) += static_cast<double>(t.byteSize());
            (weight ? effect.weightReadBytes : effect.inputReadBytes) += bytesOf(t, boxes.find(in));
        }
}

SplitEffect SplitEvaluator::countUnsplit(int64_t factor) const {
    SplitEffect effect;
    effect.valid = factor == 1;
    effect.opsSplit = 1;
    effect.footprint = producedPeakBytes(graph_, ops_);
    return effect;
}

void SplitEvaluator::account(ir::OpId op, const BoxMap& boxes, int64_t factor,
                             SplitEffect& effect) const {
    ir::TensorId out = graph_.op(op).outputs[0];
    const ir::Shape& shape = graph_.tensor(out).shape;
    auto work = static_cast<double>(opWork(graph_, semantics_, op));
    effect.totalWork += work;
    const Box* box = boxes.find(out);
    int dim = box != nullptr ? firstRestrictedDim(*box, shape) : -1;
    if (dim >= 0 && shape[static_cast<size_t>(dim)] % factor == 0)
        ++effect.opsSplit;
    if (factor <= 1)
        return;
    double share = box != nullptr
                       ? static_cast<double>(boxElements(*box)) /
                             static_cast<double>(std::max<int64_t>(1, ir::elementCount(shape)))
                       : 1.0;
    effect.extraWork += work * std::max(0.0, static_cast<double>(factor) * share - 1.0);
}

} // namespace stagecraft::partition::detail
