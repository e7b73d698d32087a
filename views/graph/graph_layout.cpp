// Checks of a layout request before it reaches Graphviz, which would abort or
// silently drop what it cannot place; messages name the edge, cluster or node.

#include "graph/graph_layout.h"

#include <cmath>
#include <string>

namespace stagecraft::views::graphview {

namespace {

bool validSize(const QSizeF& size) {
    return std::isfinite(size.width()) && std::isfinite(size.height()) && size.width() > 0 &&
           size.height() > 0;
}

bool validNode(int node, size_t nodeCount) {
    return node >= 0 && static_cast<size_t>(node) < nodeCount;
}

std::string outOfRange(const std::string& what, int node, size_t nodeCount) {
    return what + " names node " + std::to_string(node) + ", but there are " +
           std::to_string(nodeCount) + " nodes";
}

Status validateClusters(const LayoutInput& input) {
    std::vector<int> clusterOf(input.nodes.size(), -1);
    for (size_t c = 0; c < input.clusters.size(); ++c) {
        const LayoutCluster& cluster = input.clusters[c];
        std::string name = "cluster " + std::to_string(c);
        if (cluster.nodes.empty())
            return Error(name + " has no nodes");
        if (!std::isfinite(cluster.labelSize.width()) || !std::isfinite(cluster.labelSize.height()))
            return Error(name + " has an invalid label size");
        for (int node : cluster.nodes) {
            if (!validNode(node, input.nodes.size()))
                return Error(outOfRange(name, node, input.nodes.size()));
            int& owner = clusterOf[static_cast<size_t>(node)];
            if (owner != -1)
                return Error("node " + std::to_string(node) + " is in cluster " +
                             std::to_string(owner) + " and in " + name);
            owner = static_cast<int>(c);
        }
    }
    return Status::success();
}

} // namespace

Status validateLayoutInput(const LayoutInput& input) {
    for (size_t n = 0; n < input.nodes.size(); ++n)
        if (!validSize(input.nodes[n].size))
            return Error("node " + std::to_string(n) + " has an invalid size");
    for (size_t e = 0; e < input.edges.size(); ++e) {
        const LayoutEdge& edge = input.edges[e];
        std::string name = "edge " + std::to_string(e);
        if (!validNode(edge.from, input.nodes.size()))
            return Error(outOfRange(name, edge.from, input.nodes.size()));
        if (!validNode(edge.to, input.nodes.size()))
            return Error(outOfRange(name, edge.to, input.nodes.size()));
    }
    return validateClusters(input);
}

} // namespace stagecraft::views::graphview
