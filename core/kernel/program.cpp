// Kernel plans of a schedule (GraphTurbo §4): one kernel per instance in
// execution order, its layers (layers.cpp) with their tiles (layer_tiles.cpp),
// the buffers between layers and kernels with their liveness over
// computation tasks, and their allocation with reuse and spilling
// (program_memory.cpp, §4.3).

#include "kernel/internal/layer_tiles.h"
#include "kernel/internal/layers.h"
#include "kernel/plan.h"
#include "partition/fusion.h"
#include "support/strings.h"

#include <algorithm>
#include <map>
#include <set>

namespace stagecraft::kernel {

namespace {

using partition::Box;
using partition::BoxMap;
using schedule::InstanceId;

int64_t boxBytes(const ir::Graph& graph, ir::TensorId tensor, const Box& box) {
    return partition::boxElements(box) * ir::dtypeSize(graph.tensor(tensor).dtype);
}

int64_t overlapBytes(const ir::Graph& graph, ir::TensorId tensor, const Box& a, const Box& b) {
    int64_t elements = 1;
    for (size_t d = 0; d < a.size() && d < b.size(); ++d) {
        ops::Interval i{std::max(a[d].lo, b[d].lo), std::min(a[d].hi, b[d].hi)};
        elements *= i.size();
    }
    return elements * ir::dtypeSize(graph.tensor(tensor).dtype);
}

/// Lowers instances one by one, keeping what later kernels read.
class ProgramBuilder {
public:
    ProgramBuilder(const ir::Graph& graph, const arch::Arch& arch, const schedule::Schedule& s,
                   const PlanOptions& options)
        : graph_(graph)
        , arch_(arch)
        , s_(s)
        , semantics_(*s.semantics)
        , options_(options)
        , preds_(s.instances.size())
        , readInLayer_(graph.tensorCount(), -1) {
        layerOf_ = partition::groupTvm(graph, semantics_).assignment();
        for (const schedule::InstanceEdge& e : s.edges)
            preds_[e.to].push_back(e.from);
        for (const schedule::DataMove& m : s.moves)
            if (m.kind == schedule::DataMove::Kind::Redistribute)
                redistributed_.emplace(m.consumer, m.tensor);
        const auto& lb = arch.cluster.coreGroups.front().localBuffer;
        tileCapacity_ = options.tileCapacityBytes > 0 ? options.tileCapacityBytes
                        : lb                          ? lb->activationBytes()
                                                      : 0;
    }

    Expected<Program> build() {
        program_.launchOnDependencies = s_.groupedBy == schedule::Grouping::Dla;
        for (InstanceId id : s_.order)
            SC_RETURN_IF_ERROR(lowerInstance(id));
        program_.taskCount = nextTask_;
        for (Buffer& b : program_.buffers)
            if (b.graphOutput)
                b.lastTask = std::max(b.lastTask, nextTask_ - 1);
        holdThroughStages();
        SC_RETURN_IF_ERROR(detail::allocateBuffers(program_, arch_));
        return std::move(program_);
    }

private:
    /// Whether \p kernel runs in the launch of the one before it: both
    /// instances of one group on the same cores, neither in an IOS stage
    /// nor launched on its inputs (DLA).
    bool continuesLaunch(const Kernel& kernel) const {
        if (!options_.shareLaunches || program_.kernels.empty() || program_.launchOnDependencies ||
            kernel.joinsStage)
            return false;
        const Kernel& before = program_.kernels.back();
        return !before.joinsStage &&
               s_.instances[before.instance].group == s_.instances[kernel.instance].group &&
               before.cores == kernel.cores && before.firstCore == kernel.firstCore;
    }

    Status lowerInstance(InstanceId id) {
        const schedule::Instance& inst = s_.instances[id];
        BoxMap slices = schedule::instanceSlices(graph_, s_, id);
        Kernel kernel;
        kernel.instance = id;
        kernel.label = inst.label;
        kernel.cores = std::max<int64_t>(schedule::coresUsed(inst.bind), 1);
        kernel.firstCore = inst.firstCore;
        kernel.joinsStage = inst.joinsStage && !program_.kernels.empty();
        if (kernel.firstCore < 0 || kernel.firstCore + kernel.cores > clusterCores())
            return Error("instance " + quote(inst.label) + " runs on cores " +
                         std::to_string(kernel.firstCore) + ".." +
                         std::to_string(kernel.firstCore + kernel.cores - 1) +
                         " but a cluster of '" + arch_.name + "' has " +
                         std::to_string(clusterCores()));
        kernel.continuesLaunch = continuesLaunch(kernel);
        int32_t kernelIndex = static_cast<int32_t>(program_.kernels.size());
        std::map<ir::TensorId, BufferId> local; // tensors written by this kernel
        for (const auto& layerOps :
             detail::layersOf(graph_, s_.partition.ops(inst.group), layerOf_)) {
            std::vector<ir::OpId> ops = producing(layerOps, slices);
            if (ops.empty())
                continue;
            Layer layer;
            layer.task = nextTask_++;
            SC_ASSIGN_OR_RETURN(int64_t layerBytes, fillLayer(layer, ops, slices, id, local));
            addOutputs(layer, ops, slices, id, kernelIndex, local);
            detail::planTiles(layer, {graph_, semantics_, arch_, program_.buffers, ops, slices,
                                      schedule::coresUsed(inst.bind), tileCapacity_, layerBytes,
                                      options_.doubleBuffering, options_.acrossLayer});
            kernel.layers.push_back(std::move(layer));
        }
        program_.kernels.push_back(std::move(kernel));
        return Status::success();
    }

    int64_t clusterCores() const {
        return arch_.cluster.coreGroups.empty() ? 1 : arch_.cluster.coreGroups.front().count;
    }

    /// The kernels of a stage run at once, so no memory a buffer of the
    /// stage used is free before the stage ends: the buffers last read in
    /// it stay to its last task.
    void holdThroughStages() {
        const auto& kernels = program_.kernels;
        for (size_t k = 0; k < kernels.size();) {
            size_t end = k + 1;
            while (end < kernels.size() && kernels[end].joinsStage)
                ++end;
            int32_t first = -1, last = -1;
            for (size_t i = k; i < end; ++i)
                for (const Layer& layer : kernels[i].layers) {
                    first = first < 0 ? layer.task : std::min(first, layer.task);
                    last = std::max(last, layer.task);
                }
            if (end - k > 1 && first >= 0)
                for (Buffer& b : program_.buffers)
                    if (b.lastTask >= first && b.lastTask < last)
                        b.lastTask = last;
            k = end;
        }
    }

    /// The ops of \p ops that produce part of their output in this instance.
    /// An op whose every output slice is empty (a Concat input outside the
    /// instance's range) is neither computed nor read from: the instance
    /// needs none of it.
    std::vector<ir::OpId> producing(const std::vector<ir::OpId>& ops, const BoxMap& slices) const {
        std::vector<ir::OpId> kept;
        for (ir::OpId op : ops) {
            const auto& outs = graph_.op(op).outputs;
            bool empty =
                !outs.empty() && std::all_of(outs.begin(), outs.end(), [&](ir::TensorId t) {
                    const Box* box = slices.find(t);
                    return box != nullptr && partition::boxElements(*box) == 0;
                });
            if (!empty)
                kept.push_back(op);
        }
        return kept;
    }

    /// The layer's ops (\p ops, in graph order), their work, weights and
    /// inputs; returns the bytes its tiles divide (its outputs and outside
    /// inputs).
    Expected<int64_t> fillLayer(Layer& layer, const std::vector<ir::OpId>& ops,
                                const BoxMap& slices, InstanceId id,
                                const std::map<ir::TensorId, BufferId>& local) {
        layer.anchor = detail::anchorOf(ops, semantics_);
        int64_t layerBytes = 0;
        for (ir::OpId op : ops) {
            bool onHost = !s_.hostOps.empty() && s_.hostOps[op];
            SC_ASSIGN_OR_RETURN(OpWork work,
                                detail::opWork(graph_, arch_, semantics_, slices, op, onHost));
            layer.ops.push_back(work);
            for (ir::TensorId out : graph_.op(op).outputs)
                layerBytes += detail::sliceBytes(graph_, slices, out);
            for (ir::TensorId in : graph_.op(op).inputs)
                addInput(layer, ops, slices, id, local, op, in, layerBytes);
        }
        return layerBytes;
    }

    /// Whether \p op gathers rows of \p in (a Gather's table).
    bool gathersFrom(ir::OpId op, ir::TensorId in) const {
        const ir::Op& o = graph_.op(op);
        bool gather = o.kind == ir::OpKind::Gather || o.kind == ir::OpKind::GatherElements;
        return gather && !o.inputs.empty() && o.inputs.front() == in && !o.outputs.empty();
    }

    /// Bytes of weight \p in that \p op reads: its slice, or for a gather's
    /// table only the rows gathered (as many bytes as the op writes).
    int64_t weightReadBytes(ir::OpId op, ir::TensorId in, const BoxMap& slices) const {
        int64_t slice = detail::sliceBytes(graph_, slices, in);
        if (!gathersFrom(op, in))
            return slice;
        return std::min(slice, detail::sliceBytes(graph_, slices, graph_.op(op).outputs.front()));
    }

    void addInput(Layer& layer, const std::vector<ir::OpId>& ops, const BoxMap& slices,
                  InstanceId id, const std::map<ir::TensorId, BufferId>& local, ir::OpId op,
                  ir::TensorId in, int64_t& layerBytes) {
        if (in == ir::kNoTensor)
            return;
        const ir::Tensor& t = graph_.tensor(in);
        // The tensor's first read in this layer: stamped with the layer's task.
        bool firstRead = readInLayer_[in] != layer.task;
        readInLayer_[in] = layer.task;
        if (t.isConstant()) {
            if (firstRead) {
                int64_t read = weightReadBytes(op, in, slices);
                layer.weightBytes += read;
                layer.weights.push_back({in, t.byteSize(), read, gathersFrom(op, in)});
            }
            return;
        }
        if (t.producer != ir::kNoOp && std::binary_search(ops.begin(), ops.end(), t.producer))
            return;
        if (!firstRead)
            return;
        int64_t bytes = detail::sliceBytes(graph_, slices, in);
        layerBytes += bytes;
        if (auto it = local.find(in); it != local.end()) {
            layer.inputs.push_back({in, bytes, it->second, false});
            readBy(it->second, layer.task);
            return;
        }
        if (t.producer == ir::kNoOp) {
            layer.inputs.push_back({in, bytes, kNoBuffer, false});
            return;
        }
        addProducerPieces(layer, slices, id, in);
    }

    /// Reads of \p tensor from the instances of its producer group.
    void addProducerPieces(Layer& layer, const BoxMap& slices, InstanceId id, ir::TensorId tensor) {
        const Box* mine = slices.find(tensor);
        bool moved = redistributed_.count({id, tensor}) > 0;
        for (InstanceId p : preds_[id]) {
            auto it = pieces_.find({p, tensor});
            if (it == pieces_.end())
                continue;
            const Box& theirs = bufferBoxes_[it->second];
            int64_t bytes = mine != nullptr ? overlapBytes(graph_, tensor, *mine, theirs)
                                            : boxBytes(graph_, tensor, theirs);
            if (bytes <= 0)
                continue;
            layer.inputs.push_back({tensor, bytes, it->second, moved});
            readBy(it->second, layer.task);
        }
    }

    void readBy(BufferId buffer, int32_t task) {
        Buffer& b = program_.buffers[buffer];
        b.lastTask = std::max(b.lastTask, task);
        if (b.readers.empty() || b.readers.back() != task)
            b.readers.push_back(task);
    }

    void addOutputs(Layer& layer, const std::vector<ir::OpId>& ops, const BoxMap& slices,
                    InstanceId id, int32_t kernelIndex, std::map<ir::TensorId, BufferId>& local) {
        const schedule::Instance& inst = s_.instances[id];
        auto groupOutputs = s_.partition.outputs(inst.group);
        for (ir::OpId op : ops)
            for (ir::TensorId out : graph_.op(op).outputs) {
                bool kernelOutput =
                    std::find(groupOutputs.begin(), groupOutputs.end(), out) != groupOutputs.end();
                bool readLater =
                    std::any_of(graph_.tensor(out).uses.begin(), graph_.tensor(out).uses.end(),
                                [&](const ir::Use& u) {
                                    return !std::binary_search(ops.begin(), ops.end(), u.op);
                                });
                if (!kernelOutput && !readLater)
                    continue;
                Buffer b;
                b.tensor = out;
                b.name = inst.label + ":" + graph_.tensor(out).name;
                const Box* box = slices.find(out);
                Box whole = partition::fullBox(graph_.tensor(out).shape);
                b.bytes = boxBytes(graph_, out, box != nullptr ? *box : whole);
                b.cores = std::max<int64_t>(schedule::coresUsed(inst.bind), 1);
                b.firstCore = inst.firstCore;
                b.graphOutput = graph_.isGraphOutput(out);
                // Graph outputs end in DDR, also those that are not the
                // instance's primary output (a Split's unread part).
                b.scope = b.graphOutput ? Scope::DDR : kernelOutput ? inst.scope : Scope::LB;
                b.kernel = kernelIndex;
                b.firstTask = b.lastTask = layer.task;
                b.kernelOutput = kernelOutput;
                BufferId index = program_.buffers.nextId();
                program_.buffers.push_back(std::move(b));
                bufferBoxes_.push_back(box != nullptr ? *box : whole);
                layer.outputs.push_back(index);
                local[out] = index;
                if (kernelOutput)
                    pieces_[{id, out}] = index;
            }
    }

    const ir::Graph& graph_;
    const arch::Arch& arch_;
    const schedule::Schedule& s_;
    const partition::SemanticsCache& semantics_;
    PlanOptions options_;
    partition::Assignment layerOf_;
    IdVector<InstanceId, std::vector<InstanceId>> preds_;
    std::set<std::pair<InstanceId, ir::TensorId>> redistributed_;
    std::map<std::pair<InstanceId, ir::TensorId>, BufferId> pieces_;
    IdVector<BufferId, Box> bufferBoxes_;
    /// By tensor: the task of the last layer that read it (addInput).
    IdVector<ir::TensorId, int32_t> readInLayer_;
    int64_t tileCapacity_ = 0;
    int32_t nextTask_ = 0;
    Program program_;
};

} // namespace

Expected<Program> buildProgram(const ir::Graph& graph, const arch::Arch& arch,
                               const schedule::Schedule& schedule, const PlanOptions& options) {
    if (arch.cluster.coreGroups.empty())
        return Error("architecture '" + arch.name + "' has no cores");
    ProgramBuilder builder(graph, arch, schedule, options);
    return builder.build();
}

} // namespace stagecraft::kernel
