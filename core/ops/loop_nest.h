#pragma once
/// \file
/// The loop-nest model of an op, as data (docs/op-semantics.md).
///
/// An op output is computed by a perfect loop nest. The first `outputRank`
/// loops are the output tensor's dimensions, in order, and are parallel; any
/// further loops are reductions (Conv's input channels and kernel window,
/// MatMul's K, ReduceMean's reduced axes). For every input tensor an access
/// map gives, per input dimension, an index expression in the loop variables:
/// which input element a loop iteration reads. SplitInfo's match_dim
/// (GraphTurbo §3.1), split propagation with halo recomputation, binding
/// inference (Algorithm 4), kernel tiling (§4.1) and code generation all read
/// these maps; none of them special-cases op types.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace stagecraft::ops {

enum class IterKind { Parallel, Reduction };

struct LoopDim {
    std::string name;
    int64_t extent = 1;
    IterKind kind = IterKind::Parallel;
    /// False when the dim may not be distributed across cores (a reduction,
    /// or a parallel dim whose every point needs the whole extent of an
    /// input dim, such as Softmax's axis). See Algorithm 4's annotations.
    bool bindable = true;
};

/// coeff * ((loop / div) % mod), with floor division; mod 0 means no modulo.
struct IndexTerm {
    int loop = 0;
    int64_t coeff = 1;
    int64_t div = 1;
    int64_t mod = 0;
    bool operator==(const IndexTerm&) const = default;
};

/// The index into one input dimension: ((sum of terms + offset) / div) % mod.
/// `full` means the whole input dimension is read for every iteration (a
/// data-dependent or all-to-all access: Gather's data axis, Softmax's axis).
/// Indices that fall outside [0, extent) read padding (Conv, Pad, Concat):
/// they are not accesses of the input.
struct IndexExpr {
    bool full = false;
    std::vector<IndexTerm> terms;
    int64_t offset = 0;
    int64_t div = 1;
    int64_t mod = 0;
    bool operator==(const IndexExpr&) const = default;
};

struct AccessMap {
    /// Input slot of the op this map reads.
    int operand = 0;
    /// One expression per dimension of that input.
    std::vector<IndexExpr> dims;
};

struct LoopNest {
    std::vector<LoopDim> loops;
    /// Loops [0, outputRank) index the output dimensions in order.
    int outputRank = 0;
    /// One map per present (non-omitted) input, in slot order.
    std::vector<AccessMap> inputs;

    const AccessMap* accessFor(int operand) const;
};

/// A closed integer range [lo, hi]; empty when lo > hi.
struct Interval {
    int64_t lo = 0;
    int64_t hi = -1;
    bool empty() const { return lo > hi; }
    int64_t size() const { return empty() ? 0 : hi - lo + 1; }
    bool operator==(const Interval&) const = default;
};

/// The index of \p expr at one loop point (unclipped: may be out of range).
/// For a `full` expression returns 0.
int64_t evaluateIndex(const IndexExpr& expr, std::span<const int64_t> loopValues);

/// Conservative range of \p expr when every loop i ranges over \p loopRanges[i],
/// clipped to [0, extent). Exact for affine expressions without div/mod (both
/// unclipped bounds are reached by some loop point; a strided access such as
/// 2*oh may still skip indices in between, and clipping may keep an index the
/// box never reads); a superset otherwise. A `full` expression gives
/// [0, extent). An empty loop range or extent gives an empty interval.
Interval indexRange(const IndexExpr& expr, std::span<const Interval> loopRanges, int64_t extent);

/// Whether \p expr, plain (no division, modulo or full range), stays in
/// [0, extent) over every loop's whole extent (no padding read).
bool alwaysInside(const IndexExpr& expr, std::span<const LoopDim> loops, int64_t extent);

/// The input dims of \p map whose index depends on loop \p loop.
std::vector<int> dimsDependingOn(const AccessMap& map, int loop);

/// Human-readable form, e.g. "2*oh + kh - 1" or "all" for a full access.
std::string formatIndex(const IndexExpr& expr, std::span<const LoopDim> loops);

} // namespace stagecraft::ops
