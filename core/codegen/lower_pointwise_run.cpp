// Pointwise runs (docs/codegen.md, "Pointwise runs"): consecutive
// elementwise ops of a layer over the same region run as one loop, each
// element going through every op in turn, instead of one loop per op over
// the tile. An op's value passes to the ops after it in registers; it is
// stored only where the tensor outlives the run (stitched, global, or read
// by an op outside it). So a HardSwish written as x * clip(x + 3, 0, 6) / 6
// (PP-OCRv4's), or BERT's GELU, reads its inputs once and writes once,
// where each op read and wrote a tile of the scratch. An op joins the run
// when it computes the run's region of an output of the same shape, and
// reads any tensor the run computed at the same element (the identity map;
// f16 and bf16 values are left to memory, whose rounding they need). The
// ops' own functions (scalarOp) compute each element, in the order the
// layer lists them, so the bits are those of the ops run apart.

#include "codegen/internal/lowering.h"

#include <algorithm>
#include <map>
#include <set>

namespace stagecraft::codegen::detail {

namespace {

/// An op that runs in a pointwise run: elementwise, one output, one region
/// that is not empty (an op the instance computes nothing of is skipped).
bool runnable(const ir::Graph& graph, const OpStep& step) {
    const ir::Op& op = graph.op(step.op);
    if (!isScalarOp(op.kind) || op.outputs.size() != 1 || step.regions.size() != 1)
        return false;
    return std::none_of(step.regions[0].begin(), step.regions[0].end(),
                        [](const ops::Interval& i) { return i.empty(); });
}

/// Whether \p map reads an input of \p shape at the output's element
/// itself: the shapes agree and dim d is loop d, plainly (or 0 where the
/// dim is 1, as a broadcast reads it).
bool readsSameElement(const ops::AccessMap& map, const ir::Shape& input, const ir::Shape& output) {
    if (input != output || map.dims.size() != output.size())
        return false;
    for (size_t d = 0; d < map.dims.size(); ++d) {
        const ops::IndexExpr& e = map.dims[d];
        const bool plain =
            e.terms.size() == 1 && e.terms[0] == ops::IndexTerm{static_cast<int>(d), 1, 1, 0};
        const bool zeroOfOne = e.terms.empty() && output[d] == 1;
        if (e.full || e.div != 1 || e.mod != 0 || e.offset != 0 || !(plain || zeroOfOne))
            return false;
    }
    return true;
}

/// The arena bytes a stitched view takes, [first, second).
std::pair<int64_t, int64_t> arenaSpan(const ir::Graph& graph, const LayerCode& layer,
                                      const View& v) {
    return {v.offset, v.offset + v.storageBytes(graph, layer.tileSizes())};
}

bool overlaps(std::pair<int64_t, int64_t> a, std::pair<int64_t, int64_t> b) {
    return a.first < b.second && b.first < a.second;
}

/// Grows a run step by step, keeping what the next op must be checked against.
class RunBuilder {
public:
    RunBuilder(const ir::Graph& graph, const LayerCode& layer, const OpStep& first)
        : graph_(graph)
        , layer_(layer)
        , first_(first)
        , shape_(graph.tensor(graph.op(first.op).outputs[0]).shape) {}

    /// Adds \p step when it can run in the run; false, with nothing added, otherwise.
    bool add(const OpStep& step, const ops::OpSemantics& semantics) {
        const ir::Op& op = graph_.op(step.op);
        const ir::TensorId out = op.outputs[0];
        if (!runnable(graph_, step) || !(step.regions[0] == first_.regions[0]) ||
            graph_.tensor(out).shape != shape_ || semantics.nests.empty())
            return false;
        std::vector<std::pair<int64_t, int64_t>> reads;
        for (size_t slot = 0; slot < op.inputs.size(); ++slot) {
            const ir::TensorId in = op.inputs[slot];
            if (in == ir::kNoTensor)
                continue;
            if (computed_.count(in) != 0) {
                const ops::AccessMap* map = semantics.nests[0].accessFor(static_cast<int>(slot));
                const ir::DType t = graph_.tensor(in).dtype;
                if (map == nullptr || !readsSameElement(*map, graph_.tensor(in).shape, shape_) ||
                    t == ir::DType::Float16 || t == ir::DType::BFloat16)
                    return false;
                continue;
            }
            if (const View* v = layer_.viewOf(in); v != nullptr && v->home == Home::Stitched)
                reads.push_back(arenaSpan(graph_, layer_, *v));
        }
        // What the run writes in the arena must not be what it reads elsewhere.
        const View* written = layer_.viewOf(out);
        const bool stitched = written != nullptr && written->home == Home::Stitched;
        for (const auto& r : reads)
            for (const auto& w : writes_)
                if (overlaps(r, w))
                    return false;
        if (stitched)
            for (const auto& r : reads_)
                if (overlaps(arenaSpan(graph_, layer_, *written), r))
                    return false;
        reads_.insert(reads_.end(), reads.begin(), reads.end());
        if (stitched)
            writes_.push_back(arenaSpan(graph_, layer_, *written));
        computed_.insert(out);
        for (ir::TensorId in : op.inputs)
            readsInRun_[in] += computed_.count(in) != 0 && in != out ? 1 : 0;
        outputs_.push_back(out);
        return true;
    }

    /// Per op: whether its output is stored (it outlives the run).
    std::vector<bool> stored() const {
        std::vector<bool> result;
        for (ir::TensorId t : outputs_) {
            const View* v = layer_.viewOf(t);
            int64_t readers = 0;
            for (const OpStep& step : layer_.ops)
                for (ir::TensorId in : graph_.op(step.op).inputs)
                    readers += in == t ? 1 : 0;
            auto inRun = readsInRun_.find(t);
            const int64_t chained = inRun == readsInRun_.end() ? 0 : inRun->second;
            result.push_back(v == nullptr || v->home != Home::Fused || readers != chained);
        }
        return result;
    }

private:
    const ir::Graph& graph_;
    const LayerCode& layer_;
    const OpStep& first_;
    ir::Shape shape_;
    std::set<ir::TensorId> computed_;
    std::map<ir::TensorId, int64_t> readsInRun_;
    std::vector<ir::TensorId> outputs_;
    std::vector<std::pair<int64_t, int64_t>> reads_, writes_;
};

/// The width of the run's last two loops run as one (joinedRowWidth of
/// every op alike), or 0.
int64_t runRowWidth(std::span<const OpCall> calls) {
    const int64_t width = joinedRowWidth(calls[0], 0);
    for (const OpCall& call : calls)
        if (joinedRowWidth(call, 0) != width)
            return 0;
    return width;
}

} // namespace

PointwiseRun pointwiseRun(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                          const LayerCode& layer, std::span<const OpStep> steps, size_t first) {
    PointwiseRun run;
    if (!runnable(graph, steps[first]))
        return run;
    RunBuilder builder(graph, layer, steps[first]);
    size_t next = first;
    while (next < steps.size() && builder.add(steps[next], semantics.of(steps[next].op)))
        ++next;
    if (next - first < 2)
        return run;
    run.length = next - first;
    run.stored = builder.stored();
    return run;
}

Status lowerPointwiseRun(Emitter& e, std::span<const OpCall> calls,
                         const std::vector<bool>& stored) {
    const llvm::DebugLoc outside = e.b().getCurrentDebugLocation();
    Status failure = Status::success();
    forJoinedBox(e, calls[0].regions[0], runRowWidth(calls), [&](const std::vector<Value*>& idx) {
        std::map<ir::TensorId, Value*> values; // the run's outputs so far
        for (size_t i = 0; i < calls.size(); ++i) {
            const OpCall& call = calls[i];
            if (call.line)
                e.b().SetCurrentDebugLocation(call.line);
            std::vector<Value*> args;
            std::vector<ir::DType> types;
            for (int slot = 0; slot < static_cast<int>(call.op().inputs.size()); ++slot) {
                auto chained = values.find(call.op().inputs[static_cast<size_t>(slot)]);
                const bool present = call.hasInput(slot);
                args.push_back(!present                  ? nullptr
                               : chained != values.end() ? chained->second
                                                         : loadMapped(e, call, 0, slot, idx));
                types.push_back(present ? inputType(call, slot) : ir::DType::Undefined);
            }
            auto computed = scalarOp(e, call, args, types, outputType(call, 0));
            if (!computed.ok()) {
                if (failure.ok())
                    failure = computed.error();
                return;
            }
            if (stored[i])
                e.store(call.outputs[0], idx, *computed);
            else if (auto* named = llvm::dyn_cast<llvm::Instruction>(*computed))
                named->setName("chained"); // for tests and the kernel view
            values[call.op().outputs[0]] = *computed;
        }
    });
    e.b().SetCurrentDebugLocation(outside);
    return failure;
}

} // namespace stagecraft::codegen::detail
