// A strategy's run over the one pipeline, and its report (compare.h).

#include "sim/compare.h"

#include "ir/precision.h"
#include "sim/roofline.h"
#include "support/limits.h"
#include "support/strings.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace stagecraft::sim {

namespace {

size_t levelIndex(arch::Memory m) {
    return m == arch::Memory::DDR ? 0 : m == arch::Memory::GB ? 1 : 2;
}

void addTraffic(const kernel::TaskGraph& tasks, double scale, Report& r) {
    PerLevel bytes{};
    for (const kernel::Task& t : tasks.tasks)
        if (t.isTransfer()) {
            bytes[levelIndex(t.from)] += t.bytes;
            bytes[levelIndex(t.to)] += t.bytes;
        }
    for (size_t i = 0; i < 3; ++i)
        r.trafficBytes[i] = static_cast<int64_t>(static_cast<double>(bytes[i]) * scale);
}

void addScopes(const kernel::Program& program, Report& r) {
    for (const kernel::Buffer& b : program.buffers) {
        r.kernelOutputs += b.kernelOutput ? 1 : 0;
        if (b.graphOutput) {
            ++r.graphOutputs;
            continue;
        }
        r.scopes[levelIndex(b.scope == schedule::Scope::LB   ? arch::Memory::LB
                            : b.scope == schedule::Scope::GB ? arch::Memory::GB
                                                             : arch::Memory::DDR)]++;
        bool ddr =
            std::any_of(b.placements.begin(), b.placements.end(),
                        [](const kernel::Placement& p) { return p.pool == kernel::kDdrPool; });
        r.tensorsInDdr += ddr ? 1 : 0;
    }
    for (const kernel::AllocationPass* pass : {&program.lb, &program.gb})
        r.spills += pass->allocation.spillsFrom.empty() ? 0 : pass->allocation.spillsFrom.front();
}

void addUtilization(const arch::Arch& arch, const kernel::TaskGraph& tasks, const SimResult& sim,
                    Report& r) {
    double makespan = std::max(sim.makespanNs, 1e-9);
    double cores = static_cast<double>(arch.cluster.coreGroups.front().count);
    std::map<int32_t, double> busy;
    double busyUnits = 0;
    for (const Event& e : sim.events) {
        const kernel::Task& t = tasks.tasks[e.task];
        if (t.kind != kernel::TaskKind::Compute)
            continue;
        double span = (e.end - e.start) * (t.unit == kernel::kFallbackUnit ? 1.0 : t.cores);
        busy[t.unit] += span;
        busyUnits += span;
    }
    std::set<int32_t> reported; // a unit's cores from another first core count with it
    for (const Resource& res : sim.resources) {
        if (res.kind != ResourceKind::Unit || !reported.insert(res.index).second)
            continue;
        double share = res.index == kernel::kFallbackUnit ? 1.0 : cores;
        r.cuUtilization.emplace_back(res.name, busy[res.index] / (makespan * share));
    }
    r.concurrency = busyUnits / makespan;
}

/// The reports count the whole batch's bytes in 64 bits (with room for
/// their sums): a batch that moves more is refused rather than wrapped.
Status checkBatchCounts(const kernel::TaskGraph& tasks, int64_t clusters,
                        const schedule::ClusterPlan& plan) {
    double perIteration = 0;
    for (const kernel::Task& t : tasks.tasks)
        if (t.isTransfer())
            perIteration += 2.0 * static_cast<double>(t.bytes); // counted at both ends
    double total = perIteration * static_cast<double>(clusters) *
                   static_cast<double>(std::max<int64_t>(plan.iterations, 1));
    if (total < 0x1p62)
        return Status::success();
    char bytes[32];
    std::snprintf(bytes, sizeof bytes, "%.3g", total);
    return Error("a total batch of " + std::to_string(plan.totalBatch) + " samples moves " + bytes +
                 " bytes, more than Stagecraft counts (2^62): give a smaller batch");
}

/// What planning and simulating a schedule holds at its peak, per instance
/// and per data move (kernels, buffers, tasks and events included): fitted
/// to the peaks measured on Conformer at seq 20,000 to 60,000 (from 172k
/// instances and 190k moves, 1.3 GB, to 490k and 3.5M, 8.5 GB), erring on
/// the large side (docs/limits.md).
constexpr double kSimBytesPerInstance = 5700;
constexpr double kSimBytesPerMove = 1900;

/// Refuses, with the estimate, a schedule whose simulation would not fit the
/// memory cap, before anything of it is built.
Status checkSimulationMemory(const schedule::Schedule& s) {
    double estimate = kSimBytesPerInstance * static_cast<double>(s.instances.size()) +
                      kSimBytesPerMove * static_cast<double>(s.moves.size());
    if (estimate <= static_cast<double>(memoryCap()))
        return Status::success();
    return Error("simulating this schedule would take about " +
                 formatBytes(static_cast<int64_t>(estimate)) + " (" +
                 std::to_string(s.instances.size()) + " instances, " +
                 std::to_string(s.moves.size()) + " data moves), more than the memory cap of " +
                 formatBytes(memoryCap()) +
                 "; set STAGECRAFT_MAX_MEMORY, or split less (another level or a smaller input)");
}

} // namespace

Expected<Evaluation> evaluateSchedule(const ir::Graph& graph, const arch::Arch& arch,
                                      schedule::Schedule schedule, const Strategy& strategy) {
    SC_RETURN_IF_ERROR(checkSimulationMemory(schedule));
    Evaluation ev;
    ev.schedule = std::move(schedule);
    SC_ASSIGN_OR_RETURN(ev.program,
                        kernel::buildProgram(graph, arch, ev.schedule, planOptions(strategy)));
    kernel::StreamOptions streams;
    streams.acrossLayer = strategy.acrossLayer;
    ev.tasks = kernel::buildStreams(arch, ev.program, streams);
    const schedule::ClusterPlan& clusters = ev.schedule.clusters;
    SC_RETURN_IF_ERROR(checkBatchCounts(ev.tasks, arch.clusters, clusters));
    SC_ASSIGN_OR_RETURN(ev.sim, simulate(arch, ev.program, ev.tasks));
    Report& r = ev.report;
    r.strategy = strategy.name;
    if (strategy.grouping == schedule::Grouping::GraphTurbo)
        r.level = std::string(schedule::levelName(ev.schedule.level));
    if (strategy.splitsGroups)
        r.order = std::string(schedule::orderKindName(ev.schedule.orderKind));
    r.precision =
        std::string(ir::dtypeName(ir::modelPrecision(graph).value_or(ir::DType::Float32)));
    r.perCluster = clusters.perCluster;
    r.iterations = clusters.iterations;
    r.totalBatch = clusters.totalBatch;
    r.kernels = static_cast<int64_t>(ev.program.kernels.size());
    double latencyNs = ev.sim.makespanNs * static_cast<double>(clusters.iterations);
    r.latencyUs = latencyNs / 1000.0;
    r.throughput =
        latencyNs > 0 ? static_cast<double>(clusters.totalBatch) / (latencyNs * 1e-9) : 0;
    addTraffic(ev.tasks, static_cast<double>(arch.clusters * clusters.iterations), r);
    addScopes(ev.program, r);
    addUtilization(arch, ev.tasks, ev.sim, r);
    r.attribution = attribute(arch, ev.schedule, ev.program, ev.tasks, ev.sim);
    r.energy =
        estimateEnergy(graph, arch, ev.program, ev.tasks, r.attribution, clusters.iterations);
    r.rooflineUs = rooflineUs(graph, arch, *ev.schedule.semantics, clusters);
    r.efficiency = r.latencyUs > 0 ? r.rooflineUs / r.latencyUs : 0;
    return ev;
}

Expected<Evaluation> evaluate(const ir::Graph& graph, const arch::Arch& arch,
                              const Strategy& strategy, const schedule::ClusterPlan& clusters,
                              const schedule::ScheduleOptions& base) {
    schedule::ScheduleOptions options = strategyOptions(strategy, base);
    options.clusters = clusters;
    SC_ASSIGN_OR_RETURN(schedule::Schedule s, schedule::buildSchedule(graph, arch, options));
    return evaluateSchedule(graph, arch, std::move(s), strategy);
}

std::optional<double> Report::energyMj() const {
    if (!energy)
        return std::nullopt;
    return millijoules(energy->run);
}

std::optional<double> Report::edpMjMs() const {
    std::optional<double> mj = energyMj();
    if (!mj)
        return std::nullopt;
    return *mj * latencyUs / 1000.0;
}

std::string configurationText(const Report& report) {
    std::string text = std::to_string(report.perCluster) + " per cluster x " +
                       std::to_string(report.iterations) +
                       (report.iterations == 1 ? " iteration" : " iterations");
    text += ", level " + (report.level.empty() ? std::string("-") : report.level);
    text += ", order " + (report.order.empty() ? std::string("-") : report.order);
    return text;
}

void fillSpeedups(std::vector<Report>& reports) {
    double tvm = 0;
    for (const Report& r : reports)
        if (r.strategy == "tvm")
            tvm = r.throughput;
    for (Report& r : reports)
        r.speedupVsTvm = tvm > 0 ? r.throughput / tvm : 0;
}

} // namespace stagecraft::sim
