// The roofline lower bound (roofline.h): compute at every unit's rate for
// the precision simulated, and the compulsory DDR bytes at the chip's DDR
// bandwidth; and the same with each contraction at its array's fill.

#include "sim/roofline.h"

#include "kernel/op_time.h"
#include "ops/semantics.h"
#include "sim/internal/rates.h"

#include <algorithm>
#include <set>

namespace stagecraft::sim {

namespace {

/// Rate (operations per ns) of one cluster's units that run \p complex work
/// or the other work, on \p dtype: the precision simulated, not each unit's
/// fastest dtype (an f32 model is not bounded by the i8 rate).
double clusterRate(const arch::Arch& arch, bool complex, ir::DType dtype) {
    double rate = 0;
    for (const arch::CoreGroup& group : arch.cluster.coreGroups)
        for (const arch::ComputeUnit& unit : group.units) {
            bool runsComplex = std::count(unit.categories.begin(), unit.categories.end(),
                                          ir::OpCategory::Complex) > 0;
            bool runsOther = unit.categories.size() > (runsComplex ? 1U : 0U);
            if (complex ? !runsComplex : !runsOther)
                continue;
            rate +=
                detail::unitRate(unit, dtype) * arch.clockGhz * static_cast<double>(group.count);
        }
    if (!complex && arch.fallbackCpu)
        rate += arch.fallbackCpu->gflops / static_cast<double>(arch.clusters);
    return rate;
}

} // namespace

namespace detail {

double unitRate(const arch::ComputeUnit& unit, ir::DType dtype) {
    if (auto it = unit.opsPerCycle.find(dtype); it != unit.opsPerCycle.end())
        return it->second;
    double slowest = 0;
    for (const auto& [type, ops] : unit.opsPerCycle)
        slowest = slowest == 0 ? ops : std::min(slowest, ops);
    return slowest;
}

double sharingDomains(const arch::Arch& arch, arch::Sharing sharing) {
    switch (sharing) {
    case arch::Sharing::Chip:
        return 1;
    case arch::Sharing::Cluster:
        return static_cast<double>(arch.clusters);
    case arch::Sharing::Core:
        return static_cast<double>(arch::totalCores(arch));
    }
    return 1;
}

double ddrBandwidth(const arch::Arch& arch) {
    double bw = 0;
    for (const arch::Path& p : arch.paths)
        if (p.from == arch::Memory::DDR || p.to == arch::Memory::DDR)
            bw += p.bandwidthGBps * sharingDomains(arch, p.sharedBy);
    return bw;
}

} // namespace detail

double compulsoryWeightBytes(const ir::Graph& graph, const partition::SemanticsCache& semantics) {
    std::set<ir::TensorId> weights;
    double bytes = 0;
    for (ir::OpId id : graph.opIds()) {
        if (semantics.of(id).category != ops::Category::Complex)
            continue;
        for (ir::TensorId in : graph.op(id).inputs)
            if (in != ir::kNoTensor && graph.tensor(in).isConstant() && weights.insert(in).second)
                bytes += static_cast<double>(graph.tensor(in).byteSize());
    }
    return bytes;
}

namespace {

/// The roofline with each complex op's MACs divided by \p fill(op).
template <class Fill>
double boundUs(const ir::Graph& graph, const arch::Arch& arch,
               const partition::SemanticsCache& semantics, const schedule::ClusterPlan& clusters,
               const Fill& fill) {
    double complexNs = 0, otherNs = 0, outputBytes = 0;
    auto timeOn = [&](bool complex, ir::DType dtype, double work) {
        double rate = clusterRate(arch, complex, dtype);
        return rate > 0 ? work / rate : 0.0;
    };
    for (ir::OpId id : graph.opIds()) {
        const ops::OpSemantics& sem = semantics.of(id);
        if (sem.category == ops::Category::Complex) {
            complexNs += timeOn(true, ops::computeTypeOf(graph, id),
                                static_cast<double>(sem.cost.macs) / fill(id));
        } else {
            otherNs +=
                timeOn(false, ops::computeTypeOf(graph, id), static_cast<double>(sem.cost.flops));
        }
    }
    for (ir::TensorId out : graph.outputs())
        outputBytes += static_cast<double>(graph.tensor(out).byteSize());
    double computeNs = std::max(complexNs, otherNs);
    double iterations = static_cast<double>(clusters.iterations);
    double ddrNs = (compulsoryWeightBytes(graph, semantics) +
                    iterations * static_cast<double>(arch.clusters) * outputBytes) /
                   std::max(detail::ddrBandwidth(arch), 1e-9);
    return std::max(iterations * computeNs, ddrNs) / 1000.0;
}

} // namespace

double rooflineUs(const ir::Graph& graph, const arch::Arch& arch,
                  const partition::SemanticsCache& semantics,
                  const schedule::ClusterPlan& clusters) {
    return boundUs(graph, arch, semantics, clusters, [](ir::OpId) { return 1.0; });
}

double rooflineAtFillUs(const ir::Graph& graph, const arch::Arch& arch,
                        const partition::SemanticsCache& semantics,
                        const schedule::ClusterPlan& clusters) {
    return boundUs(graph, arch, semantics, clusters, [&](ir::OpId op) {
        return std::max(kernel::arrayFillOf(graph, arch, semantics, op), 1e-9);
    });
}

} // namespace stagecraft::sim
