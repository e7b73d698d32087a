// The HTML report's page: head, sections in reading order, the embedded
// session and timeline data, the script. JSON inside `<script>` has every
// `<` written as \u003c, so no name can close the element; the session is
// found again by its element's id.

#include "cli/report_assets.h"
#include "cli/report_html.h"
#include "cli/report_sections.h"
#include "cli/report_timeline.h"
#include "io/markup_text.h"
#include "io/roofline_export.h"
#include "sim/roofline_chart.h"

namespace stagecraft::cli {

namespace {

using io::escapeMarkup;

/// \p json safe inside a `<script>` element: `<` only occurs in strings,
/// where \u003c means the same.
std::string scriptSafe(std::string_view json) {
    std::string out;
    out.reserve(json.size());
    for (char c : json)
        out += c == '<' ? std::string("\\u003c") : std::string(1, c);
    return out;
}

std::string head(const ReportInput& input) {
    std::string title = "Stagecraft report: " + input.model;
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                      "<meta name=\"generator\" content=\"stagecraft report\">\n<title>" +
                      escapeMarkup(title) + "</title>\n<style>";
    out += reportStyle();
    out += "</style>\n</head>\n<body>\n<header><h1>" + escapeMarkup(title) + "</h1>\n<p>";
    if (input.arch && input.chosen)
        out += escapeMarkup("on " + input.arch->name + ", " + input.chosen->report.strategy +
                            " shown in detail; open this file in Stagecraft Studio (File → "
                            "Open) to edit its schedule");
    out += "</p>\n<nav><a href=\"#summary\">Model</a><a href=\"#compare\">Strategies</a>"
           "<a href=\"#timeline-section\">Timeline</a><a href=\"#roofline\">Roofline</a>"
           "<a href=\"#energy\">Energy</a><a href=\"#graph\">Graph</a></nav></header>\n";
    return out;
}

std::string timelineSection(const ReportInput& input, const std::string& json) {
    const sim::Evaluation& ev = *input.chosen;
    std::string out = "<section id=\"timeline-section\"><h2>" +
                      escapeMarkup("Timeline and occupancy of " + ev.report.strategy) +
                      "</h2>\n<p>One cluster's run, a lane per control, compute unit and DMA "
                      "channel; below, the occupancy of every local and global buffer against "
                      "its capacity (dashed). Wheel to zoom, drag to pan.</p>\n";
    size_t tasks = ev.sim.events.size();
    TimelineBudget budget;
    if (tasks > budget.spans)
        out += "<p class=\"note\" id=\"timeline-sampled\">Sampled: the " +
               std::to_string(budget.spans) + " longest of " + std::to_string(tasks) +
               " tasks are drawn, to keep the file small; the occupancy is the highest of "
               "each time step.</p>\n";
    out += "<div class=\"controls\"><button data-zoom=\"in\">Zoom in</button><button "
           "data-zoom=\"out\">Zoom out</button><button data-zoom=\"all\">Whole run</button>"
           "</div>\n<div class=\"legend\" id=\"timeline-legend\"></div>\n"
           "<canvas id=\"timeline\" data-drawn=\"0\"></canvas>\n<p id=\"timeline-status\"></p>\n"
           "<canvas id=\"occupancy\"></canvas>\n";
    out += "<script type=\"application/json\" id=\"timeline-data\">" + scriptSafe(json) +
           "</script>\n";
    return out + "</section>\n";
}

std::string rooflineSection(const ReportInput& input) {
    sim::RooflineChart chart = sim::rooflineChart(*input.arch, *input.chosen);
    io::RooflineSvgOptions options;
    options.standalone = false;
    return "<section id=\"roofline\"><h2>" +
           escapeMarkup("Roofline of " + input.chosen->report.strategy) +
           "</h2>\n<p>Each kernel (filled) and group (hollow) at every memory level it moves "
           "bytes to or from: its operations per byte there against the operations per second "
           "it achieved. Hover a marker for its name.</p>\n" +
           io::rooflineSvg(chart, options) + "</section>\n";
}

std::string graphSection(const ReportInput& input) {
    std::string out = "<section id=\"graph\"><h2>Grouped graph</h2>\n";
    if (input.graphSvg.empty())
        return out + "<p class=\"note\">" + escapeMarkup(input.graphNote) + "</p></section>\n";
    return out + "<p>" + escapeMarkup(input.graphNote) + "</p><div class=\"graph-box\">" +
           input.graphSvg + "</div></section>\n";
}

} // namespace

std::string writeHtmlReport(const ReportInput& input) {
    std::string out = head(input);
    out += summarySection(input);
    out += compareSection(input);
    if (input.chosen && input.arch) {
        out += timelineSection(input, timelineJson(*input.chosen));
        out += rooflineSection(input);
    }
    out += energySection(input);
    out += graphSection(input);
    out += "<script type=\"application/json\" id=\"" + std::string(kReportSessionId) + "\">" +
           scriptSafe(io::writeSessionJson(input.session)) + "</script>\n";
    if (input.chosen)
        out += "<script>" + std::string(reportScript()) + "</script>\n";
    return out + "</body>\n</html>\n";
}

Expected<std::string> reportSessionJson(std::string_view html, std::string_view source) {
    std::string open =
        "<script type=\"application/json\" id=\"" + std::string(kReportSessionId) + "\">";
    size_t start = html.find(open);
    size_t end = start == std::string_view::npos ? start : html.find("</script>", start);
    if (start == std::string_view::npos || end == std::string_view::npos)
        return Error(std::string(source) +
                     ": no Stagecraft session in this HTML file (not a stagecraft report)");
    start += open.size();
    return std::string(html.substr(start, end - start));
}

} // namespace stagecraft::cli
