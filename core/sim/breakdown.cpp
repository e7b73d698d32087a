// Attribution of simulated time and bytes to causes (breakdown.h). Each
// kernel is swept on its own: kernels are barriers (a launch waits for the
// previous sync), so their windows tile the run. Within a window, the
// boundaries of the kernel's events cut time into segments in which the set
// of tasks in progress is fixed; each segment goes to one priority class:
// compute, else DMA (the units wait), else launch, else sync, else idle.

#include "sim/breakdown.h"

#include "partition/partition.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace stagecraft::sim {

namespace {

using kernel::Task;
using kernel::TaskKind;
using schedule::GroupId;

constexpr double kEpsilon = 1e-9;

/// A task's share of a cause: a load mixing spilled and never spilled
/// buffers is split by bytes.
struct Share {
    Cause cause = Cause::Idle;
    double weight = 1;
};

Cause computeCause(const arch::Arch& arch, int32_t unit) {
    if (unit == kernel::kFallbackUnit)
        return Cause::ComputeFallback;
    switch (arch.cluster.coreGroups.front().units[static_cast<size_t>(unit)].kind) {
    case arch::UnitKind::Matrix:
        return Cause::ComputeMatrix;
    case arch::UnitKind::Vector:
        return Cause::ComputeVector;
    case arch::UnitKind::Scalar:
        return Cause::ComputeScalar;
    }
    return Cause::ComputeVector;
}

std::vector<Share> sharesOf(const arch::Arch& arch, const Task& t) {
    switch (t.kind) {
    case TaskKind::Compute:
        return {{computeCause(arch, t.unit), 1}};
    case TaskKind::Launch:
        return {{Cause::Launch, 1}};
    case TaskKind::Sync:
        return {{Cause::Sync, 1}};
    case TaskKind::WeightDma:
    case TaskKind::WeightHoist:
        return {{Cause::WeightLoad, 1}};
    case TaskKind::Store:
        return {{Cause::ActivationStore, 1}};
    case TaskKind::Spill:
        return {{Cause::SpillOut, 1}};
    case TaskKind::Load:
        break;
    }
    if (t.inserted)
        return {{Cause::DataMovement, 1}};
    if (t.reloadBytes <= 0 || t.bytes <= 0)
        return {{Cause::ActivationLoad, 1}};
    double back = std::min(1.0, static_cast<double>(t.reloadBytes) / static_cast<double>(t.bytes));
    if (back >= 1.0)
        return {{Cause::SpillBack, 1}};
    return {{Cause::ActivationLoad, 1 - back}, {Cause::SpillBack, back}};
}

/// A change in what is in progress: at \p time, \p weight more (or less) of \p cause.
struct Edge {
    double time = 0;
    Cause cause = Cause::Idle;
    double weight = 0;
};

/// Attributes [from, to) given the causes in progress, \p counts.
void attributeSegment(double dt, const std::array<double, kCauseCount>& counts, Breakdown& b) {
    auto active = [&](size_t c) {
        return counts[c] > kEpsilon;
    };
    double computeKinds = 0, transfers = 0;
    for (size_t c = 0; c < kCauseCount; ++c) {
        if (!active(c))
            continue;
        b.activeNs[c] += dt;
        if (isComputeCause(static_cast<Cause>(c)))
            computeKinds += 1;
        else if (isTransferCause(static_cast<Cause>(c)))
            transfers += counts[c];
    }
    if (computeKinds > 0) {
        for (size_t c = 0; c < kCauseCount; ++c)
            if (active(c) && isComputeCause(static_cast<Cause>(c)))
                b.ns[c] += dt / computeKinds;
    } else if (transfers > 0) {
        for (size_t c = 0; c < kCauseCount; ++c)
            if (active(c) && isTransferCause(static_cast<Cause>(c)))
                b.ns[c] += dt * counts[c] / transfers;
    } else if (active(static_cast<size_t>(Cause::Launch))) {
        b.ns[static_cast<size_t>(Cause::Launch)] += dt;
    } else if (active(static_cast<size_t>(Cause::Sync))) {
        b.ns[static_cast<size_t>(Cause::Sync)] += dt;
    } else {
        b.ns[static_cast<size_t>(Cause::Idle)] += dt;
    }
}

/// One kernel's breakdown over [windowStart, its last end], one iteration.
Breakdown sweepKernel(const arch::Arch& arch, const kernel::TaskGraph& tasks, const SimResult& sim,
                      const std::vector<kernel::TaskId>& taskIds, double windowStart) {
    Breakdown b;
    std::vector<Edge> edges;
    double windowEnd = windowStart;
    for (kernel::TaskId id : taskIds) {
        const Task& t = tasks.tasks[id];
        const Event& e = sim.events[id];
        windowEnd = std::max(windowEnd, e.end);
        for (const Share& s : sharesOf(arch, t)) {
            if (t.isTransfer())
                b.bytes[static_cast<size_t>(s.cause)] +=
                    static_cast<int64_t>(std::llround(static_cast<double>(t.bytes) * s.weight));
            if (e.end > e.start) {
                edges.push_back({e.start, s.cause, s.weight});
                edges.push_back({e.end, s.cause, -s.weight});
            }
        }
    }
    std::stable_sort(edges.begin(), edges.end(),
                     [](const Edge& x, const Edge& y) { return x.time < y.time; });
    std::array<double, kCauseCount> counts{};
    double now = windowStart;
    for (const Edge& edge : edges) {
        if (edge.time > now) {
            attributeSegment(edge.time - now, counts, b);
            now = edge.time;
        }
        counts[static_cast<size_t>(edge.cause)] += edge.weight;
    }
    if (windowEnd > now)
        attributeSegment(windowEnd - now, counts, b);
    b.totalNs = windowEnd - windowStart;
    return b;
}

Breakdown scaled(Breakdown b, double time, double bytes) {
    for (size_t c = 0; c < kCauseCount; ++c) {
        b.ns[c] *= time;
        b.activeNs[c] *= time;
        b.bytes[c] = static_cast<int64_t>(static_cast<double>(b.bytes[c]) * bytes);
    }
    b.totalNs *= time;
    return b;
}

} // namespace

std::string_view causeName(Cause cause) {
    static constexpr std::string_view names[kCauseCount] = {"compute_matrix",
                                                            "compute_vector",
                                                            "compute_scalar",
                                                            "compute_fallback",
                                                            "weight_load",
                                                            "activation_load",
                                                            "activation_store",
                                                            "spill_out",
                                                            "spill_back",
                                                            "data_movement",
                                                            "launch",
                                                            "sync",
                                                            "idle"};
    return names[static_cast<size_t>(cause)];
}

bool isComputeCause(Cause cause) {
    return cause <= Cause::ComputeFallback;
}

bool isTransferCause(Cause cause) {
    return cause >= Cause::WeightLoad && cause <= Cause::DataMovement;
}

double Breakdown::dmaWaitNs() const {
    double sum = 0;
    for (size_t c = 0; c < kCauseCount; ++c)
        if (isTransferCause(static_cast<Cause>(c)))
            sum += ns[c];
    return sum;
}

int64_t Breakdown::totalBytes() const {
    return std::accumulate(bytes.begin(), bytes.end(), int64_t{0});
}

Breakdown& Breakdown::operator+=(const Breakdown& other) {
    for (size_t c = 0; c < kCauseCount; ++c) {
        ns[c] += other.ns[c];
        activeNs[c] += other.activeNs[c];
        bytes[c] += other.bytes[c];
    }
    totalNs += other.totalNs;
    return *this;
}

Attribution attribute(const arch::Arch& arch, const schedule::Schedule& schedule,
                      const kernel::Program& program, const kernel::TaskGraph& tasks,
                      const SimResult& sim) {
    std::vector<std::vector<kernel::TaskId>> byKernel(program.kernels.size());
    for (kernel::TaskId t : tasks.tasks.ids())
        byKernel[static_cast<size_t>(tasks.tasks[t].kernel)].push_back(t);
    auto time = static_cast<double>(schedule.clusters.iterations);
    double bytes = time * static_cast<double>(arch.clusters);
    Attribution a;
    a.groups.resize(schedule.groups.size());
    for (GroupId g : a.groups.ids()) {
        a.groups[g].group = g;
        a.groups[g].label = partition::Partition::label(g);
    }
    double windowStart = 0;
    for (size_t k = 0; k < program.kernels.size(); ++k) {
        Breakdown one = sweepKernel(arch, tasks, sim, byKernel[k], windowStart);
        windowStart += one.totalNs;
        const kernel::Kernel& kern = program.kernels[k];
        schedule::GroupId group = schedule.instances[kern.instance].group;
        KernelBreakdown entry{static_cast<int32_t>(k), kern.label, group, scaled(one, time, bytes)};
        a.groups[group].breakdown += entry.breakdown;
        a.groups[group].kernels += 1;
        a.run += entry.breakdown;
        a.kernels.push_back(std::move(entry));
    }
    return a;
}

} // namespace stagecraft::sim
