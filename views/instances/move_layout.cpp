// Data-movement ops in the instance layout. The core inserts, per consumer
// instance and tensor, a copy and/or a redistribute per piece and then one
// concat over the pieces (schedule/data_movement.cpp), all adjacent in
// Schedule::moves; chaining them back gives the paths of Fig. 9. Each group
// gets a band above its box: one block of rows per chain depth, so that every
// link points down, and at least the box's width so the band stays compact.
// Bundled, a group's band holds one node per producer group it reads from,
// linked from that group's box to its own.

#include "instances/internal/move_layout.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace stagecraft::views::detail {

namespace {

using schedule::DataMove;
using schedule::InstanceId;

struct LatestNode {
    InstanceId source;
    int32_t move;
};

MoveNode latestFor(const std::vector<LatestNode>& latest, InstanceId source) {
    for (const LatestNode& entry : latest)
        if (entry.source == source)
            return {true, entry.move};
    return {false, source.value()};
}

bool startsRun(const std::vector<DataMove>& moves, size_t m) {
    return m == 0 || moves[m].consumer != moves[m - 1].consumer ||
           moves[m].tensor != moves[m - 1].tensor;
}

/// Places band.moves, each \p nodeWidth wide, in rows, one block of rows per
/// depth (\p depth by the indexes band.moves holds).
void placeBand(MoveBand& band, const std::vector<int>& depth, const LayoutOptions& options,
               double boxWidth, double nodeWidth) {
    if (band.moves.empty())
        return;
    const double stepX = nodeWidth + options.spacing;
    const double stepY = options.moveHeight + options.spacing;
    const auto count = band.moves.size();
    const auto fit = static_cast<size_t>(std::max(1.0, (boxWidth + options.spacing) / stepX));
    const auto square = static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(count))));
    const size_t columns = std::min(count, std::max(fit, square));
    band.width = static_cast<double>(columns) * stepX - options.spacing;
    double y = 0;
    for (size_t start = 0; start < count;) {
        const int level = depth[static_cast<size_t>(band.moves[start])];
        size_t end = start;
        while (end < count && depth[static_cast<size_t>(band.moves[end])] == level)
            ++end;
        for (size_t k = 0; k < end - start; ++k) {
            const size_t row = k / columns;
            const size_t inRow = std::min(columns, end - start - row * columns);
            const double rowStart =
                (band.width - (static_cast<double>(inRow) * stepX - options.spacing)) / 2;
            band.offsets.emplace_back(rowStart + static_cast<double>(k % columns) * stepX,
                                      y + static_cast<double>(row) * stepY);
        }
        y += static_cast<double>((end - start + columns - 1) / columns) * stepY;
        start = end;
    }
    band.height = y - options.spacing;
}

} // namespace

MoveGraph buildMoveGraph(const schedule::Schedule& schedule) {
    const auto& moves = schedule.moves;
    MoveGraph graph;
    graph.inputs.resize(moves.size());
    graph.feedsConsumer.assign(moves.size(), 1);
    graph.depth.assign(moves.size(), 0);
    std::vector<LatestNode> latest; // per piece of the current run: its last move
    for (size_t m = 0; m < moves.size(); ++m) {
        const DataMove& move = moves[m];
        if (startsRun(moves, m))
            latest.clear();
        for (InstanceId source : move.sources) {
            MoveNode input = latestFor(latest, source);
            if (input.isMove) {
                graph.feedsConsumer[static_cast<size_t>(input.id)] = 0;
                graph.depth[m] =
                    std::max(graph.depth[m], graph.depth[static_cast<size_t>(input.id)] + 1);
            } else {
                graph.carried.emplace_back(source, move.consumer);
            }
            graph.inputs[m].push_back(input);
        }
        if (move.kind != DataMove::Kind::Concat && !move.sources.empty())
            latest.push_back({move.sources.front(), static_cast<int32_t>(m)});
    }
    std::sort(graph.carried.begin(), graph.carried.end());
    graph.carried.erase(std::unique(graph.carried.begin(), graph.carried.end()),
                        graph.carried.end());
    return graph;
}

IdVector<schedule::GroupId, MoveBand>
moveBands(const schedule::Schedule& schedule, const MoveGraph& graph, const LayoutOptions& options,
          const IdVector<schedule::GroupId, double>& boxWidths) {
    IdVector<schedule::GroupId, MoveBand> bands(schedule.groups.size());
    auto consumerOf = [&](int32_t m) -> const schedule::Instance& {
        return schedule.instances[schedule.moves[static_cast<size_t>(m)].consumer];
    };
    for (size_t m = 0; m < schedule.moves.size(); ++m)
        bands[consumerOf(static_cast<int32_t>(m)).group].moves.push_back(static_cast<int32_t>(m));
    for (schedule::GroupId g : bands.ids()) {
        auto& list = bands[g].moves;
        std::stable_sort(list.begin(), list.end(), [&](int32_t a, int32_t b) {
            const int da = graph.depth[static_cast<size_t>(a)];
            const int db = graph.depth[static_cast<size_t>(b)];
            return da != db ? da < db : consumerOf(a).index < consumerOf(b).index;
        });
        placeBand(bands[g], graph.depth, options, boxWidths[g], options.moveWidth);
    }
    return bands;
}

std::vector<QLineF> moveLinks(const schedule::Schedule& schedule, const MoveGraph& graph,
                              const InstanceLayout& layout) {
    std::vector<QLineF> links;
    for (size_t m = 0; m < graph.inputs.size(); ++m) {
        const QRectF& rect = layout.moves[m].rect;
        for (const MoveNode& input : graph.inputs[m]) {
            const QRectF& from = input.isMove ? layout.moves[static_cast<size_t>(input.id)].rect
                                              : layout.instances[InstanceId(input.id)];
            links.emplace_back(bottomCenter(from), topCenter(rect));
        }
        if (graph.feedsConsumer[m]) {
            links.emplace_back(bottomCenter(rect),
                               topCenter(layout.instances[schedule.moves[m].consumer]));
        }
    }
    return links;
}

std::vector<MoveBundle> bundleMoves(const schedule::Schedule& schedule) {
    using schedule::GroupId;
    std::map<std::pair<GroupId, GroupId>, std::vector<int32_t>> byPair;
    for (size_t m = 0; m < schedule.moves.size(); ++m) {
        const DataMove& move = schedule.moves[m];
        const GroupId from = move.sources.empty() ? partition::kNoGroup
                                                  : schedule.instances[move.sources.front()].group;
        const GroupId to = schedule.instances[move.consumer].group;
        byPair[{to, from}].push_back(static_cast<int32_t>(m));
    }
    std::vector<MoveBundle> bundles;
    bundles.reserve(byPair.size());
    for (auto& [pair, moves] : byPair)
        bundles.push_back({QRectF(), pair.second, pair.first, std::move(moves)});
    return bundles;
}

IdVector<schedule::GroupId, MoveBand>
bundleBands(const schedule::Schedule& schedule, const std::vector<MoveBundle>& bundles,
            const LayoutOptions& options, const IdVector<schedule::GroupId, double>& boxWidths) {
    IdVector<schedule::GroupId, MoveBand> bands(schedule.groups.size());
    for (size_t b = 0; b < bundles.size(); ++b)
        bands[bundles[b].to].moves.push_back(static_cast<int32_t>(b));
    const std::vector<int> oneDepth(bundles.size(), 0);
    for (schedule::GroupId g : bands.ids())
        // The cards stacked behind a bundle stick out to its right.
        placeBand(bands[g], oneDepth, options, boxWidths[g], options.bundleWidth + options.spacing);
    return bands;
}

std::vector<QLineF> bundleLinks(const InstanceLayout& layout) {
    std::vector<QLineF> links;
    for (const MoveBundle& bundle : layout.bundles) {
        // Moves within a group would point up to the band above it.
        if (bundle.from != partition::kNoGroup && bundle.from != bundle.to)
            links.emplace_back(bottomCenter(layout.groups[bundle.from].rect),
                               topCenter(bundle.rect));
        links.emplace_back(bottomCenter(bundle.rect), topCenter(layout.groups[bundle.to].rect));
    }
    return links;
}

} // namespace stagecraft::views::detail
