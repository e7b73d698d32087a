// The hierarchical roofline of a simulated run (roofline_chart.h): ceilings
// from the architecture, points from the tasks the simulator ran and the
// attribution's exclusive time, all over the whole batch.

#include "sim/roofline_chart.h"

#include <map>

namespace stagecraft::sim {

namespace {

constexpr std::string_view kLevelNames[] = {"DDR", "GB", "LB"};

size_t levelOf(arch::Memory m) {
    return m == arch::Memory::DDR ? 0 : m == arch::Memory::GB ? 1 : 2;
}

/// How many copies of a path's pipe the chip has.
double domains(const arch::Arch& arch, arch::Sharing sharing) {
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

std::array<double, 3> levelBandwidths(const arch::Arch& arch) {
    std::array<double, 3> bandwidth{};
    for (const arch::Path& p : arch.paths) {
        double bytesPerSecond = p.bandwidthGBps * 1e9 * domains(arch, p.sharedBy);
        bandwidth[levelOf(p.from)] += bytesPerSecond;
        if (p.to != p.from)
            bandwidth[levelOf(p.to)] += bytesPerSecond;
    }
    return bandwidth;
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
        if (t.isTransfer()) {
            p.bytes[levelOf(t.from)] += static_cast<double>(t.bytes);
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
    chart.peakOpsPerSecond = arch::peakOpsPerSecond(arch, dtype);
    chart.bandwidth = levelBandwidths(arch);
    std::vector<RooflinePoint> counts = countPerKernel(eval);
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
        p.seconds = kb.breakdown.totalNs * 1e-9;
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
