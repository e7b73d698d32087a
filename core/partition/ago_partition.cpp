// AGO §IV–V: Eq. (1) weights, Algorithm 1 CLUSTER over hyper nodes with
// topological stages recomputed after every merge (Definition 2: the longest
// path from a root, in the graph of hyper nodes), affix sets of Definition 3,
// then SPLIT and JOIN. A node and a member of its affix set are joined by an
// edge and by no longer path, so merging them closes no cycle (Theorem 1).

#include "partition/ago_partition.h"

#include <algorithm>
#include <cmath>

namespace stagecraft::partition {

namespace {

/// The graph of hyper nodes CLUSTER works on: ops of one set, induced edges.
class Clusterer {
public:
    Clusterer(const ir::Graph& graph, const std::vector<ir::OpId>& ops,
              const IdVector<ir::OpId, double>& weights, const std::vector<char>& complex)
        : members_(ops.size())
        , weight_(ops.size())
        , complex_(ops.size())
        , alive_(ops.size(), 1)
        , succ_(ops.size())
        , pred_(ops.size()) {
        IdVector<ir::OpId, int> position(graph.opCount(), -1);
        for (size_t i = 0; i < ops.size(); ++i) {
            position[ops[i]] = static_cast<int>(i);
            members_[i] = {ops[i]};
            weight_[i] = weights[ops[i]];
            complex_[i] = complex[i];
        }
        for (size_t i = 0; i < ops.size(); ++i)
            for (ir::TensorId t : graph.op(ops[i]).outputs)
                for (const ir::Use& use : graph.tensor(t).uses)
                    if (int to = position[use.op]; to >= 0 && to != static_cast<int>(i)) {
                        succ_[i].push_back(to);
                        pred_[static_cast<size_t>(to)].push_back(static_cast<int>(i));
                    }
        for (size_t i = 0; i < ops.size(); ++i) {
            dedupe(succ_[i]);
            dedupe(pred_[i]);
        }
    }

    /// Algorithm 1, lines 4–13; with \p oneComplex no hyper node takes a
    /// second complex op (SPLIT). Records merges in \p merges when given.
    void cluster(double threshold, bool oneComplex, std::vector<AgoMerge>* merges) {
        std::vector<char> candidate = alive_;
        std::vector<int> stage = stages();
        for (;;) {
            int v = heaviest(candidate);
            if (v < 0)
                return;
            int u = lightestAffix(v, stage, oneComplex);
            if (u < 0 ||
                !(weight_[static_cast<size_t>(v)] + weight_[static_cast<size_t>(u)] < threshold)) {
                candidate[static_cast<size_t>(v)] = 0;
                continue;
            }
            if (merges != nullptr)
                merges->push_back(
                    {members_[static_cast<size_t>(v)], members_[static_cast<size_t>(u)],
                     weight_[static_cast<size_t>(v)], weight_[static_cast<size_t>(u)]});
            merge(v, u);
            candidate[static_cast<size_t>(u)] = 0;
            stage = stages();
        }
    }

    /// The hyper nodes' ops, each sorted, in the order of their first op.
    std::vector<std::vector<ir::OpId>> nodes() const {
        std::vector<std::vector<ir::OpId>> out;
        for (size_t i = 0; i < members_.size(); ++i)
            if (alive_[i]) {
                std::vector<ir::OpId> ops = members_[i];
                std::sort(ops.begin(), ops.end());
                out.push_back(std::move(ops));
            }
        std::sort(out.begin(), out.end());
        return out;
    }

private:
    static void dedupe(std::vector<int>& v) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
    }

    /// The first op of hyper node \p n: ties go to the earlier one.
    ir::OpId firstOp(int n) const {
        const auto& m = members_[static_cast<size_t>(n)];
        return *std::min_element(m.begin(), m.end());
    }

    bool before(int a, int b) const { return firstOp(a) < firstOp(b); }

    /// Definition 2 over the alive hyper nodes: 1 + the longest path from a
    /// node without predecessors (Kahn's order).
    std::vector<int> stages() const {
        size_t n = members_.size();
        std::vector<int> stage(n, 1), indegree(n, 0), ready;
        for (size_t i = 0; i < n; ++i)
            if (alive_[i]) {
                indegree[i] = static_cast<int>(pred_[i].size());
                if (indegree[i] == 0)
                    ready.push_back(static_cast<int>(i));
            }
        while (!ready.empty()) {
            int a = ready.back();
            ready.pop_back();
            for (int s : succ_[static_cast<size_t>(a)]) {
                auto si = static_cast<size_t>(s);
                stage[si] = std::max(stage[si], stage[static_cast<size_t>(a)] + 1);
                if (--indegree[si] == 0)
                    ready.push_back(s);
            }
        }
        return stage;
    }

    /// Line 5: the heaviest candidate, or -1.
    int heaviest(const std::vector<char>& candidate) const {
        int best = -1;
        for (size_t i = 0; i < candidate.size(); ++i) {
            if (!candidate[i])
                continue;
            auto b = static_cast<size_t>(best);
            if (best < 0 || weight_[i] > weight_[b] ||
                (weight_[i] == weight_[b] && before(static_cast<int>(i), best)))
                best = static_cast<int>(i);
        }
        return best;
    }

    /// Line 6: the lightest node of v's affix set (Definition 3: adjacent,
    /// one stage apart), or -1.
    int lightestAffix(int v, const std::vector<int>& stage, bool oneComplex) const {
        auto vi = static_cast<size_t>(v);
        int best = -1;
        for (const auto* side : {&succ_[vi], &pred_[vi]})
            for (int u : *side) {
                auto ui = static_cast<size_t>(u);
                if (std::abs(stage[ui] - stage[vi]) != 1)
                    continue;
                if (oneComplex && complex_[ui] + complex_[vi] > 1)
                    continue;
                auto b = static_cast<size_t>(best);
                if (best < 0 || weight_[ui] < weight_[b] ||
                    (weight_[ui] == weight_[b] && before(u, best)))
                    best = u;
            }
        return best;
    }

    /// Line 7 and 12: u joins v; the edges of u become v's.
    void merge(int v, int u) {
        auto vi = static_cast<size_t>(v);
        auto ui = static_cast<size_t>(u);
        members_[vi].insert(members_[vi].end(), members_[ui].begin(), members_[ui].end());
        weight_[vi] += weight_[ui];
        complex_[vi] += complex_[ui];
        alive_[ui] = 0;
        for (int s : succ_[ui]) {
            succ_[vi].push_back(s);
            std::replace(pred_[static_cast<size_t>(s)].begin(), pred_[static_cast<size_t>(s)].end(),
                         u, v);
            dedupe(pred_[static_cast<size_t>(s)]);
        }
        for (int p : pred_[ui]) {
            pred_[vi].push_back(p);
            std::replace(succ_[static_cast<size_t>(p)].begin(), succ_[static_cast<size_t>(p)].end(),
                         u, v);
            dedupe(succ_[static_cast<size_t>(p)]);
        }
        for (auto* list : {&succ_[vi], &pred_[vi]}) {
            list->erase(
                std::remove_if(list->begin(), list->end(), [&](int x) { return x == u || x == v; }),
                list->end());
            dedupe(*list);
        }
        succ_[ui].clear();
        pred_[ui].clear();
    }

    std::vector<std::vector<ir::OpId>> members_;
    std::vector<double> weight_;
    std::vector<int> complex_;
    std::vector<char> alive_;
    std::vector<std::vector<int>> succ_;
    std::vector<std::vector<int>> pred_;
};

std::vector<char> complexFlags(const SemanticsCache& semantics, const std::vector<ir::OpId>& ops) {
    std::vector<char> flags;
    for (ir::OpId op : ops)
        flags.push_back(semantics.of(op).category == ops::Category::Complex ? 1 : 0);
    return flags;
}

Expected<Partition> partitionOf(const ir::Graph& graph,
                                const std::vector<std::vector<ir::OpId>>& nodes, const char* what) {
    Assignment groupOf(graph.opCount(), GroupId::at(0));
    for (size_t n = 0; n < nodes.size(); ++n)
        for (ir::OpId op : nodes[n])
            groupOf[op] = GroupId::at(n);
    Expected<Partition> p = Partition::fromAssignment(graph, std::move(groupOf));
    if (!p.ok())
        return Error(std::string("AGO ") + what +
                     " is not acyclic (Theorem 1): " + p.error().message());
    return p;
}

} // namespace

double agoWeight(const SemanticsCache& semantics, ir::OpId op, const AgoParams& params) {
    double total = 0;
    for (const ops::LoopNest& nest : semantics.of(op).nests) {
        double product = 1;
        for (const ops::LoopDim& loop : nest.loops)
            if (loop.extent > 1)
                product *= std::log(static_cast<double>(loop.extent));
        total += params.slope * product + params.bias;
    }
    return semantics.of(op).nests.empty() ? params.slope + params.bias : total;
}

Expected<AgoPartition> partitionAgo(const ir::Graph& graph, const SemanticsCache& semantics,
                                    const AgoParams& params) {
    AgoPartition result;
    double heaviest = 0;
    for (ir::OpId op : graph.opIds()) {
        result.weights.push_back(agoWeight(semantics, op, params));
        heaviest = std::max(heaviest, result.weights[op]);
    }
    result.threshold = params.threshold > 0 ? params.threshold : 3 * heaviest;
    std::vector<ir::OpId> all(graph.opIds().begin(), graph.opIds().end());
    Clusterer whole(graph, all, result.weights, complexFlags(semantics, all));
    whole.cluster(result.threshold, false, &result.merges);
    std::vector<std::vector<ir::OpId>> subgraphs = whole.nodes();
    SC_ASSIGN_OR_RETURN(result.subgraphs, partitionOf(graph, subgraphs, "CLUSTER"));
    // SPLIT: CLUSTER again inside each sub-graph, one complex op per node.
    std::vector<std::vector<ir::OpId>> minis;
    for (const std::vector<ir::OpId>& ops : subgraphs) {
        Clusterer inside(graph, ops, result.weights, complexFlags(semantics, ops));
        inside.cluster(result.threshold, true, nullptr);
        for (std::vector<ir::OpId>& mini : inside.nodes())
            minis.push_back(std::move(mini));
    }
    SC_ASSIGN_OR_RETURN(result.minis, partitionOf(graph, minis, "SPLIT"));
    // JOIN: each mini-sub-graph goes back to the sub-graph it came from.
    for (GroupId m : result.minis.groupIds())
        result.parentOf.push_back(result.subgraphs.groupOf(result.minis.ops(m).front()));
    return result;
}

} // namespace stagecraft::partition
