#pragma once
// The items of the graph scene: nodes (ops, collapsed groups, graph inputs
// and outputs), clusters (expanded groups) and edges. Painting follows the
// level of detail of qtbase's "chip" example: far out, plain shapes without
// text or arrowheads; closer, outlines; close enough to read, the labels.

#include "graph/graph_layout.h"
#include "graph/graph_model.h"

#include <QGraphicsItem>
#include <QStringList>

#include <vector>

namespace stagecraft::views::graphview {

class NodeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 1 };

    NodeItem(const ModelNode& node, const NodeGeometry& geometry, NodeShape shape);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    const NodeRef& ref() const { return ref_; }
    partition::GroupId group() const { return group_; }
    const QStringList& lines() const { return lines_; }
    void setLines(const QStringList& lines);
    bool isHighlighted() const { return highlighted_; }
    void setHighlighted(bool highlighted);
    /// Marked by a teaching or diff tool: drawn with a halo.
    bool isMarked() const { return marked_; }
    void setMarked(bool marked);
    /// Matches the find field's text (an op, or a collapsed group holding one).
    bool isMatched() const { return matched_; }
    void setMatched(bool matched);
    /// An op's fill for a grouping other than the final one (the
    /// step-through's); invalid: the canvas's box fill.
    QColor stepFill() const { return stepFill_; }
    void setStepFill(const QColor& fill);

private:
    QColor fill() const;
    void raiseIfEmphasized();
    QPainterPath outline() const;

    NodeRef ref_;
    partition::GroupId group_;
    QStringList lines_;
    QRectF rect_;
    NodeShape shape_;
    bool highlighted_ = false;
    bool marked_ = false;
    bool matched_ = false;
    QColor stepFill_;
};

class ClusterItem : public QGraphicsItem {
public:
    enum { Type = UserType + 2 };

    ClusterItem(const ModelCluster& cluster, const ClusterGeometry& geometry, QSizeF labelSize);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    partition::GroupId group() const { return group_; }
    const QStringList& lines() const { return lines_; }
    void setLines(const QStringList& lines);
    QRectF labelRect() const { return labelRect_; }
    bool isHighlighted() const { return highlighted_; }
    void setHighlighted(bool highlighted);
    bool isMarked() const { return marked_; }
    void setMarked(bool marked);

private:
    partition::GroupId group_;
    QStringList lines_;
    QRectF rect_;
    QRectF labelRect_;
    bool highlighted_ = false;
    bool marked_ = false;
};

class EdgeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 3 };

    EdgeItem(const ModelEdge& edge, const EdgeGeometry& geometry);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    const std::vector<ir::TensorId>& tensors() const { return tensors_; }
    bool isHighlighted() const { return highlighted_; }
    void setHighlighted(bool highlighted);

private:
    std::vector<ir::TensorId> tensors_;
    QPainterPath path_;
    QPolygonF arrow_;
    QRectF bounds_;
    bool highlighted_ = false;
};

} // namespace stagecraft::views::graphview
