#pragma once
// Internal to the instance layout: how the data-movement ops of §3.5 chain
// (copy → redistribute → concat → consumer, Fig. 9) and where they sit in
// the band above their consumer's group, one by one or bundled by pair of
// groups.

#include "instances/instance_layout.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace stagecraft::views::detail {

inline QPointF topCenter(const QRectF& rect) {
    return {rect.center().x(), rect.top()};
}
inline QPointF bottomCenter(const QRectF& rect) {
    return {rect.center().x(), rect.bottom()};
}

/// An instance or a data-movement op.
struct MoveNode {
    bool isMove = false;
    int32_t id = 0;
};

struct MoveGraph {
    /// Per move: the nodes it reads.
    std::vector<std::vector<MoveNode>> inputs;
    /// Per move: no later move of its chain reads it, so it feeds the consumer.
    std::vector<char> feedsConsumer;
    std::vector<int> depth;
    /// (producer, consumer) instance pairs whose data runs through moves, sorted.
    std::vector<std::pair<schedule::InstanceId, schedule::InstanceId>> carried;
};

MoveGraph buildMoveGraph(const schedule::Schedule& schedule);

/// The moves read by one group's instances, placed relative to the band's top-left.
struct MoveBand {
    double width = 0;
    double height = 0;
    std::vector<int32_t> moves;
    std::vector<QPointF> offsets;
};

/// One band per group; \p boxWidths are the group boxes' widths.
IdVector<schedule::GroupId, MoveBand>
moveBands(const schedule::Schedule& schedule, const MoveGraph& graph, const LayoutOptions& options,
          const IdVector<schedule::GroupId, double>& boxWidths);

/// The links of \p graph between the placed instances and moves of \p layout.
std::vector<QLineF> moveLinks(const schedule::Schedule& schedule, const MoveGraph& graph,
                              const InstanceLayout& layout);

/// \p schedule's moves by pair of groups (rects unset): ordered by consumer
/// group, then producer group.
std::vector<MoveBundle> bundleMoves(const schedule::Schedule& schedule);

/// One band per group holding the bundles its instances read, in one depth
/// (bundles read groups, not each other); MoveBand::moves index \p bundles.
IdVector<schedule::GroupId, MoveBand>
bundleBands(const schedule::Schedule& schedule, const std::vector<MoveBundle>& bundles,
            const LayoutOptions& options, const IdVector<schedule::GroupId, double>& boxWidths);

/// Producer group box → bundle → consumer group box, for the placed bundles.
std::vector<QLineF> bundleLinks(const InstanceLayout& layout);

} // namespace stagecraft::views::detail
