#pragma once
// What the graph view draws, built from a pipeline result and the set of
// expanded groups by pure functions (no Graphviz, no widgets): expanded
// groups are clusters of one node per op, collapsed groups one node each,
// graph inputs and outputs house shapes, constants (weights) left out. The
// layout request travels to Graphviz; the rest says what each node, edge and
// cluster stands for and what its label reads. Names and conventions follow
// the DOT export (core/io/dot_export.h).

#include "common/pipeline_result.h"
#include "graph/graph_layout.h"
#include "graph/name_scopes.h"

#include <QStringList>

#include <cstdint>
#include <set>
#include <vector>

namespace stagecraft::views::graphview {

using ExpandedGroups = std::set<partition::GroupId>;

/// What a drawn node stands for: an op, a collapsed group, a folded name
/// scope (id: its index in NameScopes), or the tensor of a graph input or
/// output.
struct NodeRef {
    enum class Kind { Op, Group, Input, Output, Scope };
    Kind kind = Kind::Op;
    int32_t id = -1;
    bool operator==(const NodeRef&) const = default;
};

struct ModelNode {
    NodeRef ref;
    /// The group the node shows or belongs to; kNoGroup for inputs and
    /// outputs, and for a scope whose ops lie in several groups.
    partition::GroupId group = partition::kNoGroup;
    QStringList lines;
};

struct ModelEdge {
    /// The tensors the edge carries, ascending.
    std::vector<ir::TensorId> tensors;
};

struct ModelCluster {
    partition::GroupId group = partition::kNoGroup;
    QStringList lines;
};

/// Index-aligned with layout's nodes, edges and clusters.
struct GraphModel {
    LayoutInput layout;
    std::vector<ModelNode> nodes;
    std::vector<ModelEdge> edges;
    std::vector<ModelCluster> clusters;
    /// The node that draws each op: its own, its collapsed group's or its
    /// folded scope's.
    IdVector<ir::OpId, int> opNodes;
};

/// Drawing by name scope instead of by group: no clusters; the folded
/// scopes one node each, filled by their group when they have only one.
struct NameFolding {
    const NameScopes* scopes = nullptr;
    FoldedScopes folded;
};

/// The drawing of \p result with the groups in \p expanded as clusters and
/// every other group as one node; with \p names, by name scope instead.
GraphModel buildGraphModel(const PipelineResult& result, const ExpandedGroups& expanded,
                           const NameFolding* names = nullptr);

/// Every group of \p result.
ExpandedGroups allGroups(const PipelineResult& result);

/// Groups of more ops open as one box each.
inline constexpr size_t kOverviewGroupOps = 8;
/// The overview draws at most about this many nodes.
inline constexpr size_t kOverviewNodes = 40;

/// The groups a new model opens expanded, so that it opens on an overview:
/// every group when the graph has at most kOverviewNodes ops (the paper's
/// figures, whose Algorithm 2 steps colour the ops); else groups of at most
/// kOverviewGroupOps ops, smallest first (ties by id), while the drawing
/// stays within kOverviewNodes nodes, every other group one box.
ExpandedGroups overviewGroups(const PipelineResult& result);

/// The cache key of buildGraphModel(result, expanded, names).layout: equal
/// keys give equal layout requests.
LayoutKey layoutKeyFor(const PipelineResult& result, const ExpandedGroups& expanded,
                       const NameFolding* names = nullptr);

/// Same graph object and same partition: the drawing keeps its layout and
/// only labels change.
bool sameGrouping(const PipelineResult& a, const PipelineResult& b);

} // namespace stagecraft::views::graphview
