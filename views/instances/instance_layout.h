#pragma once
// The instance DAG of a schedule laid out without Graphviz (GraphTurbo
// Fig. 6 and 8), fast enough for ResNet-50 with thousands of instances:
// groups in layers by their longest path in the group DAG, the instances of a
// group side by side in index order inside the group box (wrapping into
// rows), and, when shown, the data-movement ops of §3.5 in a band just above
// the group whose instance reads them (or, bundled, one node per pair of
// groups they run between). Every edge points down: its producer
// lies in an earlier layer (or, for moves, an earlier band) than its consumer.
// Plain data in scene coordinates; painting and hit testing read it.

#include "common/pipeline_result.h"

#include <QLineF>
#include <QPointF>
#include <QRectF>

#include <cstdint>
#include <vector>

namespace stagecraft::views {

struct LayoutOptions {
    /// Reserve bands for the data-movement ops and route edges through them.
    bool showMoves = true;
    /// With showMoves: one node per pair of groups (producer, consumer) for
    /// all the ops between them, instead of one per op.
    bool bundleMoves = false;
    /// Instances per row of a group box before it wraps.
    int maxColumns = 16;
    double instanceWidth = 120;
    double instanceHeight = 72;
    double moveWidth = 160;
    double moveHeight = 80;
    /// A bundle's card: room for "8 copy · 2 redistribute · 2 concat".
    double bundleWidth = 360;
    /// Between instances and between moves.
    double spacing = 12;
    double groupPadding = 10;
    /// Room for the group letter above the instances.
    double groupHeader = 24;
    /// Between group columns of a layer.
    double groupSpacing = 48;
    /// Between layers.
    double layerSpacing = 96;
};

struct GroupBox {
    QRectF rect;
    int layer = 0;
};

struct EdgeLine {
    schedule::InstanceId from;
    schedule::InstanceId to;
    /// Runs through data-movement ops (drawn by their links) when they are shown.
    bool viaMoves = false;
    QLineF line;
};

struct MoveBox {
    QRectF rect;
    /// 0 when every input is an instance; one more than its deepest input move.
    int depth = 0;
};

/// The data-movement ops between two groups drawn as one node.
struct MoveBundle {
    QRectF rect;
    /// The group producing the moved tensors (the first source's);
    /// partition::kNoGroup when the moves have no source instance.
    schedule::GroupId from = partition::kNoGroup;
    /// The group whose instances read them.
    schedule::GroupId to = partition::kNoGroup;
    /// Indexes of Schedule::moves, in schedule order.
    std::vector<int32_t> moves;
};

struct InstanceLayout {
    IdVector<schedule::InstanceId, QRectF> instances;
    /// By GroupId.
    IdVector<schedule::GroupId, GroupBox> groups;
    /// Groups of each layer, left to right.
    std::vector<std::vector<schedule::GroupId>> layers;
    /// Schedule::edges in their order.
    std::vector<EdgeLine> needed;
    /// schedule::redundantEdges() in its order.
    std::vector<EdgeLine> redundant;
    /// By index of Schedule::moves; empty unless showMoves (and not bundled).
    std::vector<MoveBox> moves;
    /// With bundleMoves: by consumer group, then producer group.
    std::vector<MoveBundle> bundles;
    /// Instance → move, move → move and move → consumer instance; bundled,
    /// producer group → bundle → consumer group.
    std::vector<QLineF> moveLinks;
    QRectF bounds;
};

InstanceLayout layoutInstances(const PipelineResult& result, const LayoutOptions& options);

/// What lies under a scene point: an instance, a move, a bundle of moves, a
/// group box or nothing.
struct LayoutHit {
    enum class Kind { None, Instance, Move, Bundle, Group };
    Kind kind = Kind::None;
    int32_t id = -1;

    bool operator==(const LayoutHit&) const = default;
};
LayoutHit hitTest(const InstanceLayout& layout, QPointF scenePoint);

} // namespace stagecraft::views
