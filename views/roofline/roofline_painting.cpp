// Painting the roofline plot (roofline_plot.h): decade grid and ticks with
// their units, the ceilings (compute flat, each level's bandwidth a diagonal
// up to its ridge, labelled along it), the markers, then the legend strip.
// A bandwidth ceiling of slope 1 in log-log space meets the compute ceiling
// at intensity peak / bandwidth.

#include "common/canvas_colors.h"
#include "common/group_colors.h"
#include "roofline/roofline_plot.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace stagecraft::views {

namespace {

constexpr double kMarkerRadius = 5;

QString levelName(size_t level) {
    const std::string_view name = sim::rooflineLevelName(level);
    return QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
}

/// A circle at DDR, a square at GB, a triangle at LB.
QPainterPath markerShape(size_t level, QPointF at, double radius) {
    QPainterPath path;
    if (level == 0) {
        path.addEllipse(at, radius, radius);
    } else if (level == 1) {
        path.addRect(
            QRectF(at.x() - radius * 0.9, at.y() - radius * 0.9, radius * 1.8, radius * 1.8));
    } else {
        path.moveTo(at.x(), at.y() - radius * 1.15);
        path.lineTo(at.x() + radius * 1.1, at.y() + radius * 0.8);
        path.lineTo(at.x() - radius * 1.1, at.y() + radius * 0.8);
        path.closeSubpath();
    }
    return path;
}

/// "1.20 TB/s" of \p bytesPerSecond.
QString bandwidthText(double bytesPerSecond) {
    return siText(bytesPerSecond) + QStringLiteral("B/s");
}

} // namespace

QColor rooflineLevelColor(size_t level) {
    static constexpr std::array colors{0xb2182bU, 0xd96b00U, 0x2166acU};
    return QColor::fromRgb(colors[std::min(level, colors.size() - 1)]);
}

void RooflinePlot::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const CanvasColors colors = CanvasColors::fromPalette(palette());
    painter.fillRect(rect(), colors.background);
    if (!result_ || chart_.peakOpsPerSecond <= 0) {
        paintEmpty(painter);
        return;
    }
    const RooflineAxes fitted = axes();
    paintAxes(painter, fitted);
    painter.save();
    painter.setClipRect(fitted.plot.adjusted(-kMarkerRadius - 2, -kMarkerRadius - 2,
                                             kMarkerRadius + 2, kMarkerRadius + 2));
    paintCeilings(painter, fitted);
    paintPoints(painter, fitted);
    painter.restore();
    paintLegend(painter);
}

void RooflinePlot::paintEmpty(QPainter& painter) const {
    painter.setPen(CanvasColors::fromPalette(palette()).ink);
    painter.drawText(rect(), Qt::AlignCenter,
                     result_ ? tr("No roofline: the architecture has no compute rate at this "
                                  "precision")
                             : tr("Open a model to see its kernels against the roofline."));
}

void RooflinePlot::paintAxes(QPainter& painter, const RooflineAxes& axes) const {
    const CanvasColors colors = CanvasColors::fromPalette(palette());
    const QRectF plot = axes.plot;
    const QFontMetrics metrics(font());
    painter.setPen(QPen(colors.faintInk, 1, Qt::DotLine));
    for (double x : axes.x.decades())
        painter.drawLine(QPointF(axes.x.toPixel(x), plot.top()),
                         QPointF(axes.x.toPixel(x), plot.bottom()));
    for (double y : axes.y.decades())
        painter.drawLine(QPointF(plot.left(), axes.y.toPixel(y)),
                         QPointF(plot.right(), axes.y.toPixel(y)));
    painter.setPen(colors.ink);
    painter.drawRect(plot);
    for (double x : axes.x.decades())
        painter.drawText(QRectF(axes.x.toPixel(x) - 30, plot.bottom() + 3, 60, metrics.height()),
                         Qt::AlignHCenter | Qt::AlignTop, decadeText(x));
    for (double y : axes.y.decades())
        painter.drawText(QRectF(plot.left() - 56, axes.y.toPixel(y) - metrics.height() / 2.0, 50,
                                metrics.height()),
                         Qt::AlignRight | Qt::AlignVCenter, decadeText(y));
    painter.drawText(
        QRectF(plot.left(), plot.bottom() + 4 + metrics.height(), plot.width(), metrics.height()),
        Qt::AlignHCenter, tr("Arithmetic intensity (ops/byte at the level), log"));
    painter.save();
    painter.translate(plot.left() - 62, plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-plot.height() / 2, -metrics.height(), plot.height(), metrics.height()),
                     Qt::AlignHCenter, tr("Throughput achieved (ops/s), log"));
    painter.restore();
}

void RooflinePlot::paintCeilings(QPainter& painter, const RooflineAxes& axes) const {
    const CanvasColors colors = CanvasColors::fromPalette(palette());
    const QRectF plot = axes.plot;
    const QFontMetrics metrics(font());
    const double peak = chart_.peakOpsPerSecond;
    const QLineF compute = ceilingLine(axes, std::nullopt);
    painter.setPen(QPen(colors.ink, 2));
    painter.drawLine(compute);
    const QString computeText =
        tr("compute %1ops/s (%2)").arg(siText(peak), QString::fromStdString(chart_.precision));
    painter.drawText(
        QRectF(plot.right() - 320, compute.y1() - metrics.height() - 2, 316, metrics.height()),
        Qt::AlignRight | Qt::AlignBottom, computeText);
    // The slope's angle on screen: a decade of intensity is a decade of throughput.
    const double xDecade = axes.x.toPixel(10) - axes.x.toPixel(1);
    const double yDecade = axes.y.toPixel(10) - axes.y.toPixel(1);
    const double angle = std::atan2(yDecade, xDecade) * 180 / std::numbers::pi;
    for (size_t level = 0; level < chart_.bandwidth.size(); ++level) {
        const QLineF line = ceilingLine(axes, level);
        if (line.isNull())
            continue;
        painter.setPen(QPen(rooflineLevelColor(level), 1.6, Qt::DashLine));
        painter.drawLine(line);
        painter.save();
        // Labels staggered along their lines: close ceilings do not overprint.
        painter.translate(line.pointAt(0.08 + 0.14 * static_cast<double>(level)));
        painter.rotate(angle);
        painter.setPen(rooflineLevelColor(level));
        painter.drawText(QPointF(4, -4),
                         tr("%1 %2").arg(levelName(level), bandwidthText(chart_.bandwidth[level])));
        painter.restore();
    }
}

QLineF RooflinePlot::ceilingLine(const RooflineAxes& axes, std::optional<size_t> level) const {
    const double peak = chart_.peakOpsPerSecond;
    if (!level)
        return {QPointF(axes.plot.left(), axes.y.toPixel(peak)),
                QPointF(axes.plot.right(), axes.y.toPixel(peak))};
    const double bandwidth = chart_.bandwidth[*level];
    if (bandwidth <= 0 || peak <= 0)
        return {};
    // From where the diagonal enters the plot (its left or bottom edge) to its ridge.
    const double startX = std::max(axes.x.low, axes.y.low / bandwidth);
    return {axes.at(startX, bandwidth * startX), axes.at(peak / bandwidth, peak)};
}

void RooflinePlot::paintPoints(QPainter& painter, const RooflineAxes& axes) const {
    const std::vector<Marker> all = markers();
    const CanvasColors colors = CanvasColors::fromPalette(palette());
    // The markers of one point share a throughput: a faint line joins them.
    painter.setPen(QPen(colors.faintInk, 1));
    const std::vector<sim::RooflinePoint>& list = points();
    for (size_t p = 0; p < list.size(); ++p) {
        double left = 0;
        double right = 0;
        for (size_t level = 0; level < list[p].bytes.size(); ++level) {
            const double intensity = list[p].intensity(level);
            if (intensity <= 0 || list[p].opsPerSecond() <= 0)
                continue;
            left = left > 0 ? std::min(left, intensity) : intensity;
            right = std::max(right, intensity);
        }
        if (right > left && left > 0)
            painter.drawLine(axes.at(left, list[p].opsPerSecond()),
                             axes.at(right, list[p].opsPerSecond()));
    }
    // Selected markers last, so that they are on top.
    for (bool selected : {false, true})
        for (const Marker& marker : all) {
            if (isSelected(marker.point) != selected)
                continue;
            const QPainterPath shape = markerShape(marker.level, marker.at,
                                                   selected ? kMarkerRadius + 1.5 : kMarkerRadius);
            painter.fillPath(shape, groupColor(list[marker.point].group));
            painter.setPen(selected ? QPen(QColor(0xd6, 0x00, 0x1c), 2.5)
                                    : QPen(rooflineLevelColor(marker.level), 1.4));
            painter.drawPath(shape);
        }
}

void RooflinePlot::paintLegend(QPainter& painter) const {
    const CanvasColors colors = CanvasColors::fromPalette(palette());
    const QFontMetrics metrics(font());
    const double y = 8 + metrics.height() / 2.0;
    double x = plotRect().left();
    auto item = [&](const QString& text) {
        painter.setPen(colors.ink);
        painter.drawText(QPointF(x, y + metrics.ascent() / 2.0 - 1), text);
        x += metrics.horizontalAdvance(text) + 18;
    };
    painter.setPen(QPen(colors.ink, 2));
    painter.drawLine(QPointF(x, y), QPointF(x + 22, y));
    x += 28;
    item(tr("compute ceiling"));
    for (size_t level = 0; level < chart_.bandwidth.size(); ++level) {
        painter.setPen(QPen(rooflineLevelColor(level), 1.6, Qt::DashLine));
        if (chart_.bandwidth[level] > 0)
            painter.drawLine(QPointF(x, y), QPointF(x + 22, y));
        const QPainterPath shape = markerShape(level, QPointF(x + 11, y), kMarkerRadius);
        painter.fillPath(shape, colors.background);
        painter.setPen(QPen(rooflineLevelColor(level), 1.4));
        painter.drawPath(shape);
        x += 28;
        item(chart_.bandwidth[level] > 0 ? levelName(level)
                                         : tr("%1 (no path: no ceiling)").arg(levelName(level)));
    }
    item(grain_ == RooflineGrain::Kernels
             ? tr("a marker per kernel and level it moves bytes at; fill: its group's colour")
             : tr("a marker per group and level it moves bytes at; fill: its colour"));
}

} // namespace stagecraft::views
