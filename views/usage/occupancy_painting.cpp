// Painting of the occupancy plot: rectangles after level of detail (the
// selected ones on top, at full detail), the total outline, the capacity line
// and the spill marks with labels where they fit.

#include "common/group_colors.h"
#include "usage/occupancy_labels.h"
#include "usage/occupancy_plot.h"

#include <QLineF>
#include <QList>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <utility>

namespace stagecraft::views {

double OccupancyPlot::markY(const SpillMark& mark) const {
    if (mark.fromOffset < 0)
        return plotRect().top() + 12.0;
    return scale().toY(static_cast<double>(mark.fromOffset) + static_cast<double>(mark.bytes) / 2);
}

void OccupancyPlot::paintPlot(QPainter& painter) {
    paintRects(painter);
    paintOutline(painter);
    paintCapacity(painter);
    paintSpills(painter);
}

void OccupancyPlot::paintRects(QPainter& painter) {
    const QRect plot = plotRect();
    const bool anyEmphasized = !emphasized_.empty();
    const std::vector<PaintRect> rects =
        visibleRects(usage_.rects, timeAxisModel()->axis(), plot.width(), scale());
    lastPaintedRects_ = static_cast<int>(rects.size());
    painter.save();
    painter.translate(plot.left(), 0);
    QColor edge = palette().color(QPalette::Dark);
    edge.setAlpha(140);
    for (const PaintRect& p : rects) {
        QColor fill = groupColor(p.group);
        if (anyEmphasized)
            fill.setAlpha(70);
        // Edges only where they leave room for the fill.
        painter.setPen(p.rect.width() > 8 && p.rect.height() > 6 ? QPen(edge, 0) : Qt::NoPen);
        painter.setBrush(fill);
        painter.drawRect(p.rect);
    }
    painter.setPen(QPen(palette().color(QPalette::Text), 2));
    for (int32_t i : emphasized_) {
        const OccupancyRect& r = usage_.rects[static_cast<size_t>(i)];
        const PixelSpan span = timeAxisModel()->axis().span(r.start, r.end, plot.width());
        if (!span.visible)
            continue;
        const AddressScale s = scale();
        painter.setBrush(groupColor(r.group));
        painter.drawRect(QRectF(
            QPointF(span.left, s.toY(static_cast<double>(r.offset + r.bytes))),
            QPointF(std::max(span.right, span.left + 1), s.toY(static_cast<double>(r.offset)))));
    }
    painter.restore();
}

void OccupancyPlot::paintOutline(QPainter& painter) {
    // The peak of each pixel column, without the risers: zoomed out, the
    // tiles' ups and downs would otherwise fill the plot with vertical strokes.
    const QRect plot = plotRect();
    const AddressScale s = scale();
    const std::vector<int64_t> peaks =
        columnPeaks(usage_.total, timeAxisModel()->axis(), plot.width());
    QList<QLineF> tops;
    for (size_t c = 0; c < peaks.size(); ++c) {
        const double x = plot.left() + static_cast<double>(c);
        const double y = s.toY(static_cast<double>(peaks[c]));
        tops << QLineF(x, y, x + 1, y);
    }
    painter.setPen(QPen(palette().color(QPalette::Text), 1.5));
    painter.drawLines(tops);
}

void OccupancyPlot::paintCapacity(QPainter& painter) {
    if (usage_.capacityBytes <= 0)
        return;
    const QRect plot = plotRect();
    const double y = scale().toY(static_cast<double>(usage_.capacityBytes));
    painter.setPen(QPen(QColor(kOccupancyAlertRgb), 1.5, Qt::DashLine));
    painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    // Above the line, or below it where the plot's top would clip the label.
    const double labelTop = y - 16 >= plot.top() ? y - 16 : y + 2;
    painter.drawText(QRectF(plot.right() - 220, labelTop, 214, 14),
                     Qt::AlignRight | Qt::AlignBottom,
                     QStringLiteral("capacity %1").arg(formatBufferBytes(usage_.capacityBytes)));
}

void OccupancyPlot::paintSpills(QPainter& painter) {
    const QRect plot = plotRect();
    const QFontMetrics metrics(font());
    lastPaintedLabels_ = 0;
    // One marker per 6 x 6 pixel cell; a label where it reaches neither the
    // next marker nor the previous label.
    std::vector<QPointF> shown;
    std::set<std::pair<int, int>> cells;
    for (const SpillMark& mark : marks_) {
        const QPointF at(xOf(mark.time), markY(mark));
        if (at.x() < plot.left() - 4 || at.x() > plot.right() + 4)
            continue;
        if (cells.insert({static_cast<int>(at.x()) / 6, static_cast<int>(at.y()) / 6}).second)
            shown.push_back(at);
    }
    painter.setPen(QPen(QColor(kOccupancyAlertRgb), 1));
    painter.setBrush(QColor(kOccupancyAlertRgb));
    for (const QPointF& at : shown) {
        const QPointF triangle[3] = {{at.x() - 4, at.y() - 6}, {at.x() + 4, at.y() - 6}, at};
        painter.drawPolygon(triangle, 3);
    }
    double labelsEnd = -1e18;
    for (size_t i = 0; i < marks_.size(); ++i) {
        const SpillMark& mark = marks_[i];
        const double x = xOf(mark.time);
        const double nextX = i + 1 < marks_.size() ? xOf(marks_[i + 1].time) : plot.right();
        const QString label = QString::fromStdString(mark.tensorName) + QStringLiteral(" \u2192 ") +
                              QString::fromStdString(poolName(mark.to));
        const int width = metrics.horizontalAdvance(label);
        if (x < plot.left() || x + 6 <= labelsEnd ||
            x + 6 + width > std::min<double>(nextX, plot.right()))
            continue;
        painter.drawText(QPointF(x + 6, markY(mark) - 3 + metrics.ascent() / 2.0), label);
        labelsEnd = x + 6 + width + 8;
        ++lastPaintedLabels_;
    }
    paintCurrentSpill(painter);
}

void OccupancyPlot::paintCurrentSpill(QPainter& painter) {
    if (currentMark_ < 0)
        return;
    const SpillMark& mark = marks_[static_cast<size_t>(currentMark_)];
    const QRect plot = plotRect();
    const QPointF at(xOf(mark.time), markY(mark));
    if (at.x() < plot.left() || at.x() > plot.right())
        return;
    const QColor ink = palette().color(QPalette::Text);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(ink, 1, Qt::DashLine));
    painter.drawLine(QPointF(at.x(), plot.top()), QPointF(at.x(), plot.bottom()));
    painter.setPen(QPen(ink, 1.5));
    painter.setBrush(QColor(kOccupancyAlertRgb));
    const QPointF triangle[3] = {{at.x() - 8, at.y() - 12}, {at.x() + 8, at.y() - 12}, at};
    painter.drawPolygon(triangle, 3);
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    const QString label = tr("this step: %1").arg(QString::fromStdString(spillLabel(mark)));
    const QFontMetrics metrics(bold);
    const double width = metrics.horizontalAdvance(label) + 8;
    // Right of the mark, or left of it near the plot's right edge.
    const double left = at.x() + 10 + width < plot.right() ? at.x() + 10 : at.x() - 10 - width;
    const QRectF box(left, plot.top() + 2, width, metrics.height() + 2);
    painter.fillRect(box, QColor(255, 255, 255, 230));
    painter.setPen(ink);
    painter.drawText(box, Qt::AlignCenter, label);
    painter.restore();
}

void OccupancyPlot::paintLabels(QPainter& painter) {
    const QRect plot = plotRect();
    painter.setPen(palette().color(QPalette::Text));
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    const QString title = memoryTitle(usage_);
    painter.drawText(QRect(6, plot.top(), kLabelTextWidth, 18), Qt::AlignLeft, title);
    painter.setFont(font());
    const int64_t peak =
        std::accumulate(usage_.total.begin(), usage_.total.end(), int64_t{0},
                        [](int64_t m, const BytesPoint& p) { return std::max(m, p.bytes); });
    const QString lines = memorySummary(usage_, peak, marks_);
    painter.drawText(QRect(6, plot.top() + 20, kLabelTextWidth, plot.height() - 20),
                     Qt::AlignLeft | Qt::AlignTop, lines);
}

} // namespace stagecraft::views
