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

constexpr double kMjPerPj = 1e-9;

/// Millijoules per action: every action when \p all, else those with energy.
nlohmann::json actionsJson(const sim::Energy& e, bool all) {
    nlohmann::json actions = nlohmann::json::object();
    for (size_t a = 0; a < sim::kEnergyActionCount; ++a)
        if (all || e.pj[a] > 0)
            actions[std::string(sim::energyActionName(static_cast<sim::EnergyAction>(a)))] =
                e.pj[a] * kMjPerPj;
    return actions;
}

nlohmann::json energyPartJson(const sim::Energy& e, bool all) {
    return {{"total_mj", e.totalPj() * kMjPerPj}, {"by_action_mj", actionsJson(e, all)}};
}

/// The report's energy (docs/simulator.md, "Energy"); null when unknown.
nlohmann::json energyJson(const sim::Report& r) {
    if (!r.energy)
        return nullptr;
    const sim::EnergyReport& e = *r.energy;
    nlohmann::json levels = nlohmann::json::object();
    for (std::string_view level : sim::energyLevels())
        levels[std::string(level)] = e.run.levelPj(level) * kMjPerPj;
    nlohmann::json doc = energyPartJson(e.run, true);
    doc["dynamic_mj"] = e.run.dynamicPj() * kMjPerPj;
    doc["static_mj"] = e.run.staticPj() * kMjPerPj;
    doc["ddr_traffic_mj"] = e.run.ddrTrafficPj() * kMjPerPj;
    doc["edp_mj_ms"] = r.edpMjMs().value_or(0);
    doc["static_mw"] = e.staticMw;
    doc["by_level_mj"] = std::move(levels);
    nlohmann::json groups = nlohmann::json::array();
    for (const sim::GroupEnergy& g : e.groups) {
        nlohmann::json entry = energyPartJson(g.energy, false);
        entry["group"] = g.label;
        groups.push_back(std::move(entry));
    }
    nlohmann::json kernels = nlohmann::json::array();
    for (const sim::KernelEnergy& k : e.kernels) {
        nlohmann::json entry = energyPartJson(k.energy, false);
        entry["kernel"] = k.kernel;
        entry["instance"] = k.label;
        entry["group"] = e.groups[k.group].label;
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
            {"breakdown", breakdownJson(r.attribution)},
            {"energy", energyJson(r)}};
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

/// The energy columns: the total, then millijoules per action.
void energyHeaders(std::vector<std::string>& header) {
    header.emplace_back("energy_mj");
    for (size_t a = 0; a < sim::kEnergyActionCount; ++a)
        header.push_back("energy_" +
                         std::string(sim::energyActionName(static_cast<sim::EnergyAction>(a))) +
                         "_mj");
}

/// The energy columns' fields, empty when the energy is unknown.
void energyFields(const sim::Energy* e, std::vector<std::string>& row) {
    row.push_back(e ? csvNumber(e->totalPj() * kMjPerPj) : std::string());
    for (size_t a = 0; a < sim::kEnergyActionCount; ++a)
        row.push_back(e ? csvNumber(e->pj[a] * kMjPerPj) : std::string());
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
    header.emplace_back("edp_mj_ms");
    energyHeaders(header);
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
        std::optional<double> edp = r.edpMjMs();
        row.push_back(edp ? csvNumber(*edp) : std::string());
        energyFields(r.energy ? &r.energy->run : nullptr, row);
        out += csvRecord(row);
    }
    return out;
}

std::string writeBreakdownCsv(const sim::Report& report) {
    std::vector<std::string> header{"level", "name", "group", "kernels", "total_us"};
    causeHeaders(header);
    energyHeaders(header);
    std::string out = csvRecord(header);
    const sim::EnergyReport* energy = report.energy ? &*report.energy : nullptr;
    auto row = [&](const char* level, const std::string& name, const std::string& group,
                   int64_t kernels, const sim::Breakdown& b, const sim::Energy* e) {
        std::vector<std::string> fields{level, name, group, csvNumber(kernels),
                                        csvNumber(b.totalNs / 1000.0)};
        causeFields(b, fields);
        energyFields(e, fields);
        out += csvRecord(fields);
    };
    const sim::Attribution& a = report.attribution;
    row("run", report.strategy, "", static_cast<int64_t>(a.kernels.size()), a.run,
        energy ? &energy->run : nullptr);
    for (const sim::GroupBreakdown& g : a.groups)
        row("group", g.label, g.label, g.kernels, g.breakdown,
            energy ? &energy->groups[g.group].energy : nullptr);
    for (size_t k = 0; k < a.kernels.size(); ++k)
        row("kernel", a.kernels[k].label, a.groups[a.kernels[k].group].label, 1,
            a.kernels[k].breakdown, energy ? &energy->kernels[k].energy : nullptr);
    return out;
}

} // namespace stagecraft::io
