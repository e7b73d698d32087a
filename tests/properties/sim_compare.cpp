// evaluationDifference (sim_checks.h): two evaluations of the same inputs
// compared exactly, as determinism demands (same task graph, the same
// times to the bit, the same report).

#include "sim_checks.h"

#include <vector>

namespace stagecraft::test {

namespace {

std::string taskDifference(const kernel::TaskGraph& a, const kernel::TaskGraph& b) {
    if (a.tasks.size() != b.tasks.size())
        return std::to_string(a.tasks.size()) + " vs " + std::to_string(b.tasks.size()) + " tasks";
    if (a.deps != b.deps)
        return "task dependencies differ";
    for (kernel::TaskId t : a.tasks.ids()) {
        const kernel::Task& x = a.tasks[t];
        const kernel::Task& y = b.tasks[t];
        if (x.kind != y.kind || x.kernel != y.kernel || x.layer != y.layer || x.op != y.op ||
            x.unit != y.unit || x.cores != y.cores || x.durationNs != y.durationNs ||
            x.from != y.from || x.to != y.to || x.bytes != y.bytes || x.work != y.work ||
            x.depBegin != y.depBegin || x.depEnd != y.depEnd)
            return "task " + std::to_string(t.value()) + " differs";
    }
    return {};
}

std::string eventDifference(const sim::SimResult& a, const sim::SimResult& b) {
    if (a.events.size() != b.events.size())
        return std::to_string(a.events.size()) + " vs " + std::to_string(b.events.size()) +
               " events";
    for (kernel::TaskId t : a.events.ids()) {
        const sim::Event& x = a.events[t];
        const sim::Event& y = b.events[t];
        if (x.task != y.task || x.resource != y.resource || x.slot != y.slot ||
            x.start != y.start || x.end != y.end || x.dataStart != y.dataStart)
            return "event of task " + std::to_string(t.value()) + ": [" + std::to_string(x.start) +
                   ", " + std::to_string(x.end) + "] vs [" + std::to_string(y.start) + ", " +
                   std::to_string(y.end) + "] ns";
    }
    if (a.makespanNs != b.makespanNs)
        return "makespan " + std::to_string(a.makespanNs) + " vs " + std::to_string(b.makespanNs);
    return {};
}

template <class T>
void field(std::vector<std::string>& out, const char* name, const T& a, const T& b) {
    if (!(a == b))
        out.push_back(name);
}

std::string reportDifference(const sim::Report& a, const sim::Report& b) {
    std::vector<std::string> fields;
    field(fields, "strategy", a.strategy, b.strategy);
    field(fields, "level", a.level, b.level);
    field(fields, "perCluster", a.perCluster, b.perCluster);
    field(fields, "iterations", a.iterations, b.iterations);
    field(fields, "totalBatch", a.totalBatch, b.totalBatch);
    field(fields, "kernels", a.kernels, b.kernels);
    field(fields, "latencyUs", a.latencyUs, b.latencyUs);
    field(fields, "throughput", a.throughput, b.throughput);
    field(fields, "speedupVsTvm", a.speedupVsTvm, b.speedupVsTvm);
    field(fields, "trafficBytes", a.trafficBytes, b.trafficBytes);
    field(fields, "scopes", a.scopes, b.scopes);
    field(fields, "graphOutputs", a.graphOutputs, b.graphOutputs);
    field(fields, "tensorsInDdr", a.tensorsInDdr, b.tensorsInDdr);
    field(fields, "kernelOutputs", a.kernelOutputs, b.kernelOutputs);
    field(fields, "spills", a.spills, b.spills);
    field(fields, "cuUtilization", a.cuUtilization, b.cuUtilization);
    field(fields, "concurrency", a.concurrency, b.concurrency);
    field(fields, "rooflineUs", a.rooflineUs, b.rooflineUs);
    field(fields, "efficiency", a.efficiency, b.efficiency);
    field(fields, "energy", a.energy.has_value(), b.energy.has_value());
    if (a.energy && b.energy)
        field(fields, "energy.run", a.energy->run.pj, b.energy->run.pj);
    if (fields.empty())
        return {};
    std::string list;
    for (const std::string& f : fields)
        list += (list.empty() ? "" : ", ") + f;
    return "report fields differ: " + list;
}

} // namespace

std::string evaluationDifference(const sim::Evaluation& a, const sim::Evaluation& b) {
    if (std::string d = taskDifference(a.tasks, b.tasks); !d.empty())
        return "task graph: " + d;
    if (std::string d = eventDifference(a.sim, b.sim); !d.empty())
        return "simulation: " + d;
    return reportDifference(a.report, b.report);
}

} // namespace stagecraft::test
