#pragma once
// Paints the timeline with level of detail: bars at least a pixel wide are
// drawn as rectangles (labelled when wide enough); thinner ones are merged
// per pixel column, one rectangle per run of covered columns, and the scan
// jumps past each covered column by binary search. A lane costs
// O(min(visible bars, plot width x log n)), never O(all events).

#include "common/time_axis.h"
#include "timeline/timeline_data.h"

#include <QColor>
#include <QRectF>
#include <QString>

#include <functional>

class QPainter;

namespace stagecraft::views {

/// Fixed sizes of the timeline's parts, in pixels.
struct TimelineGeometry {
    static constexpr int kLabelWidth = kTimeLabelWidth;
    static constexpr int kRulerHeight = 24;
    static constexpr int kLaneHeight = 20;
    /// Bars at least this wide carry their label.
    static constexpr double kMinLabelWidth = 48;
};

/// What the last paint drew (for tests and the benchmark).
struct TimelinePaintStats {
    /// Bars drawn as their own rectangle.
    int bars = 0;
    /// Runs of merged sub-pixel columns drawn.
    int mergedRuns = 0;
    int labels = 0;
    /// Emphasized bars drawn (own rectangle or merged run).
    int emphasized = 0;
    int lanes = 0;
};

enum class BarStyle { Normal, Dimmed, Emphasized };

using BarLabeler = std::function<QString(const TimelineBar&)>;

class TimelinePainter {
public:
    TimelinePainter(QPainter& painter, const TimeAxis& axis, double plotWidth);

    /// Paints the bars of \p lane of \p data in \p rect (x from 0 at the
    /// plot's left edge, already translated by the caller).
    void paintLane(const TimelineData& data, int32_t lane, const QRectF& rect, BarStyle style,
                   const BarLabeler& labeler);
    /// Paints the ruler's ticks and time labels in \p rect.
    void paintRuler(const QRectF& rect);

    const TimelinePaintStats& stats() const { return stats_; }
    static QColor barColor(const TimelineBar& bar, BarStyle style);

private:
    struct Run {
        double left = 0;
        double right = 0;
        QColor color;
    };
    void flush(Run& run, const QRectF& rect);
    void paintBar(const TimelineBar& bar, double x0, double x1, const QRectF& rect, BarStyle style,
                  const BarLabeler& labeler);

    QPainter& painter_;
    TimeAxis axis_;
    double plotWidth_ = 0;
    TimelinePaintStats stats_;
};

} // namespace stagecraft::views
