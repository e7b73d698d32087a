#pragma once
// The scene of the graph view: the items of a GraphModel placed by its
// layout, found again by op, group or tensor, and highlighted for the shared
// selection. Labels can be replaced in place when only they changed.

#include "common/canvas_colors.h"
#include "common/highlight.h"
#include "common/pipeline_result.h"
#include "common/selection.h"
#include "graph/graph_items.h"
#include "graph/graph_layout.h"
#include "graph/graph_model.h"

#include <QGraphicsScene>

#include <vector>

namespace stagecraft::views::graphview {

class GraphScene : public QGraphicsScene {
public:
    using QGraphicsScene::QGraphicsScene;

    /// Replaces the items with \p model placed by \p layout (laid out from
    /// model.layout); \p result gives the tooltips.
    void build(const GraphModel& model, const GraphLayout& layout, const PipelineResult& result);
    void clearDrawing();
    bool isEmpty() const { return nodes_.empty(); }

    /// Takes the labels of \p model, which must have the layout request of
    /// the model built; returns false (and changes nothing) when it does not.
    bool updateLabels(const GraphModel& model);

    /// Highlights what \p selection names in \p result (an instance by its
    /// group, a tensor by its edges); returns the item to scroll to, or null.
    QGraphicsItem* highlight(const Selection& selection, const PipelineResult& result);
    /// Marks the ops, groups and instances (by their group) \p highlights
    /// names; an op of a collapsed group marks the group; ops are filled by
    /// the highlights' grouping (setStepGrouping). Returns the first marked
    /// item, or null.
    QGraphicsItem* mark(const Highlights& highlights, const PipelineResult& result);
    /// Items marked now.
    const std::vector<QGraphicsItem*>& markedItems() const { return marked_; }
    /// Flags the nodes of \p ops (a collapsed group's node for an op it
    /// hides) as matches of a search, clearing the previous ones.
    void setMatches(const std::vector<ir::OpId>& ops, const PipelineResult& result);
    const std::vector<NodeItem*>& matchedItems() const { return matched_; }
    /// Fills the op nodes by \p grouping (by op id, ops with one value are
    /// one group): a group of several ops in a palette colour by the order
    /// of its smallest op, an op alone in the canvas's box fill. Empty:
    /// every op in the box fill. Returns the groups of several ops.
    int setStepGrouping(const std::vector<int32_t>& grouping);

    /// Background and ink the items draw with (the canvas's palette; exports use paper).
    const CanvasColors& colors() const { return colors_; }
    void setColors(const CanvasColors& colors);
    /// Colours groups by an overlay (by group id); empty: each group's own.
    void setGroupColors(std::vector<QColor> colors);
    /// The colour \p group is drawn in now.
    QColor groupBase(partition::GroupId group) const;

    NodeItem* opItem(ir::OpId op) const;
    /// The node drawing \p op: its own, its folded scope's or its collapsed
    /// group's; else its group's cluster.
    QGraphicsItem* opOrGroupItem(ir::OpId op, const PipelineResult& result) const;
    NodeItem* groupNodeItem(partition::GroupId group) const;
    ClusterItem* clusterItem(partition::GroupId group) const;
    /// The collapsed node or the cluster of \p group.
    QGraphicsItem* groupItem(partition::GroupId group) const;

    const std::vector<NodeItem*>& nodes() const { return nodes_; }
    const std::vector<ClusterItem*>& clusters() const { return clusters_; }
    const std::vector<EdgeItem*>& edges() const { return edges_; }

private:
    void index(NodeItem* item);
    void clearHighlight();
    void clearMarks();
    void markItem(QGraphicsItem* item);
    QGraphicsItem* highlightTensor(ir::TensorId tensor);
    /// The group's box, or (drawn by name scopes, where groups have no box)
    /// every node that draws one of its ops; the first.
    QGraphicsItem* highlightGroup(partition::GroupId group, const PipelineResult& result);
    QGraphicsItem* mark(QGraphicsItem* item);

    std::vector<NodeItem*> nodes_;
    std::vector<ClusterItem*> clusters_;
    std::vector<EdgeItem*> edges_;
    IdVector<ir::OpId, NodeItem*> opItems_;
    /// The node drawing each op: its own, its group's or its scope's.
    IdVector<ir::OpId, NodeItem*> opCarriers_;
    IdVector<partition::GroupId, NodeItem*> groupNodeItems_;
    IdVector<partition::GroupId, ClusterItem*> clusterItems_;
    std::vector<QGraphicsItem*> highlighted_;
    std::vector<QGraphicsItem*> marked_;
    std::vector<NodeItem*> matched_;
    CanvasColors colors_ = CanvasColors::paper();
    std::vector<QColor> groupColors_;
};

} // namespace stagecraft::views::graphview
