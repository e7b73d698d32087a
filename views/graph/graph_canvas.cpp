// A press and release closer than the drag distance is a click; anything
// longer is a pan (ScrollHandDrag) and selects nothing.

#include "graph/graph_canvas.h"

#include "graph/graph_items.h"
#include "graph/graph_scene.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace stagecraft::views::graphview {

namespace {

constexpr double kMinZoom = 0.01;
constexpr double kMaxZoom = 8;
/// Zoom factor per eighth of a degree of wheel rotation (one notch: ~1.2).
constexpr double kWheelStep = 1.0015;

} // namespace

GraphCanvas::GraphCanvas(QGraphicsScene* scene, QWidget* parent)
    : QGraphicsView(scene, parent) {
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::NoAnchor);
    applyPalette();
}

void GraphCanvas::applyPalette() {
    const CanvasColors colors = CanvasColors::fromPalette(palette());
    setBackgroundBrush(colors.background);
    if (auto* graphScene = dynamic_cast<graphview::GraphScene*>(scene()))
        graphScene->setColors(colors);
}

void GraphCanvas::changeEvent(QEvent* event) {
    QGraphicsView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}

void GraphCanvas::fitToView() {
    if (!scene())
        return;
    fitInView(sceneRect(), Qt::KeepAspectRatio);
    if (zoom() > 1)
        setTransform(QTransform());
    centerOn(sceneRect().center());
}

void GraphCanvas::fitReadable() {
    fitToView();
    if (!scene() || zoom() >= kReadableZoom)
        return;
    const QRectF rect = sceneRect();
    double z =
        std::clamp((viewport()->width() - 20) / std::max(1.0, rect.width()), kReadableZoom, 1.0);
    setTransform(QTransform::fromScale(z, z));
    centerOn(QPointF(rect.center().x(), rect.top() + viewport()->height() / (2 * z)));
}

void GraphCanvas::zoomBy(double factor) {
    double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    double applied = target / zoom();
    scale(applied, applied);
}

QGraphicsItem* GraphCanvas::pick(const QPoint& viewportPos) const {
    QGraphicsItem* cluster = nullptr;
    for (QGraphicsItem* item : items(viewportPos)) {
        if (item->type() == NodeItem::Type)
            return item;
        if (!cluster && item->type() == ClusterItem::Type)
            cluster = item;
    }
    return cluster;
}

void GraphCanvas::wheelEvent(QWheelEvent* event) {
    int delta = event->angleDelta().y();
    if (delta == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    // Keep the scene point under the cursor in place: the view's own anchor
    // follows the last mouse move, which a wheel event need not come with.
    QPoint cursor = event->position().toPoint();
    QPointF anchor = mapToScene(cursor);
    zoomBy(std::pow(kWheelStep, delta));
    QPoint drift = mapFromScene(anchor) - cursor;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() + drift.x());
    verticalScrollBar()->setValue(verticalScrollBar()->value() + drift.y());
    event->accept();
}

void GraphCanvas::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton)
        pressPos_ = event->position().toPoint();
    QGraphicsView::mousePressEvent(event);
}

void GraphCanvas::mouseReleaseEvent(QMouseEvent* event) {
    QGraphicsView::mouseReleaseEvent(event);
    QPoint pos = event->position().toPoint();
    if (event->button() == Qt::LeftButton &&
        (pos - pressPos_).manhattanLength() < QApplication::startDragDistance())
        emit clicked(pick(pos));
}

void GraphCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    QGraphicsView::mouseDoubleClickEvent(event);
    if (event->button() == Qt::LeftButton)
        emit doubleClicked(pick(event->position().toPoint()));
}

void GraphCanvas::contextMenuEvent(QContextMenuEvent* event) {
    emit contextMenuRequested(pick(event->pos()), event->globalPos());
    event->accept();
}

} // namespace stagecraft::views::graphview
