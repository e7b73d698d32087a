// The usage plots' shared frame: label column, time ticks, zoom and pan on
// the shared TimeAxisModel.

#include "usage/time_plot.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

namespace stagecraft::views {

TimePlot::TimePlot(QWidget* parent)
    : QWidget(parent) {
    setMouseTracking(true);
    setMinimumHeight(80);
    setTimeAxisModel(nullptr);
}

void TimePlot::setTimeAxisModel(TimeAxisModel* model) {
    if (model_)
        disconnect(model_, nullptr, this, nullptr);
    model_ = model ? model : &ownModel_;
    connect(model_, &TimeAxisModel::changed, this, qOverload<>(&QWidget::update));
    update();
}

QRect TimePlot::plotRect() const {
    const int top = topMargin();
    return QRect(kLabelWidth, top, std::max(1, width() - kLabelWidth - 8),
                 std::max(1, height() - top - kTickHeight));
}

double TimePlot::xOf(double ns) const {
    return plotRect().left() + model_->axis().toPixel(ns);
}

double TimePlot::timeAt(double x) const {
    return model_->axis().toTime(x - plotRect().left());
}

void TimePlot::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    const std::vector<ValueTick> ticks = valueTicks();
    painter.save();
    painter.setClipRect(plotRect());
    paintValueGrid(painter, ticks);
    paintPlot(painter);
    painter.restore();
    paintTicks(painter);
    paintValueTicks(painter, ticks);
    painter.setClipRect(QRect(0, 0, kLabelWidth, height()));
    paintLabels(painter);
}

void TimePlot::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // A plot that showed the whole run keeps showing it, at its new width.
    const double oldWidth = event->oldSize().width() - kLabelWidth - 8;
    const double shown = model_->axis().nsPerPixel * oldWidth;
    const double start = model_->rangeStart();
    const double end = model_->rangeEnd();
    if (end > start && (oldWidth <= 0 || shown >= (end - start) * (1 - 1e-9)))
        model_->setRange(start, end, plotRect().width());
}

void TimePlot::paintTicks(QPainter& painter) {
    const QRect plot = plotRect();
    const TimeAxis& axis = model_->axis();
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawLine(plot.bottomLeft(), plot.bottomRight());
    const double step = axis.tickStepNs(90);
    const double first = std::ceil(axis.startNs / step) * step;
    painter.setPen(palette().color(QPalette::Text));
    for (double t = first; axis.toPixel(t) <= plot.width(); t += step) {
        const double x = plot.left() + axis.toPixel(t);
        painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
        painter.drawText(QRectF(x - 45, plot.bottom() + 4, 90, kTickHeight - 4), Qt::AlignCenter,
                         formatNs(t));
    }
}

void TimePlot::paintValueGrid(QPainter& painter, const std::vector<ValueTick>& ticks) {
    const QRect plot = plotRect();
    QColor grid = palette().color(QPalette::Mid);
    grid.setAlpha(70);
    painter.setPen(QPen(grid, 0));
    for (const ValueTick& tick : ticks)
        painter.drawLine(QPointF(plot.left(), tick.y), QPointF(plot.right(), tick.y));
}

void TimePlot::paintValueTicks(QPainter& painter, const std::vector<ValueTick>& ticks) {
    if (ticks.empty())
        return;
    const QRect plot = plotRect();
    const int textHeight = painter.fontMetrics().height();
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawLine(plot.topLeft(), plot.bottomLeft());
    painter.setPen(palette().color(QPalette::Text));
    // Top to bottom, a label only where it clears the one above.
    double labelsBottom = -1e18;
    for (const ValueTick& tick : ticks) {
        painter.drawLine(QPointF(plot.left() - 4, tick.y), QPointF(plot.left(), tick.y));
        const QRectF box(plot.left() - kValueAxisWidth - 6, tick.y - textHeight / 2.0,
                         kValueAxisWidth, textHeight);
        if (tick.label.isEmpty() || box.top() < labelsBottom)
            continue;
        painter.drawText(box, Qt::AlignRight | Qt::AlignVCenter, tick.label);
        labelsBottom = box.bottom();
    }
}

void TimePlot::wheelEvent(QWheelEvent* event) {
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0) {
        event->ignore();
        return;
    }
    TimeAxis axis = model_->axis();
    axis.zoomAround(event->position().x() - plotRect().left(), std::pow(1.25, notches));
    model_->setAxis(axis, plotRect().width());
    event->accept();
}

void TimePlot::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return;
    pressed_ = true;
    dragging_ = false;
    pressPos_ = event->position().toPoint();
}

void TimePlot::mouseMoveEvent(QMouseEvent* event) {
    if (!pressed_)
        return;
    const QPoint pos = event->position().toPoint();
    if (!dragging_ && (pos - pressPos_).manhattanLength() < 4)
        return;
    dragging_ = true;
    TimeAxis axis = model_->axis();
    axis.pan(pos.x() - pressPos_.x());
    pressPos_ = pos;
    model_->setAxis(axis, plotRect().width());
}

void TimePlot::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !pressed_)
        return;
    pressed_ = false;
    if (!dragging_)
        clickedAt(event->position().toPoint());
    dragging_ = false;
}

bool TimePlot::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace stagecraft::views
