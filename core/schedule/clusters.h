#pragma once
/// \file
/// Data parallelism across clusters (GraphTurbo §2.1, §5.1, Table 1): the
/// total batch is split over the d clusters; each processes `perCluster`
/// samples per iteration. `auto` tries the candidates as §5.1 does; until the
/// simulator exists (a later milestone) the choice follows a footprint rule
/// (docs/scheduling.md).

#include "arch/arch.h"
#include "schedule/schedule.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace stagecraft::schedule {

/// What the user asks of the batch (the CLI's --batch and --per-cluster,
/// Studio's batch controls, a session's `batch`); unset parts take the
/// defaults of driver/batch_plan.h.
struct BatchChoice {
    /// Samples over all clusters; unset: clusters x the samples per cluster.
    std::optional<int64_t> total;
    /// Samples per cluster; unset: the model's batch (or auto).
    std::optional<int64_t> perCluster;
    /// The largest samples per cluster whose working set fits a cluster
    /// (the footprint rule below); needs \c total.
    bool autoPerCluster = false;

    bool operator==(const BatchChoice&) const = default;
};

/// Batches per cluster K with totalBatch % (clusters x K) == 0, largest first.
std::vector<int64_t> perClusterCandidates(int64_t totalBatch, int64_t clusters);

/// The plan for \p perCluster samples per cluster; fails with a reason when
/// it does not divide the total batch over the clusters.
Expected<ClusterPlan> makeClusterPlan(int64_t totalBatch, int64_t clusters, int64_t perCluster);

/// The working set of one cluster under \p schedule: the live-set peak of
/// the group outputs when the groups run in order (what the global buffer
/// holds between instances).
int64_t clusterWorkingSetBytes(const ir::Graph& graph, const Schedule& schedule);

/// The footprint rule: a candidate fits when its working set fits the
/// cluster's global buffer (DDR when the chip has none).
bool fitsCluster(const ir::Graph& graph, const arch::Arch& arch, const Schedule& schedule);

} // namespace stagecraft::schedule
