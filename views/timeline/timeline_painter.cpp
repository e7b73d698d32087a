// Level-of-detail painting of timeline lanes and the time ruler
// (timeline_painter.h).

#include "timeline/timeline_painter.h"

#include "common/group_colors.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace stagecraft::views {

namespace {

QColor blend(const QColor& color, const QColor& toward, double amount) {
    return QColor::fromRgbF(
        static_cast<float>(color.redF() + (toward.redF() - color.redF()) * amount),
        static_cast<float>(color.greenF() + (toward.greenF() - color.greenF()) * amount),
        static_cast<float>(color.blueF() + (toward.blueF() - color.blueF()) * amount));
}

/// The color of \p base in each BarStyle: as is, faded, emphasized.
std::array<QColor, 3> shadesOf(const QColor& base) {
    return {base, blend(base, Qt::white, 0.7), base.darker(125)};
}

/// Group colors computed once per style: painting asks for one per bar.
/// Bars outside every instance (transfers of no group) share one gray.
const QColor& cachedColor(const TimelineBar& bar, BarStyle style) {
    static const auto table = [] {
        std::vector<std::array<QColor, 3>> colors;
        colors.push_back(shadesOf(groupColor(partition::kNoGroup).darker(118)));
        for (size_t g = 0; g < 12; ++g)
            colors.push_back(shadesOf(groupColor(partition::GroupId::at(g))));
        return colors;
    }();
    const bool grouped = bar.instance != schedule::kNoInstance && bar.group != partition::kNoGroup;
    const size_t row = grouped ? 1 + bar.group.index() % 12 : 0;
    return table[row][static_cast<size_t>(style)];
}

} // namespace

TimelinePainter::TimelinePainter(QPainter& painter, const TimeAxis& axis, double plotWidth)
    : painter_(painter)
    , axis_(axis)
    , plotWidth_(plotWidth) {}

QColor TimelinePainter::barColor(const TimelineBar& bar, BarStyle style) {
    return cachedColor(bar, style);
}

void TimelinePainter::paintLane(const TimelineData& data, int32_t lane, const QRectF& rect,
                                BarStyle style, const BarLabeler& labeler) {
    ++stats_.lanes;
    const std::vector<TimelineBar>& bars = data.lane(lane).bars;
    const double t1 = axis_.toTime(plotWidth_);
    Run run;
    size_t i = data.firstEndingAtOrAfter(lane, axis_.toTime(0));
    while (i < bars.size() && bars[i].start <= t1) {
        const TimelineBar& bar = bars[i];
        const double x0 = axis_.toPixel(bar.start);
        const double x1 = axis_.toPixel(bar.end);
        if (bar.end < axis_.toTime(0)) { // only on lanes with overlapping bars
            ++i;
            continue;
        }
        if (x1 - x0 >= 1) {
            paintBar(bar, x0, x1, rect, style, labeler);
            ++i;
            continue;
        }
        // Sub-pixel: cover the column and jump past every bar ending in it.
        const double column = std::floor(std::max(0.0, x0));
        const QColor& color = cachedColor(bar, style);
        if (column > run.right || color != run.color) {
            flush(run, rect);
            run = {column, column + 1, color};
        } else {
            run.right = column + 1;
        }
        stats_.emphasized += style == BarStyle::Emphasized ? 1 : 0;
        i = data.firstEndingAtOrAfter(lane, axis_.toTime(column + 1), i + 1);
    }
    flush(run, rect);
}

void TimelinePainter::flush(Run& run, const QRectF& rect) {
    if (run.right <= run.left)
        return;
    painter_.fillRect(
        QRectF(rect.left() + run.left, rect.top() + 2, run.right - run.left, rect.height() - 4),
        run.color);
    ++stats_.mergedRuns;
    run = {};
}

void TimelinePainter::paintBar(const TimelineBar& bar, double x0, double x1, const QRectF& rect,
                               BarStyle style, const BarLabeler& labeler) {
    const double left = std::max(x0, -1.0);
    const double right = std::min(x1, plotWidth_ + 1);
    const QRectF box(rect.left() + left, rect.top() + 2, right - left, rect.height() - 4);
    painter_.fillRect(box, barColor(bar, style));
    ++stats_.bars;
    stats_.emphasized += style == BarStyle::Emphasized ? 1 : 0;
    if (box.width() >= 4) {
        painter_.setPen(style == BarStyle::Emphasized ? QColor(30, 30, 30) : QColor(0, 0, 0, 60));
        painter_.drawRect(box.adjusted(0, 0, -1, -1));
    }
    if (box.width() < TimelineGeometry::kMinLabelWidth || !labeler)
        return;
    const QRectF textBox = box.adjusted(3, 0, -3, 0);
    const QString text =
        QFontMetricsF(painter_.font()).elidedText(labeler(bar), Qt::ElideRight, textBox.width());
    painter_.setPen(style == BarStyle::Dimmed ? QColor(120, 120, 120) : QColor(0, 0, 0));
    painter_.drawText(textBox, Qt::AlignVCenter | Qt::AlignLeft, text);
    ++stats_.labels;
}

void TimelinePainter::paintRuler(const QRectF& rect) {
    const double step = axis_.tickStepNs(90);
    const double first = std::ceil(axis_.toTime(0) / step) * step;
    painter_.setPen(QColor(90, 90, 90));
    painter_.drawLine(QPointF(rect.left(), rect.bottom()), QPointF(rect.right(), rect.bottom()));
    for (int k = 0;; ++k) {
        const double t = first + k * step;
        if (axis_.toPixel(t) > plotWidth_)
            break;
        const double x = rect.left() + axis_.toPixel(t);
        painter_.drawLine(QPointF(x, rect.bottom() - 6), QPointF(x, rect.bottom()));
        painter_.drawText(QRectF(x + 3, rect.top(), 120, rect.height() - 4),
                          Qt::AlignLeft | Qt::AlignVCenter,
                          formatNs(std::abs(t) < step * 1e-9 ? 0 : t));
    }
}

} // namespace stagecraft::views
