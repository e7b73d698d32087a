// The batch a run uses (batch_plan.h): the CLI's --batch/--per-cluster and
// Studio's batch controls, one implementation.

#include "driver/batch_plan.h"

#include "support/strings.h"

#include <limits>
#include <optional>

namespace stagecraft::driver {

namespace {

Expected<PlannedAtBatch> scheduleLoaded(AtBatch at, Request run,
                                        const std::function<Error(const Error&)>& explain) {
    run.graph = &at.model.graph;
    run.perCluster = at.clusters.perCluster;
    run.clusters = at.clusters;
    Expected<Planned> planned = scheduleOnly(run);
    if (!planned.ok())
        return explain ? explain(planned.error()) : planned.error();
    return PlannedAtBatch{std::move(at), std::move(planned).value()};
}

Expected<AtBatch> loadAt(const ModelSpec& spec, const schedule::BatchChoice& choice,
                         int64_t perCluster, const arch::Arch& arch, std::string_view chosenBy) {
    SC_ASSIGN_OR_RETURN(schedule::ClusterPlan plan,
                        clusterPlanFor(choice, perCluster, arch, chosenBy));
    SC_ASSIGN_OR_RETURN(LoadedModel model, loadModel(spec, perCluster));
    return AtBatch{std::move(model), std::move(plan)};
}

Expected<PlannedAtBatch> scheduleAuto(const ModelSpec& spec, const schedule::BatchChoice& choice,
                                      const Request& run, const BatchNote& note,
                                      const std::function<Error(const Error&)>& explain) {
    if (!choice.total)
        return Error("the per-cluster batch auto needs a total batch");
    const arch::Arch& arch = run.arch;
    std::vector<int64_t> candidates = schedule::perClusterCandidates(*choice.total, arch.clusters);
    if (candidates.empty())
        return Error("a batch of " + std::to_string(*choice.total) + " does not divide over the " +
                     std::to_string(arch.clusters) + " clusters of " + arch.name);
    std::optional<PlannedAtBatch> smallest;
    std::optional<Error> firstError;
    auto tell = [&](const std::string& line) {
        if (note)
            note(line);
    };
    for (int64_t k : candidates) {
        Expected<PlannedAtBatch> tried = [&]() -> Expected<PlannedAtBatch> {
            SC_ASSIGN_OR_RETURN(AtBatch at, loadAt(spec, choice, k, arch, kChosenByFootprint));
            return scheduleLoaded(std::move(at), run, explain);
        }();
        if (!tried.ok()) {
            tell("per-cluster " + std::to_string(k) + ": " + tried.error().message());
            firstError = firstError.value_or(tried.error());
            continue;
        }
        const ir::Graph& graph = tried->at.model.graph;
        bool fits = schedule::fitsCluster(graph, arch, tried->planned.schedule);
        tell("per-cluster " + std::to_string(k) + ": working set " +
             formatBytes(schedule::clusterWorkingSetBytes(graph, tried->planned.schedule)) +
             (fits ? " fits" : " does not fit") + " a cluster");
        if (fits)
            return std::move(tried).value();
        smallest = std::move(tried).value();
    }
    if (!smallest)
        return *firstError;
    tell("no per-cluster batch fits; using the smallest, " +
         std::to_string(smallest->at.clusters.perCluster));
    return std::move(*smallest);
}

} // namespace

Expected<schedule::ClusterPlan> clusterPlanFor(const schedule::BatchChoice& choice,
                                               int64_t perCluster, const arch::Arch& arch,
                                               std::string_view chosenBy) {
    const int64_t clusters = std::max<int64_t>(arch.clusters, 1);
    if (!choice.total && perCluster > std::numeric_limits<int64_t>::max() / clusters)
        return Error("the per-cluster batch " + std::to_string(perCluster) + " is too large");
    int64_t total = choice.total.value_or(clusters * perCluster);
    // makeClusterPlan multiplies clusters x perCluster: keep that in range.
    if (perCluster > total / clusters)
        return Error("a batch of " + std::to_string(total) + " does not divide into " +
                     std::to_string(clusters) + " clusters x " + std::to_string(perCluster) +
                     " per cluster");
    SC_ASSIGN_OR_RETURN(schedule::ClusterPlan plan,
                        schedule::makeClusterPlan(total, clusters, perCluster));
    plan.chosenBy = std::string(chosenBy);
    return plan;
}

Expected<AtBatch> loadAtBatch(const ModelSpec& spec, const schedule::BatchChoice& choice,
                              const arch::Arch& arch) {
    if (choice.autoPerCluster)
        return Error("the per-cluster batch auto is chosen by scheduling (scheduleAtBatch)");
    int64_t perCluster = 0;
    if (choice.perCluster) {
        perCluster = *choice.perCluster;
    } else {
        SC_ASSIGN_OR_RETURN(perCluster, defaultBatch(spec));
    }
    return loadAt(spec, choice, perCluster, arch,
                  choice.perCluster ? kChosenGiven : kChosenByModel);
}

Expected<PlannedAtBatch> scheduleAtBatch(const ModelSpec& spec, const schedule::BatchChoice& choice,
                                         Request run, const BatchNote& note,
                                         const std::function<Error(const Error&)>& explain) {
    if (choice.autoPerCluster)
        return scheduleAuto(spec, choice, run, note, explain);
    SC_ASSIGN_OR_RETURN(AtBatch at, loadAtBatch(spec, choice, run.arch));
    return scheduleLoaded(std::move(at), std::move(run), explain);
}

} // namespace stagecraft::driver
