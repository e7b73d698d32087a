// Each strategy at its own optimum (optimum.h; GraphTurbo §5.1, Table 1).
//
// The search is a round of simulations, as the paper's "beforehand
// autotuning": every samples per cluster the workload allows (the loop
// iterations make up the rest of the batch), at each the levels the
// strategy may fill (LB and GB for the GraphTurbo variants that tune it),
// each with §3.3's order; then, for a strategy that tunes its order, the
// other of BFS and DFS at the best of those. tvm-llb only tries the samples
// per cluster whose working set the cluster's GB retains (Table 1: "a
// cluster's LLB is sufficient to retain four data batches"), with loop
// execution beyond. Every trial is kept, so that a caller can show the
// search and a test can check that no configuration tried beats the choice.

#include "driver/optimum.h"

#include "schedule/clusters.h"
#include "support/divisors.h"

#include <algorithm>
#include <chrono>

namespace stagecraft::driver {

namespace {

using schedule::Level;
using schedule::OrderChoice;

bool usesTvmColumn(const sim::Strategy& s) {
    return s.id == sim::StrategyId::Tvm || s.id == sim::StrategyId::TvmLlb;
}

class Search {
public:
    Search(const Workload& workload, const arch::Arch& arch, const sim::Strategy& strategy,
           const schedule::ScheduleOptions& base, const TrialCallback& onTrial)
        : workload_(workload)
        , arch_(arch)
        , strategy_(strategy)
        , base_(base)
        , onTrial_(onTrial) {}

    /// Simulates one configuration; false when cancelled.
    bool trial(int64_t k, Level level, OrderChoice order) {
        Trial t{k, 1, level, order, 0, ""};
        if (onTrial_ && !onTrial_(t))
            return false;
        Expected<sim::Evaluation> ev = evaluate(k, level, order);
        if (ev.ok()) {
            t.iterations = ev->report.iterations;
            t.latencyUs = ev->report.latencyUs;
            if (!best_ || t.latencyUs < best_->report.latencyUs) {
                best_ = std::move(ev).value();
                bestTrial_ = t;
            }
        } else {
            t.error = ev.error().message();
            lastError_ = ev.error();
        }
        trials_.push_back(std::move(t));
        return true;
    }

    /// Whether the cluster's GB retains the working set of \p k samples.
    bool retained(int64_t k) {
        auto graph = workload_.graphAt(k);
        auto plan = planFor(k);
        if (!graph.ok() || !plan.ok())
            return false;
        schedule::ScheduleOptions options = sim::strategyOptions(strategy_, base_);
        options.clusters = *plan;
        auto s = schedule::buildSchedule(**graph, arch_, options);
        return s.ok() && schedule::fitsCluster(**graph, arch_, *s);
    }

    Expected<Optimum> finish(double searchMs) {
        if (!best_)
            return lastError_.value_or(Error("no configuration to try"));
        Optimum result;
        result.eval = std::move(*best_);
        result.trials = std::move(trials_);
        sim::Report& r = result.eval.report;
        r.trials = static_cast<int64_t>(result.trials.size());
        r.searchMs = searchMs;
        r.chosenBy = result.trials.size() > 1 ? "tuned" : "fixed";
        return result;
    }

    const Trial& bestTrial() const { return bestTrial_; }
    bool found() const { return best_.has_value(); }
    schedule::OrderKind bestOrder() const { return best_->schedule.orderKind; }

private:
    Expected<schedule::ClusterPlan> planFor(int64_t k) const {
        SC_ASSIGN_OR_RETURN(schedule::ClusterPlan plan,
                            schedule::makeClusterPlan(workload_.totalBatch, arch_.clusters, k));
        plan.chosenBy = workload_.chosenBy.empty() ? "given" : workload_.chosenBy;
        return plan;
    }

    Expected<sim::Evaluation> evaluate(int64_t k, Level level, OrderChoice order) {
        SC_ASSIGN_OR_RETURN(schedule::ClusterPlan plan, planFor(k));
        SC_ASSIGN_OR_RETURN(std::shared_ptr<const ir::Graph> graph, workload_.graphAt(k));
        schedule::ScheduleOptions options = base_;
        options.level = level;
        options.order = order;
        return sim::evaluate(*graph, arch_, strategy_, plan, options);
    }

    const Workload& workload_;
    const arch::Arch& arch_;
    const sim::Strategy& strategy_;
    const schedule::ScheduleOptions& base_;
    const TrialCallback& onTrial_;
    std::optional<sim::Evaluation> best_;
    Trial bestTrial_;
    std::vector<Trial> trials_;
    std::optional<Error> lastError_;
};

std::vector<int64_t> samplesToTry(const Workload& workload, const arch::Arch& arch,
                                  const sim::Strategy& strategy, const Fixed& fixed) {
    if (fixed.perCluster)
        return {*fixed.perCluster};
    if (fixed.everything || !strategy.search.perCluster)
        return {usesTvmColumn(strategy) ? workload.fixedTvmPerCluster : workload.fixedPerCluster};
    return perClusterChoices(workload, arch.clusters);
}

std::vector<Level> levelsToTry(const sim::Strategy& strategy, const Fixed& fixed) {
    if (fixed.level)
        return {*fixed.level};
    if (fixed.everything || !strategy.search.level)
        return {Level::LB};
    return {Level::LB, Level::GB};
}

} // namespace

std::vector<int64_t> perClusterChoices(const Workload& workload, int64_t clusters) {
    std::vector<int64_t> choices;
    if (clusters < 1 || workload.totalBatch < clusters || workload.totalBatch % clusters != 0)
        return choices;
    int64_t share = workload.totalBatch / clusters;
    for (int64_t k : divisors(share))
        if (workload.perClusterChoices.empty() ||
            std::count(workload.perClusterChoices.begin(), workload.perClusterChoices.end(), k))
            choices.push_back(k);
    std::reverse(choices.begin(), choices.end());
    return choices;
}

Expected<Optimum> bestConfiguration(const Workload& workload, const arch::Arch& arch,
                                    const sim::Strategy& strategy, const Fixed& fixed,
                                    const schedule::ScheduleOptions& base,
                                    const TrialCallback& onTrial) {
    auto start = std::chrono::steady_clock::now();
    Search search(workload, arch, strategy, base, onTrial);
    std::vector<int64_t> samples = samplesToTry(workload, arch, strategy, fixed);
    if (samples.empty())
        return Error("a batch of " + std::to_string(workload.totalBatch) +
                     " does not divide over " + std::to_string(arch.clusters) +
                     " clusters at any samples per cluster the model can be loaded at");
    bool retainedOnly =
        strategy.search.perClusterRetainedByGb && !fixed.perCluster && !fixed.everything;
    if (retainedOnly) {
        std::vector<int64_t> kept;
        for (int64_t k : samples)
            if (search.retained(k))
                kept.push_back(k);
        samples = kept.empty() ? std::vector<int64_t>{samples.back()} : kept;
    }
    OrderChoice order = fixed.order.value_or(OrderChoice::Best);
    for (int64_t k : samples)
        for (Level level : levelsToTry(strategy, fixed))
            if (!search.trial(k, level, order))
                return Error("cancelled");
    bool tuneOrder =
        strategy.search.order && !fixed.order && !fixed.everything && base.overrides.order.empty();
    if (tuneOrder && search.found()) {
        Trial best = search.bestTrial();
        OrderChoice other =
            search.bestOrder() == schedule::OrderKind::BFS ? OrderChoice::DFS : OrderChoice::BFS;
        if (!search.trial(best.perCluster, best.level, other))
            return Error("cancelled");
    }
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return search.finish(ms);
}

} // namespace stagecraft::driver
