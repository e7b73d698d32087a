// Items are created in model order and indexed by op, group and cluster, so
// a selection finds its item without searching the scene.

#include "graph/graph_scene.h"

#include "graph/graph_labels.h"
#include "graph/group_palette.h"

#include <algorithm>

namespace stagecraft::views::graphview {

namespace {

constexpr double kSceneMargin = 24;

/// The item of \p id, or null when there is none.
template <typename IdT, typename T>
T* at(const IdVector<IdT, T*>& items, IdT id) {
    return items.contains(id) ? items[id] : nullptr;
}

QString toolTipFor(const ModelNode& node, const PipelineResult& result) {
    if (node.ref.kind == NodeRef::Kind::Op)
        return opToolTip(*result.graph, ir::OpId(node.ref.id), node.group);
    return node.lines.join(u'\n');
}

} // namespace

void GraphScene::setGroupColors(std::vector<QColor> colors) {
    groupColors_ = std::move(colors);
    update();
}

QColor GraphScene::groupBase(partition::GroupId group) const {
    if (group != partition::kNoGroup && group.index() < groupColors_.size() &&
        groupColors_[group.index()].isValid())
        return groupColors_[group.index()];
    return groupColor(group);
}

void GraphScene::clearDrawing() {
    highlighted_.clear();
    marked_.clear();
    matched_.clear();
    nodes_.clear();
    clusters_.clear();
    edges_.clear();
    opItems_.clear();
    opCarriers_.clear();
    groupNodeItems_.clear();
    clusterItems_.clear();
    clear();
}

void GraphScene::build(const GraphModel& model, const GraphLayout& layout,
                       const PipelineResult& result) {
    clearDrawing();
    opItems_.assign(result.graph->opCount(), nullptr);
    opCarriers_.assign(result.graph->opCount(), nullptr);
    groupNodeItems_.assign(result.eval.schedule.partition.groupCount(), nullptr);
    clusterItems_.assign(result.eval.schedule.partition.groupCount(), nullptr);
    for (size_t c = 0; c < model.clusters.size(); ++c) {
        auto* item = new ClusterItem(model.clusters[c], layout.clusters[c],
                                     model.layout.clusters[c].labelSize);
        addItem(item);
        clusters_.push_back(item);
        clusterItems_[item->group()] = item;
    }
    for (size_t e = 0; e < model.edges.size(); ++e) {
        auto* item = new EdgeItem(model.edges[e], layout.edges[e]);
        item->setToolTip(edgeToolTip(*result.graph, model.edges[e].tensors));
        addItem(item);
        edges_.push_back(item);
    }
    for (size_t n = 0; n < model.nodes.size(); ++n) {
        auto* item = new NodeItem(model.nodes[n], layout.nodes[n], model.layout.nodes[n].shape);
        item->setToolTip(toolTipFor(model.nodes[n], result));
        addItem(item);
        index(item);
    }
    for (ir::OpId op : result.graph->opIds())
        if (model.opNodes.contains(op) && model.opNodes[op] >= 0)
            opCarriers_[op] = nodes_[model.opNodes[op]];
    setSceneRect(layout.bounds.adjusted(-kSceneMargin, -kSceneMargin, kSceneMargin, kSceneMargin));
}

void GraphScene::index(NodeItem* item) {
    nodes_.push_back(item);
    if (item->ref().kind == NodeRef::Kind::Op)
        opItems_[ir::OpId(item->ref().id)] = item;
    else if (item->ref().kind == NodeRef::Kind::Group)
        groupNodeItems_[partition::GroupId(item->ref().id)] = item;
}

bool GraphScene::updateLabels(const GraphModel& model) {
    if (model.nodes.size() != nodes_.size() || model.clusters.size() != clusters_.size())
        return false;
    for (size_t n = 0; n < nodes_.size(); ++n)
        if (!(model.nodes[n].ref == nodes_[n]->ref()))
            return false;
    for (size_t n = 0; n < nodes_.size(); ++n)
        nodes_[n]->setLines(model.nodes[n].lines);
    for (size_t c = 0; c < clusters_.size(); ++c)
        clusters_[c]->setLines(model.clusters[c].lines);
    return true;
}

NodeItem* GraphScene::opItem(ir::OpId op) const {
    return at(opItems_, op);
}

NodeItem* GraphScene::groupNodeItem(partition::GroupId group) const {
    return at(groupNodeItems_, group);
}

ClusterItem* GraphScene::clusterItem(partition::GroupId group) const {
    return at(clusterItems_, group);
}

QGraphicsItem* GraphScene::groupItem(partition::GroupId group) const {
    if (NodeItem* node = groupNodeItem(group))
        return node;
    return clusterItem(group);
}

void GraphScene::clearHighlight() {
    for (QGraphicsItem* item : highlighted_) {
        if (auto* node = qgraphicsitem_cast<NodeItem*>(item))
            node->setHighlighted(false);
        else if (auto* cluster = qgraphicsitem_cast<ClusterItem*>(item))
            cluster->setHighlighted(false);
        else if (auto* edge = qgraphicsitem_cast<EdgeItem*>(item))
            edge->setHighlighted(false);
    }
    highlighted_.clear();
}

QGraphicsItem* GraphScene::mark(QGraphicsItem* item) {
    if (auto* node = qgraphicsitem_cast<NodeItem*>(item))
        node->setHighlighted(true);
    else if (auto* cluster = qgraphicsitem_cast<ClusterItem*>(item))
        cluster->setHighlighted(true);
    else if (auto* edge = qgraphicsitem_cast<EdgeItem*>(item))
        edge->setHighlighted(true);
    if (item)
        highlighted_.push_back(item);
    return item;
}

QGraphicsItem* GraphScene::highlightTensor(ir::TensorId tensor) {
    QGraphicsItem* first = nullptr;
    for (EdgeItem* edge : edges_) {
        if (!std::binary_search(edge->tensors().begin(), edge->tensors().end(), tensor))
            continue;
        mark(edge);
        if (!first)
            first = edge;
    }
    return first;
}

QGraphicsItem* GraphScene::highlightGroup(partition::GroupId group, const PipelineResult& result) {
    if (QGraphicsItem* box = groupItem(group))
        return mark(box);
    const partition::Partition& partition = result.eval.schedule.partition;
    if (!partition.hasGroup(group))
        return nullptr;
    QGraphicsItem* first = nullptr;
    for (ir::OpId op : partition.ops(group)) {
        QGraphicsItem* item = opOrGroupItem(op, result);
        if (!item ||
            std::find(highlighted_.begin(), highlighted_.end(), item) != highlighted_.end())
            continue;
        mark(item);
        if (!first)
            first = item;
    }
    return first;
}

QGraphicsItem* GraphScene::highlight(const Selection& selection, const PipelineResult& result) {
    clearHighlight();
    const schedule::Schedule& schedule = result.eval.schedule;
    switch (selection.kind) {
    case Selection::Kind::Op:
        return mark(opOrGroupItem(ir::OpId(selection.id), result));
    case Selection::Kind::Group:
        return highlightGroup(partition::GroupId(selection.id), result);
    case Selection::Kind::Instance:
        if (selection.op >= 0)
            return mark(opOrGroupItem(ir::OpId(selection.op), result));
        if (const schedule::InstanceId id(selection.id); schedule.instances.contains(id))
            return highlightGroup(schedule.instances[id].group, result);
        return nullptr;
    case Selection::Kind::Tensor:
        return highlightTensor(ir::TensorId(selection.id));
    case Selection::Kind::None:
        break;
    }
    return nullptr;
}

QGraphicsItem* GraphScene::opOrGroupItem(ir::OpId op, const PipelineResult& result) const {
    if (NodeItem* item = at(opCarriers_, op))
        return item;
    if (result.graph->hasOp(op))
        return groupItem(result.eval.schedule.partition.groupOf(op));
    return nullptr;
}

void GraphScene::setMatches(const std::vector<ir::OpId>& ops, const PipelineResult& result) {
    for (NodeItem* node : matched_)
        node->setMatched(false);
    matched_.clear();
    for (ir::OpId op : ops) {
        auto* node = qgraphicsitem_cast<NodeItem*>(opOrGroupItem(op, result));
        if (node && !node->isMatched()) {
            node->setMatched(true);
            matched_.push_back(node);
        }
    }
}

int GraphScene::setStepGrouping(const std::vector<int32_t>& grouping) {
    std::vector<int32_t> size(grouping.size(), 0);
    for (int32_t root : grouping)
        if (root >= 0 && static_cast<size_t>(root) < size.size())
            ++size[static_cast<size_t>(root)];
    // Colour ranks by each group's smallest op: stable from step to step.
    std::vector<int32_t> rank(grouping.size(), -1);
    int32_t groups = 0;
    for (size_t root = 0; root < size.size(); ++root)
        if (size[root] > 1)
            rank[root] = groups++;
    for (ir::OpId op : opItems_.ids()) {
        NodeItem* item = opItems_[op];
        if (!item)
            continue;
        const size_t index = op.index();
        const int32_t root = index < grouping.size() ? grouping[index] : -1;
        const bool grouped = root >= 0 && rank[static_cast<size_t>(root)] >= 0;
        item->setStepFill(grouped ? stepGroupColor(rank[static_cast<size_t>(root)]) : QColor());
    }
    return groups;
}

void GraphScene::clearMarks() {
    for (QGraphicsItem* item : marked_) {
        if (auto* node = qgraphicsitem_cast<NodeItem*>(item))
            node->setMarked(false);
        else if (auto* cluster = qgraphicsitem_cast<ClusterItem*>(item))
            cluster->setMarked(false);
    }
    marked_.clear();
}

void GraphScene::markItem(QGraphicsItem* item) {
    auto* node = qgraphicsitem_cast<NodeItem*>(item);
    auto* cluster = qgraphicsitem_cast<ClusterItem*>(item);
    if ((node && node->isMarked()) || (cluster && cluster->isMarked()))
        return;
    if (node)
        node->setMarked(true);
    else if (cluster)
        cluster->setMarked(true);
    else
        return;
    marked_.push_back(item);
}

QGraphicsItem* GraphScene::mark(const Highlights& highlights, const PipelineResult& result) {
    clearMarks();
    setStepGrouping(highlights.opGrouping);
    const schedule::Schedule& schedule = result.eval.schedule;
    for (int32_t op : highlights.ops)
        markItem(opOrGroupItem(ir::OpId(op), result));
    for (int32_t group : highlights.groups)
        markItem(groupItem(partition::GroupId(group)));
    for (int32_t instance : highlights.instances) {
        if (const schedule::InstanceId id(instance); schedule.instances.contains(id))
            markItem(groupItem(schedule.instances[id].group));
    }
    return marked_.empty() ? nullptr : marked_.front();
}

void GraphScene::setColors(const CanvasColors& colors) {
    if (colors == colors_)
        return;
    colors_ = colors;
    update();
}

} // namespace stagecraft::views::graphview
