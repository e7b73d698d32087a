// IOS stage costs from the simulator's rates (ios_cost.h). A group of ops
// runs them in sequence on its share of the cluster's cores; concurrent
// groups split the cores evenly; a merged Conv computes every output channel
// with the largest kernel of the merged ones (the smaller kernels padded
// with zeros, §3) on all the cores and reads the shared input once; the
// units' activations run on its output. A stage
// takes the longer of its compute and its DDR traffic (inputs produced
// outside the stage, weights, outputs), plus a launch and a sync.

#include "sim/ios_cost.h"

#include "kernel/op_time.h"
#include "sim/internal/rates.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <set>

namespace stagecraft::sim {

namespace {

constexpr double kUnrunnable = std::numeric_limits<double>::infinity();

class StageCost {
public:
    StageCost(const ir::Graph& graph, const arch::Arch& arch,
              const partition::SemanticsCache& semantics)
        : graph_(graph)
        , arch_(arch)
        , semantics_(semantics)
        , oneCore_(graph.opCount()) {}

    double concurrent(const std::vector<std::vector<ir::OpId>>& groups) const {
        double cores = clusterCores() / static_cast<double>(std::max<size_t>(groups.size(), 1));
        double slowest = 0;
        std::vector<ir::OpId> all;
        for (const auto& group : groups) {
            double ns = 0;
            for (ir::OpId op : group)
                ns += onCores(op, cores);
            slowest = std::max(slowest, ns);
            all.insert(all.end(), group.begin(), group.end());
        }
        return finish(slowest, all);
    }

    std::optional<double> merged(const std::vector<ir::OpId>& ops) const {
        if (!iosMergeable(graph_, ops))
            return std::nullopt;
        int64_t kernelArea = 0;
        for (ir::OpId op : ops)
            if (graph_.op(op).kind == ir::OpKind::Conv)
                kernelArea = std::max(kernelArea, area(op));
        double ns = 0;
        for (ir::OpId op : ops) { // each conv's work grown to the largest kernel
            double grown = graph_.op(op).kind == ir::OpKind::Conv
                               ? static_cast<double>(kernelArea) /
                                     static_cast<double>(std::max<int64_t>(area(op), 1))
                               : 1.0;
            ns += onCores(op, clusterCores()) * grown;
        }
        return finish(ns, ops);
    }

private:
    double clusterCores() const {
        return static_cast<double>(arch_.cluster.coreGroups.front().count);
    }

    /// \p op on \p cores cores (the fallback CPU is one unit whatever the share).
    double onCores(ir::OpId op, double cores) const {
        const OneCore& one = oneCore(op);
        return one.onHost ? one.ns : one.ns / cores;
    }

    struct OneCore {
        double ns = -1; // -1: not priced yet
        bool onHost = false;
    };

    /// The op's time on one unit of one core, priced once.
    const OneCore& oneCore(ir::OpId op) const {
        OneCore& one = oneCore_[op];
        if (one.ns < 0) {
            auto work = kernel::wholeOpWork(graph_, arch_, semantics_, op);
            one.ns = work.ok() ? work->unitNs : kUnrunnable;
            one.onHost = work.ok() && work->unit == kernel::kFallbackUnit;
        }
        return one;
    }

    int64_t area(ir::OpId op) const {
        int64_t a = 1;
        for (int64_t k : graph_.op(op).attrs.getInts("kernel_shape"))
            a *= k;
        return a;
    }

    /// \p computeNs or the stage's DDR time if longer, plus launch and sync.
    double finish(double computeNs, const std::vector<ir::OpId>& ops) const {
        std::set<ir::OpId> inStage(ops.begin(), ops.end());
        std::set<ir::TensorId> moved;
        for (ir::OpId op : ops) {
            const ir::Op& o = graph_.op(op);
            for (ir::TensorId in : o.inputs) {
                if (in == ir::kNoTensor)
                    continue;
                ir::OpId producer = graph_.tensor(in).producer;
                if (producer == ir::kNoOp || inStage.count(producer) == 0)
                    moved.insert(in);
            }
            moved.insert(o.outputs.begin(), o.outputs.end());
        }
        double bytes = 0;
        for (ir::TensorId t : moved)
            bytes += static_cast<double>(graph_.tensor(t).byteSize());
        double perCluster = detail::ddrBandwidth(arch_) / static_cast<double>(arch_.clusters);
        double ddrNs = perCluster > 0 ? bytes / perCluster : 0;
        return std::max(computeNs, ddrNs) + arch_.overheads.kernelLaunchNs + arch_.overheads.syncNs;
    }

    const ir::Graph& graph_;
    const arch::Arch& arch_;
    const partition::SemanticsCache& semantics_;
    mutable IdVector<ir::OpId, OneCore> oneCore_;
};

std::vector<int64_t> outputSpatial(const ir::Graph& graph, ir::OpId op) {
    const ir::Shape& shape = graph.tensor(graph.op(op).outputs.front()).shape;
    return shape.size() > 2 ? std::vector<int64_t>(shape.begin() + 2, shape.end())
                            : std::vector<int64_t>{};
}

/// True when every non-constant input of \p op comes from \p ops: an
/// activation (a unit's Relu) that runs on the merged output.
bool isEpilogue(const ir::Graph& graph, ir::OpId op, const std::vector<ir::OpId>& ops) {
    for (ir::TensorId in : graph.op(op).inputs) {
        if (in == ir::kNoTensor || graph.tensor(in).isConstant())
            continue;
        ir::OpId producer = graph.tensor(in).producer;
        if (std::find(ops.begin(), ops.end(), producer) == ops.end())
            return false;
    }
    return true;
}

} // namespace

bool iosMergeable(const ir::Graph& graph, const std::vector<ir::OpId>& ops) {
    std::vector<ir::OpId> convs;
    for (ir::OpId op : ops)
        if (graph.op(op).kind == ir::OpKind::Conv)
            convs.push_back(op);
    if (convs.size() < 2)
        return false;
    const ir::Op& first = graph.op(convs.front());
    auto stacks = [&](const ir::Op& o) {
        return !o.inputs.empty() && !o.outputs.empty() &&
               o.inputs.front() == first.inputs.front() && o.attrs.getInt("group", 1) == 1 &&
               o.attrs.getInts("strides") == first.attrs.getInts("strides") &&
               o.attrs.getInts("dilations") == first.attrs.getInts("dilations");
    };
    std::vector<int64_t> spatial = outputSpatial(graph, convs.front());
    bool convsStack = std::all_of(convs.begin(), convs.end(), [&](ir::OpId op) {
        return stacks(graph.op(op)) && outputSpatial(graph, op) == spatial;
    });
    return convsStack && std::all_of(ops.begin(), ops.end(), [&](ir::OpId op) {
               return graph.op(op).kind == ir::OpKind::Conv || isEpilogue(graph, op, ops);
           });
}

partition::IosCostModel iosStageCost(const ir::Graph& graph, const arch::Arch& arch,
                                     const partition::SemanticsCache& semantics) {
    auto cost = std::make_shared<StageCost>(graph, arch, semantics);
    partition::IosCostModel model;
    model.concurrent = [cost](const std::vector<std::vector<ir::OpId>>& groups) {
        return cost->concurrent(groups);
    };
    model.merged = [cost](const std::vector<ir::OpId>& ops) {
        return cost->merged(ops);
    };
    return model;
}

} // namespace stagecraft::sim
