#pragma once
/// \file
/// Slices of tensors inside a sub-graph. A split of a group's output (one
/// instance's part of it) propagates backwards through the group's ops along
/// their access maps: every tensor the ops touch gets the box (one closed
/// interval per dim) that instance needs, halos included. From boxes follow
/// which tensors a split reaches (Algorithm 1's match_dim), the instance's
/// footprint, its recomputation and the fine-grained dependencies between
/// instances (§3.3). Also the peak footprint of a group (§3.1 `peak`).

#include "ir/graph.h"
#include "ops/semantics.h"
#include "partition/box.h"
#include "support/expected.h"

#include <cstdint>
#include <span>
#include <vector>

namespace stagecraft::partition {

/// Op semantics of every op of a graph, computed once: the scheduler reads
/// them many times and must stay near-linear in the graph size.
class SemanticsCache {
public:
    /// Fails when an op contradicts its canonical form.
    static Expected<SemanticsCache> build(const ir::Graph& graph);
    const ops::OpSemantics& of(ir::OpId op) const { return semantics_[op]; }

private:
    IdVector<ir::OpId, ops::OpSemantics> semantics_;
};

/// The whole of \p shape.
Box fullBox(const ir::Shape& shape);
/// Elements in \p box (0 when a dim is empty).
int64_t boxElements(const Box& box);
/// The dims where \p box is smaller than \p shape.
std::vector<int> restrictedDims(const Box& box, const ir::Shape& shape);
/// The first of restrictedDims(), or -1 (without allocating).
int firstRestrictedDim(const Box& box, const ir::Shape& shape);

/// Boxes by tensor id: a flat open-addressing table, since the scheduler
/// builds one per propagation (millions on a large graph). A pointer from
/// find() stays valid until the next merge().
class BoxMap {
public:
    const Box* find(ir::TensorId id) const;
    /// Grows the box of \p id to cover \p box too (union of ranges per dim).
    void merge(ir::TensorId id, Box box);
    /// Room for \p entries boxes without rehashing.
    void reserve(size_t entries);
    /// Index by tensor id directly (ids below \p tensors) instead of by
    /// hash: for a propagation that touches a large part of the graph.
    void indexDensely(size_t tensors);

private:
    int32_t* slotFor(ir::TensorId id);
    void grow();

    std::vector<std::pair<ir::TensorId, Box>> entries_;
    /// Index into entries_ or -1; a power of two at least twice entries_
    /// (hashed), or one per tensor id (dense_).
    std::vector<int32_t> slots_;
    bool dense_ = false;
};

/// Propagates \p outputBoxes (boxes of some tensors produced by \p ops)
/// backwards through \p ops (in graph order): each op's loops range over its
/// output's box (reductions over their whole extent) and every input gets the
/// union of the index ranges its maps reach. Returns boxes for every tensor
/// the ops write or read (weights included).
BoxMap propagateBoxes(const ir::Graph& graph, const SemanticsCache& semantics,
                      std::span<const ir::OpId> ops,
                      std::span<const std::pair<ir::TensorId, Box>> outputBoxes);

/// The footprint `peak` of Algorithm 1 (§3.1): the bytes of the largest
/// tensor \p ops produce. Inputs are counted where they were produced (an
/// instance's inputs are its producers' outputs, already in LB), weights are
/// promoted through a fixed reserve (§2.2), and fused ops stream tiles of
/// their intermediates (§4.1), so the largest produced tensor is what an
/// instance must keep. With \p boxes, each tensor counts the bytes of its
/// box (an instance's slice, halos included). docs/decisions.md explains why
/// this reading and not a live-set sum: it is the one under which Rules (i)
/// and (ii) hold for the merges of Fig. 5, as §3.2 says they do.
int64_t producedPeakBytes(const ir::Graph& graph, std::span<const ir::OpId> ops,
                          const BoxMap* boxes = nullptr);

} // namespace stagecraft::partition
