// Fuzzes the sweep results reader, sweep::parseRecords (docs/sweeps.md):
// results.jsonl of the spec in sweep_fixture.h. Any bytes give records or a
// one-line error naming the file and line, never a crash, hang or
// exception. An accepted record has a simulation's figures and is what
// recordLine writes for its point and figures (the same JSON), and the
// records go through what a sweep and Studio do with them: JSONL read back
// the same, CSV, the Pareto front.

#include "fuzz_harness.h"
#include "sweep/pareto.h"
#include "sweep_fixture.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace stagecraft;
using Json = nlohmann::json;

namespace {

struct Fixture {
    sweep::SweepSpec spec;
    std::vector<sweep::SweepPoint> points;
};

const Fixture& fixture() {
    static const Fixture f = [] {
        auto spec = sweep::parseSpec(fuzz::kRecordsSpec, "fixture.json");
        fuzz::check(spec.ok(), "the fixture's spec reads");
        return Fixture{*spec, sweep::expandPoints(*spec)};
    }();
    return f;
}

/// The member \p key when it is a whole number, else a value no count has.
int64_t count(const Json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : -1;
}

double number(const Json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>()
                                            : std::numeric_limits<double>::quiet_NaN();
}

std::string text(const Json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : "?";
}

/// The figures \p record holds, as recordLine takes them.
sweep::PointResult resultOf(const Json& record) {
    sweep::PointResult r;
    if (text(record, "status") != "ok") {
        r.error = text(record, "error");
        return r;
    }
    r.levelUsed = text(record, "level_used");
    r.totalBatch = count(record, "total_batch");
    r.perCluster = count(record, "per_cluster_used");
    r.kernels = count(record, "kernels");
    r.spills = count(record, "spills");
    r.latencyMs = number(record, "latency_ms");
    r.throughput = number(record, "throughput");
    r.rooflineMs = number(record, "roofline_ms");
    r.efficiency = number(record, "efficiency");
    r.trafficBytes = {count(record, "ddr_traffic_bytes"), count(record, "gb_traffic_bytes"),
                      count(record, "lb_traffic_bytes")};
    return r;
}

/// What a simulation writes (docs/sweeps.md): counts from 0, a level, the
/// times positive, the throughput the batch over the latency.
bool simulated(const sweep::PointResult& r) {
    bool counts = r.totalBatch >= 0 && r.perCluster >= 0 && r.kernels >= 0 && r.spills >= 0 &&
                  r.trafficBytes[0] >= 0 && r.trafficBytes[1] >= 0 && r.trafficBytes[2] >= 0;
    bool times = r.latencyMs > 0 && r.rooflineMs > 0 && std::isfinite(r.rooflineMs) &&
                 r.efficiency >= 0 && std::isfinite(r.efficiency);
    double expected = static_cast<double>(r.totalBatch) / (r.latencyMs / 1000.0);
    return counts && times && (r.levelUsed == "LB" || r.levelUsed == "GB" || r.levelUsed.empty()) &&
           std::isfinite(expected) &&
           std::abs(r.throughput - expected) <= 1e-6 * std::max(expected, 1.0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const Fixture& f = fixture();
    sweep::Records records;
    int64_t torn = 0;
    Status read = sweep::parseRecords(fuzz::asText(data, size), "results.jsonl", f.spec, f.points,
                                      records, torn);
    if (!read.ok()) {
        const std::string& message = read.error().message();
        fuzz::check(message.find('\n') == std::string::npos, "one-line errors");
        fuzz::check(message.rfind("results.jsonl:", 0) == 0, "errors name the file and line");
        return 0;
    }
    for (const auto& [index, line] : records) {
        Json record = Json::parse(line, nullptr, false);
        fuzz::check(record.is_object(), "a record is a JSON object");
        sweep::PointResult result = resultOf(record);
        fuzz::check(!result.error.empty() || simulated(result),
                    "a record's figures are a simulation's");
        std::string again = sweep::recordLine(f.spec, f.points[static_cast<size_t>(index)], result);
        fuzz::check(Json::parse(again, nullptr, false) == record,
                    "a record is what recordLine writes for its point and figures");
        (void)sweep::recordFailed(line);
    }
    sweep::Records reread;
    Status back = sweep::parseRecords(sweep::recordsJsonl(records), "again.jsonl", f.spec, f.points,
                                      reread, torn);
    fuzz::check(back.ok() && reread == records, "recordsJsonl reads back the same records");
    (void)sweep::recordsCsv(f.spec, records);
    for (const char* objectives : {"latency_ms,throughput", "gb_bytes,efficiency"})
        if (auto parsed = sweep::parseObjectives(objectives); parsed.ok())
            (void)sweep::paretoFront(records, *parsed);
    return 0;
}
