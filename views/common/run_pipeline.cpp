// The studio's pipeline, reusing the strategies of `stagecraft compare`
// (sim/compare.h): the strategy's switches become schedule options; the
// schedule is rebuilt with schedule::reschedule when a compatible previous
// result exists (Algorithm 2's grouping does not depend on overrides).

#include "common/run_pipeline.h"

#include "schedule/clusters.h"

#include <utility>

namespace stagecraft::views {

namespace {

bool sameModel(const PipelineRequest& request, const PipelineResult& previous) {
    return previous.graph == request.graph && previous.arch == request.arch &&
           previous.strategy == request.strategy;
}

bool sameInputs(const PipelineRequest& request, schedule::Level level,
                const PipelineResult& previous) {
    return sameModel(request, previous) && previous.eval.schedule.level == level &&
           previous.eval.schedule.grouping;
}

schedule::ScheduleOptions optionsFor(const PipelineRequest& request, const sim::Strategy& strategy,
                                     const schedule::ClusterPlan& clusters) {
    schedule::ScheduleOptions options;
    options.order = request.order;
    options.clusters = clusters;
    options.overrides = request.overrides;
    options.grouping = strategy.grouping;
    options.splitGroups = strategy.splitGroups;
    options.forcedScope = strategy.forcedScope;
    return options;
}

} // namespace

int64_t perClusterBatch(const ir::Graph& graph) {
    if (graph.inputs().empty())
        return 1;
    const ir::Shape& shape = graph.tensor(graph.inputs().front()).shape;
    return shape.empty() || shape.front() < 1 ? 1 : shape.front();
}

Expected<ResultPtr> runPipeline(const PipelineRequest& request, const PipelineResult* previous,
                                uint64_t serial, const StepCallback& onStep) {
    const sim::Strategy* strategy = sim::findStrategy(request.strategy);
    if (!strategy)
        return Error("unknown strategy '" + request.strategy + "'");
    if (!request.graph)
        return Error("no model loaded");
    const ir::Graph& graph = *request.graph;
    int64_t perCluster = perClusterBatch(graph);
    SC_ASSIGN_OR_RETURN(schedule::ClusterPlan clusters,
                        schedule::makeClusterPlan(perCluster * request.arch.clusters,
                                                  request.arch.clusters, perCluster));
    if (onStep && !onStep(PipelineStep::Schedule))
        return Error("cancelled");
    schedule::ScheduleOptions options = optionsFor(request, *strategy, clusters);
    std::string why;
    if (request.level) {
        options.level = *request.level;
    } else if (previous && sameModel(request, *previous) && !previous->levelChoice) {
        options.level = previous->eval.schedule.level; // chosen once, kept through edits
        why = previous->levelWhy;
    } else {
        SC_ASSIGN_OR_RETURN(sim::LevelVerdict verdict,
                            sim::pickLevel(graph, request.arch, clusters, options));
        options.level = verdict.level;
        why = verdict.why;
    }
    Expected<schedule::Schedule> built =
        previous && sameInputs(request, options.level, *previous)
            ? schedule::reschedule(previous->eval.schedule, graph, request.arch, options)
            : schedule::buildSchedule(graph, request.arch, options);
    if (!built.ok())
        return built.error();
    if (onStep && !onStep(PipelineStep::Simulate))
        return Error("cancelled");
    SC_ASSIGN_OR_RETURN(sim::Evaluation eval,
                        sim::evaluateSchedule(graph, request.arch, std::move(built).value(),
                                              strategy->acrossLayer, strategy->name));
    auto result = std::make_shared<PipelineResult>();
    result->graph = request.graph;
    result->arch = request.arch;
    result->modelPath = request.modelPath;
    result->strategy = request.strategy;
    result->overrides = request.overrides;
    result->levelChoice = request.level;
    result->levelWhy = std::move(why);
    result->eval = std::move(eval);
    result->warnings = request.warnings;
    result->serial = serial;
    return ResultPtr(std::move(result));
}

} // namespace stagecraft::views
