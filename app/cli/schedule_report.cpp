// The text report of `stagecraft schedule`: one line per group, the order
// wrapped, bindings and scopes as runs of equal instances ("a1..a7 [2,2] LB"),
// the inserted data-movement ops counted by kind; --explain adds the trace.

#include "cli/schedule_report.h"

#include "support/strings.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <utility>

namespace stagecraft::cli {

namespace {

using schedule::Schedule;

/// \p text left-aligned in \p width columns, always followed by a space so
/// that a long value never runs into the next column.
std::string padded(std::string text, size_t width) {
    text.append(text.size() < width ? width - text.size() : 1, ' ');
    return text;
}

std::string plural(size_t count, const std::string& noun) {
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string tuple(const schedule::Binding& binding) {
    std::vector<std::string> parts;
    for (int64_t factor : schedule::trimmed(binding))
        parts.push_back(std::to_string(factor));
    return "[" + join(parts, ",") + "]";
}

std::string fixed2(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

/// Labels in order, wrapped into lines of at most 96 columns.
void printWrapped(const std::vector<std::string>& words, std::ostream& out) {
    std::string line = " ";
    for (const std::string& word : words) {
        if (line.size() + 1 + word.size() > 96) {
            out << line << "\n";
            line = " ";
        }
        line += " " + word;
    }
    out << line << "\n";
}

std::string splitText(const schedule::Group& group) {
    if (!group.split)
        return "no split";
    return "split dim " + std::to_string(group.split->dim) + " / " +
           std::to_string(group.split->factor) + (group.splitOverridden ? " (override)" : "");
}

const char* orderChoiceText(schedule::OrderChoice choice) {
    switch (choice) {
    case schedule::OrderChoice::BFS:
        return "bfs";
    case schedule::OrderChoice::DFS:
        return "dfs";
    case schedule::OrderChoice::Best:
        return "best";
    }
    return "best";
}

void printHeader(const ScheduleSummary& s, std::ostream& out) {
    const Schedule& schedule = *s.schedule;
    const schedule::ClusterPlan& plan = schedule.clusters;
    out << "model " << s.model << " (graph " << s.graph->info.name << ", "
        << plural(s.graph->opCount(), "op") << ") on " << s.arch->name << "\n";
    out << "batch " << plan.totalBatch << " = "
        << plural(static_cast<size_t>(plan.clusters), "cluster") << " x " << plan.perCluster
        << " per cluster x " << plural(static_cast<size_t>(plan.iterations), "iteration") << " ("
        << plan.chosenBy << ")\n";
    out << "order " << schedule::orderKindName(schedule.orderKind) << " (asked "
        << orderChoiceText(s.orderChoice) << "), memory utilization bfs "
        << fixed2(schedule.bfsUtilization) << ", dfs " << fixed2(schedule.dfsUtilization) << "; "
        << schedule::levelName(schedule.level) << " capacity "
        << formatBytes(schedule.capacityBytes) << "\n";
}

/// Groups split into more instances than Algorithm 1 chose, so that each
/// instance keeps its tensors and weights in the GB (docs/scheduling.md).
void printResidentSplits(const Schedule& schedule, std::ostream& out) {
    std::vector<std::string> changes;
    for (partition::GroupId g : schedule.groups.ids()) {
        const schedule::Group& group = schedule.groups[g];
        const auto& info = group.splitInfo;
        if (group.splitOverridden || !group.split || !info.resident || !info.best ||
            group.split->factor != info.resident->factor)
            continue;
        changes.push_back(partition::Partition::label(g) + " " + std::to_string(info.best->factor) +
                          " -> " + std::to_string(info.resident->factor));
    }
    if (changes.empty())
        return;
    out << "  more instances than Algorithm 1, so each keeps its tensors and weights in the GB:";
    for (const std::string& c : changes)
        out << " " << c << (&c == &changes.back() ? "" : ",");
    out << "\n";
}

void printGroups(const ScheduleSummary& s, std::ostream& out) {
    const Schedule& schedule = *s.schedule;
    out << "\ngroups (" << schedule.groups.size() << ")\n";
    for (partition::GroupId g : schedule.groups.ids()) {
        const schedule::Group& group = schedule.groups[g];
        std::string output = group.splitInfo.output == ir::kNoTensor
                                 ? std::string("-")
                                 : s.graph->tensor(group.splitInfo.output).name;
        out << "  " << padded(partition::Partition::label(g), 4)
            << padded(plural(schedule.partition.ops(g).size(), "op"), 8)
            << padded(splitText(group), 28)
            << padded(plural(group.instances.size(), "instance"), 14) << "peak "
            << padded(formatBytes(group.splitInfo.peakBytes), 11) << output << "\n";
    }
    printResidentSplits(schedule, out);
}

void printOrder(const Schedule& schedule, std::ostream& out) {
    std::vector<std::string> labels;
    for (schedule::InstanceId id : schedule.order)
        labels.push_back(schedule.instances[id].label);
    out << "\norder (" << labels.size() << ")\n";
    printWrapped(labels, out);
}

/// "a1..a7 [2,2] LB, a8 [2,2] GB": runs of instances with equal binding and scope.
std::string groupBindings(const Schedule& schedule, const schedule::Group& group) {
    std::vector<std::string> runs;
    size_t k = 0;
    while (k < group.instances.size()) {
        const schedule::Instance& first = schedule.instances[group.instances[k]];
        size_t end = k + 1;
        while (end < group.instances.size()) {
            const schedule::Instance& next = schedule.instances[group.instances[end]];
            if (next.bind != first.bind || next.scope != first.scope)
                break;
            ++end;
        }
        const schedule::Instance& last = schedule.instances[group.instances[end - 1]];
        std::string range = end - k == 1 ? first.label : first.label + ".." + last.label;
        runs.push_back(range + " " + tuple(first.bind) + " " +
                       std::string(schedule::scopeName(first.scope)));
        k = end;
    }
    return join(runs, ", ");
}

void printBindings(const Schedule& schedule, std::ostream& out) {
    out << "\nbindings and scopes\n";
    std::vector<std::string> over;
    for (partition::GroupId g : schedule.groups.ids())
        out << "  " << padded(partition::Partition::label(g), 4)
            << groupBindings(schedule, schedule.groups[g]) << "\n";
    for (const schedule::Instance& instance : schedule.instances)
        if (!instance.fitsLocalBuffer)
            over.push_back(instance.label + " (" + formatBytes(instance.footprintBytes) + ")");
    if (!over.empty())
        out << "  over the " << schedule::levelName(schedule.level)
            << " capacity: " << join(over, ", ") << "\n";
}

void printMoves(const Schedule& schedule, std::ostream& out) {
    using Kind = schedule::DataMove::Kind;
    auto count = [&](Kind kind) {
        return std::count_if(schedule.moves.begin(), schedule.moves.end(),
                             [&](const schedule::DataMove& move) { return move.kind == kind; });
    };
    out << "\ninserted ops: " << count(Kind::Concat) << " concat, " << count(Kind::Copy)
        << " copy, " << count(Kind::Redistribute) << " redistribute\n";
}

void printList(const char* name, const std::vector<std::string>& labels, std::ostream& out) {
    out << "    " << name << ":" << (labels.empty() ? "" : " ") << join(labels, " ") << "\n";
}

void printSteps(const std::vector<partition::OrderStep>& steps, std::ostream& out) {
    for (const partition::OrderStep& step : steps) {
        out << "  " << step.explanation << "\n";
        printList("visit", step.visit, out);
        printList("ready", step.ready, out);
        printList("order", step.order, out);
    }
}

/// IOS's search over every block: blocks, states, (S, S') pairs and the
/// DP's wall time (each block's figures once, from its first stage).
void printIosSearch(const std::vector<partition::IosStep>& steps, std::ostream& out) {
    int64_t blocks = 0, states = 0, pairs = 0;
    double ms = 0;
    for (size_t i = 0; i < steps.size(); ++i)
        if (i == 0 || steps[i].block != steps[i - 1].block) {
            ++blocks;
            states += steps[i].states;
            pairs += steps[i].transitions;
            ms += steps[i].searchMs;
        }
    char time[32];
    std::snprintf(time, sizeof time, "%.1f ms", ms);
    out << "  search: " << plural(static_cast<size_t>(blocks), "block") << ", "
        << plural(static_cast<size_t>(states), "state") << ", " << pairs << " (S, S') pairs, "
        << time << " in the DP\n";
}

} // namespace

void printScheduleText(const ScheduleSummary& summary, std::ostream& out) {
    printHeader(summary, out);
    printGroups(summary, out);
    printOrder(*summary.schedule, out);
    printBindings(*summary.schedule, out);
    printMoves(*summary.schedule, out);
}

void printTraceText(const partition::Trace& trace, std::ostream& out) {
    auto explained = [&out](const std::string& heading, const auto& steps, const char* noun) {
        out << "\n" << heading << ": " << plural(steps.size(), noun) << "\n";
        for (const auto& step : steps)
            out << "  " << step.explanation << "\n";
    };
    if (!trace.ago.empty())
        explained("AGO CLUSTER (AGO §IV-B, Algorithm 1)", trace.ago, "merge");
    else if (!trace.dla.empty())
        explained("DLA extraction and post-prune (DLA §3)", trace.dla, "sub-graph");
    else if (!trace.ios.empty()) {
        explained("IOS stages (IOS §3-4, Algorithm 1 per block), in order", trace.ios, "stage");
        printIosSearch(trace.ios, out);
    } else
        explained("Algorithm 2, grouping (§3.2)", trace.merges, "merge attempt");
    if (trace.ios.empty()) { // IOS runs its stages in order, not Algorithm 3's
        out << "\nAlgorithm 3, DFS order (§3.3): " << plural(trace.order.size(), "step") << "\n";
        printSteps(trace.order, out);
    }
    out << "\nAlgorithm 4, binding and scopes (§3.4): " << plural(trace.binding.size(), "decision")
        << "\n";
    for (const partition::BindStep& step : trace.binding)
        out << "  " << step.explanation << "\n";
}

} // namespace stagecraft::cli
