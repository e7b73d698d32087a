#pragma once
// The QGraphicsView of the graph view: wheel zoom around the cursor, panning
// by dragging, fit to view, and clicks reported as the node or cluster under
// the cursor. Zoom and pan are view state and never reach the undo history.

#include <QGraphicsView>

namespace stagecraft::views::graphview {

class GraphCanvas : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphCanvas(QGraphicsScene* scene, QWidget* parent = nullptr);

    /// Shows the whole scene, never magnified beyond 1:1.
    void fitToView();
    /// The first view of a layout: fitToView() when that leaves the graph
    /// readable (zoom >= kReadableZoom); otherwise (a long chain such as
    /// ResNet-50) the width is fitted, between kReadableZoom and 1:1, with
    /// the top of the graph shown.
    void fitReadable();
    /// 9 px labels at 0.7 are 6.3 px: the smallest that can be read.
    static constexpr double kReadableZoom = 0.7;
    /// Scene points per pixel inverse: 1 is 1:1.
    double zoom() const { return transform().m11(); }
    /// Multiplies the zoom by \p factor within the allowed range.
    void zoomBy(double factor);
    /// The node under \p viewportPos, else the cluster, else null.
    QGraphicsItem* pick(const QPoint& viewportPos) const;

signals:
    void clicked(QGraphicsItem* item);
    void doubleClicked(QGraphicsItem* item);
    void contextMenuRequested(QGraphicsItem* item, const QPoint& globalPos);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    /// Background and the scene's ink from the palette (light or dark).
    void applyPalette();

    QPoint pressPos_;
};

} // namespace stagecraft::views::graphview
