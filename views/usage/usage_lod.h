#pragma once
// Level of detail for the usage plots: what to paint for the pixels of the
// plot, never more. Occupancy rectangles outside the view are skipped and
// those thinner than a pixel are merged per pixel column; a busy-units step
// series becomes one maximum per pixel column.

#include "common/time_axis.h"
#include "usage/occupancy_data.h"
#include "usage/overlap_data.h"

#include <QRectF>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace stagecraft::views {

/// Maps addresses [0, maxAddress] onto a plot's height (address 0 at the bottom).
struct AddressScale {
    double top = 0;
    double height = 1;
    int64_t maxAddress = 1;

    double toY(double address) const {
        return top +
               height * (1.0 - address / static_cast<double>(std::max<int64_t>(maxAddress, 1)));
    }
    /// The marks of its value axis: 0 and the multiples of the smallest power
    /// of two bytes that leaves \p minSpacingPx between them, up to maxAddress.
    std::vector<int64_t> tickAddresses(double minSpacingPx = 40) const;
    double toAddress(double y) const {
        return (1.0 - (y - top) / std::max(height, 1.0)) *
               static_cast<double>(std::max<int64_t>(maxAddress, 1));
    }
};

/// A rectangle to paint, in plot coordinates (x from 0 at the plot's left).
struct PaintRect {
    QRectF rect;
    /// The first OccupancyRect painted here (index into MemoryUsage::rects)
    /// and how many were merged into it.
    int32_t first = 0;
    int32_t count = 1;
    partition::GroupId group = partition::kNoGroup;
};

/// The rectangles of \p rects visible in a plot \p widthPx wide: those wider
/// than a pixel as they are, thinner ones widened to their pixel column and
/// merged with the previous thin one of the same column and group when their
/// address ranges touch.
std::vector<PaintRect> visibleRects(const std::vector<OccupancyRect>& rects, const TimeAxis& axis,
                                    double widthPx, const AddressScale& scale);

/// The highest value of \p series within each pixel column [c, c + 1) of a
/// plot \p widthPx wide (0 left of the series' first point).
std::vector<int32_t> columnMaxima(const std::vector<BusyPoint>& series, const TimeAxis& axis,
                                  int widthPx);

/// The highest value of \p series within each pixel column (the outline of
/// the total occupancy).
std::vector<int64_t> columnPeaks(const std::vector<BytesPoint>& series, const TimeAxis& axis,
                                 int widthPx);

/// The time-weighted mean of \p series over each pixel column of a plot
/// \p widthPx wide: busy unit-time in the column / the column's time.
std::vector<double> columnAverages(const std::vector<BusyPoint>& series, const TimeAxis& axis,
                                   int widthPx);

} // namespace stagecraft::views
