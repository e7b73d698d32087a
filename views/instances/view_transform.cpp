// Zoom and pan of the instance view (see view_transform.h).

#include "instances/view_transform.h"

#include <algorithm>

namespace stagecraft::views {

QRectF ViewTransform::toScene(const QRectF& widget) const {
    return {toScene(widget.topLeft()), toScene(widget.bottomRight())};
}

void ViewTransform::zoomAround(QPointF widgetPoint, double factor) {
    const QPointF anchor = toScene(widgetPoint);
    scale = std::clamp(scale * factor, kMinScale, kMaxScale);
    offset = widgetPoint - anchor * scale;
}

void ViewTransform::fit(const QRectF& scene, QSizeF widget, double margin) {
    if (scene.isEmpty() || widget.isEmpty())
        return;
    const double sx = std::max(1.0, widget.width() - 2 * margin) / scene.width();
    const double sy = std::max(1.0, widget.height() - 2 * margin) / scene.height();
    scale = std::clamp(std::min(sx, sy), kMinScale, kMaxScale);
    centerOn(scene.center(), widget);
}

void ViewTransform::fitReadable(const QRectF& scene, QSizeF widget, double margin) {
    fit(scene, widget, margin);
    if (scene.isEmpty() || widget.isEmpty() || scale >= kReadableScale)
        return;
    const double sx = std::max(1.0, widget.width() - 2 * margin) / scene.width();
    scale = std::clamp(sx, kReadableScale, 1.0);
    offset = QPointF(widget.width() / 2 - scene.center().x() * scale, margin - scene.top() * scale);
}

void ViewTransform::centerOn(QPointF scenePoint, QSizeF widget) {
    offset = QPointF(widget.width() / 2, widget.height() / 2) - scenePoint * scale;
}

} // namespace stagecraft::views
