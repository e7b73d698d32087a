// The timeline and occupancy data of the HTML report. Numbers are written
// with fixed formats (nanoseconds to 0.1 ns), so the text is deterministic;
// the sampling is a stable sort, so the same run keeps the same tasks.

#include "cli/report_timeline.h"

#include "io/markup_text.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

namespace stagecraft::cli {

namespace {

/// \p value to 0.1, without a trailing ".0".
void appendNumber(std::string& out, double value) {
    char text[40];
    int n = std::snprintf(text, sizeof text, "%.1f", value);
    if (n >= 2 && text[n - 2] == '.' && text[n - 1] == '0')
        n -= 2;
    out.append(text, static_cast<size_t>(n));
}

/// A JSON string of text that holds no quote, backslash or control character
/// (architecture names, labels), escaped for markup all the same.
void appendString(std::string& out, const std::string& text) {
    out += '"';
    for (char c : io::escapeMarkup(text))
        if (c != '"' && c != '\\')
            out += c;
    out += '"';
}

/// Lane of each (resource, slot), lanes numbered in resource order.
std::vector<size_t> laneStarts(const sim::SimResult& sim, std::string& out) {
    std::vector<size_t> starts;
    size_t lane = 0;
    out += "\"lanes\":[";
    for (const sim::Resource& r : sim.resources) {
        starts.push_back(lane);
        for (int32_t slot = 0; slot < r.slotCount; ++slot, ++lane) {
            out += lane == 0 ? "[" : ",[";
            appendString(out, r.slotCount > 1 ? r.name + " " + std::to_string(slot) : r.name);
            out += r.kind == sim::ResourceKind::Unit      ? ",\"unit\"]"
                   : r.kind == sim::ResourceKind::Channel ? ",\"dma\"]"
                                                          : ",\"control\"]";
        }
    }
    out += "],";
    return starts;
}

/// Indices of the events drawn: all, or the longest \p budget in time order.
std::vector<size_t> eventsShown(const sim::SimResult& sim, size_t budget) {
    std::vector<size_t> order(sim.events.size());
    std::iota(order.begin(), order.end(), size_t{0});
    if (order.size() <= budget)
        return order;
    auto length = [&](size_t i) {
        const sim::Event& e = sim.events[kernel::TaskId(static_cast<int32_t>(i))];
        return e.end - e.start;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return length(a) > length(b); });
    order.resize(budget);
    std::sort(order.begin(), order.end());
    return order;
}

void appendSpans(const sim::Evaluation& ev, const std::vector<size_t>& starts,
                 const std::vector<size_t>& shown, std::string& out) {
    out += "\"kinds\":[";
    for (int k = 0; k <= static_cast<int>(kernel::TaskKind::Compute); ++k) {
        out += k == 0 ? "" : ",";
        appendString(out, std::string(kernel::taskKindName(static_cast<kernel::TaskKind>(k))));
    }
    out += "],\"kernels\":[";
    for (size_t k = 0; k < ev.program.kernels.size(); ++k) {
        out += k == 0 ? "" : ",";
        appendString(out, ev.program.kernels[k].label);
    }
    out += "],\"spans\":[";
    bool first = true;
    for (size_t i : shown) {
        const sim::Event& e = ev.sim.events[kernel::TaskId(static_cast<int32_t>(i))];
        const kernel::Task& t = ev.tasks.tasks[e.task];
        out += first ? "" : ",";
        first = false;
        out +=
            std::to_string(starts[static_cast<size_t>(e.resource)] + static_cast<size_t>(e.slot));
        out += ',';
        appendNumber(out, e.start);
        out += ',';
        appendNumber(out, e.end);
        out += ',' + std::to_string(static_cast<int>(t.kind)) + ',' + std::to_string(t.kernel);
    }
    out += "],";
}

/// \p points as at most \p budget steps: the highest occupancy of each
/// equal time bucket, at the bucket's first time.
std::vector<sim::OccupancyPoint> resample(const std::vector<sim::OccupancyPoint>& points,
                                          size_t budget, double makespan) {
    if (points.size() <= budget || makespan <= 0)
        return points;
    std::vector<sim::OccupancyPoint> out;
    for (const sim::OccupancyPoint& p : points) {
        auto bucket = static_cast<double>(
            static_cast<size_t>(p.time / makespan * static_cast<double>(budget - 1)));
        double time = bucket * makespan / static_cast<double>(budget - 1);
        if (!out.empty() && out.back().time == time)
            out.back().bytes = std::max(out.back().bytes, p.bytes);
        else
            out.push_back({time, p.bytes});
    }
    return out;
}

void appendOccupancy(const sim::SimResult& sim, size_t budget, std::string& out) {
    size_t perMemory = std::max<size_t>(200, budget / std::max<size_t>(1, sim.occupancy.size()));
    out += "\"occupancy\":[";
    for (size_t m = 0; m < sim.occupancy.size(); ++m) {
        const sim::Occupancy& o = sim.occupancy[m];
        out += m == 0 ? "{\"memory\":" : ",{\"memory\":";
        appendString(out, o.memory);
        out += ",\"core\":" + std::to_string(o.core) +
               ",\"capacity\":" + std::to_string(o.capacityBytes) + ",\"points\":[";
        std::vector<sim::OccupancyPoint> points = resample(o.points, perMemory, sim.makespanNs);
        for (size_t i = 0; i < points.size(); ++i) {
            out += i == 0 ? "" : ",";
            appendNumber(out, points[i].time);
            out += ',' + std::to_string(points[i].bytes);
        }
        out += "],\"resampled\":";
        out += points.size() < o.points.size() ? "true}" : "false}";
    }
    out += "],";
}

} // namespace

std::string timelineJson(const sim::Evaluation& ev, const TimelineBudget& budget) {
    std::string out = "{";
    std::vector<size_t> starts = laneStarts(ev.sim, out);
    std::vector<size_t> shown = eventsShown(ev.sim, budget.spans);
    appendSpans(ev, starts, shown, out);
    appendOccupancy(ev.sim, budget.occupancyPoints, out);
    out += "\"makespan\":";
    appendNumber(out, ev.sim.makespanNs);
    out += ",\"tasks\":" + std::to_string(ev.sim.events.size()) +
           ",\"shown\":" + std::to_string(shown.size()) + "}";
    return out;
}

} // namespace stagecraft::cli
