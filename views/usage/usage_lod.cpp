// Level of detail of the usage plots (see usage_lod.h): rectangle culling and
// merging per pixel column, and per-column maxima of step series.

#include "usage/usage_lod.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace stagecraft::views {

namespace {

bool touches(const QRectF& a, const QRectF& b) {
    return a.top() <= b.bottom() + 1.0 && b.top() <= a.bottom() + 1.0;
}

} // namespace

std::vector<PaintRect> visibleRects(const std::vector<OccupancyRect>& rects, const TimeAxis& axis,
                                    double widthPx, const AddressScale& scale) {
    std::vector<PaintRect> out;
    // Last thin rectangle per (pixel column, group).
    std::map<std::pair<int64_t, partition::GroupId>, size_t> lastThin;
    for (size_t i = 0; i < rects.size(); ++i) {
        const OccupancyRect& r = rects[i];
        const PixelSpan span = axis.span(r.start, r.end, widthPx);
        if (!span.visible)
            continue;
        const double top = scale.toY(static_cast<double>(r.offset + r.bytes));
        const double bottom = scale.toY(static_cast<double>(r.offset));
        PaintRect paint{QRectF(QPointF(span.left, top), QPointF(span.right, bottom)),
                        static_cast<int32_t>(i), 1, r.group};
        if (span.right - span.left >= 1.0) {
            out.push_back(paint);
            continue;
        }
        const double column = std::floor(span.left);
        paint.rect.setLeft(column);
        paint.rect.setRight(column + 1.0);
        const auto key = std::make_pair(static_cast<int64_t>(column), r.group);
        auto found = lastThin.find(key);
        if (found != lastThin.end() && touches(out[found->second].rect, paint.rect)) {
            PaintRect& merged = out[found->second];
            merged.rect = merged.rect.united(paint.rect);
            ++merged.count;
            continue;
        }
        lastThin[key] = out.size();
        out.push_back(paint);
    }
    return out;
}

namespace {

template <typename Value, typename Point, typename Get>
std::vector<Value> maximaOf(const std::vector<Point>& series, const TimeAxis& axis, int widthPx,
                            Get value) {
    std::vector<Value> maxima(static_cast<size_t>(std::max(widthPx, 0)), 0);
    size_t next = 0;
    Value current = 0;
    for (int c = 0; c < widthPx; ++c) {
        const double t0 = axis.toTime(c);
        const double t1 = axis.toTime(c + 1);
        while (next < series.size() && series[next].time <= t0)
            current = value(series[next++]);
        Value highest = current;
        while (next < series.size() && series[next].time < t1) {
            current = value(series[next++]);
            highest = std::max(highest, current);
        }
        maxima[static_cast<size_t>(c)] = highest;
    }
    return maxima;
}

} // namespace

std::vector<int32_t> columnMaxima(const std::vector<BusyPoint>& series, const TimeAxis& axis,
                                  int widthPx) {
    return maximaOf<int32_t>(series, axis, widthPx, [](const BusyPoint& p) { return p.busy; });
}

std::vector<int64_t> columnPeaks(const std::vector<BytesPoint>& series, const TimeAxis& axis,
                                 int widthPx) {
    return maximaOf<int64_t>(series, axis, widthPx, [](const BytesPoint& p) { return p.bytes; });
}

std::vector<double> columnAverages(const std::vector<BusyPoint>& series, const TimeAxis& axis,
                                   int widthPx) {
    std::vector<double> means(static_cast<size_t>(std::max(widthPx, 0)), 0);
    size_t next = 0;
    int32_t current = 0;
    for (int c = 0; c < widthPx; ++c) {
        const double t0 = axis.toTime(c);
        const double t1 = axis.toTime(c + 1);
        while (next < series.size() && series[next].time <= t0)
            current = series[next++].busy;
        double area = 0;
        double from = t0;
        while (next < series.size() && series[next].time < t1) {
            area += current * (series[next].time - from);
            from = series[next].time;
            current = series[next++].busy;
        }
        area += current * (t1 - from);
        means[static_cast<size_t>(c)] = area / (t1 - t0);
    }
    return means;
}

std::vector<int64_t> AddressScale::tickAddresses(double minSpacingPx) const {
    const int64_t highest = std::max<int64_t>(maxAddress, 1);
    const double bytesPerPx = static_cast<double>(highest) / std::max(height, 1.0);
    int64_t step = 1;
    while (static_cast<double>(step) < minSpacingPx * bytesPerPx && step < (int64_t{1} << 61))
        step *= 2;
    std::vector<int64_t> ticks;
    for (int64_t value = 0; value <= highest; value += step)
        ticks.push_back(value);
    return ticks;
}

} // namespace stagecraft::views
