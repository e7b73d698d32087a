// The shared time axis: mapping, zoom, pan, clamp and tick steps.

#include "common/time_axis.h"

#include <QString>

#include <algorithm>
#include <cmath>

namespace stagecraft::views {

void TimeAxis::fit(double t0, double t1, double widthPx) {
    const double length = t1 > t0 ? t1 - t0 : 1.0;
    startNs = t0;
    nsPerPixel = std::max(kMinNsPerPixel, length / std::max(1.0, widthPx));
}

void TimeAxis::zoomAround(double pixel, double factor) {
    if (!(factor > 0))
        return;
    const double anchor = toTime(pixel);
    nsPerPixel = std::max(kMinNsPerPixel, nsPerPixel / factor);
    startNs = anchor - pixel * nsPerPixel;
}

void TimeAxis::clampTo(double t0, double t1, double widthPx) {
    const double width = std::max(1.0, widthPx);
    const double length = t1 > t0 ? t1 - t0 : 1.0;
    nsPerPixel = std::clamp(nsPerPixel, kMinNsPerPixel, std::max(kMinNsPerPixel, length / width));
    const double visible = nsPerPixel * width;
    startNs = std::clamp(startNs, t0, std::max(t0, t0 + length - visible));
}

PixelSpan TimeAxis::span(double t0, double t1, double widthPx) const {
    PixelSpan result;
    result.left = std::max(0.0, toPixel(t0));
    result.right = std::min(widthPx, toPixel(t1));
    result.visible =
        t1 >= t0 && result.right >= result.left && toPixel(t1) >= 0 && toPixel(t0) <= widthPx;
    return result;
}

double TimeAxis::tickStepNs(double minPixels) const {
    const double minimum = std::max(minPixels, 1.0) * nsPerPixel;
    double power = std::pow(10.0, std::floor(std::log10(minimum)));
    for (;;) {
        for (const double mantissa : {1.0, 2.0, 5.0}) {
            if (mantissa * power >= minimum * (1 - 1e-12))
                return mantissa * power;
        }
        power *= 10;
    }
}

QString formatNs(double ns) {
    if (ns == 0)
        return QStringLiteral("0");
    struct Unit {
        double scale;
        const char* name;
    };
    // µs, as everywhere else in Studio (the status bar, the inspector).
    static constexpr Unit units[] = {
        {1e9, "s"}, {1e6, "ms"}, {1e3, "\u00b5s"}, {1, "ns"}, {1e-3, "ps"}};
    // The unit is chosen after rounding to 4 digits: 999999 ns is "1 ms".
    const double rounded = QString::number(ns, 'g', 4).toDouble();
    for (const Unit& unit : units) {
        if (std::abs(rounded) >= unit.scale || unit.scale == 1e-3) {
            return QString::number(rounded / unit.scale, 'g', 4) + QLatin1Char(' ') +
                   QString::fromUtf8(unit.name);
        }
    }
    return QString::number(ns);
}

void TimeAxisModel::setRange(double t0, double t1, double widthPx) {
    rangeStart_ = t0;
    rangeEnd_ = t1 > t0 ? t1 : t0 + 1;
    TimeAxis fitted;
    fitted.fit(rangeStart_, rangeEnd_, widthPx);
    axis_ = fitted;
    emit changed();
}

void TimeAxisModel::setAxis(const TimeAxis& axis, double widthPx) {
    TimeAxis clamped = axis;
    clamped.clampTo(rangeStart_, rangeEnd_, widthPx);
    if (clamped == axis_)
        return;
    axis_ = clamped;
    emit changed();
}

} // namespace stagecraft::views
