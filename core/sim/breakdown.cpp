// Attribution of simulated time and bytes to causes (breakdown.h). Each
// stage of kernels is swept on its own: kernels are barriers (a launch waits
// for the previous sync), and IOS's concurrent kernels one barrier, so the
// stages' windows tile the run; kernels launched on their dependencies (DLA)
// share a window with every kernel they overlap. Within a window, the boundaries of the
// events cut time into segments in which the set of tasks in progress is
// fixed; each segment goes to one priority class (compute, else DMA: the
// units wait, else launch, else sync, else idle), shared evenly among the
// kernels with work in it.

#include "sim/breakdown.h"

#include "partition/partition.h"

#include <algorithm>
#include <cmath>
#include <limits>
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

/// A change in what one kernel of a stage has in progress: at \p time,
/// \p weight more (or less) of \p cause.
struct KernelEdge {
    double time = 0;
    size_t kernel = 0;
    Cause cause = Cause::Idle;
    double weight = 0;
};

/// What the kernels of a stage have in progress as the sweep goes: a busy
/// kernel's share of a segment is dt / (kernels busy), so each kernel is
/// attributed lazily, from the running sum of those shares since its last
/// change; a segment no kernel is busy in goes to the first kernel's idle
/// time. Linear in the edges, however many kernels run at once.
class StageSweep {
public:
    StageSweep(size_t kernels, double start, std::vector<Breakdown>& out)
        : counts_(kernels)
        , since_(kernels, 0)
        , busy_(kernels, 0)
        , now_(start)
        , out_(out) {}

    /// Attributes [now, \p time) and moves to \p time.
    void advance(double time) {
        if (time <= now_)
            return;
        double dt = time - now_;
        if (busyCount_ == 0) {
            attributeSegment(dt, counts_[0], out_[0]);
            out_[0].totalNs += dt;
        } else {
            shares_ += dt / static_cast<double>(busyCount_);
        }
        now_ = time;
    }

    void change(size_t kernel, Cause cause, double weight) {
        flush(kernel);
        counts_[kernel][static_cast<size_t>(cause)] += weight;
        bool busy = std::any_of(counts_[kernel].begin(), counts_[kernel].end(),
                                [](double c) { return c > kEpsilon; });
        busyCount_ += static_cast<size_t>(busy) - static_cast<size_t>(busy_[kernel]);
        busy_[kernel] = busy ? 1 : 0;
    }

    /// Attributes what \p kernel had in progress since its last change.
    void flush(size_t kernel) {
        double share = shares_ - since_[kernel];
        since_[kernel] = shares_;
        if (!busy_[kernel] || share <= 0)
            return;
        attributeSegment(share, counts_[kernel], out_[kernel]);
        out_[kernel].totalNs += share;
    }

    double now() const { return now_; }

private:
    std::vector<std::array<double, kCauseCount>> counts_;
    std::vector<double> since_;
    std::vector<char> busy_;
    size_t busyCount_ = 0;
    double shares_ = 0;
    double now_;
    std::vector<Breakdown>& out_;
};

/// The breakdowns of a stage's kernels (their tasks, \p kernels) over
/// [windowStart, the stage's last end], one iteration. A segment in which
/// several kernels have work in progress (IOS's concurrent kernels) is
/// shared evenly among them; one in which none has goes to the first
/// kernel's idle time. A stage of one kernel is that kernel's window.
std::vector<Breakdown> sweepStage(const arch::Arch& arch, const kernel::TaskGraph& tasks,
                                  const SimResult& sim,
                                  const std::vector<const std::vector<kernel::TaskId>*>& kernels,
                                  double windowStart) {
    std::vector<Breakdown> out(kernels.size());
    std::vector<KernelEdge> edges;
    double windowEnd = windowStart;
    for (size_t k = 0; k < kernels.size(); ++k)
        for (kernel::TaskId id : *kernels[k]) {
            const Task& t = tasks.tasks[id];
            const Event& e = sim.events[id];
            windowEnd = std::max(windowEnd, e.end);
            for (const Share& s : sharesOf(arch, t)) {
                if (t.isTransfer())
                    out[k].bytes[static_cast<size_t>(s.cause)] +=
                        static_cast<int64_t>(std::llround(static_cast<double>(t.bytes) * s.weight));
                if (e.end > e.start) {
                    edges.push_back({e.start, k, s.cause, s.weight});
                    edges.push_back({e.end, k, s.cause, -s.weight});
                }
            }
        }
    std::stable_sort(edges.begin(), edges.end(),
                     [](const KernelEdge& x, const KernelEdge& y) { return x.time < y.time; });
    StageSweep sweep(kernels.size(), windowStart, out);
    for (const KernelEdge& edge : edges) {
        sweep.advance(edge.time);
        sweep.change(edge.kernel, edge.cause, edge.weight);
    }
    sweep.advance(windowEnd);
    for (size_t k = 0; k < kernels.size(); ++k)
        sweep.flush(k);
    if (kernels.size() == 1)
        out[0].totalNs = windowEnd - windowStart;
    return out;
}

/// Per kernel k, whether a window may start at it: it does not join an IOS
/// stage, and every kernel before it ends before any from it on starts.
/// Kernels that are barriers always start one; kernels launched on their
/// dependencies (DLA) share a window with those they overlap.
std::vector<char> windowCuts(const kernel::Program& program,
                             const std::vector<std::vector<kernel::TaskId>>& byKernel,
                             const SimResult& sim) {
    size_t n = program.kernels.size();
    std::vector<double> laterStart(n + 1, std::numeric_limits<double>::infinity());
    for (size_t k = n; k-- > 0;) {
        laterStart[k] = laterStart[k + 1];
        for (kernel::TaskId id : byKernel[k])
            laterStart[k] = std::min(laterStart[k], sim.events[id].start);
    }
    std::vector<char> cut(n, 1);
    double endedBy = -std::numeric_limits<double>::infinity();
    for (size_t k = 0; k < n; ++k) {
        cut[k] = k == 0 || (!program.kernels[k].joinsStage && endedBy <= laterStart[k] + kEpsilon);
        for (kernel::TaskId id : byKernel[k])
            endedBy = std::max(endedBy, sim.events[id].end);
    }
    return cut;
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

Cause dominantCause(const Breakdown& b) {
    size_t best = 0;
    for (size_t c = 1; c < kCauseCount; ++c)
        if (b.ns[c] > b.ns[best])
            best = c;
    return static_cast<Cause>(best);
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
    std::vector<char> cut = windowCuts(program, byKernel, sim);
    double windowStart = 0;
    for (size_t first = 0; first < program.kernels.size();) {
        size_t end = first + 1;
        while (end < program.kernels.size() && !cut[end])
            ++end;
        std::vector<const std::vector<kernel::TaskId>*> stage;
        for (size_t k = first; k < end; ++k)
            stage.push_back(&byKernel[k]);
        std::vector<Breakdown> parts = sweepStage(arch, tasks, sim, stage, windowStart);
        for (size_t k = first; k < end; ++k) {
            const Breakdown& one = parts[k - first];
            windowStart += one.totalNs;
            const kernel::Kernel& kern = program.kernels[k];
            schedule::GroupId group = schedule.instances[kern.instance].group;
            KernelBreakdown entry{static_cast<int32_t>(k), kern.label, group,
                                  scaled(one, time, bytes)};
            a.groups[group].breakdown += entry.breakdown;
            a.groups[group].kernels += 1;
            a.run += entry.breakdown;
            a.kernels.push_back(std::move(entry));
        }
        first = end;
    }
    return a;
}

} // namespace stagecraft::sim
