// The compare document and CSV (compare_json.h). Keys are sorted by
// nlohmann::json, numbers printed by it: same reports, same bytes.

#include "io/compare_json.h"

#include "support/csv.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace stagecraft::io {

namespace {

nlohmann::json perLevel(const sim::PerLevel& values) {
    return {{"DDR", values[0]}, {"GB", values[1]}, {"LB", values[2]}};
}

/// Time and bytes by cause; \p all lists every cause, else only those with
/// time or bytes (kernel and group entries stay small).
nlohmann::json causesJson(const sim::Breakdown& b, bool all) {
    nlohmann::json time = nlohmann::json::object();
    nlohmann::json active = nlohmann::json::object();
    nlohmann::json bytes = nlohmann::json::object();
    for (size_t c = 0; c < sim::kCauseCount; ++c) {
        auto cause = static_cast<sim::Cause>(c);
        std::string name(sim::causeName(cause));
        if (all || b.ns[c] > 0)
            time[name] = b.ns[c];
        if (all || b.activeNs[c] > 0)
            active[name] = b.activeNs[c];
        if (sim::isTransferCause(cause) && (all || b.bytes[c] > 0))
            bytes[name] = b.bytes[c];
    }
    return {{"total_ns", b.totalNs},
            {"dma_wait_ns", b.dmaWaitNs()},
            {"time_ns", time},
            {"active_ns", active},
            {"bytes", bytes}};
}

nlohmann::json breakdownJson(const sim::Attribution& a) {
    nlohmann::json doc = causesJson(a.run, true);
    nlohmann::json groups = nlohmann::json::array();
    for (const sim::GroupBreakdown& g : a.groups) {
        nlohmann::json entry = causesJson(g.breakdown, false);
        entry["group"] = g.label;
        entry["kernels"] = g.kernels;
        groups.push_back(std::move(entry));
    }
    nlohmann::json kernels = nlohmann::json::array();
    for (const sim::KernelBreakdown& k : a.kernels) {
        nlohmann::json entry = causesJson(k.breakdown, false);
        entry["kernel"] = k.kernel;
        entry["instance"] = k.label;
        entry["group"] = a.groups[k.group].label;
        kernels.push_back(std::move(entry));
    }
    doc["groups"] = std::move(groups);
    doc["kernels"] = std::move(kernels);
    return doc;
}

nlohmann::json strategyJson(const sim::Report& r) {
    nlohmann::json units = nlohmann::json::object();
    for (const auto& [name, value] : r.cuUtilization)
        units[name] = value;
    return {{"name", r.strategy},
            {"precision", r.precision},
            {"kernels", r.kernels},
            {"per_cluster", r.perCluster},
            {"iterations", r.iterations},
            {"level", r.level},
            {"order", r.order},
            {"chosen_by", r.chosenBy},
            {"configurations_tried", r.trials},
            {"batch", r.totalBatch},
            {"latency_us", r.latencyUs},
            {"throughput", r.throughput},
            {"speedup_vs_tvm", r.speedupVsTvm},
            {"traffic_bytes", perLevel(r.trafficBytes)},
            {"scopes", perLevel(r.scopes)},
            {"tensors_in_ddr", r.tensorsInDdr},
            {"kernel_outputs", r.kernelOutputs},
            {"graph_outputs", r.graphOutputs},
            {"spills", r.spills},
            {"cu_utilization", units},
            {"concurrency", r.concurrency},
            {"roofline_us", r.rooflineUs},
            {"efficiency", r.efficiency},
            {"breakdown", breakdownJson(r.attribution)}};
}

} // namespace

std::string writeCompareJson(const CompareInfo& info, const std::vector<sim::Report>& reports) {
    nlohmann::json doc = {{"format", "stagecraft-compare"},
                          {"version", 1},
                          {"model", info.model},
                          {"arch", info.arch},
                          {"table2", info.table2},
                          {"strategies", nlohmann::json::array()}};
    for (const sim::Report& r : reports)
        doc["strategies"].push_back(strategyJson(r));
    return doc.dump(2) + "\n";
}

namespace {

/// The CSV columns every report row ends with: the time per cause, then
/// the bytes per transfer cause.
void causeHeaders(std::vector<std::string>& header) {
    for (size_t c = 0; c < sim::kCauseCount; ++c)
        header.push_back("time_" + std::string(sim::causeName(static_cast<sim::Cause>(c))) + "_us");
    for (size_t c = 0; c < sim::kCauseCount; ++c)
        if (sim::isTransferCause(static_cast<sim::Cause>(c)))
            header.push_back("bytes_" + std::string(sim::causeName(static_cast<sim::Cause>(c))));
}

void causeFields(const sim::Breakdown& b, std::vector<std::string>& row) {
    for (size_t c = 0; c < sim::kCauseCount; ++c)
        row.push_back(csvNumber(b.ns[c] / 1000.0));
    for (size_t c = 0; c < sim::kCauseCount; ++c)
        if (sim::isTransferCause(static_cast<sim::Cause>(c)))
            row.push_back(csvNumber(b.bytes[c]));
}

} // namespace

std::string writeCompareCsv(const std::vector<sim::Report>& reports) {
    std::vector<std::string> header{
        "strategy",   "kernels",    "per_cluster",    "iterations",
        "level",      "order",      "chosen_by",      "configurations_tried",
        "latency_us", "throughput", "speedup_vs_tvm", "traffic_ddr",
        "traffic_gb", "traffic_lb", "scopes_ddr",     "scopes_gb",
        "scopes_lb",  "spills",     "concurrency",    "roofline_us",
        "efficiency"};
    if (!reports.empty())
        for (const auto& [name, value] : reports.front().cuUtilization)
            header.push_back("util_" + name);
    causeHeaders(header);
    std::string out = csvRecord(header);
    for (const sim::Report& r : reports) {
        std::vector<std::string> row{r.strategy,
                                     csvNumber(r.kernels),
                                     csvNumber(r.perCluster),
                                     csvNumber(r.iterations),
                                     r.level,
                                     r.order,
                                     r.chosenBy,
                                     csvNumber(r.trials),
                                     csvNumber(r.latencyUs),
                                     csvNumber(r.throughput),
                                     csvNumber(r.speedupVsTvm)};
        for (int64_t v : r.trafficBytes)
            row.push_back(csvNumber(v));
        for (auto v : r.scopes)
            row.push_back(csvNumber(v));
        row.push_back(csvNumber(r.spills));
        for (double v : {r.concurrency, r.rooflineUs, r.efficiency})
            row.push_back(csvNumber(v));
        for (const auto& [name, value] : r.cuUtilization)
            row.push_back(csvNumber(value));
        causeFields(r.attribution.run, row);
        out += csvRecord(row);
    }
    return out;
}

std::string writeBreakdownCsv(const sim::Report& report) {
    std::vector<std::string> header{"level", "name", "group", "kernels", "total_us"};
    causeHeaders(header);
    std::string out = csvRecord(header);
    auto row = [&](const char* level, const std::string& name, const std::string& group,
                   int64_t kernels, const sim::Breakdown& b) {
        std::vector<std::string> fields{level, name, group, csvNumber(kernels),
                                        csvNumber(b.totalNs / 1000.0)};
        causeFields(b, fields);
        out += csvRecord(fields);
    };
    const sim::Attribution& a = report.attribution;
    row("run", report.strategy, "", static_cast<int64_t>(a.kernels.size()), a.run);
    for (const sim::GroupBreakdown& g : a.groups)
        row("group", g.label, g.label, g.kernels, g.breakdown);
    for (const sim::KernelBreakdown& k : a.kernels)
        row("kernel", k.label, a.groups[k.group].label, 1, k.breakdown);
    return out;
}

} // namespace stagecraft::io
