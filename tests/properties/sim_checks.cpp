// Properties of an evaluated strategy run checked independently of the
// engine (sim_checks.h). The timeline and the two allocation passes go
// through the engine's validators; everything else is recomputed here from
// the plain data: the task graph's indices and times, every buffer's
// placements, the residencies (two buffers never share bytes of a pool at
// the same simulated time), the compute work per layer (a compute task of
// a kernel on n cores takes 1/n of its ops' single-unit time, the fallback
// CPU runs it whole; the chunks of a layer add up to the layer), the
// latency against the roofline and the report's counts against the program.

#include "sim_checks.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace stagecraft::test {

namespace {

using kernel::Buffer;
using kernel::Program;
using kernel::Task;
using kernel::TaskGraph;

/// Relative slack of the floating-point comparisons.
constexpr double kRelative = 1e-6;
/// Slack of time comparisons, as validateTimeline's.
constexpr double kSlackNs = 1e-6;

bool near(double a, double b) {
    return std::abs(a - b) <= kRelative * std::max({std::abs(a), std::abs(b), 1e-9});
}

std::string task(const TaskGraph& tasks, kernel::TaskId t) {
    return "task " + std::to_string(t.value()) + " (" +
           std::string(kernel::taskKindName(tasks.tasks[t].kind)) + ", kernel " +
           std::to_string(tasks.tasks[t].kernel) + ")";
}

std::string allocationProblem(const char* pass, const kernel::AllocationPass& p) {
    if (p.requests.size() != p.buffers.size() || p.requests.size() != p.allocation.tensors.size())
        return std::string(pass) + " pass: " + std::to_string(p.requests.size()) + " requests, " +
               std::to_string(p.buffers.size()) + " buffers, " +
               std::to_string(p.allocation.tensors.size()) + " allocated tensors";
    Status valid = kernel::validateAllocation(p.requests, p.allocation);
    return valid.ok() ? std::string() : std::string(pass) + " pass: " + valid.error().message();
}

/// Latency never below the roofline; the report's latency is the simulation's.
std::string latencyProblem(const sim::Evaluation& ev) {
    double latencyUs =
        ev.sim.makespanNs * static_cast<double>(ev.schedule.clusters.iterations) / 1000.0;
    if (!near(latencyUs, ev.report.latencyUs))
        return "report latency " + std::to_string(ev.report.latencyUs) + " us, simulated " +
               std::to_string(latencyUs) + " us";
    if (latencyUs < ev.report.rooflineUs * (1 - kRelative))
        return "simulated latency " + std::to_string(latencyUs) + " us is below the roofline " +
               std::to_string(ev.report.rooflineUs) + " us";
    double lastEnd = 0;
    for (const sim::Event& e : ev.sim.events)
        lastEnd = std::max(lastEnd, e.end);
    if (lastEnd != ev.sim.makespanNs)
        return "makespan " + std::to_string(ev.sim.makespanNs) + " ns, last event ends at " +
               std::to_string(lastEnd) + " ns";
    return {};
}

std::string breakdownProblem(const std::string& what, const sim::Breakdown& b) {
    double sum = 0;
    for (size_t c = 0; c < sim::kCauseCount; ++c) {
        sum += b.ns[c];
        if (b.ns[c] < 0 || b.activeNs[c] < b.ns[c] * (1 - kRelative) - 1e-6)
            return what + ": cause " + std::string(sim::causeName(static_cast<sim::Cause>(c))) +
                   " has " + std::to_string(b.ns[c]) + " ns, active " +
                   std::to_string(b.activeNs[c]) + " ns";
    }
    if (std::abs(sum - b.totalNs) > kRelative * std::max(b.totalNs, 1.0))
        return what + ": the causes add up to " + std::to_string(sum) + " ns of " +
               std::to_string(b.totalNs);
    return {};
}

/// Attribution (breakdown.h): every breakdown's causes add up to its total;
/// the run's total is the latency; groups and kernels add up to the run;
/// the bytes by cause are the bytes the transfers move.
std::string attributionProblem(const sim::Evaluation& ev) {
    const sim::Attribution& a = ev.report.attribution;
    std::string problem = breakdownProblem("run", a.run);
    if (!problem.empty())
        return "attribution: " + problem;
    if (!near(a.run.totalNs / 1000.0, ev.report.latencyUs))
        return "attribution: run total " + std::to_string(a.run.totalNs) + " ns, latency " +
               std::to_string(ev.report.latencyUs) + " us";
    sim::Breakdown groups, kernels;
    for (const sim::GroupBreakdown& g : a.groups) {
        if (problem = breakdownProblem("group " + g.label, g.breakdown); !problem.empty())
            return "attribution: " + problem;
        groups += g.breakdown;
    }
    for (const sim::KernelBreakdown& k : a.kernels) {
        if (problem = breakdownProblem("kernel " + k.label, k.breakdown); !problem.empty())
            return "attribution: " + problem;
        kernels += k.breakdown;
    }
    if (a.kernels.size() != ev.program.kernels.size())
        return "attribution: " + std::to_string(a.kernels.size()) + " kernels of " +
               std::to_string(ev.program.kernels.size());
    for (const sim::Breakdown* part : {&groups, &kernels})
        for (size_t c = 0; c < sim::kCauseCount; ++c)
            if (!near(part->ns[c], a.run.ns[c]) || part->bytes[c] != a.run.bytes[c])
                return "attribution: groups or kernels do not add up to the run in " +
                       std::string(sim::causeName(static_cast<sim::Cause>(c)));
    // The report's traffic counts both ends of every hop, at the same scale.
    const sim::PerLevel& traffic = ev.report.trafficBytes;
    double moved = static_cast<double>(traffic[0] + traffic[1] + traffic[2]) / 2;
    double counted = static_cast<double>(a.run.totalBytes());
    if (std::abs(counted - moved) > 1e-6 * moved + 2.0 * static_cast<double>(ev.tasks.tasks.size()))
        return "attribution: " + std::to_string(counted) + " bytes by cause, the transfers move " +
               std::to_string(moved);
    return {};
}

/// The report's counts, recomputed from the program.
std::string reportProblem(const sim::Strategy& strategy, const sim::Evaluation& ev) {
    const sim::Report& r = ev.report;
    if (r.strategy != strategy.name)
        return "report names strategy '" + r.strategy + "'";
    if (r.kernels != static_cast<int64_t>(ev.program.kernels.size()))
        return "report counts " + std::to_string(r.kernels) + " kernels, the program has " +
               std::to_string(ev.program.kernels.size());
    sim::PerLevel scopes{};
    int64_t kernelOutputs = 0, graphOutputs = 0;
    for (const Buffer& b : ev.program.buffers) {
        kernelOutputs += b.kernelOutput ? 1 : 0;
        if (strategy.name == "tvm" && b.kernelOutput && b.scope != kernel::Scope::DDR)
            return "tvm: kernel output '" + b.name + "' is declared in " +
                   std::string(schedule::scopeName(b.scope)) + ", not DDR";
        if (b.graphOutput)
            ++graphOutputs;
        else
            ++scopes[b.scope == kernel::Scope::DDR ? 0 : b.scope == kernel::Scope::GB ? 1 : 2];
    }
    int64_t counted = r.scopes[0] + r.scopes[1] + r.scopes[2] + r.graphOutputs;
    if (counted != static_cast<int64_t>(ev.program.buffers.size()))
        return "report scopes and graph outputs sum to " + std::to_string(counted) + " for " +
               std::to_string(ev.program.buffers.size()) + " buffers";
    if (r.scopes != scopes || r.graphOutputs != graphOutputs)
        return "report scopes (DDR, GB, LB) or graph outputs differ from the buffers'";
    if (r.kernelOutputs != kernelOutputs)
        return "report counts " + std::to_string(r.kernelOutputs) +
               " kernel outputs, the program " + std::to_string(kernelOutputs);
    return {};
}

} // namespace

namespace detail {

std::string placementProblem(const Program& program) {
    for (const Buffer& b : program.buffers) {
        const auto& ps = b.placements;
        if (ps.empty())
            return "buffer '" + b.name + "' has no placement";
        if (b.graphOutput && ps.back().pool != kernel::kDdrPool)
            return "graph output '" + b.name + "' ends in pool " +
                   std::to_string(ps.back().pool.value()) + ", not in DDR";
        if (ps.front().fromTask != b.firstTask)
            return "buffer '" + b.name + "' is first placed at task " +
                   std::to_string(ps.front().fromTask) + ", written at task " +
                   std::to_string(b.firstTask);
        for (size_t i = 0; i < ps.size(); ++i) {
            if (ps[i].pool < kernel::kLbPool || ps[i].pool > kernel::kDdrPool)
                return "buffer '" + b.name + "' is placed in pool " +
                       std::to_string(ps[i].pool.value());
            if (i == 0)
                continue;
            if (ps[i].fromTask < ps[i - 1].fromTask)
                return "buffer '" + b.name + "': placement " + std::to_string(i) +
                       " starts at task " + std::to_string(ps[i].fromTask) +
                       ", before the previous one";
            if (ps[i].pool <= ps[i - 1].pool)
                return "buffer '" + b.name + "' moves from pool " +
                       std::to_string(ps[i - 1].pool.value()) + " to pool " +
                       std::to_string(ps[i].pool.value());
        }
    }
    return {};
}

std::string residencyProblem(const Program& program, const sim::SimResult& sim) {
    std::vector<const sim::Residency*> order;
    for (const sim::Residency& r : sim.residencies)
        if (r.bytes > 0 && r.end > r.start)
            order.push_back(&r);
    std::stable_sort(order.begin(), order.end(),
                     [](const auto* a, const auto* b) { return a->start < b->start; });
    std::vector<const sim::Residency*> live;
    for (const sim::Residency* r : order) {
        std::erase_if(live, [&](const auto* l) { return l->end <= r->start + kSlackNs; });
        for (const sim::Residency* l : live)
            if (l->pool == r->pool && l->offset < r->offset + r->bytes &&
                r->offset < l->offset + l->bytes)
                return "buffers '" + program.buffers[l->buffer].name + "' and '" +
                       program.buffers[r->buffer].name + "' share bytes of pool " +
                       std::to_string(r->pool.value()) + " during [" + std::to_string(r->start) +
                       ", " + std::to_string(std::min(l->end, r->end)) + "] ns";
        live.push_back(r);
    }
    return {};
}

std::string taskGraphProblem(const TaskGraph& tasks, const sim::SimResult& sim) {
    if (sim.events.size() != tasks.tasks.size())
        return std::to_string(sim.events.size()) + " events for " +
               std::to_string(tasks.tasks.size()) + " tasks";
    for (kernel::TaskId t : tasks.tasks.ids()) {
        const Task& k = tasks.tasks[t];
        if (k.depBegin < 0 || k.depBegin > k.depEnd ||
            static_cast<size_t>(k.depEnd) > tasks.deps.size())
            return task(tasks, t) + " has dependencies [" + std::to_string(k.depBegin) + ", " +
                   std::to_string(k.depEnd) + ") of " + std::to_string(tasks.deps.size());
        for (int32_t d = k.depBegin; d < k.depEnd; ++d) {
            kernel::TaskId dep = tasks.deps[static_cast<size_t>(d)];
            if (dep.value() < 0 || dep >= t)
                return task(tasks, t) + " depends on task " + std::to_string(dep.value());
        }
        const sim::Event& e = sim.events[t];
        if (e.task != t || !(e.start >= 0) || !(e.end >= e.start))
            return task(tasks, t) + " ran as task " + std::to_string(e.task.value()) + " over [" +
                   std::to_string(e.start) + ", " + std::to_string(e.end) + "] ns";
    }
    return {};
}

std::string workProblem(const Program& program, const TaskGraph& tasks) {
    size_t layers = static_cast<size_t>(std::max(program.taskCount, 0));
    std::vector<double> plannedNs(layers, 0), plannedWork(layers, 0);
    std::vector<double> dispatchedNs(layers, 0), dispatchedWork(layers, 0);
    std::vector<double> busyCores(layers, 1);
    for (const kernel::Kernel& k : program.kernels)
        for (const kernel::Layer& l : k.layers) {
            if (l.task < 0 || static_cast<size_t>(l.task) >= layers)
                return "kernel '" + k.label + "' has a layer at task " + std::to_string(l.task) +
                       " of " + std::to_string(layers);
            int64_t tiles = std::max<int64_t>(l.tileCount, 1);
            int64_t cores = std::max<int64_t>(k.cores, 1);
            int64_t rounds = (tiles + cores - 1) / cores;
            busyCores[static_cast<size_t>(l.task)] =
                static_cast<double>(tiles) / static_cast<double>(rounds);
            for (const kernel::OpWork& w : l.ops) {
                plannedNs[static_cast<size_t>(l.task)] += w.unitNs;
                plannedWork[static_cast<size_t>(l.task)] += w.work;
            }
        }
    for (kernel::TaskId t : tasks.tasks.ids()) {
        const Task& k = tasks.tasks[t];
        if (k.kind != kernel::TaskKind::Compute)
            continue;
        if (k.layer < 0 || static_cast<size_t>(k.layer) >= layers)
            return task(tasks, t) + " belongs to layer " + std::to_string(k.layer);
        double cores =
            k.unit == kernel::kFallbackUnit ? 1.0 : busyCores[static_cast<size_t>(k.layer)];
        dispatchedNs[static_cast<size_t>(k.layer)] += k.durationNs * cores;
        dispatchedWork[static_cast<size_t>(k.layer)] += k.work;
    }
    double totalPlanned = 0, totalDispatched = 0;
    for (size_t l = 0; l < layers; ++l) {
        if (!near(plannedNs[l], dispatchedNs[l]) || !near(plannedWork[l], dispatchedWork[l]))
            return "layer at task " + std::to_string(l) + ": planned " +
                   std::to_string(plannedNs[l]) + " unit-ns and " + std::to_string(plannedWork[l]) +
                   " operations, dispatched " + std::to_string(dispatchedNs[l]) + " and " +
                   std::to_string(dispatchedWork[l]);
        totalPlanned += plannedNs[l];
        totalDispatched += dispatchedNs[l];
    }
    if (!near(totalPlanned, totalDispatched))
        return "planned " + std::to_string(totalPlanned) + " unit-ns, dispatched " +
               std::to_string(totalDispatched);
    return {};
}

} // namespace detail

std::string evaluationProblem(const sim::Strategy& strategy, const sim::Evaluation& ev) {
    std::string problem = detail::taskGraphProblem(ev.tasks, ev.sim);
    if (!problem.empty())
        return "task graph: " + problem;
    if (Status timeline = sim::validateTimeline(ev.tasks, ev.sim); !timeline.ok())
        return "validateTimeline: " + timeline.error().message();
    for (auto [name, pass] : {std::pair{"LB", &ev.program.lb}, std::pair{"GB", &ev.program.gb}})
        if (problem = allocationProblem(name, *pass); !problem.empty())
            return "validateAllocation: " + problem;
    if (problem = detail::placementProblem(ev.program); !problem.empty())
        return "placements: " + problem;
    if (problem = detail::residencyProblem(ev.program, ev.sim); !problem.empty())
        return "residencies: " + problem;
    if (problem = detail::workProblem(ev.program, ev.tasks); !problem.empty())
        return "compute work: " + problem;
    if (problem = latencyProblem(ev); !problem.empty())
        return problem;
    if (problem = attributionProblem(ev); !problem.empty())
        return problem;
    return reportProblem(strategy, ev);
}

} // namespace stagecraft::test
