// The timeline's Perfetto-like tools: the pinned task with its dependency
// arrows (the task graph's deps, and the tasks listing the pinned one among
// theirs), lanes per core, and the summed time range.

#include "timeline/timeline_view.h"

#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace stagecraft::views {

namespace {

using Geometry = TimelineGeometry;

/// Arrows drawn at most per direction: a sync task may wait for hundreds.
constexpr size_t kMaxArrows = 64;
const QColor kWaitsFor(31, 78, 156);
const QColor kLetsRun(179, 88, 6);
const QColor kRangeFill(66, 133, 244, 40);
const QColor kRangeEdge(66, 133, 244);

void drawArrow(QPainter& painter, QPointF from, QPointF to, const QColor& color) {
    painter.setPen(QPen(color, 1.4));
    QPainterPath path(from);
    const double bend = std::max(12.0, std::abs(to.x() - from.x()) / 3);
    path.cubicTo(from + QPointF(bend, 0), to - QPointF(bend, 0), to);
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(path);
    painter.setBrush(color);
    const QPointF tip = to;
    painter.drawPolygon(QPolygonF{tip, tip + QPointF(-7, -3.5), tip + QPointF(-7, 3.5)});
}

} // namespace

double TimelineView::plotX(double timeNs) const {
    return Geometry::kLabelWidth + axis_->axis().toPixel(timeNs);
}

void TimelineView::indexTaskBars() {
    taskBars_.clear();
    if (!data_ || !result_)
        return;
    taskBars_.assign(result_->eval.tasks.tasks.size(), BarRef{});
    for (int32_t l = 0; l < data_->laneCount(); ++l) {
        const TimelineLane& lane = data_->lane(l);
        if (lane.core >= 0)
            continue;
        for (size_t i = 0; i < lane.bars.size(); ++i) {
            const TimelineBar& bar = lane.bars[i];
            if (bar.kernelSpan || bar.task == kernel::kNoTask ||
                bar.task.index() >= taskBars_.size() || taskBars_[bar.task.index()].lane >= 0)
                continue;
            taskBars_[bar.task.index()] = {l, static_cast<int32_t>(i)};
        }
    }
}

std::optional<BarRef> TimelineView::barOfTask(kernel::TaskId task) const {
    if (task == kernel::kNoTask || task.index() >= taskBars_.size() ||
        taskBars_[task.index()].lane < 0)
        return std::nullopt;
    return taskBars_[task.index()];
}

void TimelineView::pin(kernel::TaskId task) {
    pinned_ = task;
    deps_.clear();
    successors_.clear();
    if (task != kernel::kNoTask && result_) {
        const kernel::TaskGraph& graph = result_->eval.tasks;
        const kernel::Task& pinned = graph.tasks[task];
        for (int32_t d = pinned.depBegin; d < pinned.depEnd; ++d)
            deps_.push_back(graph.deps[static_cast<size_t>(d)]);
        // Dependencies point to earlier tasks: only later ones can wait for it.
        for (size_t t = task.index() + 1; t < graph.tasks.size(); ++t) {
            const kernel::Task& later = graph.tasks[kernel::TaskId(static_cast<int32_t>(t))];
            for (int32_t d = later.depBegin; d < later.depEnd; ++d)
                if (graph.deps[static_cast<size_t>(d)] == task)
                    successors_.push_back(kernel::TaskId(static_cast<int32_t>(t)));
        }
    }
    viewport()->update();
}

void TimelineView::paintArrows(QPainter& painter, int scrollY, int height) const {
    const std::optional<BarRef> pinned = barOfTask(pinned_);
    if (!pinned)
        return;
    const auto laneY = [&](int32_t lane) {
        return Geometry::kRulerHeight + lane * Geometry::kLaneHeight - scrollY +
               Geometry::kLaneHeight / 2.0;
    };
    // A lane scrolled out of view: its arrows end at the edge it lies beyond.
    const double top = Geometry::kRulerHeight + 4.0;
    const double bottom = std::max(top, height - 4.0);
    const auto centreY = [&](int32_t lane) {
        return std::clamp(laneY(lane), top, bottom);
    };
    const TimelineBar& bar = data_->bar(*pinned);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    const double x0 = plotX(bar.start);
    const double x1 = std::max(plotX(bar.end), x0 + 2);
    painter.setPen(QPen(Qt::black, 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(x0, laneY(pinned->lane) - Geometry::kLaneHeight / 2.0 + 1, x1 - x0,
                            Geometry::kLaneHeight - 2));
    for (size_t i = 0; i < deps_.size() && i < kMaxArrows; ++i)
        if (const std::optional<BarRef> from = barOfTask(deps_[i]))
            drawArrow(painter, {plotX(data_->bar(*from).end), centreY(from->lane)},
                      {x0, centreY(pinned->lane)}, kWaitsFor);
    for (size_t i = 0; i < successors_.size() && i < kMaxArrows; ++i)
        if (const std::optional<BarRef> to = barOfTask(successors_[i]))
            drawArrow(painter, {x1, centreY(pinned->lane)},
                      {plotX(data_->bar(*to).start), centreY(to->lane)}, kLetsRun);
    painter.restore();
}

void TimelineView::setLaneExpanded(int32_t resource, bool expanded) {
    if (expanded == expanded_.contains(resource))
        return;
    if (expanded)
        expanded_.insert(resource);
    else
        expanded_.erase(resource);
    rebuild();
}

void TimelineView::rebuild() {
    if (result_)
        setResult(result_);
}

void TimelineView::setRange(double t0, double t1) {
    if (!data_) {
        clearRange();
        return;
    }
    range_ = summarizeRange(*data_, t0, t1);
    viewport()->update();
}

void TimelineView::clearRange() {
    range_.reset();
    rangeAnchor_.reset();
    viewport()->update();
}

void TimelineView::paintRange(QPainter& painter, const QSize& size) const {
    const bool arrows = barOfTask(pinned_).has_value();
    if (!range_ && !arrows)
        return;
    painter.save();
    painter.setClipRect(QRect(Geometry::kLabelWidth, 0, size.width(), size.height()));
    QString caption;
    if (range_) {
        const double left = plotX(range_->startNs);
        const double right = std::max(plotX(range_->endNs), left + 1);
        const QRectF band(left, Geometry::kRulerHeight, right - left, size.height());
        painter.fillRect(band, kRangeFill);
        painter.setPen(QPen(kRangeEdge, 1));
        painter.drawLine(band.topLeft(), band.bottomLeft());
        painter.drawLine(band.topRight(), band.bottomRight());
        caption = rangeText(*range_) + tr(" · Esc");
    } else {
        caption = tr("arrows: from the %1 tasks it waits for (blue), to the %2 waiting for it "
                     "(orange)")
                      .arg(deps_.size())
                      .arg(successors_.size());
    }
    const QFontMetrics metrics(painter.font());
    const int width =
        std::min(size.width() - Geometry::kLabelWidth - 8, metrics.horizontalAdvance(caption) + 12);
    // At the bottom right, clear of the first lanes where most bars are.
    const QRect box(size.width() - width - 4, size.height() - metrics.height() - 10, width,
                    metrics.height() + 6);
    painter.fillRect(box, QColor(255, 255, 255, 235));
    painter.setPen(QColor(60, 60, 60));
    painter.drawRect(box.adjusted(0, 0, -1, -1));
    painter.drawText(box.adjusted(6, 0, -6, 0), Qt::AlignVCenter | Qt::AlignLeft,
                     metrics.elidedText(caption, Qt::ElideRight, box.width() - 12));
    painter.restore();
}

} // namespace stagecraft::views
