#pragma once
// The surface of the instance view: paints an InstanceDrawing through a
// ViewTransform, zooms with the wheel around the cursor, pans by dragging,
// reports clicks as layout hits and shows tooltips. It knows nothing about
// the selection model; InstanceView connects the two.

#include "instances/instance_drawing.h"
#include "instances/instance_painter.h"
#include "instances/view_transform.h"

#include <QPoint>
#include <QWidget>

#include <memory>
#include <optional>
#include <utility>

namespace stagecraft::views {

class InstanceCanvas : public QWidget {
    Q_OBJECT
public:
    explicit InstanceCanvas(QWidget* parent = nullptr);

    /// Shows \p drawing; the view is fitted to it unless \p keepView.
    void setDrawing(std::shared_ptr<const InstanceDrawing> drawing, bool keepView = false);
    const InstanceDrawing* drawing() const { return drawing_.get(); }

    void setPaintOptions(PaintOptions options);
    const PaintOptions& paintOptions() const { return options_; }

    const ViewTransform& viewTransform() const { return transform_; }
    QPointF mapFromScene(QPointF scene) const { return transform_.toWidget(scene); }
    /// The tooltip at a widget point: what lies there, or "" for nothing.
    QString toolTipAt(QPointF widgetPoint) const;
    QPointF mapToScene(QPointF widget) const { return transform_.toScene(widget); }
    /// The scene point at the middle of the widget.
    QPointF sceneCenter() const;

    /// Shows the whole drawing, and keeps doing so on resize until the user zooms or pans.
    void fitAll();
    /// The first view of a drawing: ViewTransform::fitReadable.
    void fitStart();
    bool isFitted() const { return following_; }
    /// Centers on \p whole when it fits at a zoom where labels still show,
    /// else on \p scene; zooms out (never in) so that it fits. Until the
    /// user zooms or pans, a resize reveals it again (a dock gets its size
    /// after the first result).
    void reveal(const QRectF& scene, const std::optional<QRectF>& whole = std::nullopt);
    /// Centers on \p scene at the current zoom.
    void centerOn(QPointF scene);

    /// What the last paint drew.
    const PaintStats& lastPaintStats() const { return stats_; }

signals:
    void clicked(const stagecraft::views::LayoutHit& hit);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    std::shared_ptr<const InstanceDrawing> drawing_;
    PaintOptions options_;
    ViewTransform transform_;
    InstancePainter painter_;
    PaintStats stats_;
    void applyReveal();

    bool following_ = true; // fit on resize until the user zooms or pans
    /// What reveal() showed, shown again on resize until the user zooms or pans.
    std::optional<std::pair<QRectF, std::optional<QRectF>>> revealed_;
    bool readableFit_ = false; // following fitStart() rather than fitAll()
    bool pressed_ = false;
    bool dragging_ = false;
    QPoint pressPos_;
    QPoint lastPos_;
};

} // namespace stagecraft::views
