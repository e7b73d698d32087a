// The timeline's input: wheel zoom around the cursor, drag to pan, click to
// select, hover tool tips. Zoom and pan go to the shared TimeAxisModel.

#include "timeline/timeline_text.h"
#include "timeline/timeline_view.h"

#include <QHelpEvent>
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
    if (!selection_)
        return;
    const std::optional<BarRef> hit = barAt(pos);
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
    if (event->button() != Qt::LeftButton)
        return;
    pressAt_ = event->position().toPoint();
    pressAxis_ = axis_->axis();
    dragging_ = false;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
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
    if (event->button() != Qt::LeftButton || !pressAt_)
        return;
    if (!dragging_)
        clickAt(event->position().toPoint());
    pressAt_.reset();
    dragging_ = false;
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
