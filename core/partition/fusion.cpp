// Baseline groupings (docs/baselines.md). TVM §3: ops are visited in graph
// order; an op joins the group of the producer of its first activation input
// when the group's pattern accepts it and that producer's output has no other
// reader (so the group keeps a single exit and the quotient stays acyclic).
// AStitch (GraphTurbo §5.2): TVM's groups, then a memory-intensive group
// merges into its consumer when one of the two has the other as its only
// neighbour on that side (no other path between them can exist).

#include "partition/fusion.h"

#include <numeric>

namespace stagecraft::partition {

namespace {

using ops::Category;

/// What a TVM group still accepts, from the ops it holds.
enum class Pattern { Injective, OutFusable, Reduction, Opaque };

Pattern patternOf(Category category) {
    switch (category) {
    case Category::Elementwise:
    case Category::Injective:
        return Pattern::Injective;
    case Category::Complex:
        return Pattern::OutFusable;
    case Category::Reduction:
        return Pattern::Reduction;
    case Category::Opaque:
        return Pattern::Opaque;
    }
    return Pattern::Opaque;
}

/// The single activation tensor an op would fuse through: its first
/// non-constant input produced by an op and read by that op only.
ir::TensorId fusableInput(const ir::Graph& graph, const ir::Op& op) {
    for (ir::TensorId in : op.inputs) {
        if (in == ir::kNoTensor)
            continue;
        const ir::Tensor& t = graph.tensor(in);
        if (t.isConstant() || t.producer == ir::kNoOp)
            continue;
        bool single = t.uses.size() == 1 && !graph.isGraphOutput(in);
        return single ? in : ir::kNoTensor;
    }
    return ir::kNoTensor;
}

bool accepts(Pattern group, Category next) {
    if (group == Pattern::OutFusable)
        return next == Category::Elementwise;
    if (group == Pattern::Injective)
        return next == Category::Elementwise || next == Category::Injective ||
               next == Category::Reduction;
    return false;
}

} // namespace

Partition groupTvm(const ir::Graph& graph, const SemanticsCache& semantics) {
    std::vector<GroupId> groupOf(graph.opCount(), kNoGroup);
    std::vector<Pattern> pattern;
    for (size_t i = 0; i < graph.opCount(); ++i) {
        const ir::Op& op = graph.op(static_cast<ir::OpId>(i));
        Category category = semantics.of(static_cast<ir::OpId>(i)).category;
        ir::TensorId in = fusableInput(graph, op);
        if (in != ir::kNoTensor) {
            GroupId g = groupOf[static_cast<size_t>(graph.tensor(in).producer)];
            if (accepts(pattern[static_cast<size_t>(g)], category)) {
                groupOf[i] = g;
                if (category == Category::Reduction)
                    pattern[static_cast<size_t>(g)] = Pattern::Reduction;
                continue;
            }
        }
        groupOf[i] = static_cast<GroupId>(pattern.size());
        pattern.push_back(patternOf(category));
    }
    Expected<Partition> result = Partition::fromAssignment(graph, std::move(groupOf));
    SC_ASSERT(result.ok(), "TVM fusion keeps the quotient acyclic");
    return std::move(result).value();
}

namespace {

bool hasComplexOp(const Partition& p, GroupId g, const SemanticsCache& semantics) {
    for (ir::OpId op : p.ops(g))
        if (semantics.of(op).category == Category::Complex ||
            semantics.of(op).category == Category::Opaque)
            return true;
    return false;
}

GroupId find(std::vector<GroupId>& parent, GroupId g) {
    while (parent[static_cast<size_t>(g)] != g)
        g = parent[static_cast<size_t>(g)] =
            parent[static_cast<size_t>(parent[static_cast<size_t>(g)])];
    return g;
}

/// One round of stitching over \p p; false when nothing merged.
bool stitchOnce(const ir::Graph& graph, const SemanticsCache& semantics, Partition& p) {
    std::vector<GroupId> parent(p.groupCount());
    std::iota(parent.begin(), parent.end(), 0);
    std::vector<bool> touched(p.groupCount(), false);
    bool merged = false;
    for (size_t i = 0; i < p.groupCount(); ++i) {
        GroupId producer = static_cast<GroupId>(i);
        if (touched[i] || hasComplexOp(p, producer, semantics))
            continue;
        for (GroupId consumer : p.consumers(producer)) {
            bool onlyEdge = p.consumers(producer).size() == 1 || p.producers(consumer).size() == 1;
            if (touched[static_cast<size_t>(consumer)] || !onlyEdge ||
                hasComplexOp(p, consumer, semantics))
                continue;
            parent[static_cast<size_t>(consumer)] = producer;
            touched[i] = touched[static_cast<size_t>(consumer)] = true;
            merged = true;
            break;
        }
    }
    if (!merged)
        return false;
    std::vector<GroupId> groupOf(graph.opCount(), kNoGroup);
    for (size_t op = 0; op < graph.opCount(); ++op)
        groupOf[op] = find(parent, p.groupOf(static_cast<ir::OpId>(op)));
    Expected<Partition> next = Partition::fromAssignment(graph, std::move(groupOf));
    SC_ASSERT(next.ok(), "stitching keeps the quotient acyclic");
    p = std::move(next).value();
    return true;
}

} // namespace

Partition groupAStitch(const ir::Graph& graph, const SemanticsCache& semantics) {
    Partition p = groupTvm(graph, semantics);
    while (stitchOnce(graph, semantics, p)) {
    }
    return p;
}

} // namespace stagecraft::partition
