#pragma once
// The instance view's zoom and pan as a plain, tested mapping between scene
// and widget coordinates: widget = scene x scale + offset. View history, not
// undo history: nothing here is ever put on the undo stack.

#include <QPointF>
#include <QRectF>
#include <QSizeF>

namespace stagecraft::views {

struct ViewTransform {
    static constexpr double kMinScale = 0.002;
    static constexpr double kMaxScale = 8.0;

    double scale = 1;
    QPointF offset;

    QPointF toWidget(QPointF scene) const { return scene * scale + offset; }
    QPointF toScene(QPointF widget) const { return (widget - offset) / scale; }
    QRectF toScene(const QRectF& widget) const;

    /// Zooms by \p factor keeping the scene point under \p widgetPoint in place.
    void zoomAround(QPointF widgetPoint, double factor);
    /// Moves the scene by \p widgetDelta pixels.
    void pan(QPointF widgetDelta) { offset += widgetDelta; }
    /// Shows all of \p scene centered in \p widget with \p margin pixels around.
    void fit(const QRectF& scene, QSizeF widget, double margin);
    /// A first view of \p scene: fit() when that draws it at kReadableScale
    /// or larger; otherwise (a tall, thin DAG such as ResNet-50's) the width
    /// is fitted, at most 1:1 and at least kReadableScale, with the top shown.
    void fitReadable(const QRectF& scene, QSizeF widget, double margin);
    static constexpr double kReadableScale = 0.25;
    /// Puts \p scenePoint at the center of \p widget, keeping the scale.
    void centerOn(QPointF scenePoint, QSizeF widget);
};

} // namespace stagecraft::views
