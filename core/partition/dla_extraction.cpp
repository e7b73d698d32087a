// DLA sub-graph extraction (dla_extraction.h).
//
// Step 1 merges supported ops along their edges, in graph order, while no
// path leaves the merged sub-graph and comes back into it, through ops or
// other sub-graphs (§3's convexity, the rule against deadlock, kept for the
// sub-graphs together: their graph stays acyclic), until no edge can merge:
// the sub-graphs are connected, convex and maximal (merging any two
// adjacent ones would close a cycle).
//
// Step 2, the post-prune, cuts each sub-graph into parts. A part grows from
// its entry op (the first unassigned op in graph order) by the ops of the
// sub-graph that read only the part, so the entry is its one input
// operator; it keeps the longest such prefix, in graph order, that has one
// output operator. Every edge between parts then runs from an earlier part
// to a later one, so the parts stay acyclic.

#include "partition/dla_extraction.h"

#include <algorithm>

namespace stagecraft::partition {

namespace {

using ir::OpId;

/// The ops reading an output of \p op, once per reading slot.
std::vector<OpId> consumersOf(const ir::Graph& graph, OpId op) {
    std::vector<OpId> out;
    for (ir::TensorId t : graph.op(op).outputs)
        for (const ir::Use& use : graph.tensor(t).uses)
            out.push_back(use.op);
    return out;
}

/// The producers of \p op's non-constant inputs, once per slot; kNoOp for a
/// graph input.
std::vector<OpId> producersOf(const ir::Graph& graph, OpId op) {
    std::vector<OpId> in;
    for (ir::TensorId t : graph.op(op).inputs)
        if (t != ir::kNoTensor && !graph.tensor(t).isConstant())
            in.push_back(graph.tensor(t).producer);
    return in;
}

/// Disjoint sets of ops, each with its members in graph order.
class OpSets {
public:
    explicit OpSets(size_t count)
        : parent_(count)
        , members_(count) {
        for (OpId op : parent_.ids()) {
            parent_[op] = op;
            members_[op] = {op};
        }
    }

    OpId find(OpId op) {
        while (parent_[op] != op)
            op = parent_[op] = parent_[parent_[op]];
        return op;
    }

    /// Unites the sets rooted at \p a and \p b; the smaller root stays.
    void unite(OpId a, OpId b) {
        if (b < a)
            std::swap(a, b);
        parent_[b] = a;
        std::vector<OpId>& into = members_[a];
        into.insert(into.end(), members_[b].begin(), members_[b].end());
        std::sort(into.begin(), into.end());
        members_[b].clear();
    }

    const std::vector<OpId>& members(OpId root) const { return members_[root]; }

private:
    IdVector<OpId, OpId> parent_;
    IdVector<OpId, std::vector<OpId>> members_;
};

/// True when no path leaves the union of the sets rooted at \p a and \p b
/// and comes back into it, through ops or through the other sets (a set is
/// entered whole): the merged sub-graph is convex and the sub-graphs stay
/// acyclic, so none waits on another that waits on it.
bool mergeKeepsAcyclic(const ir::Graph& graph, OpSets& sets, OpId a, OpId b) {
    IdVector<OpId, char> inside(graph.opCount(), 0);
    for (OpId root : {a, b})
        for (OpId op : sets.members(root))
            inside[op] = 1;
    IdVector<OpId, char> seen(graph.opCount(), 0);
    std::vector<OpId> stack;
    auto leave = [&](OpId from) {
        for (OpId next : consumersOf(graph, from))
            if (!inside[next] && !seen[next]) {
                for (OpId member : sets.members(sets.find(next))) {
                    seen[member] = 1;
                    stack.push_back(member);
                }
            }
    };
    for (OpId root : {a, b})
        for (OpId op : sets.members(root))
            leave(op);
    while (!stack.empty()) {
        OpId op = stack.back();
        stack.pop_back();
        for (OpId next : consumersOf(graph, op))
            if (inside[next])
                return false;
        leave(op);
    }
    return true;
}

/// Step 1: merges supported neighbours while the union stays convex.
Assignment extractSubgraphs(const ir::Graph& graph, const IdVector<OpId, char>& supported) {
    OpSets sets(graph.opCount());
    for (bool merged = true; merged;) {
        merged = false;
        for (OpId consumer : graph.opIds()) {
            if (!supported[consumer])
                continue;
            for (OpId producer : producersOf(graph, consumer)) {
                if (producer == ir::kNoOp || !supported[producer])
                    continue;
                OpId a = sets.find(producer), b = sets.find(consumer);
                if (a != b && mergeKeepsAcyclic(graph, sets, a, b)) {
                    sets.unite(a, b);
                    merged = true;
                }
            }
        }
    }
    Assignment groupOf(graph.opCount());
    for (OpId op : graph.opIds())
        groupOf[op] = GroupId(sets.find(op).value());
    return groupOf;
}

/// The longest prefix of \p region (in graph order, the entry first) with at
/// most one output operator.
size_t prefixWithOneOutput(const ir::Graph& graph, const std::vector<OpId>& region) {
    IdVector<OpId, int64_t> pending(graph.opCount(), 0); // readers not yet in
    IdVector<OpId, char> in(graph.opCount(), 0);
    int64_t outputs = 0;
    auto isOutput = [&](OpId op) {
        bool graphOutput = std::any_of(graph.op(op).outputs.begin(), graph.op(op).outputs.end(),
                                       [&](ir::TensorId t) { return graph.isGraphOutput(t); });
        return graphOutput || pending[op] > 0;
    };
    size_t best = 1;
    for (size_t k = 0; k < region.size(); ++k) {
        OpId op = region[k];
        for (OpId producer : producersOf(graph, op))
            if (producer != ir::kNoOp && in[producer]) {
                bool was = isOutput(producer);
                --pending[producer];
                outputs -= was && !isOutput(producer) ? 1 : 0;
            }
        in[op] = 1;
        pending[op] = static_cast<int64_t>(consumersOf(graph, op).size());
        outputs += isOutput(op) ? 1 : 0;
        if (outputs <= 1)
            best = k + 1;
    }
    return best;
}

/// True when \p op reads at least one tensor and every non-constant one
/// from \p part.
bool readsOnly(const ir::Graph& graph, OpId op, const IdVector<OpId, char>& part) {
    std::vector<OpId> producers = producersOf(graph, op);
    return !producers.empty() && std::all_of(producers.begin(), producers.end(),
                                             [&](OpId p) { return p != ir::kNoOp && part[p]; });
}

/// Step 2: the parts of one sub-graph (\p ops in graph order), numbered
/// from \p next on.
void pruneSubgraph(const ir::Graph& graph, const std::vector<OpId>& ops, Assignment& partOf,
                   int32_t& next) {
    IdVector<OpId, char> assigned(graph.opCount(), 0);
    for (size_t i = 0; i < ops.size(); ++i) {
        if (assigned[ops[i]])
            continue;
        IdVector<OpId, char> part(graph.opCount(), 0);
        std::vector<OpId> region{ops[i]};
        part[ops[i]] = 1;
        for (size_t j = i + 1; j < ops.size(); ++j)
            if (!assigned[ops[j]] && readsOnly(graph, ops[j], part)) {
                region.push_back(ops[j]);
                part[ops[j]] = 1;
            }
        region.resize(prefixWithOneOutput(graph, region));
        for (OpId op : region) {
            assigned[op] = 1;
            partOf[op] = GroupId(next);
        }
        ++next;
    }
}

} // namespace

std::vector<OpId> inputOperators(const ir::Graph& graph, const std::vector<OpId>& ops) {
    IdVector<OpId, char> in(graph.opCount(), 0);
    for (OpId op : ops)
        in[op] = 1;
    std::vector<OpId> out;
    for (OpId op : ops) {
        std::vector<OpId> producers = producersOf(graph, op);
        if (std::any_of(producers.begin(), producers.end(),
                        [&](OpId p) { return p == ir::kNoOp || !in[p]; }))
            out.push_back(op);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<OpId> outputOperators(const ir::Graph& graph, const std::vector<OpId>& ops) {
    IdVector<OpId, char> in(graph.opCount(), 0);
    for (OpId op : ops)
        in[op] = 1;
    std::vector<OpId> out;
    for (OpId op : ops) {
        const auto& outputs = graph.op(op).outputs;
        std::vector<OpId> consumers = consumersOf(graph, op);
        if (std::any_of(outputs.begin(), outputs.end(),
                        [&](ir::TensorId t) { return graph.isGraphOutput(t); }) ||
            std::any_of(consumers.begin(), consumers.end(), [&](OpId c) { return !in[c]; }))
            out.push_back(op);
    }
    std::sort(out.begin(), out.end());
    return out;
}

Expected<DlaExtraction> extractDlaSubgraphs(const ir::Graph& graph,
                                            const IdVector<OpId, char>& supported) {
    DlaExtraction result;
    SC_ASSIGN_OR_RETURN(result.extracted,
                        Partition::fromAssignment(graph, extractSubgraphs(graph, supported)));
    Assignment partOf(graph.opCount());
    int32_t next = 0;
    for (GroupId g : result.extracted.groupIds()) {
        auto ops = result.extracted.ops(g);
        std::vector<OpId> members(ops.begin(), ops.end());
        if (supported[members.front()])
            pruneSubgraph(graph, members, partOf, next);
        else
            for (OpId op : members)
                partOf[op] = GroupId(next++);
    }
    SC_ASSIGN_OR_RETURN(result.parts, Partition::fromAssignment(graph, std::move(partOf)));
    result.onAccelerator.assign(result.parts.groupCount(), 0);
    for (GroupId g : result.parts.groupIds())
        result.onAccelerator[g] = supported[result.parts.ops(g).front()];
    return result;
}

} // namespace stagecraft::partition
