// energyProblem and rooflineProblem (sim_checks.h): the energy of a run checked against the
// report's independent figures — its latency, its bytes per level — and for
// parts that add up, with a relative tolerance for summation order.

#include "sim/roofline_chart.h"
#include "sim_checks.h"

#include <cmath>
#include <string>

namespace stagecraft::test {

namespace {

constexpr double kRelative = 1e-9;

bool near(double a, double b) {
    return std::abs(a - b) <= kRelative * std::max(std::abs(b), 1.0);
}

std::string pj(double value) {
    return std::to_string(value) + " pJ";
}

std::string partsProblem(const std::string& what, const sim::Energy& e) {
    for (size_t a = 0; a < sim::kEnergyActionCount; ++a)
        if (!std::isfinite(e.pj[a]) || e.pj[a] < 0)
            return what + ": " +
                   std::string(sim::energyActionName(static_cast<sim::EnergyAction>(a))) + " is " +
                   pj(e.pj[a]);
    double levels = 0;
    for (std::string_view level : sim::energyLevels())
        levels += e.levelPj(level);
    if (!near(levels, e.totalPj()))
        return what + ": the levels add up to " + pj(levels) + " of " + pj(e.totalPj());
    if (!near(e.dynamicPj() + e.staticPj(), e.totalPj()))
        return what + ": dynamic and static do not add up to the total";
    return {};
}

std::string sumProblem(const sim::EnergyReport& r) {
    sim::Energy groups, kernels;
    for (const sim::GroupEnergy& g : r.groups) {
        if (std::string p = partsProblem("group " + g.label, g.energy); !p.empty())
            return p;
        groups += g.energy;
    }
    for (const sim::KernelEnergy& k : r.kernels) {
        if (std::string p = partsProblem("kernel " + k.label, k.energy); !p.empty())
            return p;
        kernels += k.energy;
    }
    for (size_t a = 0; a < sim::kEnergyActionCount; ++a)
        if (!near(groups.pj[a], r.run.pj[a]) || !near(kernels.pj[a], r.run.pj[a]))
            return "groups or kernels do not add up to the run in " +
                   std::string(sim::energyActionName(static_cast<sim::EnergyAction>(a)));
    return {};
}

/// The dynamic energy of \p level against its bytes in the report: each
/// byte read or written once, so between the cheaper and the dearer figure.
std::string levelBytesProblem(const arch::Arch& arch, const sim::Evaluation& ev, arch::Memory level,
                              size_t index) {
    auto it = arch.energy->memories.find(level);
    if (it == arch.energy->memories.end())
        return {};
    double bytes = static_cast<double>(ev.report.trafficBytes[index]);
    double cheap = std::min(it->second.readPjPerByte, it->second.writePjPerByte);
    double dear = std::max(it->second.readPjPerByte, it->second.writePjPerByte);
    std::string name(arch::memoryName(level));
    double energy = ev.report.energy->run.levelPj(name);
    // The report's bytes are whole: one byte of rounding either way.
    if (energy < (bytes - 1) * cheap * (1 - 1e-9) || energy > (bytes + 1) * dear * (1 + 1e-9))
        return name + " energy " + pj(energy) + " for " + std::to_string(bytes) + " bytes at " +
               std::to_string(cheap) + ".." + std::to_string(dear) + " pJ/B";
    return {};
}

} // namespace

std::string energyProblem(const arch::Arch& arch, const sim::Evaluation& ev) {
    const std::optional<sim::EnergyReport>& energy = ev.report.energy;
    if (energy.has_value() != arch.energy.has_value())
        return energy ? "energy reported for an arch without an energy table"
                      : "no energy for an arch with an energy table";
    if (!energy)
        return {};
    if (std::string p = partsProblem("run", energy->run); !p.empty())
        return "energy: " + p;
    if (std::string p = sumProblem(*energy); !p.empty())
        return "energy: " + p;
    double leakage = energy->staticMw * ev.report.latencyUs * 1000.0; // mW x ns = pJ
    if (!near(energy->run.staticPj(), leakage))
        return "energy: leakage " + pj(energy->run.staticPj()) +
               ", static power over the latency " + pj(leakage);
    if (std::string p = levelBytesProblem(arch, ev, arch::Memory::DDR, 0); !p.empty())
        return "energy: " + p;
    if (arch.cluster.coreGroups.front().localBuffer)
        if (std::string p = levelBytesProblem(arch, ev, arch::Memory::GB, 1); !p.empty())
            return "energy: " + p;
    return {};
}

namespace {

std::string pointProblem(const sim::RooflineChart& chart, const sim::RooflinePoint& p) {
    constexpr double kSlack = 1 + 1e-9;
    double achieved = p.opsPerSecond();
    if (achieved > chart.peakOpsPerSecond * kSlack)
        return p.label + " runs " + std::to_string(achieved) + " ops/s, above the peak " +
               std::to_string(chart.peakOpsPerSecond);
    for (size_t level = 0; level < 3; ++level) {
        if (p.bytes[level] <= 0)
            continue;
        double roof = chart.bandwidth[level] * p.intensity(level);
        if (achieved > roof * kSlack)
            return p.label + " runs " + std::to_string(achieved) + " ops/s, above the " +
                   std::string(sim::rooflineLevelName(level)) + " ceiling " + std::to_string(roof) +
                   " at its intensity";
    }
    return {};
}

} // namespace

std::string rooflineProblem(const arch::Arch& arch, const sim::Evaluation& ev) {
    sim::RooflineChart chart = sim::rooflineChart(arch, ev);
    double work = 0;
    for (const kernel::Task& t : ev.tasks.tasks)
        work += t.kind == kernel::TaskKind::Compute ? t.work : 0;
    double repeat = static_cast<double>(arch.clusters * ev.report.iterations);
    double ops = 0;
    for (const sim::RooflinePoint& p : chart.kernels)
        ops += p.ops;
    if (!near(ops, work * repeat))
        return "roofline: the kernels hold " + std::to_string(ops) + " operations of " +
               std::to_string(work * repeat);
    for (const auto* points : {&chart.kernels, &chart.groups})
        for (const sim::RooflinePoint& p : *points)
            if (std::string problem = pointProblem(chart, p); !problem.empty())
                return "roofline: " + problem;
    return {};
}

} // namespace stagecraft::test
