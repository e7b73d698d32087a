// Baseline groupings (docs/baselines.md). TVM §3: ops are visited in graph
// order; an op joins the group of the producer of its first activation input
// when the group's pattern accepts it and the op is the only reader left of
// everything the group produced (so no path leaves the group and returns,
// and the quotient stays acyclic).
// AStitch (GraphTurbo §5.2): TVM's groups, then a memory-intensive group
// merges into its consumer when one of the two has the other as its only
// neighbour on that side (no other path between them can exist).

#include "partition/fusion.h"

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

namespace {

/// Reads of a tensor outside its group: its uses, one more for a graph output.
int64_t readsOf(const ir::Graph& graph, ir::TensorId tensor) {
    return static_cast<int64_t>(graph.tensor(tensor).uses.size()) +
           (graph.isGraphOutput(tensor) ? 1 : 0);
}

/// TVM's groups being built: each op's group, each group's pattern and the
/// reads of its tensors by ops not (yet) in it. An op may join a group only
/// when it is the group's one remaining reader: then no path leaves the group
/// and comes back (a Split whose other part returns through a Conv would).
class TvmFusion {
public:
    TvmFusion(const ir::Graph& graph, const SemanticsCache& semantics)
        : graph_(graph)
        , semantics_(semantics)
        , groupOf_(graph.opCount(), kNoGroup) {}

    Assignment run() {
        for (ir::OpId op : graph_.opIds())
            place(op);
        return std::move(groupOf_);
    }

private:
    void place(ir::OpId id) {
        const ir::Op& op = graph_.op(id);
        Category category = semantics_.of(id).category;
        ir::TensorId in = fusableInput(graph_, op);
        GroupId g = in == ir::kNoTensor ? kNoGroup : groupOf_[graph_.tensor(in).producer];
        int64_t readsFromG = g == kNoGroup ? 0 : readsFrom(op, g);
        if (g != kNoGroup && accepts(pattern_[g], category) && outside_[g] == readsFromG) {
            groupOf_[id] = g;
            outside_[g] -= readsFromG;
            if (category == Category::Reduction)
                pattern_[g] = Pattern::Reduction;
        } else {
            g = pattern_.nextId();
            groupOf_[id] = g;
            pattern_.push_back(patternOf(category));
            outside_.push_back(0);
        }
        for (ir::TensorId out : op.outputs)
            outside_[g] += readsOf(graph_, out);
    }

    /// Input slots of \p op reading tensors that group \p g produced.
    int64_t readsFrom(const ir::Op& op, GroupId g) const {
        int64_t reads = 0;
        for (ir::TensorId in : op.inputs)
            if (in != ir::kNoTensor && graph_.tensor(in).producer != ir::kNoOp &&
                groupOf_[graph_.tensor(in).producer] == g)
                ++reads;
        return reads;
    }

    const ir::Graph& graph_;
    const SemanticsCache& semantics_;
    Assignment groupOf_;
    IdVector<GroupId, Pattern> pattern_;
    IdVector<GroupId, int64_t> outside_;
};

} // namespace

Partition groupTvm(const ir::Graph& graph, const SemanticsCache& semantics) {
    Expected<Partition> result =
        Partition::fromAssignment(graph, TvmFusion(graph, semantics).run());
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

GroupId find(IdVector<GroupId, GroupId>& parent, GroupId g) {
    while (parent[g] != g)
        g = parent[g] = parent[parent[g]];
    return g;
}

/// One round of stitching over \p p; false when nothing merged.
bool stitchOnce(const ir::Graph& graph, const SemanticsCache& semantics, Partition& p) {
    IdVector<GroupId, GroupId> parent(p.groupCount());
    for (GroupId g : p.groupIds())
        parent[g] = g;
    IdVector<GroupId, bool> touched(p.groupCount(), false);
    bool merged = false;
    for (GroupId producer : p.groupIds()) {
        if (touched[producer] || hasComplexOp(p, producer, semantics))
            continue;
        for (GroupId consumer : p.consumers(producer)) {
            bool onlyEdge = p.consumers(producer).size() == 1 || p.producers(consumer).size() == 1;
            if (touched[consumer] || !onlyEdge || hasComplexOp(p, consumer, semantics))
                continue;
            parent[consumer] = producer;
            touched[producer] = touched[consumer] = true;
            merged = true;
            break;
        }
    }
    if (!merged)
        return false;
    Assignment groupOf(graph.opCount(), kNoGroup);
    for (ir::OpId op : graph.opIds())
        groupOf[op] = find(parent, p.groupOf(op));
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
