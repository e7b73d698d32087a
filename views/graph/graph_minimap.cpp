// The minimap (graph_minimap.h): the scene rendered into a pixmap of at most
// kMaxWidth x kMaxHeight pixels, and the canvas's viewport mapped to scene
// coordinates, then to the pixmap's.

#include "graph/graph_minimap.h"

#include <QGraphicsScene>
#include <QGraphicsView>
#include <QMouseEvent>
#include <QPainter>
#include <QTimer>

#include <algorithm>

namespace stagecraft::views::graphview {

namespace {

constexpr int kInset = 8;

} // namespace

GraphMinimap::GraphMinimap(QGraphicsView* canvas)
    : QWidget(canvas)
    , canvas_(canvas) {
    setObjectName(QStringLiteral("graphMinimap"));
    setToolTip(tr("The whole graph; click or drag to move the view"));
    setCursor(Qt::PointingHandCursor);
    canvas_->installEventFilter(this);
    hide();
}

bool GraphMinimap::eventFilter(QObject* watched, QEvent* event) {
    if (watched == canvas_ && event->type() == QEvent::Resize)
        place();
    return QWidget::eventFilter(watched, event);
}

void GraphMinimap::place() {
    const QRect viewport = canvas_->viewport()->geometry();
    move(viewport.right() - width() - kInset, viewport.top() + kInset);
}

double GraphMinimap::scale() const {
    const QRectF scene = canvas_->sceneRect();
    if (scene.width() <= 0 || scene.height() <= 0)
        return 1.0;
    return std::min(kMaxWidth / scene.width(), kMaxHeight / scene.height());
}

void GraphMinimap::refresh() {
    QGraphicsScene* scene = canvas_->scene();
    const QRectF rect = canvas_->sceneRect();
    const QRectF shown = canvas_->mapToScene(canvas_->viewport()->rect()).boundingRect();
    if (!scene || rect.isEmpty() || shown.contains(rect)) {
        picture_ = {};
        hide();
        return;
    }
    const QSize size((rect.size() * scale()).toSize().expandedTo(QSize(1, 1)));
    picture_ = QPixmap(size);
    picture_.fill(Qt::white);
    QPainter painter(&picture_);
    painter.setRenderHint(QPainter::Antialiasing);
    scene->render(&painter, QRectF(QPointF(0, 0), size), rect);
    painter.end();
    setFixedSize(size + QSize(2, 2));
    place();
    show();
    raise();
    update();
}

void GraphMinimap::scheduleRefresh() {
    if (refreshPending_)
        return;
    refreshPending_ = true;
    QTimer::singleShot(0, this, [this] {
        refreshPending_ = false;
        refresh();
    });
}

QRectF GraphMinimap::frame() const {
    const QRectF rect = canvas_->sceneRect();
    const QRectF shown = canvas_->mapToScene(canvas_->viewport()->rect()).boundingRect();
    return QRectF((shown.topLeft() - rect.topLeft()) * scale() + QPointF(1, 1),
                  shown.size() * scale());
}

void GraphMinimap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setPen(QColor(0x99, 0x99, 0x99));
    p.setBrush(Qt::NoBrush);
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    p.drawPixmap(1, 1, picture_);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(QColor(0xd6, 0x27, 0x28), 1.5));
    p.setBrush(QColor(0xd6, 0x27, 0x28, 30));
    p.drawRect(frame().intersected(QRectF(rect()).adjusted(1, 1, -1, -1)));
}

void GraphMinimap::centreCanvasAt(QPointF minimapPoint) {
    canvas_->centerOn(canvas_->sceneRect().topLeft() + (minimapPoint - QPointF(1, 1)) / scale());
    update();
}

void GraphMinimap::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton)
        centreCanvasAt(event->position());
}

void GraphMinimap::mouseMoveEvent(QMouseEvent* event) {
    if (event->buttons() & Qt::LeftButton)
        centreCanvasAt(event->position());
}

} // namespace stagecraft::views::graphview
