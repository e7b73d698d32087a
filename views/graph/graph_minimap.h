#pragma once
// The graph's minimap, over the canvas's top-right corner: the whole scene
// drawn small once per layout (and again when its colours or marks change),
// with the part the canvas shows framed. A click or a drag centres the
// canvas there. Rendering once keeps scrolling cheap on graphs of
// thousands of nodes: a scroll repaints only the frame.

#include <QPixmap>
#include <QWidget>

class QGraphicsView;

namespace stagecraft::views::graphview {

class GraphMinimap : public QWidget {
    Q_OBJECT
public:
    /// Shows \p canvas's scene and frames what \p canvas shows, in the top
    /// right corner of its viewport (a child of the canvas, not of the
    /// viewport, which scrolls its children).
    explicit GraphMinimap(QGraphicsView* canvas);

    /// Draws the scene again (after a layout, or new fills or marks); hides
    /// the minimap when the whole scene fits the canvas.
    void refresh();
    /// refresh() once the event loop is free: scene changes come in bursts.
    void scheduleRefresh();
    /// The canvas's visible part in minimap pixels.
    QRectF frame() const;

    /// The picture's largest size; a tall chain such as BERT gets the height.
    static constexpr int kMaxWidth = 200;
    static constexpr int kMaxHeight = 320;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    /// Minimap pixels per scene unit.
    double scale() const;
    void centreCanvasAt(QPointF minimapPoint);
    void place();

    QGraphicsView* canvas_;
    QPixmap picture_;
    bool refreshPending_ = false;
};

} // namespace stagecraft::views::graphview
