// Busy units per kind over time: lanes of per-column maxima, labelled with
// the kind, its unit count and its whole-run utilization, and a value axis
// of units busy per lane.

#include "usage/busy_chart.h"

#include "usage/usage_lod.h"

#include <QPainter>

namespace stagecraft::views {

QColor unitKindColor(const std::string& kind) {
    if (kind == "matrix")
        return QColor(0x1f77b4);
    if (kind == "vector")
        return QColor(0xff7f0e);
    if (kind == "scalar")
        return QColor(0x2ca02c);
    return QColor(0x7f7f7f);
}

QColor unitKindLightColor(const std::string& kind) {
    const QColor color = unitKindColor(kind);
    return QColor::fromHsvF(color.hsvHueF(), color.hsvSaturationF() * 0.35, 1.0);
}

BusyChart::BusyChart(QWidget* parent)
    : TimePlot(parent) {
    setObjectName(QStringLiteral("busyChart"));
}

void BusyChart::setData(OverlapData data) {
    data_ = std::move(data);
    // A readable line per kind at least.
    setMinimumHeight(static_cast<int>(data_.kinds.size()) * (fontMetrics().height() + 6) +
                     kTickHeight + 8);
    update();
}

QRectF BusyChart::laneRect(int kind) const {
    const QRect plot = plotRect();
    const double lanes = std::max<double>(1, static_cast<double>(data_.kinds.size()));
    const double height = plot.height() / lanes;
    return QRectF(plot.left(), plot.top() + kind * height, plot.width(), height);
}

QRectF BusyChart::barsRect(int kind) const {
    return laneRect(kind).adjusted(0, 3, 0, -1);
}

std::vector<ValueTick> BusyChart::valueTicks() const {
    std::vector<ValueTick> ticks;
    const double textHeight = fontMetrics().height();
    for (size_t k = 0; k < data_.kinds.size(); ++k) {
        const int units = data_.kinds[k].units;
        const QRectF bars = barsRect(static_cast<int>(k));
        ticks.push_back({bars.top(), QString::number(units)});
        if (bars.height() >= 3 * textHeight && units % 2 == 0 && units > 0)
            ticks.push_back({bars.center().y(), QString::number(units / 2)});
        // A lane's 0 is next to the next lane's top: labelled on the last lane only.
        const bool last = k + 1 == data_.kinds.size();
        ticks.push_back({bars.bottom(), last ? QStringLiteral("0") : QString()});
    }
    // Short lanes put one lane's top label on the one above: a label that
    // would overlap the last one drawn keeps its tick but not its text.
    double lastLabelled = -1e9;
    for (ValueTick& tick : ticks) {
        if (tick.label.isEmpty())
            continue;
        if (tick.y - lastLabelled < textHeight)
            tick.label.clear();
        else
            lastLabelled = tick.y;
    }
    return ticks;
}

int BusyChart::laneAt(const QPoint& pos) const {
    for (size_t k = 0; k < data_.kinds.size(); ++k)
        if (laneRect(static_cast<int>(k)).contains(pos))
            return static_cast<int>(k);
    return -1;
}

void BusyChart::paintPlot(QPainter& painter) {
    const QRect plot = plotRect();
    for (size_t k = 0; k < data_.kinds.size(); ++k) {
        const UnitKindUsage& usage = data_.kinds[k];
        const QRectF lane = barsRect(static_cast<int>(k));
        const TimeAxis& axis = timeAxisModel()->axis();
        const std::vector<int32_t> maxima = columnMaxima(usage.busy, axis, plot.width());
        const std::vector<double> means = columnAverages(usage.busy, axis, plot.width());
        const double perUnit = lane.height() / std::max(usage.units, 1);
        // The maximum light, the mean solid: zoomed out, short bursts do not
        // look like a busy unit.
        const QColor color = unitKindColor(usage.kind);
        const QColor light = unitKindLightColor(usage.kind);
        for (size_t c = 0; c < maxima.size(); ++c) {
            if (maxima[c] == 0)
                continue;
            const double x = plot.left() + static_cast<double>(c) + 0.5;
            painter.setPen(QPen(light, 1));
            painter.drawLine(QPointF(x, lane.bottom()),
                             QPointF(x, lane.bottom() - maxima[c] * perUnit));
            painter.setPen(QPen(color, 1));
            painter.drawLine(QPointF(x, lane.bottom()),
                             QPointF(x, lane.bottom() - means[c] * perUnit));
        }
        painter.setPen(QPen(palette().color(QPalette::Mid), 0, Qt::DotLine));
        painter.drawLine(lane.topLeft(), lane.topRight());
        painter.drawLine(lane.bottomLeft(), lane.bottomRight());
    }
}

void BusyChart::paintLabels(QPainter& painter) {
    for (size_t k = 0; k < data_.kinds.size(); ++k) {
        const UnitKindUsage& usage = data_.kinds[k];
        const QRectF lane = laneRect(static_cast<int>(k));
        painter.fillRect(QRectF(6, lane.top() + 5, 10, 10), unitKindColor(usage.kind));
        painter.setPen(palette().color(QPalette::Text));
        // Two lines when the lane has room for them, else one.
        const bool twoLines = lane.height() >= 2 * painter.fontMetrics().height() + 4;
        const QString kind = QString::fromStdString(usage.kind);
        const QString busy = QString::number(usage.utilization * 100, 'f', 1);
        const QString text =
            twoLines ? QStringLiteral("%1, %2 %3\nbusy %4%")
                           .arg(kind)
                           .arg(usage.units)
                           .arg(usage.units == 1 ? QStringLiteral("unit") : QStringLiteral("units"),
                                busy)
                     : QStringLiteral("%1 ×%2, %3%").arg(kind).arg(usage.units).arg(busy);
        painter.drawText(QRectF(22, lane.top() + 2, kLabelTextWidth - 16, lane.height() - 2),
                         Qt::AlignLeft | Qt::AlignTop, text);
    }
    if (data_.kinds.empty())
        painter.drawText(QRect(6, 6, kLabelTextWidth, 20), Qt::AlignLeft,
                         QStringLiteral("no compute units"));
}

QString BusyChart::toolTipAt(const QPoint& pos) const {
    const int k = laneAt(pos);
    if (k < 0)
        return {};
    const UnitKindUsage& usage = data_.kinds[static_cast<size_t>(k)];
    const double time = timeAt(pos.x());
    return QStringLiteral("%1: %2 of %3 units busy at %4")
        .arg(QString::fromStdString(usage.kind))
        .arg(busyAt(usage.busy, time))
        .arg(usage.units)
        .arg(formatNs(time));
}

} // namespace stagecraft::views
