// Geometric checks of the instance layout (see layout_checks.h).

#include "layout_checks.h"

#include <algorithm>
#include <numeric>

namespace stagecraft::test {

namespace {

using views::EdgeLine;
using views::InstanceLayout;

bool overlap(const QRectF& a, const QRectF& b) {
    return a.left() < b.right() && b.left() < a.right() && a.top() < b.bottom() &&
           b.top() < a.bottom();
}

bool exact(const QRectF& a, const QRectF& b) {
    return a.x() == b.x() && a.y() == b.y() && a.width() == b.width() && a.height() == b.height();
}

bool exact(const QLineF& a, const QLineF& b) {
    return a.p1().x() == b.p1().x() && a.p1().y() == b.p1().y() && a.p2().x() == b.p2().x() &&
           a.p2().y() == b.p2().y();
}

bool sameEdges(const std::vector<EdgeLine>& a, const std::vector<EdgeLine>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
        return x.from == y.from && x.to == y.to && x.viaMoves == y.viaMoves &&
               exact(x.line, y.line);
    });
}

std::string edgeName(const schedule::Schedule& s, const EdgeLine& e) {
    return s.instances[e.from].label + " -> " + s.instances[e.to].label;
}

} // namespace

std::string firstOverlap(std::vector<QRectF> rects) {
    std::vector<size_t> byLeft(rects.size());
    std::iota(byLeft.begin(), byLeft.end(), 0);
    std::sort(byLeft.begin(), byLeft.end(),
              [&](size_t a, size_t b) { return rects[a].left() < rects[b].left(); });
    for (size_t i = 0; i < byLeft.size(); ++i)
        for (size_t j = i + 1;
             j < byLeft.size() && rects[byLeft[j]].left() < rects[byLeft[i]].right(); ++j)
            if (overlap(rects[byLeft[i]], rects[byLeft[j]]))
                return std::to_string(byLeft[i]) + " and " + std::to_string(byLeft[j]);
    return {};
}

std::vector<QRectF> separateBoxes(const InstanceLayout& layout) {
    std::vector<QRectF> boxes;
    for (const views::GroupBox& group : layout.groups)
        boxes.push_back(group.rect);
    for (const views::MoveBox& move : layout.moves)
        boxes.push_back(move.rect);
    for (const views::MoveBundle& bundle : layout.bundles)
        boxes.push_back(bundle.rect);
    return boxes;
}

std::string firstUpwardEdge(const schedule::Schedule& s, const InstanceLayout& layout) {
    auto layerOf = [&](schedule::InstanceId id) {
        return layout.groups[s.instances[id].group].layer;
    };
    for (const auto* edges : {&layout.needed, &layout.redundant})
        for (const EdgeLine& e : *edges) {
            const QRectF& from = layout.instances[e.from];
            const QRectF& to = layout.instances[e.to];
            if (layerOf(e.from) >= layerOf(e.to) || from.bottom() >= to.top() ||
                e.line.p1().y() >= e.line.p2().y())
                return edgeName(s, e);
        }
    for (size_t i = 0; i < layout.moveLinks.size(); ++i)
        if (layout.moveLinks[i].p1().y() >= layout.moveLinks[i].p2().y())
            return "move link " + std::to_string(i);
    return {};
}

std::string firstMisplacedInstance(const schedule::Schedule& s, const InstanceLayout& layout) {
    for (partition::GroupId g : s.groups.ids()) {
        const auto& ids = s.groups[g].instances;
        std::vector<QRectF> boxes;
        for (size_t k = 0; k < ids.size(); ++k) {
            const QRectF& box = layout.instances[ids[k]];
            const std::string& label = s.instances[ids[k]].label;
            if (!layout.groups[g].rect.contains(box))
                return label + " outside its group box";
            if (k > 0) {
                const QRectF& previous = layout.instances[ids[k - 1]];
                const bool sameRow = previous.top() == box.top();
                if (sameRow ? box.left() <= previous.right() : box.top() <= previous.bottom())
                    return label + " out of index order";
            }
            boxes.push_back(box);
        }
        if (std::string pair = firstOverlap(boxes); !pair.empty())
            return "instances " + pair + " of group " + std::to_string(g.value()) + " overlap";
    }
    return {};
}

bool sameLayout(const InstanceLayout& a, const InstanceLayout& b) {
    auto sameRects = [](const std::vector<QRectF>& x, const std::vector<QRectF>& y) {
        return std::equal(x.begin(), x.end(), y.begin(), y.end(),
                          [](const QRectF& p, const QRectF& q) { return exact(p, q); });
    };
    auto sameGroups = std::equal(
        a.groups.begin(), a.groups.end(), b.groups.begin(), b.groups.end(),
        [](const auto& x, const auto& y) { return x.layer == y.layer && exact(x.rect, y.rect); });
    auto sameMoves = std::equal(
        a.moves.begin(), a.moves.end(), b.moves.begin(), b.moves.end(),
        [](const auto& x, const auto& y) { return x.depth == y.depth && exact(x.rect, y.rect); });
    auto sameBundles = std::equal(a.bundles.begin(), a.bundles.end(), b.bundles.begin(),
                                  b.bundles.end(), [](const auto& x, const auto& y) {
                                      return x.from == y.from && x.to == y.to &&
                                             x.moves == y.moves && exact(x.rect, y.rect);
                                  });
    auto sameLinks =
        std::equal(a.moveLinks.begin(), a.moveLinks.end(), b.moveLinks.begin(), b.moveLinks.end(),
                   [](const QLineF& x, const QLineF& y) { return exact(x, y); });
    return sameRects(a.instances.values(), b.instances.values()) && sameGroups &&
           a.layers == b.layers && sameEdges(a.needed, b.needed) &&
           sameEdges(a.redundant, b.redundant) && sameMoves && sameBundles && sameLinks &&
           exact(a.bounds, b.bounds);
}

} // namespace stagecraft::test
