// The compare document and CSV (compare_json.h). Keys are sorted by
// nlohmann::json, numbers printed by it: same reports, same bytes.

#include "io/compare_json.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace stagecraft::io {

namespace {

nlohmann::json perLevel(const sim::PerLevel& values) {
    return {{"DDR", values[0]}, {"GB", values[1]}, {"LB", values[2]}};
}

nlohmann::json strategyJson(const sim::Report& r) {
    nlohmann::json units = nlohmann::json::object();
    for (const auto& [name, value] : r.cuUtilization)
        units[name] = value;
    return {{"name", r.strategy},
            {"kernels", r.kernels},
            {"per_cluster", r.perCluster},
            {"iterations", r.iterations},
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
            {"efficiency", r.efficiency}};
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

std::string writeCompareCsv(const std::vector<sim::Report>& reports) {
    std::ostringstream out;
    out << "strategy,kernels,per_cluster,iterations,latency_us,throughput,speedup_vs_tvm,"
           "traffic_ddr,traffic_gb,traffic_lb,scopes_ddr,scopes_gb,scopes_lb,spills,"
           "concurrency,roofline_us,efficiency";
    if (!reports.empty())
        for (const auto& [name, value] : reports.front().cuUtilization)
            out << ",util_" << name;
    out << "\n";
    for (const sim::Report& r : reports) {
        out << r.strategy << "," << r.kernels << "," << r.perCluster << "," << r.iterations << ","
            << r.latencyUs << "," << r.throughput << "," << r.speedupVsTvm;
        for (int64_t v : r.trafficBytes)
            out << "," << v;
        for (int64_t v : r.scopes)
            out << "," << v;
        out << "," << r.spills << "," << r.concurrency << "," << r.rooflineUs << ","
            << r.efficiency;
        for (const auto& [name, value] : r.cuUtilization)
            out << "," << value;
        out << "\n";
    }
    return out.str();
}

} // namespace stagecraft::io
