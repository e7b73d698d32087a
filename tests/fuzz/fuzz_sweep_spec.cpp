// Fuzzes the sweep spec reader, sweep::parseSpec (docs/sweeps.md): any
// bytes give a spec or a one-line error, never a crash, hang or exception.
// An accepted spec of few enough points expands to as many as countPoints
// says, numbered in order, and the record recordLine writes for each point
// is read back as that point's by parseRecords: the sweep's writer and
// reader agree on every spec.

#include "fuzz_harness.h"
#include "sweep_fixture.h"

using namespace stagecraft;

namespace {

/// Specs of more points are only counted (a sweep runs them one by one).
constexpr int64_t kMaxExpanded = 2048;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto spec = sweep::parseSpec(fuzz::asText(data, size), "fuzz.json");
    if (!spec.ok()) {
        fuzz::check(spec.error().message().find('\n') == std::string::npos, "one-line errors");
        return 0;
    }
    const int64_t count = sweep::countPoints(*spec);
    fuzz::check(count >= 1, "a spec has points");
    if (count > kMaxExpanded)
        return 0;
    std::vector<sweep::SweepPoint> points = sweep::expandPoints(*spec);
    fuzz::check(static_cast<int64_t>(points.size()) == count, "expandPoints gives countPoints");
    std::string jsonl;
    for (size_t i = 0; i < points.size(); ++i) {
        fuzz::check(points[i].index == static_cast<int64_t>(i), "points numbered in order");
        jsonl += sweep::recordLine(*spec, points[i], fuzz::pointResult(points[i].index)) + "\n";
    }
    sweep::Records records;
    int64_t torn = 0;
    Status read = sweep::parseRecords(jsonl, "results.jsonl", *spec, points, records, torn);
    fuzz::check(read.ok(), "parseRecords reads the records recordLine writes");
    fuzz::check(records.size() == points.size() && torn == 0, "one record per point");
    fuzz::check(sweep::recordsJsonl(records) == jsonl, "recordsJsonl gives the lines back");
    (void)sweep::recordsCsv(*spec, records);
    return 0;
}
