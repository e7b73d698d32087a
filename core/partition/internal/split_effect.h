#pragma once
// Internal to core/partition: what one split (dim, factor) of a sub-graph
// does, measured on one interior instance (Algorithm 1's inner step, used by
// split_info.cpp): ops split, footprint, recomputed work, input reads.

#include "partition/split_info.h"

#include <span>
#include <vector>

namespace stagecraft::partition::detail {

/// Whether \p op is one of \p ops (sorted).
bool inGroup(std::span<const ir::OpId> ops, ir::OpId op);

/// The tensors of \p ops read outside them or returned by the graph.
std::vector<ir::TensorId> groupOutputs(const ir::Graph& graph, std::span<const ir::OpId> ops);

/// The largest of \p outputs (the last when equal), or the last op's first
/// output when there are none: the output a group is split by.
ir::TensorId largestOf(const ir::Graph& graph, std::span<const ir::OpId> ops,
                       std::span<const ir::TensorId> outputs);

/// What a split (dim, factor) does to the group, from one interior instance.
struct SplitEffect {
    bool valid = true;
    int64_t opsSplit = 0;
    int64_t footprint = 0;
    /// Bytes of the tensors one instance holds at once (liveSetBytes), when
    /// asked for.
    int64_t liveSet = 0;
    double extraWork = 0;
    double totalWork = 0;
    /// Bytes of the group's activation inputs one instance reads, and their
    /// size (each read once).
    double inputReadBytes = 0;
    double inputBytes = 0;
    /// The same for the group's weights (constant inputs).
    double weightReadBytes = 0;
    double weightBytes = 0;
};

class SplitEvaluator {
public:
    SplitEvaluator(const ir::Graph& graph, const SemanticsCache& semantics,
                   std::span<const ir::OpId> ops, std::vector<ir::TensorId> outputs);

    /// The output the group is split by: the largest of its outputs.
    ir::TensorId output() const { return output_; }

    /// \p withLiveSet: also SplitEffect::liveSet (the final split only).
    SplitEffect evaluate(int dim, int64_t factor, bool withLiveSet = false) const;

    /// The most bytes of its own tensors an instance holds at once, its ops
    /// run in graph order: an output is held from its op until its last
    /// reader in the group; the group's outputs until the instance ends.
    int64_t liveSetBytes(const BoxMap* boxes) const;

private:
    void countInputReads(const BoxMap& boxes, SplitEffect& effect) const;
    SplitEffect countUnsplit(int64_t factor) const;
    void account(ir::OpId op, const BoxMap& boxes, int64_t factor, SplitEffect& effect) const;

    const ir::Graph& graph_;
    const SemanticsCache& semantics_;
    std::span<const ir::OpId> ops_;
    ir::TensorId output_;
    std::vector<ir::TensorId> outputs_;
};

} // namespace stagecraft::partition::detail
