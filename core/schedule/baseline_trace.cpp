// The trace of AGO's CLUSTER and of DLA's extraction and post-prune
// (internal/baseline_trace.h): one step per merge and per extracted
// sub-graph, each with a sentence naming the paper's section.

#include "schedule/internal/baseline_trace.h"

#include "support/strings.h"

#include <algorithm>
#include <cstdio>

namespace stagecraft::schedule::detail {

namespace {

std::string weight(double w) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", w);
    return text;
}

std::string opsOf(int64_t count) {
    return std::to_string(count) + (count == 1 ? " op" : " ops");
}

} // namespace

std::vector<partition::AgoStep> agoTrace(const ir::Graph& graph,
                                         const partition::AgoPartition& ago) {
    std::vector<partition::AgoStep> steps;
    for (const partition::AgoMerge& merge : ago.merges) {
        partition::AgoStep step;
        step.into = *std::min_element(merge.into.begin(), merge.into.end());
        step.taken = *std::min_element(merge.taken.begin(), merge.taken.end());
        step.intoOps = static_cast<int64_t>(merge.into.size());
        step.takenOps = static_cast<int64_t>(merge.taken.size());
        step.intoWeight = merge.intoWeight;
        step.takenWeight = merge.takenWeight;
        step.threshold = ago.threshold;
        step.explanation =
            "CLUSTER (AGO §IV-B): the heaviest candidate, " + quote(graph.op(step.into).name) +
            " (" + opsOf(step.intoOps) + ", weight " + weight(step.intoWeight) +
            "), takes the lightest node of its affix set, " + quote(graph.op(step.taken).name) +
            " (" + opsOf(step.takenOps) + ", weight " + weight(step.takenWeight) +
            "): " + weight(step.intoWeight + step.takenWeight) + " < Td " + weight(step.threshold);
        steps.push_back(std::move(step));
    }
    return steps;
}

std::vector<partition::DlaStep> dlaTrace(const ir::Graph& graph,
                                         const partition::DlaExtraction& extraction) {
    std::vector<partition::DlaStep> steps(extraction.extracted.groupCount());
    for (partition::GroupId g : extraction.extracted.groupIds()) {
        auto ops = extraction.extracted.ops(g);
        partition::DlaStep& step = steps[static_cast<size_t>(g.value())];
        step.first = ops.front();
        step.ops = static_cast<int64_t>(ops.size());
    }
    for (partition::GroupId part : extraction.parts.groupIds()) {
        auto ops = extraction.parts.ops(part);
        partition::DlaStep& step =
            steps[static_cast<size_t>(extraction.extracted.groupOf(ops.front()).value())];
        step.onAccelerator = extraction.onAccelerator[part] != 0;
        step.parts.push_back(ops.front());
        step.partSizes.push_back(static_cast<int64_t>(ops.size()));
    }
    for (partition::DlaStep& step : steps) {
        const std::string name = quote(graph.op(step.first).name);
        if (!step.onAccelerator) {
            step.explanation =
                "DLA §3: " + name + " is not supported by the accelerator and runs on the host CPU";
            continue;
        }
        step.explanation = "DLA §3: the maximal connected convex sub-graph from " + name + " (" +
                           opsOf(step.ops) + ")";
        step.explanation += step.parts.size() == 1
                                ? " has one input and one output operator: one part"
                                : " is cut by the post-prune (Fig. 3) into " +
                                      std::to_string(step.parts.size()) +
                                      " parts of one input and one output operator each";
    }
    std::sort(steps.begin(), steps.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    return steps;
}

} // namespace stagecraft::schedule::detail
