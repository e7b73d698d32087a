#pragma once
// The roofline chart's log-log mapping, a plain struct as the time axis is
// (common/time_axis.h): x is arithmetic intensity (operations per byte), y
// achieved throughput (operations per second), each a log10 scale between
// two values of 1, 2 or 5 × a power of ten that hold every point and every
// ceiling's corner.

#include "sim/roofline_chart.h"

#include <QPointF>
#include <QRectF>

#include <vector>

namespace stagecraft::views {

/// A log10 scale from \p low (at pixel \p from) to \p high (at pixel \p to).
struct LogAxis {
    double low = 1;
    double high = 10;
    double from = 0;
    double to = 1;

    double toPixel(double value) const;
    double fromPixel(double pixel) const;
    /// The powers of ten from low to high, with 2 and 5 × each between
    /// them when the axis spans fewer than three decades.
    std::vector<double> decades() const;
};

struct RooflineAxes {
    LogAxis x;
    LogAxis y;
    QRectF plot;

    /// Axes over \p plot holding the compute ceiling, every bandwidth
    /// ceiling's ridge (where it meets the compute ceiling) and every point
    /// of \p points at each level it has traffic at.
    static RooflineAxes fit(const sim::RooflineChart& chart,
                            const std::vector<sim::RooflinePoint>& points, const QRectF& plot);

    /// Where a point of intensity \p opsPerByte and throughput \p opsPerSecond is drawn.
    QPointF at(double opsPerByte, double opsPerSecond) const;
};

/// "1", "10", "100", "1k", "10M", "1G", "2T", "500T": a mark of an axis with its SI prefix.
QString decadeText(double value);
/// \p value with three significant digits and an SI prefix ("4.56 T", "12.3 G", "0.0125").
QString siText(double value);

} // namespace stagecraft::views
