// Chrome trace JSON of a simulation (chrome_trace.h). Times are written in
// microseconds with nanosecond resolution; events are sorted by process,
// thread and start so that the file is deterministic and each thread's
// timeline is in order.

#include "io/chrome_trace.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace stagecraft::io {

namespace {

using nlohmann::json;

double micros(double ns) {
    return std::round(ns) / 1000.0;
}

/// The microseconds from \p startNs to \p endNs in whole nanoseconds: the
/// difference of the rounded times, divided once (a difference of two
/// divided times writes 0.0039999999999054126 for 4 ns).
double microsBetween(double startNs, double endNs) {
    return (std::round(endNs) - std::round(startNs)) / 1000.0;
}

/// Thread ids: 1 control, 100 + core * 16 + unit for units, 10000 + path *
/// 64 + slot for DMA channels.
int64_t unitThread(int32_t core, int32_t unit) {
    return 100 + static_cast<int64_t>(core) * 16 + (unit < 0 ? 15 : unit);
}
int64_t channelThread(int32_t path, int32_t slot) {
    return 10000 + static_cast<int64_t>(path) * 64 + slot;
}

struct Row {
    int64_t pid;
    int64_t tid;
    double start;
    json event;
};

std::string taskName(const ir::Graph& graph, const kernel::Program& program,
                     const kernel::Task& t) {
    std::string name(kernel::taskKindName(t.kind));
    if (t.kind == kernel::TaskKind::Compute && t.op != ir::kNoOp)
        name = graph.op(t.op).type + " " + graph.op(t.op).name;
    if (t.kernel >= 0)
        name += " [" + program.kernels[static_cast<size_t>(t.kernel)].label + "]";
    return name;
}

void addTaskRows(const ir::Graph& graph, const kernel::Program& program,
                 const kernel::TaskGraph& tasks, const sim::SimResult& result, int64_t pid,
                 std::vector<Row>& rows) {
    for (const sim::Event& e : result.events) {
        const kernel::Task& t = tasks.tasks[e.task];
        const sim::Resource& res = result.resources[static_cast<size_t>(e.resource)];
        json args = {{"kind", kernel::taskKindName(t.kind)}, {"layer", t.layer}};
        if (t.isTransfer())
            args["bytes"] = t.bytes;
        else if (t.kind == kernel::TaskKind::Compute)
            args["work"] = t.work;
        json base = {{"name", taskName(graph, program, t)},
                     {"cat", kernel::taskKindName(t.kind)},
                     {"ph", "X"},
                     {"pid", pid},
                     {"ts", micros(e.start)},
                     {"dur", microsBetween(e.start, e.end)},
                     {"args", args}};
        if (res.kind == sim::ResourceKind::Unit) {
            int32_t cores = res.index == kernel::kFallbackUnit ? 1 : t.cores;
            for (int32_t c = 0; c < cores; ++c) {
                json ev = base;
                ev["tid"] = unitThread(c, res.index);
                rows.push_back({pid, unitThread(c, res.index), e.start, std::move(ev)});
            }
        } else {
            int64_t tid =
                res.kind == sim::ResourceKind::Channel ? channelThread(res.index, e.slot) : 1;
            base["tid"] = tid;
            rows.push_back({pid, tid, e.start, std::move(base)});
        }
    }
}

/// One span per kernel, from its first event's start to its last event's
/// end, named "kernel <instance>" as a measured profile names it
/// (codegen/profile.h), on thread 2 ("kernels").
void addKernelRows(const kernel::Program& program, const kernel::TaskGraph& tasks,
                   const sim::SimResult& result, int64_t pid, std::vector<Row>& rows) {
    std::vector<std::pair<double, double>> spans(program.kernels.size(), {-1, 0});
    for (const sim::Event& e : result.events) {
        int32_t k = tasks.tasks[e.task].kernel;
        if (k < 0)
            continue;
        auto& [start, end] = spans[static_cast<size_t>(k)];
        start = start < 0 ? e.start : std::min(start, e.start);
        end = std::max(end, e.end);
    }
    for (size_t k = 0; k < spans.size(); ++k) {
        auto [start, end] = spans[k];
        if (start < 0)
            continue;
        rows.push_back({pid, 2, start,
                        json{{"name", "kernel " + program.kernels[k].label},
                             {"cat", "kernel"},
                             {"ph", "X"},
                             {"pid", pid},
                             {"tid", 2},
                             {"ts", micros(start)},
                             {"dur", microsBetween(start, end)},
                             {"args", {{"kind", "kernel"}, {"cores", program.kernels[k].cores}}}}});
    }
}

void addCounterRows(const sim::SimResult& result, int64_t pid, std::vector<Row>& rows) {
    for (const sim::Occupancy& occ : result.occupancy) {
        std::string name =
            occ.memory + (occ.core >= 0 ? " core " + std::to_string(occ.core) : "") + " bytes";
        for (const sim::OccupancyPoint& p : occ.points)
            rows.push_back({pid, 0, p.time,
                            json{{"name", name},
                                 {"ph", "C"},
                                 {"pid", pid},
                                 {"tid", 0},
                                 {"ts", micros(p.time)},
                                 {"args", {{"bytes", p.bytes}}}}});
    }
}

json metadata(const char* what, int64_t pid, int64_t tid, const std::string& name) {
    json ev = {{"name", what}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}};
    if (tid >= 0)
        ev["tid"] = tid;
    return ev;
}

void addNames(const arch::Arch& arch, const sim::SimResult& result, int64_t pid, json& events) {
    events.push_back(metadata("process_name", pid, -1, "cluster " + std::to_string(pid)));
    events.push_back(metadata("thread_name", pid, 1, "control"));
    events.push_back(metadata("thread_name", pid, 2, "kernels"));
    const auto& group = arch.cluster.coreGroups.front();
    for (const sim::Resource& res : result.resources) {
        if (res.kind == sim::ResourceKind::Channel)
            for (int32_t s = 0; s < res.slotCount; ++s)
                events.push_back(metadata("thread_name", pid, channelThread(res.index, s),
                                          res.name + " " + std::to_string(s)));
        if (res.kind != sim::ResourceKind::Unit)
            continue;
        int64_t cores = res.index == kernel::kFallbackUnit ? 1 : group.count;
        for (int64_t c = 0; c < cores; ++c)
            events.push_back(metadata("thread_name", pid,
                                      unitThread(static_cast<int32_t>(c), res.index),
                                      group.name + " " + std::to_string(c) + " " + res.name));
    }
}

} // namespace

std::string writeChromeTrace(const ir::Graph& graph, const arch::Arch& arch,
                             const kernel::Program& program, const kernel::TaskGraph& tasks,
                             const sim::SimResult& result, const TraceOptions& options) {
    int64_t clusters =
        options.clusters > 0 ? std::min(options.clusters, arch.clusters) : arch.clusters;
    json events = json::array();
    for (int64_t pid = 0; pid < clusters; ++pid) {
        addNames(arch, result, pid, events);
        std::vector<Row> rows;
        addTaskRows(graph, program, tasks, result, pid, rows);
        addKernelRows(program, tasks, result, pid, rows);
        addCounterRows(result, pid, rows);
        std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
            return std::tie(a.tid, a.start) < std::tie(b.tid, b.start);
        });
        for (Row& row : rows)
            events.push_back(std::move(row.event));
    }
    json doc = {{"displayTimeUnit", "ns"}, {"traceEvents", std::move(events)}};
    return doc.dump() + "\n";
}

} // namespace stagecraft::io
