// The hierarchical roofline of a simulated run (roofline_chart.h): ceilings
// from the architecture, points from the tasks the simulator ran and the
// attribution's exclusive time, all over the whole batch.

#include "sim/roofline_chart.h"

#include "sim/internal/rates.h"

#include <map>

namespace stagecraft::sim {

namespace {

constexpr std::string_view kLevelNames[] = {"DDR", "GB", "LB"};

size_t levelOf(arch::Memory m) {
    return m == arch::Memory::DDR ? 0 : m == arch::Memory::GB ? 1 : 2;
}

std::array<double, 3> levelBandwidths(const arch::Arch& arch) {
    std::array<double, 3> bandwidth{};
    for (const arch::Path& p : arch.paths) {
        double bytesPerSecond = p.bandwidthGBps * 1e9 * detail::sharingDomains(arch, p.sharedBy);
        bandwidth[levelOf(p.from)] += bytesPerSecond;
        if (p.to != p.from)
            bandwidth[levelOf(p.to)] += bytesPerSecond;
    }
    return bandwidth;
}

/// Operations per second of the chip on \p dtype: every unit at the rate
/// the simulator runs it (its entry, else its slowest), and the fallback CPU.
double chipOpsPerSecond(const arch::Arch& arch, ir::DType dtype) {
    double perNs = 0;
    for (const arch::CoreGroup& group : arch.cluster.coreGroups)
        for (const arch::ComputeUnit& unit : group.units)
            perNs += detail::unitRate(unit, dtype) * arch.clockGhz *
                     static_cast<double>(group.count * arch.clusters);
    if (arch.fallbackCpu)
        perNs += arch.fallbackCpu->gflops;
    return perNs * 1e9;
}

/// Nanoseconds from the first task of each kernel to its last: what its
/// transfers and compute took, overlaps with its neighbours included, so no
/// point rises above a ceiling.
std::vector<double> kernelSpans(const Evaluation& eval) {
    std::vector<double> first(eval.program.kernels.size(), -1), last(first.size(), 0);
    for (kernel::TaskId id : eval.tasks.tasks.ids()) {
        auto k = static_cast<size_t>(eval.tasks.tasks[id].kernel);
        const Event& e = eval.sim.events[id];
        first[k] = first[k] < 0 ? e.start : std::min(first[k], e.start);
        last[k] = std::max(last[k], e.end);
    }
    std::vector<double> spans(first.size());
    for (size_t k = 0; k < spans.size(); ++k)
        spans[k] = first[k] < 0 ? 0 : last[k] - first[k];
    return spans;
}

/// Operations and bytes per kernel of one cluster running the program once.
std::vector<RooflinePoint> countPerKernel(const Evaluation& eval) {
    std::vector<RooflinePoint> kernels(eval.program.kernels.size());
    for (const kernel::Task& t : eval.tasks.tasks) {
        if (t.kernel < 0 || static_cast<size_t>(t.kernel) >= kernels.size())
            continue;
        RooflinePoint& p = kernels[static_cast<size_t>(t.kernel)];
        if (t.kind == kernel::TaskKind::Compute)
            p.ops += t.work;
        if (t.isTransfer()) { // a hop within one level (LB to LB) counts there once
            p.bytes[levelOf(t.from)] += static_cast<double>(t.bytes);
            if (t.to != t.from)
                p.bytes[levelOf(t.to)] += static_cast<double>(t.bytes);
        }
    }
    return kernels;
}

void addTo(RooflinePoint& sum, const RooflinePoint& part) {
    sum.ops += part.ops;
    sum.seconds += part.seconds;
    for (size_t l = 0; l < 3; ++l)
        sum.bytes[l] += part.bytes[l];
}

} // namespace

std::string_view rooflineLevelName(size_t level) {
    return kLevelNames[level];
}

RooflineChart rooflineChart(const arch::Arch& arch, const Evaluation& eval) {
    const Report& report = eval.report;
    RooflineChart chart;
    chart.strategy = report.strategy;
    chart.precision = report.precision;
    ir::DType dtype = ir::parseDType(report.precision).value_or(ir::DType::Float32);
    chart.peakOpsPerSecond = chipOpsPerSecond(arch, dtype);
    chart.bandwidth = levelBandwidths(arch);
    std::vector<RooflinePoint> counts = countPerKernel(eval);
    std::vector<double> spans = kernelSpans(eval);
    double repeat = static_cast<double>(arch.clusters * std::max<int64_t>(report.iterations, 1));
    std::map<schedule::GroupId, size_t> groupIndex;
    for (const KernelBreakdown& kb : report.attribution.kernels) {
        RooflinePoint p = counts[static_cast<size_t>(kb.kernel)];
        p.label = kb.label;
        p.group = kb.group;
        p.kernel = kb.kernel;
        p.ops *= repeat;
        for (double& b : p.bytes)
            b *= repeat;
        p.seconds = spans[static_cast<size_t>(kb.kernel)] * 1e-9 *
                    static_cast<double>(std::max<int64_t>(report.iterations, 1));
        auto [it, added] = groupIndex.emplace(kb.group, chart.groups.size());
        if (added) {
            RooflinePoint g;
            g.group = kb.group;
            g.label = report.attribution.groups[kb.group].label;
            chart.groups.push_back(g);
        }
        addTo(chart.groups[it->second], p);
        chart.kernels.push_back(std::move(p));
    }
    return chart;
}

} // namespace stagecraft::sim
