// The pipeline driver (pipeline.h): the strategy's switches become schedule
// options (sim/compare.h, as `compare` runs them), the level is the one
// asked, the one an earlier `auto` chose, or sim::pickLevel's; the schedule
// is rebuilt with schedule::reschedule when an earlier one of the same level
// is lent (Algorithm 2's grouping does not depend on overrides).

#include "driver/pipeline.h"

#include "schedule/clusters.h"
#include "sim/level_choice.h"

#include <utility>

namespace stagecraft::driver {

namespace {

schedule::ScheduleOptions optionsFor(const Request& request, const sim::Strategy& strategy,
                                     const schedule::ClusterPlan& clusters) {
    schedule::ScheduleOptions options;
    options.order = request.order;
    options.clusters = clusters;
    options.overrides = request.overrides;
    options.recordTrace = request.recordTrace;
    return sim::strategyOptions(strategy, std::move(options));
}

/// The level to schedule at, and why `auto` chose it ("" when asked).
Expected<std::pair<schedule::Level, std::string>>
levelFor(const Request& request, const Reuse& reuse, const schedule::ClusterPlan& clusters,
         const schedule::ScheduleOptions& options) {
    if (request.level)
        return std::pair{*request.level, std::string()};
    if (reuse.autoLevel)
        return std::pair{*reuse.autoLevel, reuse.autoWhy};
    const sim::Strategy& strategy = *sim::findStrategy(request.strategy);
    if (!strategy.search.level)
        return std::pair{schedule::Level::LB, std::string()}; // it fills no other
    SC_ASSIGN_OR_RETURN(sim::LevelVerdict verdict,
                        sim::pickLevel(*request.graph, request.arch, clusters, options, strategy));
    return std::pair{verdict.level, std::move(verdict.why)};
}

} // namespace

int64_t perClusterBatch(const ir::Graph& graph) {
    if (graph.inputs().empty())
        return 1;
    const ir::Shape& shape = graph.tensor(graph.inputs().front()).shape;
    return shape.empty() || shape.front() < 1 ? 1 : shape.front();
}

Expected<Planned> scheduleOnly(const Request& request, const Reuse& reuse,
                               const StepCallback& onStep) {
    const sim::Strategy* strategy = sim::findStrategy(request.strategy);
    if (!strategy)
        return Error(sim::unknownStrategyMessage(request.strategy));
    if (!request.graph)
        return Error("no model loaded");
    const ir::Graph& graph = *request.graph;
    schedule::ClusterPlan clusters;
    if (request.clusters) {
        clusters = *request.clusters;
    } else {
        SC_ASSIGN_OR_RETURN(clusters,
                            schedule::makeClusterPlan(request.perCluster * request.arch.clusters,
                                                      request.arch.clusters, request.perCluster));
    }
    if (onStep && !onStep(Step::Schedule))
        return Error("cancelled");
    schedule::ScheduleOptions options = optionsFor(request, *strategy, clusters);
    Planned result;
    SC_ASSIGN_OR_RETURN(auto level, levelFor(request, reuse, clusters, options));
    options.level = level.first;
    result.levelWhy = std::move(level.second);
    bool reusable =
        reuse.schedule && reuse.schedule->level == options.level && reuse.schedule->grouping;
    SC_ASSIGN_OR_RETURN(result.schedule,
                        reusable
                            ? schedule::reschedule(*reuse.schedule, graph, request.arch, options)
                            : schedule::buildSchedule(graph, request.arch, options));
    return result;
}

Expected<Scheduled> scheduleAndSimulate(const Request& request, const Reuse& reuse,
                                        const StepCallback& onStep) {
    SC_ASSIGN_OR_RETURN(Planned planned, scheduleOnly(request, reuse, onStep));
    if (onStep && !onStep(Step::Simulate))
        return Error("cancelled");
    const sim::Strategy& strategy = *sim::findStrategy(request.strategy);
    Scheduled result;
    result.levelWhy = std::move(planned.levelWhy);
    SC_ASSIGN_OR_RETURN(result.eval, sim::evaluateSchedule(*request.graph, request.arch,
                                                           std::move(planned.schedule), strategy));
    return result;
}

Expected<codegen::CodePlan> planCode(const ir::Graph& graph, const sim::Evaluation& eval) {
    SC_ASSIGN_OR_RETURN(codegen::CodePlan plan,
                        codegen::planCode(graph, eval.schedule, eval.program));
    SC_RETURN_IF_ERROR(codegen::validateCodePlan(graph, plan));
    return plan;
}

} // namespace stagecraft::driver
