// Painting of the graph scene's items. Scene units are points; label text is
// 9 px, laid out on the line grid graph_labels.h sized the nodes with.

#include "graph/graph_items.h"

#include "graph/graph_labels.h"
#include "graph/graph_scene.h"
#include "graph/group_palette.h"

#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

#include <cmath>

namespace stagecraft::views::graphview {

namespace {

/// Below this scale nothing but filled shapes; below the next, no text.
constexpr double kShapesOnly = 0.2;
constexpr double kNoText = 0.45;
constexpr double kHighlightWidth = 3;
/// The halo of a marked item reaches this far outside it.
constexpr double kMarkWidth = 8;
/// The match halo's width on screen.
constexpr double kMatchPixels = 5;
/// A folded name scope whose ops lie in several groups: no one group's colour.
const QColor kMixedScopeFill(0xdd, 0xdd, 0xdd);

/// The colors of the scene \p item is in (paper when it is in none).
CanvasColors colorsOf(const QGraphicsItem* item) {
    if (const auto* scene = dynamic_cast<const GraphScene*>(item->scene()))
        return scene->colors();
    return CanvasColors::paper();
}

/// The colour of \p group in \p item's scene (an overlay's, or the group's own).
QColor baseOf(const QGraphicsItem* item, partition::GroupId group) {
    if (const auto* scene = dynamic_cast<const GraphScene*>(item->scene()))
        return scene->groupBase(group);
    return groupColor(group);
}

double levelOfDetail(const QPainter* painter, const QStyleOptionGraphicsItem* option) {
    return option->levelOfDetailFromTransform(painter->worldTransform());
}

QFont labelFont(bool bold) {
    QFont font;
    font.setPixelSize(9);
    font.setBold(bold);
    return font;
}

/// \p lines centered in \p rect, one per line of the grid; the first bold
/// when \p boldFirst.
void drawLines(QPainter* painter, const QRectF& rect, const QStringList& lines, bool boldFirst,
               const QColor& ink = Qt::black) {
    double y = rect.center().y() - static_cast<double>(lines.size()) * kLineHeight / 2;
    painter->setPen(ink);
    for (qsizetype i = 0; i < lines.size(); ++i) {
        painter->setFont(labelFont(boldFirst && i == 0));
        painter->drawText(QRectF(rect.left(), y, rect.width(), kLineHeight), Qt::AlignCenter,
                          lines[i]);
        y += kLineHeight;
    }
}

/// The wide translucent stroke around a marked item.
void drawHalo(QPainter* painter, const QPainterPath& path) {
    painter->strokePath(
        path, QPen(markColor(), 2 * kMarkWidth - 2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
}

QPen outlinePen(const QColor& color, bool highlighted) {
    if (highlighted)
        return QPen(highlightColor(), kHighlightWidth);
    return QPen(color, 1);
}

/// A house on \p rect: the roof takes \p roof at the top, or at the bottom
/// when \p inverted.
QPolygonF housePolygon(const QRectF& rect, double roof, bool inverted) {
    if (inverted)
        return QPolygonF({rect.topLeft(), rect.topRight(),
                          QPointF(rect.right(), rect.bottom() - roof),
                          QPointF(rect.center().x(), rect.bottom()),
                          QPointF(rect.left(), rect.bottom() - roof), rect.topLeft()});
    return QPolygonF({rect.bottomLeft(), QPointF(rect.left(), rect.top() + roof),
                      QPointF(rect.center().x(), rect.top()),
                      QPointF(rect.right(), rect.top() + roof), rect.bottomRight(),
                      rect.bottomLeft()});
}

} // namespace

// --- NodeItem ------------------------------------------------------------

NodeItem::NodeItem(const ModelNode& node, const NodeGeometry& geometry, NodeShape shape)
    : ref_(node.ref)
    , group_(node.group)
    , lines_(node.lines)
    , rect_(geometry.rect())
    , shape_(shape) {
    setZValue(2);
}

QRectF NodeItem::boundingRect() const {
    double margin = kMarkWidth;
    return rect_.adjusted(-margin, -margin, margin, margin);
}

QPainterPath NodeItem::outline() const {
    QPainterPath path;
    double roof = std::min(14.0, rect_.height() / 3);
    switch (shape_) {
    case NodeShape::Box:
        path.addRoundedRect(rect_, 4, 4);
        break;
    case NodeShape::Ellipse:
        path.addEllipse(rect_);
        break;
    case NodeShape::House:
    case NodeShape::InvHouse:
        path.addPolygon(housePolygon(rect_, roof, shape_ == NodeShape::InvHouse));
        break;
    }
    return path;
}

QPainterPath NodeItem::shape() const {
    return outline();
}

QColor NodeItem::fill() const {
    switch (ref_.kind) {
    case NodeRef::Kind::Group:
        return baseOf(this, group_);
    case NodeRef::Kind::Scope:
        return group_ == partition::kNoGroup ? kMixedScopeFill : baseOf(this, group_);
    case NodeRef::Kind::Op:
        return stepFill_.isValid() ? stepFill_ : colorsOf(this).boxFill;
    case NodeRef::Kind::Input:
    case NodeRef::Kind::Output:
        break;
    }
    return groupColor(partition::kNoGroup);
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    double lod = levelOfDetail(painter, option);
    QPainterPath path = outline();
    if (marked_)
        drawHalo(painter, path);
    // Cosmetic (pixels, not scene units): matches stand out at any zoom,
    // the whole of a big graph included.
    if (matched_) {
        QPen pen(matchColor(), kMatchPixels, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
        pen.setCosmetic(true);
        painter->strokePath(path, pen);
    }
    if (lod < kShapesOnly && !highlighted_) {
        const bool ownFill = ref_.kind != NodeRef::Kind::Op || stepFill_.isValid();
        painter->fillPath(path, ownFill ? fill() : baseOf(this, group_));
        return;
    }
    painter->setBrush(fill());
    painter->setPen(outlinePen(groupStroke(baseOf(this, group_)), highlighted_));
    painter->drawPath(path);
    if (lod < kNoText)
        return;
    QRectF textRect = rect_;
    double roof = std::min(14.0, rect_.height() / 3);
    if (shape_ == NodeShape::House)
        textRect.setTop(rect_.top() + roof);
    else if (shape_ == NodeShape::InvHouse)
        textRect.setBottom(rect_.bottom() - roof);
    // Ops are drawn on the canvas's box fill, groups on their pastel color.
    const bool onCanvas = ref_.kind == NodeRef::Kind::Op && !stepFill_.isValid();
    const QColor ink = onCanvas ? colorsOf(this).ink : inkOn(fill());
    drawLines(painter, textRect, lines_,
              ref_.kind == NodeRef::Kind::Group || ref_.kind == NodeRef::Kind::Scope, ink);
}

void NodeItem::setLines(const QStringList& lines) {
    if (lines == lines_)
        return;
    lines_ = lines;
    update();
}

void NodeItem::raiseIfEmphasized() {
    setZValue(highlighted_ || marked_ || matched_ ? 3 : 2);
    update();
}

void NodeItem::setMarked(bool marked) {
    if (marked == marked_)
        return;
    marked_ = marked;
    raiseIfEmphasized();
}

void NodeItem::setStepFill(const QColor& fill) {
    if (fill == stepFill_)
        return;
    stepFill_ = fill;
    update();
}

void NodeItem::setMatched(bool matched) {
    if (matched == matched_)
        return;
    matched_ = matched;
    raiseIfEmphasized();
}

void NodeItem::setHighlighted(bool highlighted) {
    if (highlighted == highlighted_)
        return;
    highlighted_ = highlighted;
    raiseIfEmphasized();
}

// --- ClusterItem ---------------------------------------------------------

ClusterItem::ClusterItem(const ModelCluster& cluster, const ClusterGeometry& geometry,
                         QSizeF labelSize)
    : group_(cluster.group)
    , lines_(cluster.lines)
    , rect_(geometry.rect)
    , labelRect_(geometry.labelCenter.x() - labelSize.width() / 2,
                 geometry.labelCenter.y() - labelSize.height() / 2, labelSize.width(),
                 labelSize.height()) {
    setZValue(0);
}

QRectF ClusterItem::boundingRect() const {
    double margin = kMarkWidth;
    return rect_.adjusted(-margin, -margin, margin, margin);
}

void ClusterItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    if (marked_) {
        QPainterPath halo;
        halo.addRoundedRect(rect_, 6, 6);
        drawHalo(painter, halo);
    }
    const QColor base = baseOf(this, group_);
    painter->setBrush(clusterFill(base));
    painter->setPen(outlinePen(groupStroke(base), highlighted_));
    painter->drawRoundedRect(rect_, 6, 6);
    if (levelOfDetail(painter, option) >= kNoText)
        drawLines(painter, labelRect_, lines_, true, colorsOf(this).ink);
}

void ClusterItem::setLines(const QStringList& lines) {
    if (lines == lines_)
        return;
    lines_ = lines;
    update();
}

void ClusterItem::setMarked(bool marked) {
    if (marked == marked_)
        return;
    marked_ = marked;
    update();
}

void ClusterItem::setHighlighted(bool highlighted) {
    if (highlighted == highlighted_)
        return;
    highlighted_ = highlighted;
    update();
}

// --- EdgeItem ------------------------------------------------------------

EdgeItem::EdgeItem(const ModelEdge& edge, const EdgeGeometry& geometry)
    : tensors_(edge.tensors)
    , path_(geometry.path) {
    QLineF shaft(geometry.arrowBase, geometry.arrowTip);
    if (geometry.hasArrow && shaft.length() > 1e-6) {
        QPointF normal = QPointF(-shaft.dy(), shaft.dx()) / shaft.length() * 3.5;
        arrow_ = QPolygonF({geometry.arrowTip, geometry.arrowBase + normal,
                            geometry.arrowBase - normal, geometry.arrowTip});
    }
    bounds_ = path_.boundingRect().united(arrow_.boundingRect()).adjusted(-3, -3, 3, 3);
    setZValue(1);
}

QRectF EdgeItem::boundingRect() const {
    return bounds_;
}

QPainterPath EdgeItem::shape() const {
    QPainterPathStroker stroker;
    stroker.setWidth(6);
    QPainterPath shape = stroker.createStroke(path_);
    shape.addPolygon(arrow_);
    return shape;
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const CanvasColors colors = colorsOf(this);
    QColor color = highlighted_  ? highlightColor()
                   : colors.dark ? colors.ink.darker(120)
                                 : QColor(0x55, 0x55, 0x55);
    double width = highlighted_ ? 2.5 : 1;
    painter->setPen(QPen(color, width));
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(path_);
    if (levelOfDetail(painter, option) < kShapesOnly || arrow_.isEmpty())
        return;
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    painter->drawPolygon(arrow_);
}

void EdgeItem::setHighlighted(bool highlighted) {
    if (highlighted == highlighted_)
        return;
    highlighted_ = highlighted;
    setZValue(highlighted ? 1.5 : 1);
    update();
}

} // namespace stagecraft::views::graphview
