// Log axes: the range is widened to 1, 2 or 5 × a power of ten around what
// must show (points at 0.8 to 1.25 times their value, so that a marker
// never sits on the frame), with at least one decade on each axis. Whole
// decades wasted up to half the plot: a 10.8 Tops/s ceiling drew up to 100T.

#include "roofline/roofline_axes.h"

#include <QString>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace stagecraft::views {

namespace {

struct Span {
    double low = std::numeric_limits<double>::infinity();
    double high = 0;

    void add(double value) {
        if (value > 0 && std::isfinite(value)) {
            low = std::min(low, value);
            high = std::max(high, value);
        }
    }
    bool empty() const { return high <= 0; }
};

constexpr std::array kSteps{1.0, 2.0, 5.0};

/// The largest 1, 2 or 5 × 10^k at most \p value.
double niceBelow(double value) {
    const double decade = std::pow(10.0, std::floor(std::log10(value)));
    double nice = decade;
    for (double step : kSteps)
        if (step * decade <= value * (1 + 1e-9))
            nice = step * decade;
    return nice;
}

/// The smallest 1, 2 or 5 × 10^k at least \p value.
double niceAbove(double value) {
    const double decade = std::pow(10.0, std::floor(std::log10(value)));
    for (double step : kSteps)
        if (step * decade >= value * (1 - 1e-9))
            return step * decade;
    return decade * 10;
}

/// Nice ends around \p span, margins included; \p fallback when empty.
LogAxis decadesAround(Span span, double fallback) {
    if (span.empty())
        span = {fallback, fallback};
    LogAxis axis;
    axis.low = niceBelow(span.low / 1.25);
    axis.high = niceAbove(span.high * 1.25);
    if (axis.high < axis.low * 9.99)
        axis.high = niceAbove(axis.low * 10);
    return axis;
}

} // namespace

double LogAxis::toPixel(double value) const {
    const double span = std::log10(high) - std::log10(low);
    const double fraction = (std::log10(std::max(value, 1e-300)) - std::log10(low)) / span;
    return from + fraction * (to - from);
}

double LogAxis::fromPixel(double pixel) const {
    const double fraction = (pixel - from) / (to - from);
    return std::pow(10.0, std::log10(low) + fraction * (std::log10(high) - std::log10(low)));
}

std::vector<double> LogAxis::decades() const {
    std::vector<double> marks;
    const int first = static_cast<int>(std::floor(std::log10(low) + 1e-9));
    const int last = static_cast<int>(std::floor(std::log10(high) + 1e-9));
    // Fewer than three decades: 2 and 5 between them too.
    const bool fine = last - first < 3;
    for (int e = first; e <= last; ++e)
        for (double step : kSteps) {
            const double mark = step * std::pow(10.0, e);
            if ((step == 1 || fine) && mark >= low * (1 - 1e-9) && mark <= high * (1 + 1e-9))
                marks.push_back(mark);
        }
    return marks;
}

RooflineAxes RooflineAxes::fit(const sim::RooflineChart& chart,
                               const std::vector<sim::RooflinePoint>& points, const QRectF& plot) {
    Span intensity;
    Span throughput;
    throughput.add(chart.peakOpsPerSecond);
    for (double bandwidth : chart.bandwidth)
        if (bandwidth > 0)
            intensity.add(chart.peakOpsPerSecond / bandwidth);
    for (const sim::RooflinePoint& point : points) {
        if (point.opsPerSecond() <= 0)
            continue;
        bool drawn = false;
        for (size_t level = 0; level < point.bytes.size(); ++level)
            if (point.intensity(level) > 0) {
                intensity.add(point.intensity(level));
                drawn = true;
            }
        if (drawn)
            throughput.add(point.opsPerSecond());
    }
    RooflineAxes axes;
    axes.plot = plot;
    axes.x = decadesAround(intensity, 1.0);
    axes.y = decadesAround(throughput, 1e9);
    axes.x.from = plot.left();
    axes.x.to = plot.right();
    axes.y.from = plot.bottom();
    axes.y.to = plot.top();
    return axes;
}

QPointF RooflineAxes::at(double opsPerByte, double opsPerSecond) const {
    return {x.toPixel(opsPerByte), y.toPixel(opsPerSecond)};
}

QString decadeText(double value) {
    static constexpr std::array prefixes{"", "k", "M", "G", "T", "P", "E"};
    int exponent = static_cast<int>(std::floor(std::log10(value) + 1e-9));
    if (exponent < 0)
        return QString::number(value, 'g', 1);
    const size_t prefix = std::min(static_cast<size_t>(exponent / 3), prefixes.size() - 1);
    return QString::number(value / std::pow(1000.0, static_cast<double>(prefix)), 'g', 3) +
           QLatin1String(prefixes[prefix]);
}

QString siText(double value) {
    static constexpr std::array prefixes{"", " k", " M", " G", " T", " P", " E"};
    if (value < 1)
        return QString::number(value, 'g', 3);
    size_t prefix = 0;
    while (value >= 999.5 && prefix + 1 < prefixes.size()) {
        value /= 1000;
        ++prefix;
    }
    const int decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2;
    return QString::number(value, 'f', decimals) + QLatin1String(prefixes[prefix]);
}

} // namespace stagecraft::views
