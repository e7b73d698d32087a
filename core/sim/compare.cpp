// The strategies of §5 over one pipeline, and the report of a run
// (compare.h). Table 2's batch configurations are data here.

#include "sim/compare.h"

#include "ir/precision.h"
#include "ops/semantics.h"
#include "sim/internal/rates.h"
#include "sim/ios_cost.h"
#include "support/strings.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace stagecraft::sim {

const std::vector<Strategy>& strategies() {
    using schedule::Grouping;
    using schedule::Scope;
    static const std::vector<Strategy> all = {
        {"tvm", "TVM §3 fusion, one kernel per fused group, outputs in DDR", Grouping::Tvm, false,
         Scope::DDR, false, true},
        {"astitch", "AStitch (§5.2): stitched memory-intensive ops, tensors kept in LB, no split",
         Grouping::AStitch, false, std::nullopt, false, false},
        {"dla",
         "DLA §3: convex sub-graphs of supported ops, one input and output op each, "
         "outputs in DDR; the rest on the fallback CPU",
         Grouping::Dla, false, Scope::DDR, false, false},
        {"ago", "AGO §IV-V: weighted acyclic clustering with intensive fusion, outputs in DDR",
         Grouping::Ago, false, Scope::DDR, false, false},
        {"ios",
         "IOS §3-4: stages by dynamic programming, each merged convs or groups run at once "
         "on their share of the cores, outputs in DDR",
         Grouping::Ios, false, Scope::DDR, false, false},
        {"gt-gb", "Fig. 15 variant 1: GraphTurbo sub-graphs, outputs in GB", Grouping::GraphTurbo,
         false, Scope::GB, false, false},
        {"gt-lb", "Fig. 15 variant 2: outputs in LB as far as they fit", Grouping::GraphTurbo,
         false, Scope::LB, false, false},
        {"gt-instances", "Fig. 15 variant 3: + instances and ordering", Grouping::GraphTurbo, true,
         std::nullopt, false, false},
        {"graphturbo", "everything: + across-layer instruction scheduling (§4.4)",
         Grouping::GraphTurbo, true, std::nullopt, true, false},
    };
    return all;
}

schedule::ScheduleOptions strategyOptions(const Strategy& strategy,
                                          schedule::ScheduleOptions base) {
    base.grouping = strategy.grouping;
    base.splitGroups = strategy.splitGroups;
    base.forcedScope = strategy.forcedScope;
    if (strategy.grouping == schedule::Grouping::Ios)
        base.iosCost = [](const ir::Graph& graph, const arch::Arch& arch,
                          const partition::SemanticsCache& semantics) {
            return iosStageCost(graph, arch, semantics);
        };
    return base;
}

const Strategy* findStrategy(std::string_view name) {
    for (const Strategy& s : strategies())
        if (s.name == name)
            return &s;
    return nullptr;
}

std::string unknownStrategyMessage(std::string_view name) {
    const std::vector<Strategy>& all = strategies();
    std::vector<std::string> names;
    for (size_t i = 0; i + 1 < all.size(); ++i)
        names.push_back(all[i].name);
    return "unknown strategy " + quote(std::string(name)) + " (expected " + join(names, ", ") +
           " or " + all.back().name + ")";
}

std::optional<BatchConfig> table2Config(std::string_view zooModel, int64_t seq) {
    if (zooModel == "resnet50")
        return BatchConfig{"A", 64, 2, 16};
    if (zooModel == "bert-base") {
        switch (seq) {
        case 128:
            return BatchConfig{"B", 32, 4, 8};
        case 256:
            return BatchConfig{"C", 16, 2, 4};
        case 384:
            return BatchConfig{"D", 8, 1, 2};
        case 512:
            return BatchConfig{"E", 8, 1, 2};
        default:
            return std::nullopt;
        }
    }
    if (zooModel == "dlrm")
        return BatchConfig{"F", 1024, 64, 256};
    if (zooModel == "mobilenet-v2")
        return BatchConfig{"G", 128, 2, 32};
    if (zooModel == "vit-b16")
        return BatchConfig{"H", 32, 4, 8};
    if (zooModel == "densenet121")
        return BatchConfig{"I", 32, 4, 8};
    if (zooModel == "conformer")
        return BatchConfig{"J", 12, 1, 3};
    return std::nullopt;
}

namespace {

size_t levelIndex(arch::Memory m) {
    return m == arch::Memory::DDR ? 0 : m == arch::Memory::GB ? 1 : 2;
}

/// A unit's operations per cycle on \p dtype: its entry, else its slowest
/// listed rate, as the simulator runs it (kernel/layers.cpp).
double unitRate(const arch::ComputeUnit& unit, ir::DType dtype) {
    if (auto it = unit.opsPerCycle.find(dtype); it != unit.opsPerCycle.end())
        return it->second;
    double slowest = 0;
    for (const auto& [type, ops] : unit.opsPerCycle)
        slowest = slowest == 0 ? ops : std::min(slowest, ops);
    return slowest;
}

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
            rate += unitRate(unit, dtype) * arch.clockGhz * static_cast<double>(group.count);
        }
    if (!complex && arch.fallbackCpu)
        rate += arch.fallbackCpu->gflops / static_cast<double>(arch.clusters);
    return rate;
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

} // namespace

namespace detail {

double ddrBandwidth(const arch::Arch& arch) {
    double bw = 0;
    for (const arch::Path& p : arch.paths) {
        if (p.from != arch::Memory::DDR && p.to != arch::Memory::DDR)
            continue;
        double domains = p.sharedBy == arch::Sharing::Chip ? 1
                         : p.sharedBy == arch::Sharing::Cluster
                             ? static_cast<double>(arch.clusters)
                             : static_cast<double>(arch::totalCores(arch));
        bw += p.bandwidthGBps * domains;
    }
    return bw;
}

} // namespace detail

double rooflineUs(const ir::Graph& graph, const arch::Arch& arch,
                  const partition::SemanticsCache& semantics,
                  const schedule::ClusterPlan& clusters) {
    double complexNs = 0, otherNs = 0, weightBytes = 0, outputBytes = 0;
    std::set<ir::TensorId> weights;
    auto timeOn = [&](bool complex, ir::DType dtype, double work) {
        double rate = clusterRate(arch, complex, dtype);
        return rate > 0 ? work / rate : 0.0;
    };
    for (ir::OpId id : graph.opIds()) {
        const ops::OpSemantics& sem = semantics.of(id);
        if (sem.category == ops::Category::Complex) {
            complexNs +=
                timeOn(true, ops::computeTypeOf(graph, id), static_cast<double>(sem.cost.macs));
            for (ir::TensorId in : graph.op(id).inputs)
                if (in != ir::kNoTensor && graph.tensor(in).isConstant() &&
                    weights.insert(in).second)
                    weightBytes += static_cast<double>(graph.tensor(in).byteSize());
        } else {
            otherNs +=
                timeOn(false, ops::computeTypeOf(graph, id), static_cast<double>(sem.cost.flops));
        }
    }
    for (ir::TensorId out : graph.outputs())
        outputBytes += static_cast<double>(graph.tensor(out).byteSize());
    double computeNs = std::max(complexNs, otherNs);
    double iterations = static_cast<double>(clusters.iterations);
    double ddrNs = (weightBytes + iterations * static_cast<double>(arch.clusters) * outputBytes) /
                   std::max(detail::ddrBandwidth(arch), 1e-9);
    return std::max(iterations * computeNs, ddrNs) / 1000.0;
}

Expected<Evaluation> evaluateSchedule(const ir::Graph& graph, const arch::Arch& arch,
                                      schedule::Schedule schedule, bool acrossLayer,
                                      const std::string& strategyName) {
    Evaluation ev;
    ev.schedule = std::move(schedule);
    SC_ASSIGN_OR_RETURN(ev.program, kernel::buildProgram(graph, arch, ev.schedule));
    kernel::StreamOptions streams;
    streams.acrossLayer = acrossLayer;
    ev.tasks = kernel::buildStreams(arch, ev.program, streams);
    SC_ASSIGN_OR_RETURN(ev.sim, simulate(arch, ev.program, ev.tasks));
    const schedule::ClusterPlan& clusters = ev.schedule.clusters;
    Report& r = ev.report;
    r.strategy = strategyName;
    r.level = std::string(schedule::levelName(ev.schedule.level));
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
    return evaluateSchedule(graph, arch, std::move(s), strategy.acrossLayer, strategy.name);
}

namespace {

std::string milliseconds(double us) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g ms", us / 1000.0);
    return text;
}

std::string levelWhy(schedule::Level chosen, const Expected<Evaluation>& lb,
                     const Expected<Evaluation>& gb) {
    std::string why = std::string(schedule::levelName(chosen)) + ": graphturbo simulates ";
    auto at = [](const Expected<Evaluation>& ev, const char* level) {
        return ev.ok() ? milliseconds(ev->report.latencyUs) + " at " + level
                       : std::string("no schedule at ") + level + " (" + ev.error().message() + ")";
    };
    return why + (chosen == schedule::Level::GB ? at(gb, "GB") + ", " + at(lb, "LB")
                                                : at(lb, "LB") + ", " + at(gb, "GB"));
}

} // namespace

Expected<LevelVerdict> pickLevel(const ir::Graph& graph, const arch::Arch& arch,
                                 const schedule::ClusterPlan& clusters,
                                 const schedule::ScheduleOptions& base) {
    const Strategy& full = *findStrategy("graphturbo");
    schedule::ScheduleOptions options = base;
    options.level = schedule::Level::LB;
    Expected<Evaluation> lb = evaluate(graph, arch, full, clusters, options);
    options.level = schedule::Level::GB;
    Expected<Evaluation> gb = evaluate(graph, arch, full, clusters, options);
    if (!lb.ok() && !gb.ok())
        return lb.error();
    LevelVerdict verdict;
    verdict.lbUs = lb.ok() ? lb->report.latencyUs : 0;
    verdict.gbUs = gb.ok() ? gb->report.latencyUs : 0;
    bool gbWins = !lb.ok() || (gb.ok() && gb->sim.makespanNs < lb->sim.makespanNs);
    verdict.level = gbWins ? schedule::Level::GB : schedule::Level::LB;
    verdict.why = levelWhy(verdict.level, lb, gb);
    return verdict;
}

Expected<schedule::Level> chooseLevel(const ir::Graph& graph, const arch::Arch& arch,
                                      const schedule::ClusterPlan& clusters,
                                      const schedule::ScheduleOptions& base) {
    SC_ASSIGN_OR_RETURN(LevelVerdict verdict, pickLevel(graph, arch, clusters, base));
    return verdict.level;
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
