// The Pareto front of two objectives: sort by the first (best first, ties
// by the second), then keep each point that beats every point before it on
// the second. O(n log n); a point equal to a kept one on both is kept too.

#include "sweep/pareto.h"

#include "json/fields.h"
#include "support/strings.h"

#include <algorithm>

namespace stagecraft::sweep {

namespace {

using json_fields::Json;

bool maximizedByDefault(const std::string& column) {
    return column == "throughput" || column == "efficiency" ||
           column.find("speedup") != std::string::npos;
}

struct Candidate {
    int64_t point;
    double x;
    double y;
};

/// The objective's value with "better" meaning smaller.
Expected<double> costOf(const Json& record, const Objective& objective) {
    auto it = record.find(objective.column);
    if (it != record.end() && it->is_null())
        return Error("--pareto: " + quote(objective.column) + " is unknown for point " +
                     record.value("point", Json()).dump() +
                     " (energy needs an architecture with an energy table, docs/arch.md)");
    if (it == record.end() || !it->is_number())
        return Error("--pareto: " + quote(objective.column) +
                     " is not a numeric column of the results (e.g. latency_ms, throughput, "
                     "ddr_traffic_bytes, or an arch field of the spec)");
    double v = it->get<double>();
    return objective.maximize ? -v : v;
}

} // namespace

Expected<std::vector<Objective>> parseObjectives(std::string_view text) {
    std::vector<Objective> objectives;
    for (std::string part : split(text, ',')) {
        Objective objective;
        objective.maximize = false;
        bool explicitDirection = false;
        for (const char* prefix : {"max:", "min:"})
            if (part.rfind(prefix, 0) == 0) {
                objective.maximize = prefix[1] == 'a';
                part = part.substr(4);
                explicitDirection = true;
            }
        objective.column = std::string(trim(part));
        if (!explicitDirection)
            objective.maximize = maximizedByDefault(objective.column);
        if (objective.column.empty())
            return Error("--pareto: an empty column name in " + quote(text));
        objectives.push_back(std::move(objective));
    }
    if (objectives.size() != 2)
        return Error("--pareto needs two columns X,Y (got " + quote(text) + ")");
    return objectives;
}

Expected<std::vector<int64_t>> paretoFront(const Records& records,
                                           const std::vector<Objective>& objectives) {
    std::vector<Candidate> candidates;
    for (const auto& [point, line] : records) {
        Json record = Json::parse(line, nullptr, false);
        if (!record.is_object() || record.value("status", "") != "ok")
            continue;
        SC_ASSIGN_OR_RETURN(double x, costOf(record, objectives[0]));
        SC_ASSIGN_OR_RETURN(double y, costOf(record, objectives[1]));
        candidates.push_back({point, x, y});
    }
    std::stable_sort(
        candidates.begin(), candidates.end(),
        [](const Candidate& a, const Candidate& b) { return a.x != b.x ? a.x < b.x : a.y < b.y; });
    std::vector<int64_t> front;
    const Candidate* last = nullptr;
    for (const Candidate& c : candidates) {
        bool equalToLast = last && c.x == last->x && c.y == last->y;
        if (!last || c.y < last->y || equalToLast) {
            front.push_back(c.point);
            last = &c;
        }
    }
    return front;
}

} // namespace stagecraft::sweep
