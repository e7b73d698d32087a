// The level `auto` picks (level_choice.h): both levels scheduled and
// simulated with the strategy, the faster kept.

#include "sim/level_choice.h"

#include <cstdio>

namespace stagecraft::sim {

namespace {

std::string milliseconds(double us) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g ms", us / 1000.0);
    return text;
}

std::string levelWhy(const Strategy& strategy, schedule::Level chosen,
                     const Expected<Evaluation>& lb, const Expected<Evaluation>& gb) {
    std::string why =
        std::string(schedule::levelName(chosen)) + ": " + strategy.name + " simulates ";
    auto at = [](const Expected<Evaluation>& ev, const char* level) {
        return ev.ok() ? milliseconds(ev->report.latencyUs) + " at " + level
                       : std::string("no schedule at ") + level + " (" + ev.error().message() + ")";
    };
    return why + (chosen == schedule::Level::GB ? at(gb, "GB") + ", " + at(lb, "LB")
                                                : at(lb, "LB") + ", " + at(gb, "GB"));
}

} // namespace

Expected<LevelVerdict> pickLevel(const ir::Graph& graph, const arch::Arch& arch,
                                 const schedule::ClusterPlan& clusters,
                                 const schedule::ScheduleOptions& base, const Strategy& strategy) {
    schedule::ScheduleOptions options = base;
    options.level = schedule::Level::LB;
    Expected<Evaluation> lb = evaluate(graph, arch, strategy, clusters, options);
    options.level = schedule::Level::GB;
    Expected<Evaluation> gb = evaluate(graph, arch, strategy, clusters, options);
    if (!lb.ok() && !gb.ok())
        return lb.error();
    LevelVerdict verdict;
    verdict.lbUs = lb.ok() ? lb->report.latencyUs : 0;
    verdict.gbUs = gb.ok() ? gb->report.latencyUs : 0;
    bool gbWins = !lb.ok() || (gb.ok() && gb->sim.makespanNs < lb->sim.makespanNs);
    verdict.level = gbWins ? schedule::Level::GB : schedule::Level::LB;
    verdict.why = levelWhy(strategy, verdict.level, lb, gb);
    return verdict;
}

Expected<schedule::Level> chooseLevel(const ir::Graph& graph, const arch::Arch& arch,
                                      const schedule::ClusterPlan& clusters,
                                      const schedule::ScheduleOptions& base) {
    SC_ASSIGN_OR_RETURN(LevelVerdict verdict, pickLevel(graph, arch, clusters, base));
    return verdict.level;
}

} // namespace stagecraft::sim
