// The report's tables and bar charts. Names of the model pass through
// io::escapeMarkup; numbers are printed with fixed formats. Energy that is
// unknown (an architecture without an energy table) reads "unknown", never 0.

#include "cli/report_sections.h"

#include "io/markup_text.h"
#include "ops/model_stats.h"
#include "support/strings.h"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace stagecraft::cli {

namespace {

using io::escapeMarkup;

std::string row(const std::string& key, const std::string& value) {
    return "<tr><th>" + escapeMarkup(key) + "</th><td>" + escapeMarkup(value) + "</td></tr>\n";
}

std::string cell(const std::string& text, bool number = true) {
    return (number ? "<td class=\"n\">" : "<td>") + escapeMarkup(text) + "</td>";
}

std::string mj(std::optional<double> value) {
    return value ? formatted("%.4g", *value) : "unknown";
}

const sim::Report* chosenReport(const ReportInput& input) {
    return input.chosen ? &input.chosen->report : nullptr;
}

} // namespace

std::string formatted(const char* format, double value) {
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

std::string summarySection(const ReportInput& input) {
    std::string out = "<section id=\"summary\"><h2>Model</h2>\n<table class=\"kv\">\n";
    out += row("model", input.model);
    if (input.graph) {
        out += row("graph", input.graph->info.name);
        if (Expected<ops::ModelStats> stats = ops::computeModelStats(*input.graph); stats.ok()) {
            out += row("ops, tensors", formatCount(stats->ops) + " ops, " +
                                           formatCount(stats->tensors) +
                                           " tensors (per cluster's samples)");
            out += row("parameters",
                       formatCount(stats->params) + " (" + formatBytes(stats->paramBytes) + ")");
            out += row("MACs, FLOPs per cluster's samples",
                       formatCount(stats->macs) + " MACs, " + formatCount(stats->flops) + " FLOPs");
        }
    }
    if (input.arch)
        out += row("architecture", input.arch->name);
    if (const sim::Report* r = chosenReport(input)) {
        out += row("batch", std::to_string(r->totalBatch) + " samples (" + input.batchFrom + ")");
        out += row("precision", r->precision);
        out += row("chosen strategy", r->strategy + ": " + sim::configurationText(*r));
        out += row("latency", formatted("%.4g ms", r->latencyUs / 1000) + ", " +
                                  formatted("%.4g samples/s", r->throughput));
        out += row("energy", r->energyMj() ? mj(r->energyMj()) + " mJ" : "unknown");
    }
    return out + "</table></section>\n";
}

namespace {

std::string compareChart(const ReportInput& input) {
    double longest = 0;
    for (const sim::Report& r : input.reports)
        longest = std::max(longest, r.latencyUs);
    if (longest <= 0)
        return {};
    const std::string chosen = chosenReport(input) ? chosenReport(input)->strategy : "";
    constexpr int kBar = 22, kLabel = 110, kWidth = 1100;
    int height = static_cast<int>(input.reports.size()) * kBar + 30;
    std::string out = "<svg class=\"bars\" viewBox=\"0 0 " + std::to_string(kWidth) + " " +
                      std::to_string(height) + "\" width=\"" + std::to_string(kWidth) +
                      "\" height=\"" + std::to_string(height) + "\" font-size=\"12\">\n";
    int y = 4;
    for (const sim::Report& r : input.reports) {
        double w = std::max(1.0, r.latencyUs / longest * (kWidth - kLabel - 420));
        out += "<text x=\"" + std::to_string(kLabel - 8) + "\" y=\"" + std::to_string(y + 15) +
               "\" text-anchor=\"end\" font-weight=\"600\">" + escapeMarkup(r.strategy) + "</text>";
        out += "<rect x=\"" + std::to_string(kLabel) + "\" y=\"" + std::to_string(y + 3) +
               "\" width=\"" + formatted("%.1f", w) + "\" height=\"" + std::to_string(kBar - 6) +
               "\" class=\"" + (r.strategy == chosen ? "bar chosen" : "bar") + "\"/>";
        out += "<text x=\"" + formatted("%.1f", kLabel + w + 6) + "\" y=\"" +
               std::to_string(y + 15) + "\">" +
               escapeMarkup(formatted("%.4g ms", r.latencyUs / 1000) + "  (" +
                            sim::configurationText(r) + ")") +
               "</text>\n";
        y += kBar;
    }
    out += "<text x=\"" + std::to_string(kLabel) + "\" y=\"" + std::to_string(y + 18) +
           "\" fill=\"#666\">simulated latency of the whole batch (shorter is better)</text>\n";
    return out + "</svg>\n";
}

std::string compareRow(const sim::Report& r, bool chosen) {
    std::string out = chosen ? "<tr class=\"chosen\">" : "<tr>";
    out += cell(r.strategy, false) + cell(sim::configurationText(r), false);
    out += cell(std::to_string(r.kernels)) + cell(formatted("%.4g", r.latencyUs / 1000));
    out += cell(formatted("%.4g", r.throughput)) + cell(formatted("%.3g", r.speedupVsTvm));
    for (int64_t bytes : r.trafficBytes)
        out += cell(formatBytes(bytes));
    out += cell(std::to_string(r.spills)) + cell(formatted("%.0f%%", r.efficiency * 100));
    out += cell(mj(r.energyMj())) + cell(mj(r.edpMjMs()));
    return out + "</tr>\n";
}

} // namespace

std::string compareSection(const ReportInput& input) {
    std::string out =
        "<section id=\"compare\"><h2>Strategies compared</h2>\n<p>Every strategy "
        "runs on the same simulator at its own best configuration (samples per "
        "cluster, level, order), as <code>stagecraft compare</code> chooses it.</p>\n";
    out += compareChart(input);
    out += "<table class=\"grid\" id=\"compare-table\"><thead><tr><th>strategy</th>"
           "<th>configuration</th><th>kernels</th><th>latency ms</th><th>samples/s</th>"
           "<th>speedup vs tvm</th><th>DDR</th><th>GB</th><th>LB</th><th>spills</th>"
           "<th>of roofline</th><th>energy mJ</th><th>EDP mJ·ms</th></tr></thead><tbody>\n";
    const sim::Report* chosen = chosenReport(input);
    for (const sim::Report& r : input.reports)
        out += compareRow(r, chosen && r.strategy == chosen->strategy);
    return out + "</tbody></table></section>\n";
}

namespace {

std::string levelTable(const ReportInput& input) {
    std::string out = "<table class=\"grid\" id=\"energy-levels\"><thead><tr><th>strategy</th>";
    for (std::string_view level : sim::energyLevels())
        out += "<th>" + escapeMarkup(std::string(level)) + " mJ</th>";
    // The levels end with the static energy of every unit and memory.
    out += "<th>dynamic mJ</th><th>total mJ</th><th>EDP mJ·ms</th></tr>"
           "</thead><tbody>\n";
    for (const sim::Report& r : input.reports) {
        out += "<tr>" + cell(r.strategy, false);
        const std::optional<sim::EnergyReport>& e = r.energy;
        auto value = [&](double pj) {
            return e ? formatted("%.4g", pj * 1e-9) : "unknown";
        };
        for (std::string_view level : sim::energyLevels())
            out += cell(e ? value(e->run.levelPj(level)) : "unknown");
        out += cell(e ? value(e->run.dynamicPj()) : "unknown");
        out += cell(mj(r.energyMj())) + cell(mj(r.edpMjMs())) + "</tr>\n";
    }
    return out + "</tbody></table>\n";
}

std::string actionTable(const ReportInput& input) {
    std::string out = "<table class=\"grid\" id=\"energy-actions\"><thead><tr><th>action "
                      "(mJ)</th>";
    for (const sim::Report& r : input.reports)
        out += "<th>" + escapeMarkup(r.strategy) + "</th>";
    out += "</tr></thead><tbody>\n";
    for (size_t a = 0; a < sim::kEnergyActionCount; ++a) {
        auto action = static_cast<sim::EnergyAction>(a);
        out += "<tr>" + cell(std::string(sim::energyActionName(action)), false);
        for (const sim::Report& r : input.reports)
            out += cell(r.energy ? formatted("%.4g", r.energy->run.at(action) * 1e-9) : "unknown");
        out += "</tr>\n";
    }
    return out + "</tbody></table>\n";
}

} // namespace

std::string energySection(const ReportInput& input) {
    std::string out = "<section id=\"energy\"><h2>Energy</h2>\n";
    bool any = std::any_of(input.reports.begin(), input.reports.end(),
                           [](const sim::Report& r) { return r.energy.has_value(); });
    out += any ? "<p>Energy of the whole batch by memory level and by action (the "
                 "architecture's energy table; docs/simulator.md, \"Energy\"). EDP is the "
                 "energy times the latency.</p>\n"
               : "<p class=\"note\">The architecture has no energy table: every energy is "
                 "unknown.</p>\n";
    out += levelTable(input);
    out += "<details><summary>By action</summary>\n" + actionTable(input) + "</details>\n";
    return out + "</section>\n";
}

} // namespace stagecraft::cli
