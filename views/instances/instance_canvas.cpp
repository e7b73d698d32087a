// Interaction of the instance view's surface. Nothing is recomputed on zoom
// or pan: they only change the transform and repaint the exposed part.

#include "instances/instance_canvas.h"

#include "instances/instance_text.h"

#include <QApplication>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>
#include <utility>

namespace stagecraft::views {

namespace {

constexpr double kFitMargin = 16;
constexpr double kWheelStep = 1.0015; // per 1/8 degree: one notch zooms by ~20%

} // namespace

InstanceCanvas::InstanceCanvas(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("instanceCanvas"));
    setFocusPolicy(Qt::ClickFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(120, 90);
}

void InstanceCanvas::setDrawing(std::shared_ptr<const InstanceDrawing> drawing, bool keepView) {
    drawing_ = std::move(drawing);
    if (!keepView)
        fitStart();
    update();
}

void InstanceCanvas::setPaintOptions(PaintOptions options) {
    options_ = std::move(options);
    update();
}

QPointF InstanceCanvas::sceneCenter() const {
    return transform_.toScene(QPointF(width() / 2.0, height() / 2.0));
}

void InstanceCanvas::fitAll() {
    following_ = true;
    revealed_.reset();
    readableFit_ = false;
    if (drawing_)
        transform_.fit(drawing_->layout.bounds, size(), kFitMargin);
    update();
}

void InstanceCanvas::fitStart() {
    following_ = true;
    revealed_.reset();
    readableFit_ = true;
    if (drawing_)
        transform_.fitReadable(drawing_->layout.bounds, size(), kFitMargin);
    update();
}

void InstanceCanvas::reveal(const QRectF& scene, const std::optional<QRectF>& whole) {
    following_ = false;
    revealed_ = std::make_pair(scene, whole);
    applyReveal();
}

void InstanceCanvas::applyReveal() {
    const QSizeF room(std::max(1.0, width() - 2 * kFitMargin),
                      std::max(1.0, height() - 2 * kFitMargin));
    auto fittingOf = [&room](const QRectF& r) {
        return std::min(room.width() / std::max(1.0, r.width()),
                        room.height() / std::max(1.0, r.height()));
    };
    const auto& [scene, whole] = *revealed_;
    const QRectF target =
        whole && fittingOf(*whole) >= InstancePainter::kLabelScale ? *whole : scene;
    const double fitting = fittingOf(target);
    if (fitting < transform_.scale)
        transform_.scale = std::max(ViewTransform::kMinScale, fitting);
    transform_.centerOn(target.center(), size());
    update();
}

void InstanceCanvas::centerOn(QPointF scene) {
    following_ = false;
    revealed_.reset();
    transform_.centerOn(scene, size());
    update();
}

void InstanceCanvas::paintEvent(QPaintEvent* event) {
    options_.colors = CanvasColors::fromPalette(palette()); // follows the system scheme
    QPainter painter(this);
    painter.fillRect(event->rect(), options_.colors.background);
    if (!drawing_)
        return;
    painter.translate(transform_.offset);
    painter.scale(transform_.scale, transform_.scale);
    const QRectF exposed = transform_.toScene(QRectF(event->rect()));
    stats_ = painter_.paint(painter, *drawing_, options_, exposed, transform_.scale);
}

void InstanceCanvas::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (revealed_)
        applyReveal();
    else if (following_ && readableFit_)
        fitStart();
    else if (following_)
        fitAll();
}

void InstanceCanvas::wheelEvent(QWheelEvent* event) {
    following_ = false;
    revealed_.reset();
    transform_.zoomAround(event->position(), std::pow(kWheelStep, event->angleDelta().y()));
    update();
    event->accept();
}

void InstanceCanvas::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    pressed_ = true;
    dragging_ = false;
    pressPos_ = lastPos_ = event->position().toPoint();
}

void InstanceCanvas::mouseMoveEvent(QMouseEvent* event) {
    if (!pressed_)
        return QWidget::mouseMoveEvent(event);
    const QPoint pos = event->position().toPoint();
    if (!dragging_ && (pos - pressPos_).manhattanLength() >= QApplication::startDragDistance()) {
        dragging_ = true;
        setCursor(Qt::ClosedHandCursor);
    }
    if (dragging_) {
        following_ = false;
        revealed_.reset();
        const QPoint delta = pos - lastPos_;
        transform_.pan(delta);
        // Moves the pixels already drawn; only the uncovered strips repaint,
        // which keeps dense edges cheap while panning.
        scroll(delta.x(), delta.y());
    }
    lastPos_ = pos;
}

void InstanceCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !pressed_)
        return QWidget::mouseReleaseEvent(event);
    pressed_ = false;
    if (dragging_) {
        dragging_ = false;
        unsetCursor();
        return;
    }
    if (drawing_)
        emit clicked(hitTest(drawing_->layout, transform_.toScene(event->position())));
}

void InstanceCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    if (drawing_ && hitTest(drawing_->layout, transform_.toScene(event->position())).kind ==
                        LayoutHit::Kind::None)
        fitAll();
}

bool InstanceCanvas::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = toolTipAt(help->pos());
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), text, this);
    }
    return true;
}

QString InstanceCanvas::toolTipAt(QPointF widgetPoint) const {
    if (!drawing_)
        return {};
    const schedule::Schedule& s = drawing_->schedule();
    const LayoutHit hit = hitTest(drawing_->layout, transform_.toScene(widgetPoint));
    switch (hit.kind) {
    case LayoutHit::Kind::Instance: {
        const schedule::InstanceId id(hit.id);
        return instanceToolTip(s.instances[id], drawing_->orderPosition[id]);
    }
    case LayoutHit::Kind::Move:
        return moveToolTip(s, s.moves[static_cast<size_t>(hit.id)]);
    case LayoutHit::Kind::Bundle:
        return bundleToolTip(s, *drawing_->result->graph,
                             drawing_->layout.bundles[static_cast<size_t>(hit.id)]);
    case LayoutHit::Kind::Group:
        return groupToolTip(s, schedule::GroupId(hit.id));
    case LayoutHit::Kind::None:
        break;
    }
    return {};
}

} // namespace stagecraft::views
