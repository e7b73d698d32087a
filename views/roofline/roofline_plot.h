#pragma once
// The roofline plot (docs/studio.md, "Roofline"): painted with QPainter on
// log-log axes (roofline_axes.h) — the compute ceiling at the precision
// simulated, one bandwidth ceiling per memory level (DDR, GB, LB) up to
// where it meets it, and each kernel or group as a marker per level it
// moves bytes at (a circle at DDR, a square at GB, a triangle at LB) in its
// group's colour, joined by a faint line since they share one throughput.
// Hover names a marker and its figures; a click selects its kernel's
// instance or its group in every view; the selection made elsewhere rings
// its markers.

#include "common/pipeline_result.h"
#include "common/selection.h"
#include "roofline/roofline_axes.h"

#include <QLineF>
#include <QWidget>

#include <optional>
#include <vector>

namespace stagecraft::views {

enum class RooflineGrain { Kernels, Groups };

class RooflinePlot : public QWidget {
    Q_OBJECT
public:
    /// One marker: point \p point of the grain's list at level \p level.
    struct Marker {
        size_t point = 0;
        size_t level = 0;
        QPointF at;
    };

    explicit RooflinePlot(QWidget* parent = nullptr);

    /// Shows \p chart, computed from \p result (whose schedule names the
    /// kernels' instances and the groups).
    void setChart(ResultPtr result, sim::RooflineChart chart);
    void setGrain(RooflineGrain grain);
    RooflineGrain grain() const { return grain_; }
    void setSelectionModel(SelectionModel* selection);

    const sim::RooflineChart& chart() const { return chart_; }
    /// The kernels or the groups, by grain.
    const std::vector<sim::RooflinePoint>& points() const;
    /// The axes at the widget's current size.
    RooflineAxes axes() const;
    /// Every marker drawn, in drawing order.
    std::vector<Marker> markers() const;
    /// The marker under \p position (the nearest within a few pixels), if any.
    std::optional<Marker> markerAt(QPointF position) const;
    /// What hovering \p marker shows.
    QString tooltipOf(const Marker& marker) const;
    /// What selecting point \p point selects.
    Selection selectionOf(size_t point) const;
    /// Whether point \p point stands for the current selection.
    bool isSelected(size_t point) const;
    /// Where a ceiling is drawn on \p axes: the compute ceiling (no \p level)
    /// across the plot; a level's bandwidth ceiling from where it enters the
    /// plot to its ridge on the compute ceiling. Empty without bandwidth.
    QLineF ceilingLine(const RooflineAxes& axes, std::optional<size_t> level) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    QRectF plotRect() const;
    /// The group id of the current selection (an op's or instance's group).
    int32_t selectedGroup() const;
    int32_t selectedInstance() const;

    void paintAxes(QPainter& painter, const RooflineAxes& axes) const;
    void paintCeilings(QPainter& painter, const RooflineAxes& axes) const;
    void paintPoints(QPainter& painter, const RooflineAxes& axes) const;
    void paintLegend(QPainter& painter) const;
    void paintEmpty(QPainter& painter) const;

    ResultPtr result_;
    sim::RooflineChart chart_;
    RooflineGrain grain_ = RooflineGrain::Kernels;
    SelectionModel* selection_ = nullptr;
};

/// The colour a level's ceiling and marker outline are drawn in (0 DDR, 1 GB, 2 LB).
QColor rooflineLevelColor(size_t level);

} // namespace stagecraft::views
