// The timeline's input: wheel zoom around the cursor, drag to pan, click to
// select and pin a task, Shift+drag to select a range, a click on an
// expandable lane's label to expand it, Esc to clear, hover tool tips. Zoom and pan go to the
// shared TimeAxisModel.

#include "timeline/timeline_text.h"
#include "timeline/timeline_view.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace stagecraft::views {

namespace {

/// Zoom factor of one wheel notch (120 eighths of a degree).
constexpr double kZoomPerNotch = 1.25;
/// Pixels panned by one horizontal wheel notch.
constexpr double kPanPerNotch = 60;
/// Pixels the mouse moves before a press becomes a drag.
constexpr int kDragThreshold = 3;

} // namespace

std::optional<BarRef> TimelineView::barAt(const QPoint& pos) const {
    const int32_t lane = laneAt(pos.y());
    const double x = pos.x() - TimelineGeometry::kLabelWidth;
    if (lane < 0 || x < 0)
        return std::nullopt;
    const TimeAxis& axis = axis_->axis();
    return data_->hitTest(lane, axis.toTime(x), 2 * axis.nsPerPixel);
}

QString TimelineView::toolTipAt(const QPoint& pos) const {
    const std::optional<BarRef> hit = barAt(pos);
    if (!hit)
        return {};
    return barToolTip(data_->bar(*hit), data_->lane(hit->lane), result_.get());
}

void TimelineView::clickAt(const QPoint& pos) {
    const std::optional<BarRef> hit = barAt(pos);
    const bool task = hit && !data_->bar(*hit).kernelSpan;
    pin(task ? data_->bar(*hit).task : kernel::kNoTask);
    if (!selection_)
        return;
    if (!hit || data_->bar(*hit).instance == schedule::kNoInstance) {
        selection_->clear();
        return;
    }
    const TimelineBar& bar = data_->bar(*hit);
    selection_->select(Selection{Selection::Kind::Instance, bar.instance.value(), bar.op});
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ShiftModifier) { // scroll the lanes
        QScrollBar* bar = verticalScrollBar();
        bar->setValue(bar->value() - delta.y() / 120 * 3 * TimelineGeometry::kLaneHeight);
        event->accept();
        return;
    }
    TimeAxis axis = axis_->axis();
    if (delta.x() != 0)
        axis.pan(delta.x() / 120.0 * kPanPerNotch);
    if (delta.y() != 0) {
        const double x =
            std::clamp(event->position().x() - TimelineGeometry::kLabelWidth, 0.0, plotWidth());
        axis.zoomAround(x, std::pow(kZoomPerNotch, delta.y() / 120.0));
    }
    axis_->setAxis(axis, plotWidth());
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !data_)
        return;
    const QPoint at = event->position().toPoint();
    if (at.x() < TimelineGeometry::kLabelWidth) {
        const int32_t lane = laneAt(at.y());
        if (lane >= 0 && data_->lane(lane).expandable)
            setLaneExpanded(data_->lane(lane).resource,
                            !expanded_.contains(data_->lane(lane).resource));
        return;
    }
    if (event->modifiers() & Qt::ShiftModifier) {
        rangeAnchor_ = axis_->axis().toTime(at.x() - TimelineGeometry::kLabelWidth);
        setRange(*rangeAnchor_, *rangeAnchor_);
        return;
    }
    pressAt_ = at;
    pressAxis_ = axis_->axis();
    dragging_ = false;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    if (rangeAnchor_) {
        const double x = event->position().x() - TimelineGeometry::kLabelWidth;
        setRange(*rangeAnchor_, axis_->axis().toTime(std::clamp(x, 0.0, plotWidth())));
        return;
    }
    if (!pressAt_)
        return;
    const QPoint moved = event->position().toPoint() - *pressAt_;
    if (!dragging_ && moved.manhattanLength() < kDragThreshold)
        return;
    dragging_ = true;
    TimeAxis axis = pressAxis_;
    axis.pan(moved.x());
    axis_->setAxis(axis, plotWidth());
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && rangeAnchor_) {
        rangeAnchor_.reset();
        if (range_ && range_->durationNs() <= 0)
            clearRange();
        return;
    }
    if (event->button() != Qt::LeftButton || !pressAt_)
        return;
    if (!dragging_)
        clickAt(event->position().toPoint());
    pressAt_.reset();
    dragging_ = false;
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    if (event->key() != Qt::Key_Escape) {
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    clearRange();
    pin(kernel::kNoTask);
}

bool TimelineView::viewportEvent(QEvent* event) {
    if (event->type() != QEvent::ToolTip)
        return QAbstractScrollArea::viewportEvent(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = toolTipAt(help->pos());
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), text, viewport());
    }
    return true;
}

} // namespace stagecraft::views
