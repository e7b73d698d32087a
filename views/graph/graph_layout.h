#pragma once
// What the Graphviz adapter (graphviz_layouter.h) reads and returns, in
// points with y pointing down. A request is geometry only: nodes are known by
// their index, sizes are fixed by the caller and labels are drawn by the
// caller, so the layout does not depend on fonts or on label text that may
// change without the graph changing (a group's split, its footprint).

#include "support/expected.h"

#include <QMetaType>
#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <compare>
#include <cstdint>
#include <memory>
#include <vector>

namespace stagecraft::views::graphview {

enum class NodeShape { Box, Ellipse, House, InvHouse };

struct LayoutNode {
    QSizeF size;
    NodeShape shape = NodeShape::Box;
};

/// From node index \p from to node index \p to.
struct LayoutEdge {
    int from = 0;
    int to = 0;
};

/// A box around some nodes with room reserved on top for a label of
/// \p labelSize (none when empty); a node belongs to at most one cluster.
struct LayoutCluster {
    std::vector<int> nodes;
    QSizeF labelSize;
};

struct LayoutInput {
    std::vector<LayoutNode> nodes;
    std::vector<LayoutEdge> edges;
    std::vector<LayoutCluster> clusters;
};

struct NodeGeometry {
    QPointF center;
    QSizeF size;
    QRectF rect() const {
        return {center.x() - size.width() / 2, center.y() - size.height() / 2, size.width(),
                size.height()};
    }
};

struct EdgeGeometry {
    /// The spline from the tail to where the arrowhead starts.
    QPainterPath path;
    /// Where the arrowhead starts and where its tip touches the head node.
    QPointF arrowBase;
    QPointF arrowTip;
    bool hasArrow = false;
};

struct ClusterGeometry {
    QRectF rect;
    /// Center of the reserved label area.
    QPointF labelCenter;
};

/// A finished layout; vectors are index-aligned with the request's.
struct GraphLayout {
    QRectF bounds;
    std::vector<NodeGeometry> nodes;
    std::vector<EdgeGeometry> edges;
    std::vector<ClusterGeometry> clusters;
};

using LayoutPtr = std::shared_ptr<const GraphLayout>;

/// What a layout is cached under: fingerprints of the graph, of its grouping
/// and of the set of expanded groups.
struct LayoutKey {
    uint64_t graph = 0;
    uint64_t grouping = 0;
    uint64_t expanded = 0;
    auto operator<=>(const LayoutKey&) const = default;
};

/// Every edge and cluster names existing nodes, no node sits in two clusters,
/// no cluster is empty, every size is positive and finite.
Status validateLayoutInput(const LayoutInput& input);

} // namespace stagecraft::views::graphview

Q_DECLARE_METATYPE(stagecraft::views::graphview::LayoutKey)
Q_DECLARE_METATYPE(stagecraft::views::graphview::LayoutPtr)
