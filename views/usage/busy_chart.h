#pragma once
// The top of the overlap view: one lane per compute-unit kind with the number
// of its units busy over time (a step chart, one maximum per pixel column),
// on the shared time axis.

#include "usage/overlap_data.h"
#include "usage/time_plot.h"

#include <QColor>

namespace stagecraft::views {

class BusyChart : public TimePlot {
    Q_OBJECT
public:
    explicit BusyChart(QWidget* parent = nullptr);

    void setData(OverlapData data);
    const OverlapData& data() const { return data_; }

    /// The lane of kind \p kind (index into data().kinds) in widget coordinates.
    QRectF laneRect(int kind) const;
    QString toolTipAt(const QPoint& pos) const override;
    /// Units busy in each lane: its unit count at the top, half where the
    /// lane has room for three labels, and 0 (labelled on the last lane).
    std::vector<ValueTick> valueTicks() const override;

protected:
    void paintPlot(QPainter& painter) override;
    void paintLabels(QPainter& painter) override;

private:
    int laneAt(const QPoint& pos) const;
    /// The part of lane \p kind the bars fill: 0 units at its bottom.
    QRectF barsRect(int kind) const;

    OverlapData data_;
};

/// The color of a unit kind ("matrix", "vector", "scalar", "fallback").
QColor unitKindColor(const std::string& kind);
/// Its light shade: the most units busy at once in a pixel column.
QColor unitKindLightColor(const std::string& kind);

} // namespace stagecraft::views
