#pragma once
// The time axis shared by the timeline, occupancy and compute-unit overlap
// views: a plain, tested mapping between simulated time (ns) and pixels of a
// plot area, pixel = (time - startNs) / nsPerPixel, with zoom, pan, fit and
// tick steps. TimeAxisModel holds the one axis the views share; it is view
// history, never put on the undo stack.

#include <QObject>

#include <cstdint>

namespace stagecraft::views {

/// Width of the label column left of every time plot (the timeline, the
/// occupancy and overlap plots, the utilization bars), so that their time
/// axes line up; its right part holds the plots' value axes.
inline constexpr int kTimeLabelWidth = 200;

/// A closed pixel range [left, right] of an interval on screen; empty when the
/// interval lies outside the plot.
struct PixelSpan {
    double left = 0;
    double right = 0;
    bool visible = false;
};

struct TimeAxis {
    /// The deepest zoom: one picosecond per pixel.
    static constexpr double kMinNsPerPixel = 1e-3;

    /// Time at pixel 0 of the plot.
    double startNs = 0;
    double nsPerPixel = 1;

    double toPixel(double ns) const { return (ns - startNs) / nsPerPixel; }
    double toTime(double pixel) const { return startNs + pixel * nsPerPixel; }
    /// Time at the right edge of a plot \p widthPx wide.
    double endNs(double widthPx) const { return toTime(widthPx); }

    /// Shows [t0, t1] across \p widthPx pixels (a degenerate range shows 1 ns).
    void fit(double t0, double t1, double widthPx);
    /// Zooms by \p factor (> 1 zooms in) keeping the time under \p pixel in place.
    void zoomAround(double pixel, double factor);
    /// Moves the content by \p deltaPx pixels (positive: content moves right).
    void pan(double deltaPx) { startNs -= deltaPx * nsPerPixel; }
    /// Keeps the view inside [t0, t1]: never zoomed out beyond the whole range
    /// nor in beyond kMinNsPerPixel, and no empty space past either end.
    void clampTo(double t0, double t1, double widthPx);
    /// The pixels of [t0, t1], clipped to a plot \p widthPx wide.
    PixelSpan span(double t0, double t1, double widthPx) const;
    /// A tick step of 1, 2 or 5 x 10^k ns at least \p minPixels apart.
    double tickStepNs(double minPixels) const;

    bool operator==(const TimeAxis&) const = default;
};

/// "0", "250 ns", "1.5 us", "12 ms": a time for tick labels and tool tips.
QString formatNs(double ns);

/// The axis the time views share: each view draws with axis() over its own
/// plot width and calls setAxis() when the user zooms or pans in it.
class TimeAxisModel : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    const TimeAxis& axis() const { return axis_; }
    /// The simulated range, [0, makespan] of the current result.
    double rangeStart() const { return rangeStart_; }
    double rangeEnd() const { return rangeEnd_; }

    /// Sets the range and fits it to \p widthPx pixels.
    void setRange(double t0, double t1, double widthPx);
    /// Sets the axis clamped to the range over \p widthPx; emits changed()
    /// when it differs.
    void setAxis(const TimeAxis& axis, double widthPx);

signals:
    void changed();

private:
    TimeAxis axis_;
    double rangeStart_ = 0;
    double rangeEnd_ = 1;
};

} // namespace stagecraft::views
