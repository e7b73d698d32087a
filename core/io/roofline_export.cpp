// The roofline chart as CSV and SVG. The CSV is one row per ceiling and per
// (point, level with traffic). The SVG picks decade-aligned axis ranges
// that hold every point and the ceilings' ridge points, draws each
// bandwidth ceiling up to its ridge (where it meets the compute ceiling)
// and the points on top; numbers are printed with fixed formats, so the
// text is deterministic.

#include "io/roofline_export.h"

#include "io/markup_text.h"
#include "support/csv.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>

namespace stagecraft::io {

namespace {

constexpr size_t kLevels = 3;

std::string groupLabelOf(const sim::RooflineChart& chart, const sim::RooflinePoint& point) {
    for (const sim::RooflinePoint& group : chart.groups)
        if (group.group == point.group)
            return group.label;
    return {};
}

void addPointRows(const sim::RooflineChart& chart, const sim::RooflinePoint& p, const char* kind,
                  std::string& out) {
    std::string group = p.kernel < 0 ? p.label : groupLabelOf(chart, p);
    for (size_t level = 0; level < kLevels; ++level) {
        if (p.bytes[level] <= 0)
            continue;
        out += csvRecord({kind, p.label, group, std::string(sim::rooflineLevelName(level)),
                          csvNumber(p.ops), csvNumber(p.bytes[level]), csvNumber(p.seconds),
                          csvNumber(p.intensity(level)), csvNumber(p.opsPerSecond()), ""});
    }
}

} // namespace

std::string rooflineCsv(const sim::RooflineChart& chart) {
    std::string out = csvRecord({"kind", "label", "group", "level", "ops", "bytes", "seconds",
                                 "intensity_ops_per_byte", "ops_per_second", "bytes_per_second"});
    out += csvRecord(
        {"ceiling", "compute", "", "", "", "", "", "", csvNumber(chart.peakOpsPerSecond), ""});
    for (size_t level = 0; level < kLevels; ++level)
        if (chart.bandwidth[level] > 0)
            out +=
                csvRecord({"ceiling", "bandwidth", "", std::string(sim::rooflineLevelName(level)),
                           "", "", "", "", "", csvNumber(chart.bandwidth[level])});
    for (const sim::RooflinePoint& p : chart.kernels)
        addPointRows(chart, p, "kernel", out);
    for (const sim::RooflinePoint& p : chart.groups)
        addPointRows(chart, p, "group", out);
    return out;
}

namespace {

constexpr double kWidth = 960, kHeight = 600;
constexpr double kLeft = 96, kRight = 744, kTop = 48, kBottom = 528;
constexpr std::array<const char*, kLevels> kColours = {"#d9534f", "#f0ad4e", "#5bc0de"};

/// Decade-aligned [lo, hi] exponents holding every value of \p values.
struct Axis {
    int lo = 0;
    int hi = 1;

    double frac(double v) const { return (std::log10(v) - lo) / (hi - lo); }
};

Axis axisOver(const std::vector<double>& values) {
    double lo = 0, hi = 0;
    bool any = false;
    for (double v : values)
        if (v > 0 && std::isfinite(v)) {
            lo = any ? std::min(lo, v) : v;
            hi = any ? std::max(hi, v) : v;
            any = true;
        }
    if (!any)
        return {};
    Axis axis{static_cast<int>(std::floor(std::log10(lo))),
              static_cast<int>(std::ceil(std::log10(hi)))};
    if (axis.hi <= axis.lo)
        axis.hi = axis.lo + 1;
    return axis;
}

struct Frame {
    Axis x, y;

    double px(double v) const { return kLeft + x.frac(v) * (kRight - kLeft); }
    double py(double v) const { return kBottom - y.frac(v) * (kBottom - kTop); }
};

std::string fmt(const char* format, double a, double b = 0, double c = 0, double d = 0) {
    char text[160];
    std::snprintf(text, sizeof text, format, a, b, c, d);
    return text;
}

std::string decadeLabel(int exponent) {
    return escapeMarkup(siNumber(std::pow(10.0, exponent)));
}

Frame frameOf(const sim::RooflineChart& chart) {
    std::vector<double> xs, ys = {chart.peakOpsPerSecond * 2};
    for (const auto* points : {&chart.kernels, &chart.groups})
        for (const sim::RooflinePoint& p : *points)
            for (size_t level = 0; level < kLevels; ++level)
                if (p.bytes[level] > 0 && p.opsPerSecond() > 0) {
                    xs.push_back(p.intensity(level));
                    ys.push_back(p.opsPerSecond());
                }
    for (size_t level = 0; level < kLevels; ++level)
        if (chart.bandwidth[level] > 0 && chart.peakOpsPerSecond > 0)
            xs.push_back(chart.peakOpsPerSecond / chart.bandwidth[level]);
    Frame frame{axisOver(xs), axisOver(ys)};
    // Room below the lowest point, so none sits on the axis.
    frame.y.lo = std::min(frame.y.lo, frame.y.hi - 3);
    frame.x.hi = std::max(frame.x.hi, frame.x.lo + 2);
    return frame;
}

void addAxes(const Frame& f, std::string& out) {
    out += "<g class=\"axes\" font-size=\"12\" fill=\"#333\">\n";
    out += fmt("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fff\" "
               "stroke=\"#888\"/>\n",
               kLeft, kTop, kRight - kLeft, kBottom - kTop);
    for (int e = f.x.lo; e <= f.x.hi; ++e) {
        double x = f.px(std::pow(10.0, e));
        out += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
                   x, kTop, x, kBottom);
        out += fmt("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, kBottom + 18) +
               decadeLabel(e) + "</text>\n";
    }
    for (int e = f.y.lo; e <= f.y.hi; ++e) {
        double y = f.py(std::pow(10.0, e));
        out += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
                   kLeft, y, kRight, y);
        out += fmt("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", kLeft - 6, y + 4) +
               decadeLabel(e) + "</text>\n";
    }
    out += fmt("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"14\">arithmetic "
               "intensity (ops/byte)</text>\n",
               (kLeft + kRight) / 2, kBottom + 44);
    out += fmt("<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"middle\" "
               "font-size=\"14\">throughput (ops/s)</text>\n",
               kLeft - 64, (kTop + kBottom) / 2);
    out += "</g>\n";
}

void addCeilings(const sim::RooflineChart& chart, const Frame& f, std::string& out) {
    double peak = chart.peakOpsPerSecond;
    if (peak <= 0)
        return;
    double xLo = std::pow(10.0, f.x.lo), xHi = std::pow(10.0, f.x.hi);
    out += "<g class=\"ceilings\" font-size=\"12\">\n";
    out += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#222\" "
               "stroke-width=\"2\"/>\n",
               kLeft, f.py(peak), kRight, f.py(peak));
    out += fmt("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#222\">", kRight - 4,
               f.py(peak) - 6) +
           escapeMarkup("compute " + siNumber(peak) + "ops/s (" + chart.precision + ")") +
           "</text>\n";
    for (size_t level = 0; level < kLevels; ++level) {
        double bw = chart.bandwidth[level];
        if (bw <= 0)
            continue;
        // From where the line enters the frame (bottom or left) to the ridge.
        double x0 = std::max(xLo, std::pow(10.0, f.y.lo) / bw);
        double x1 = std::min(xHi, peak / bw);
        if (x0 >= x1)
            continue;
        out += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" ", f.px(x0),
                   f.py(x0 * bw), f.px(x1), f.py(x1 * bw)) +
               "stroke=\"" + kColours[level] + "\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>\n";
        // Labels at different points of their lines, so that close bandwidths do not overlap.
        double at = 0.3 + 0.25 * static_cast<double>(level);
        double lx = std::exp(std::log(x0) + at * (std::log(x1) - std::log(x0)));
        out +=
            fmt("<text x=\"%.1f\" y=\"%.1f\" ", f.px(lx) - 4, f.py(lx * bw) - 8) +
            "text-anchor=\"end\" fill=\"" + kColours[level] + "\">" +
            escapeMarkup(std::string(sim::rooflineLevelName(level)) + " " + siNumber(bw) + "B/s") +
            "</text>\n";
    }
    out += "</g>\n";
}

/// A marker of \p level at (\p x, \p y): circle DDR, square GB, triangle LB.
std::string marker(size_t level, double x, double y, double r, bool filled) {
    std::string paint =
        filled
            ? std::string("fill=\"") + kColours[level] + "\" fill-opacity=\"0.75\""
            : std::string("fill=\"none\" stroke=\"") + kColours[level] + "\" stroke-width=\"1.5\"";
    if (level == 0)
        return fmt("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" ", x, y, r) + paint;
    if (level == 1)
        return fmt("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" ", x - r, y - r,
                   2 * r, 2 * r) +
               paint;
    return fmt("<path d=\"M%.1f %.1fL%.1f %.1f", x, y - r * 1.2, x + r * 1.1, y + r * 0.8) +
           fmt("L%.1f %.1fZ\" ", x - r * 1.1, y + r * 0.8) + paint;
}

void addPoints(const std::vector<sim::RooflinePoint>& points, bool kernels, const Frame& f,
               std::string& out) {
    out += kernels ? "<g class=\"kernels\">\n" : "<g class=\"groups\">\n";
    for (const sim::RooflinePoint& p : points)
        for (size_t level = 0; level < kLevels; ++level) {
            if (p.bytes[level] <= 0 || p.opsPerSecond() <= 0)
                continue;
            std::string title = (kernels ? "kernel " : "group ") + p.label + ", " +
                                std::string(sim::rooflineLevelName(level)) + ": " +
                                siNumber(p.intensity(level)) + "ops/B, " +
                                siNumber(p.opsPerSecond()) + "ops/s";
            out += marker(level, f.px(p.intensity(level)), f.py(p.opsPerSecond()),
                          kernels ? 3.5 : 6, kernels) +
                   "><title>" + escapeMarkup(title) + "</title>" +
                   (level == 0   ? "</circle>\n"
                    : level == 1 ? "</rect>\n"
                                 : "</path>\n");
        }
    out += "</g>\n";
}

void addLegend(std::string& out) {
    out += "<g class=\"legend\" font-size=\"12\" fill=\"#333\">\n";
    double y = kTop + 10;
    for (size_t level = 0; level < kLevels; ++level, y += 22) {
        out += marker(level, kRight + 30, y, 5, true) + "/>\n";
        out += fmt("<text x=\"%.1f\" y=\"%.1f\">", kRight + 44, y + 4) +
               std::string(sim::rooflineLevelName(level)) + " traffic, bandwidth</text>\n";
    }
    y += 10;
    out += marker(0, kRight + 30, y, 3.5, true) + "/>\n";
    out += fmt("<text x=\"%.1f\" y=\"%.1f\">kernel (filled)</text>\n", kRight + 44, y + 4);
    y += 22;
    out += marker(0, kRight + 30, y, 6, false) + "/>\n";
    out += fmt("<text x=\"%.1f\" y=\"%.1f\">group (hollow)</text>\n", kRight + 44, y + 4);
    y += 22;
    out += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#222\" "
               "stroke-width=\"2\"/>\n",
               kRight + 22, y, kRight + 38, y);
    out += fmt("<text x=\"%.1f\" y=\"%.1f\">compute ceiling</text>\n", kRight + 44, y + 4);
    out += "</g>\n";
}

} // namespace

std::string rooflineSvg(const sim::RooflineChart& chart, const RooflineSvgOptions& options) {
    Frame frame = frameOf(chart);
    std::string out;
    if (options.standalone)
        out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<svg ";
    if (options.standalone)
        out += "xmlns=\"http://www.w3.org/2000/svg\" ";
    out += fmt("viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" ", kWidth, kHeight, kWidth,
               kHeight);
    out += "font-family=\"sans-serif\" class=\"roofline\">\n";
    out += "<title>" + escapeMarkup("Roofline of " + chart.strategy + " at " + chart.precision) +
           "</title>\n";
    out += fmt("<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fafafa\"/>\n", kWidth, kHeight);
    out += "<text x=\"96\" y=\"30\" font-size=\"16\" fill=\"#222\">" +
           escapeMarkup("Roofline: " + chart.strategy + ", " + chart.precision) + "</text>\n";
    addAxes(frame, out);
    addCeilings(chart, frame, out);
    addPoints(chart.groups, false, frame, out);
    addPoints(chart.kernels, true, frame, out);
    addLegend(out);
    out += "</svg>\n";
    return out;
}

} // namespace stagecraft::io
