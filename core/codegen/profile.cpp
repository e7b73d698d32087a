// Profiles of host runs (profile.h): medians per kernel, the document and
// its Chrome trace events. Reading it back is profile_read.cpp.

#include "codegen/profile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace stagecraft::codegen {

namespace {

using Json = nlohmann::ordered_json;

double median(std::vector<double> values) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

double micros(double ns) {
    return std::round(ns) / 1000.0;
}

Json traceEvents(const Profile& p) {
    Json events = Json::array();
    events.push_back({{"name", "process_name"},
                      {"ph", "M"},
                      {"pid", 0},
                      {"args", {{"name", "measured on this host"}}}});
    events.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", 0},
                      {"tid", 2},
                      {"args", {{"name", "kernels"}}}});
    double at = 0;
    for (const KernelTiming& k : p.kernels) {
        events.push_back({{"name", "kernel " + k.instance},
                          {"cat", "kernel"},
                          {"ph", "X"},
                          {"pid", 0},
                          {"tid", 2},
                          {"ts", micros(at)},
                          {"dur", micros(at + k.medianNs) - micros(at)},
                          {"args", {{"symbol", k.symbol}, {"cores", k.cores}}}});
        at += k.medianNs;
    }
    return events;
}

} // namespace

void summarizeProfile(const CodePlan& plan, const std::vector<std::vector<double>>& runs,
                      Profile& profile) {
    profile.kernels.clear();
    std::vector<double> totals;
    for (const auto& run : runs) {
        double total = 0;
        for (double seconds : run)
            total += seconds;
        totals.push_back(total * 1e9);
    }
    for (size_t k = 0; k < plan.kernels.size(); ++k) {
        std::vector<double> ns;
        for (const auto& run : runs)
            if (k < run.size())
                ns.push_back(run[k] * 1e9);
        KernelTiming t;
        t.symbol = plan.kernels[k].symbol;
        t.instance = plan.kernels[k].label;
        t.cores = plan.kernels[k].cores;
        t.medianNs = median(ns);
        t.minNs = ns.empty() ? 0 : *std::min_element(ns.begin(), ns.end());
        t.maxNs = ns.empty() ? 0 : *std::max_element(ns.begin(), ns.end());
        profile.kernels.push_back(std::move(t));
    }
    profile.totalMedianNs = median(totals);
}

std::string writeProfileJson(const Profile& p) {
    Json kernels = Json::array();
    for (size_t k = 0; k < p.kernels.size(); ++k) {
        const KernelTiming& t = p.kernels[k];
        kernels.push_back({{"order", k},
                           {"symbol", t.symbol},
                           {"instance", t.instance},
                           {"cores", t.cores},
                           {"median_ns", t.medianNs},
                           {"min_ns", t.minNs},
                           {"max_ns", t.maxNs}});
    }
    Json doc = {{"format", kProfileFormat},
                {"version", kProfileVersion},
                {"model", p.model},
                {"arch", p.arch},
                {"strategy", p.strategy},
                {"precision", p.precision},
                {"warmups", p.warmups},
                {"repetitions", p.repetitions},
                {"total_median_ns", p.totalMedianNs},
                {"kernels", kernels},
                {"displayTimeUnit", "ns"},
                {"traceEvents", traceEvents(p)}};
    return doc.dump(1) + "\n";
}

} // namespace stagecraft::codegen
