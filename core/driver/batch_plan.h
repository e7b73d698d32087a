#pragma once
/// \file
/// The batch a run uses (GraphTurbo §2.1, §5.1): the model loaded at K
/// samples per cluster and the plan of the total batch over the clusters,
/// as the CLI's --batch and --per-cluster and Studio's batch controls ask
/// (schedule::BatchChoice). One implementation for both front ends:
/// - K is the given per-cluster batch, else the model's batch
///   (defaultBatch);
/// - the total is the given batch, else clusters x K;
/// - auto tries the candidates of the total largest first and keeps the
///   first whose working set fits a cluster (schedule::fitsCluster), else
///   the smallest that could be scheduled.

#include "driver/model_load.h"
#include "driver/pipeline.h"
#include "schedule/clusters.h"

#include <functional>
#include <string>

namespace stagecraft::driver {

/// How the plan's per-cluster batch was chosen.
inline constexpr std::string_view kChosenGiven = "given";
inline constexpr std::string_view kChosenByModel = "model";
inline constexpr std::string_view kChosenByFootprint = "auto (footprint)";

/// The plan of \p choice's total over \p arch's clusters at \p perCluster
/// samples each; fails when they do not divide or overflow.
Expected<schedule::ClusterPlan> clusterPlanFor(const schedule::BatchChoice& choice,
                                               int64_t perCluster, const arch::Arch& arch,
                                               std::string_view chosenBy);

/// A model loaded at the batch a choice names, with its cluster plan.
struct AtBatch {
    LoadedModel model;
    schedule::ClusterPlan clusters;
};

/// \p choice without auto: K and the total as above, the model loaded at K.
Expected<AtBatch> loadAtBatch(const ModelSpec& spec, const schedule::BatchChoice& choice,
                              const arch::Arch& arch);

struct PlannedAtBatch {
    AtBatch at;
    Planned planned;
};

/// Called with one line per auto candidate tried ("per-cluster 16: working
/// set 3.1 MiB fits a cluster").
using BatchNote = std::function<void(const std::string&)>;

/// Schedules \p run (its graph, perCluster and clusters set here) at the
/// batch \p choice names; under auto each candidate tried is reported on
/// \p note, and one that cannot be scheduled is skipped with its reason.
/// \p explain turns a scheduling failure into the error reported (e.g. with
/// the overrides' file named).
Expected<PlannedAtBatch> scheduleAtBatch(const ModelSpec& spec, const schedule::BatchChoice& choice,
                                         Request run, const BatchNote& note = {},
                                         const std::function<Error(const Error&)>& explain = {});

} // namespace stagecraft::driver
