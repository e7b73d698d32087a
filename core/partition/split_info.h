#pragma once
/// \file
/// SplitInfo (GraphTurbo §3.1, Algorithm 1, Eq. 1): for a sub-graph, per loop
/// dim d of its output, the smallest split factor f_d whose instances fit the
/// local buffer, the number of ops n_d the split reaches, and the best split by
/// lexmax (n_d, -f_d, -r_d, -d), r_d the input re-reads. Groups with no split
/// that fits the LB fall back to the GB. docs/scheduling.md explains every choice.

#include "arch/arch.h"
#include "partition/slices.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace stagecraft::partition {

/// Knobs of Algorithm 1 that a reasonable engineer could set otherwise.
struct SplitParams {
    /// Bytes an instance may occupy: by default the cluster's aggregate LB for
    /// activations (docs/decisions.md); set from the architecture.
    int64_t capacityBytes = 0;
    /// Keep a split only when its halo recomputation costs no more time than
    /// keeping the sub-graph's intermediates on-core saves (§3.1 cost model).
    bool recomputeCostModel = true;
    /// Cluster throughput (operations per second) for recomputed work.
    double clusterOpsPerSecond = 1e12;
    /// Bandwidth (bytes per second) an unfused intermediate would use going
    /// to the global buffer and back.
    double offCoreBytesPerSecond = 1e11;
    /// Refuse a split whose instances together read the group's activation
    /// inputs more than this many times their size, and rank fewer re-reads
    /// first among equal splits (0: no limit and no rank, the paper's Eq. 1).
    double maxInputRereads = 2.0;
    /// Capacity Algorithm 1 falls back to for a group with no candidate at
    /// capacityBytes (the GB at the LB level; 0: none).
    int64_t fallbackCapacityBytes = 0;
    /// With a fallback: weights count in the re-reads at capacityBytes.
    bool countWeightRereads = true;
    /// The split a group's instances get (not a merge's trial): where they
    /// live in the GB it must also hold their live set and weights.
    bool finalSplit = false;
    /// Whether a final split in the GB may take more instances than
    /// Algorithm 1's to hold their live set (SplitInfo::resident; Stagecraft's
    /// extension, off for the paper's method).
    bool residentSplits = true;
    /// capacityBytes is the GB's (the GB level, §3.6).
    bool capacityIsGlobal = false;
    /// The cluster's share of the DDR->GB bandwidth (bytes per second), and
    /// the cores that each hoist an instance's weights into their LB.
    double ddrBytesPerSecond = 0;
    /// GB->LB bandwidth of the cluster (bytes per second) the hoists use.
    double hoistBytesPerSecond = 1e11;
    int64_t cores = 1;
};

/// The parameters Algorithm 1 reads from \p arch: capacity = aggregate LB
/// for activations of a cluster, throughput and GB<->LB bandwidth of a cluster.
SplitParams splitParamsFor(const arch::Arch& arch);

/// One element (split_d, n_d, f_d, d) of SplitInfo.
struct SplitCandidate {
    /// The output dim d (0-based; the paper counts from 1).
    int dim = 0;
    /// f_d: the number of instances.
    int64_t factor = 1;
    /// n_d: ops whose outputs the split divides.
    int64_t opsSplit = 0;
    /// Footprint of one instance: its largest produced slice, halos included.
    int64_t instanceBytes = 0;
    /// Extra work from recomputed halos and unsplit ops, as a fraction of the
    /// sub-graph's work.
    double recompute = 0;
    /// How many times the instances together read the group's activation
    /// inputs (1: each byte once).
    double rereads = 1;

    bool operator==(const SplitCandidate&) const = default;
};

struct SplitInfo {
    /// The output the split is computed for (§3.1 assumes one; with several
    /// the largest is used and the others must be reached by the split).
    ir::TensorId output = ir::kNoTensor;
    /// `peak`: the largest tensor the sub-graph produces (producedPeakBytes).
    int64_t peakBytes = 0;
    std::vector<SplitCandidate> candidates;
    /// Eq. 1: lexmax (n_d, -f_d, -d); empty when no split fits.
    std::optional<SplitCandidate> best;
    /// The final split of a group whose instances live in the GB, when it
    /// has more instances than best: along best's dim, the factor whose
    /// instances keep the most data in the GB for the least weight traffic
    /// (split_info.cpp, docs/decisions.md). The group uses it over best.
    std::optional<SplitCandidate> resident;
};

/// The slices of one instance: instance \p index (0-based) of \p factor along
/// \p dim of the group's output, propagated through the group.
BoxMap instanceBoxes(const ir::Graph& graph, const SemanticsCache& semantics,
                     std::span<const ir::OpId> ops, ir::TensorId output, int dim, int64_t factor,
                     int64_t index);

/// Algorithm 1 for the sub-graph made of \p ops (ascending op ids).
SplitInfo computeSplitInfo(const ir::Graph& graph, const SemanticsCache& semantics,
                           std::span<const ir::OpId> ops, const SplitParams& params);

/// The factor of computeSplitInfo(...).best, or nullopt when it has none,
/// without building every candidate where the answer is known: a sub-graph
/// whose peak fits the capacity has f_d = 1 on every dim (Algorithm 1 line 5
/// with v = 1), so its best split has factor 1 whichever dim Eq. 1 picks.
/// Algorithm 2 compares factors only; this keeps it near-linear.
std::optional<int64_t> bestSplitFactor(const ir::Graph& graph, const SemanticsCache& semantics,
                                       std::span<const ir::OpId> ops, const SplitParams& params);

/// Evaluates one forced split (a user override): \p dim and \p factor of the
/// group's output. Fails, with the reason, when the factor does not divide the
/// dim or the dim is out of range.
Expected<SplitCandidate> evaluateSplit(const ir::Graph& graph, const SemanticsCache& semantics,
                                       std::span<const ir::OpId> ops, int dim, int64_t factor);

/// The split factor candidates v of Algorithm 1 line 4 for an extent:
/// 1, 2, 4, 8, then every integer from 9 to the extent, and the extent itself
/// (the list ends at size(d) even when it is below 9), keeping divisors only;
/// none for an empty dim.
std::vector<int64_t> splitFactorCandidates(int64_t extent);

/// The tensor Algorithm 1 splits: the group output with the most bytes.
ir::TensorId primaryOutput(const ir::Graph& graph, std::span<const ir::OpId> ops);

} // namespace stagecraft::partition
