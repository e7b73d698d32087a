// The studio's pipeline (run_pipeline.h): the driver, lent the previous
// result's schedule and `auto` level when it ran the same model,
// architecture and strategy.

#include "common/run_pipeline.h"

#include <utility>

namespace stagecraft::views {

namespace {

bool sameModel(const PipelineRequest& request, const PipelineResult& previous) {
    return previous.graph == request.graph && previous.arch == request.arch &&
           previous.strategy == request.strategy;
}

driver::Reuse reuseOf(const PipelineRequest& request, const PipelineResult* previous) {
    driver::Reuse reuse;
    if (!previous || !sameModel(request, *previous))
        return reuse;
    reuse.schedule = &previous->eval.schedule;
    if (!request.level && !previous->levelChoice) { // chosen once, kept through edits
        reuse.autoLevel = previous->eval.schedule.level;
        reuse.autoWhy = previous->levelWhy;
    }
    return reuse;
}

/// The result of \p request's run: its evaluation and why its level.
ResultPtr resultOf(const PipelineRequest& request, sim::Evaluation eval, std::string levelWhy,
                   uint64_t serial) {
    auto result = std::make_shared<PipelineResult>();
    result->graph = request.graph;
    result->arch = request.arch;
    result->modelPath = request.modelPath;
    result->strategy = request.strategy;
    result->overrides = request.overrides;
    result->levelChoice = request.level;
    result->levelWhy = std::move(levelWhy);
    result->eval = std::move(eval);
    result->warnings = request.warnings;
    result->serial = serial;
    return result;
}

} // namespace

Expected<ResultPtr> runPipeline(const PipelineRequest& request, const PipelineResult* previous,
                                uint64_t serial, const StepCallback& onStep) {
    if (!request.graph)
        return Error("no model loaded");
    driver::Request run;
    run.graph = request.graph.get();
    run.arch = request.arch;
    run.strategy = request.strategy;
    run.level = request.level;
    run.order = request.order;
    run.overrides = request.overrides;
    run.perCluster =
        request.clusters ? request.clusters->perCluster : driver::perClusterBatch(*request.graph);
    run.clusters = request.clusters;
    SC_ASSIGN_OR_RETURN(driver::Scheduled done,
                        driver::scheduleAndSimulate(run, reuseOf(request, previous), onStep));
    return resultOf(request, std::move(done.eval), std::move(done.levelWhy), serial);
}

driver::Workload workloadOf(const PipelineRequest& request) {
    int64_t batch = request.clusters ? request.clusters->perCluster
                    : request.graph  ? driver::perClusterBatch(*request.graph)
                                     : 1;
    driver::Workload workload =
        driver::loadedModelWorkload(request.graph, batch, request.arch.clusters);
    if (request.clusters) {
        workload.totalBatch = request.clusters->totalBatch;
        workload.chosenBy = request.clusters->chosenBy;
    }
    return workload;
}

Expected<ResultPtr> runBestConfiguration(const PipelineRequest& request, uint64_t serial,
                                         const std::function<bool()>& keepGoing) {
    if (!request.graph)
        return Error("no model loaded");
    const sim::Strategy* strategy = sim::findStrategy(request.strategy);
    if (!strategy)
        return Error(sim::unknownStrategyMessage(request.strategy));
    driver::Fixed fixed;
    fixed.level = request.level;
    if (request.order != schedule::OrderChoice::Best)
        fixed.order = request.order;
    schedule::ScheduleOptions options;
    options.overrides = request.overrides;
    SC_ASSIGN_OR_RETURN(
        driver::Optimum best,
        driver::bestConfiguration(workloadOf(request), request.arch, *strategy, fixed, options,
                                  [&](const driver::Trial&) { return !keepGoing || keepGoing(); }));
    std::string why;
    if (best.trials.size() > 1)
        why = "tuned: the fastest of " + std::to_string(best.trials.size()) +
              " configurations simulated (" + sim::configurationText(best.eval.report) + ")";
    return resultOf(request, std::move(best.eval), std::move(why), serial);
}

} // namespace stagecraft::views
