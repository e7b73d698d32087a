#pragma once
// Paths in a graph, computed plainly for the partition tests to check the
// algorithms' sub-graphs against: successors, reachability, convexity and
// connectivity.

#include "ir/graph.h"

#include <set>
#include <vector>

namespace stagecraft::test {

using Ops = std::vector<ir::OpId>;

/// Successor ops of every op (by tensor uses).
inline IdVector<ir::OpId, std::set<ir::OpId>> successors(const ir::Graph& g) {
    IdVector<ir::OpId, std::set<ir::OpId>> next(g.opCount());
    for (ir::OpId o : g.opIds())
        for (ir::TensorId t : g.op(o).outputs)
            for (const ir::Use& use : g.tensor(t).uses)
                next[o].insert(use.op);
    return next;
}

/// reach[a][b]: a path of one or more edges leads from a to b.
inline std::vector<std::vector<char>> reachability(const ir::Graph& g) {
    auto next = successors(g);
    size_t n = g.opCount();
    std::vector<std::vector<char>> reach(n, std::vector<char>(n, 0));
    for (size_t i = n; i-- > 0;)
        for (ir::OpId s : next[ir::OpId::at(i)]) {
            reach[i][s.index()] = 1;
            for (size_t k = 0; k < n; ++k)
                reach[i][k] |= reach[s.index()][k];
        }
    return reach;
}

inline bool convex(const std::vector<std::vector<char>>& reach, const std::set<ir::OpId>& set,
                   size_t n) {
    for (ir::OpId a : set)
        for (size_t w = 0; w < n; ++w)
            if (!set.count(ir::OpId::at(w)) && reach[a.index()][w])
                for (ir::OpId b : set)
                    if (reach[w][b.index()])
                        return false;
    return true;
}

inline bool connected(const ir::Graph& g, const Ops& ops) {
    std::set<ir::OpId> in(ops.begin(), ops.end()), seen{ops.front()};
    auto next = successors(g);
    std::vector<ir::OpId> stack{ops.front()};
    while (!stack.empty()) {
        ir::OpId o = stack.back();
        stack.pop_back();
        for (ir::OpId other : ops) {
            bool edge = next[o].count(other) || next[other].count(o);
            if (edge && seen.insert(other).second)
                stack.push_back(other);
        }
    }
    return seen == in;
}

} // namespace stagecraft::test
