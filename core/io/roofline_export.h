#pragma once
/// \file
/// The roofline chart of a simulated run (sim/roofline_chart.h) for other
/// tools: CSV, one row per ceiling and per kernel and group at every level
/// it moves bytes to or from, and a standalone SVG with log-log axes, the
/// compute ceiling, one bandwidth ceiling per level and a marker per level.
/// Both are pure functions of the chart: the same chart gives the same bytes
/// (docs/exports.md, "Roofline").

#include "sim/roofline_chart.h"

#include <string>

namespace stagecraft::io {

/// The chart as CSV: the header `kind,label,group,level,ops,bytes,seconds,
/// intensity_ops_per_byte,ops_per_second,bytes_per_second`, then a `ceiling`
/// row `compute` (ops_per_second the peak), a `ceiling` row per level with a
/// path (bytes_per_second its bandwidth), then `kernel` rows and `group`
/// rows, one per level with traffic, in the chart's order.
std::string rooflineCsv(const sim::RooflineChart& chart);

struct RooflineSvgOptions {
    /// A file of its own: the XML declaration and the SVG namespace. Off,
    /// the `<svg>` element is for inlining in HTML.
    bool standalone = true;
};

/// The chart as SVG: x the arithmetic intensity (ops/byte), y the throughput
/// (ops/s), both log scale with a tick per decade; the compute ceiling and
/// the bandwidth ceilings labelled; kernels as filled and groups as hollow
/// markers, one shape and colour per level; a legend.
std::string rooflineSvg(const sim::RooflineChart& chart, const RooflineSvgOptions& options = {});

} // namespace stagecraft::io
