// Field-by-field comparison of two schedules, for the determinism property
// (same inputs, same schedule). Names the first field that differs.

#include "schedule_checks.h"

namespace stagecraft::test {

namespace {

using schedule::Schedule;

template <class T>
std::string differ(const std::string& field, const T& a, const T& b) {
    return a == b ? std::string() : field + " differs";
}

std::string partitions(const partition::Partition& a, const partition::Partition& b) {
    if (a.groupCount() != b.groupCount())
        return "partition: group count differs";
    auto same = [](auto x, auto y) {
        return std::equal(x.begin(), x.end(), y.begin(), y.end());
    };
    for (partition::GroupId g : a.groupIds()) {
        if (!same(a.ops(g), b.ops(g)) || !same(a.producers(g), b.producers(g)) ||
            !same(a.consumers(g), b.consumers(g)) || !same(a.inputs(g), b.inputs(g)) ||
            !same(a.outputs(g), b.outputs(g)))
            return "partition: group " + partition::Partition::label(g) + " differs";
    }
    return {};
}

std::string splitInfos(const partition::SplitInfo& a, const partition::SplitInfo& b) {
    if (a.output != b.output || a.peakBytes != b.peakBytes || a.candidates != b.candidates ||
        a.best != b.best)
        return "split info differs";
    return {};
}

std::string groups(const Schedule& a, const Schedule& b) {
    if (a.groups.size() != b.groups.size())
        return "group count differs";
    for (partition::GroupId g : a.groups.ids()) {
        const schedule::Group& x = a.groups[g];
        const schedule::Group& y = b.groups[g];
        std::string name = "group " + partition::Partition::label(g);
        if (std::string d = splitInfos(x.splitInfo, y.splitInfo); !d.empty())
            return name + ": " + d;
        if (x.split != y.split || x.splitOverridden != y.splitOverridden)
            return name + ": split differs";
        if (x.instances != y.instances)
            return name + ": instances differ";
    }
    return {};
}

std::string instances(const Schedule& a, const Schedule& b) {
    if (a.instances.size() != b.instances.size())
        return "instance count differs";
    for (schedule::InstanceId i : a.instances.ids()) {
        const schedule::Instance& x = a.instances[i];
        const schedule::Instance& y = b.instances[i];
        std::string name = "instance " + x.label;
        if (x.group != y.group || x.index != y.index || x.label != y.label || x.shape != y.shape)
            return name + ": identity or shape differs";
        if (x.footprintBytes != y.footprintBytes || x.fitsLocalBuffer != y.fitsLocalBuffer)
            return name + ": footprint differs";
        if (x.bind != y.bind)
            return name + ": binding differs";
        if (x.scope != y.scope)
            return name + ": scope differs";
    }
    return {};
}

std::string edges(const Schedule& a, const Schedule& b) {
    if (a.edges.size() != b.edges.size())
        return "edge count differs";
    for (size_t e = 0; e < a.edges.size(); ++e)
        if (a.edges[e].from != b.edges[e].from || a.edges[e].to != b.edges[e].to ||
            a.edges[e].redundant != b.edges[e].redundant)
            return "edge " + std::to_string(e) + " differs";
    return {};
}

std::string moves(const Schedule& a, const Schedule& b) {
    if (a.moves.size() != b.moves.size())
        return "data move count differs";
    for (size_t m = 0; m < a.moves.size(); ++m) {
        const schedule::DataMove& x = a.moves[m];
        const schedule::DataMove& y = b.moves[m];
        if (x.kind != y.kind || x.consumer != y.consumer || x.sources != y.sources ||
            x.tensor != y.tensor || x.shape != y.shape || x.scope != y.scope || x.bind != y.bind ||
            x.fromScope != y.fromScope)
            return "data move " + std::to_string(m) + " differs";
    }
    return {};
}

std::string clusters(const schedule::ClusterPlan& a, const schedule::ClusterPlan& b) {
    if (a.clusters != b.clusters || a.perCluster != b.perCluster || a.totalBatch != b.totalBatch ||
        a.iterations != b.iterations || a.chosenBy != b.chosenBy)
        return "cluster plan differs";
    return {};
}

std::string traces(const partition::Trace& a, const partition::Trace& b) {
    if (a.merges.size() != b.merges.size() || a.order.size() != b.order.size() ||
        a.binding.size() != b.binding.size())
        return "trace length differs";
    for (size_t i = 0; i < a.merges.size(); ++i) {
        const partition::MergeStep& x = a.merges[i];
        const partition::MergeStep& y = b.merges[i];
        if (x.round != y.round || x.pattern != y.pattern || x.parts != y.parts ||
            x.partSizes != y.partSizes || x.factors != y.factors ||
            x.mergedFactor != y.mergedFactor || x.rule != y.rule || x.merged != y.merged ||
            x.explanation != y.explanation)
            return "trace: merge step " + std::to_string(i) + " differs";
    }
    for (size_t i = 0; i < a.order.size(); ++i)
        if (a.order[i].visit != b.order[i].visit || a.order[i].ready != b.order[i].ready ||
            a.order[i].order != b.order[i].order ||
            a.order[i].explanation != b.order[i].explanation)
            return "trace: order step " + std::to_string(i) + " differs";
    for (size_t i = 0; i < a.binding.size(); ++i)
        if (a.binding[i].instance != b.binding[i].instance ||
            a.binding[i].action != b.binding[i].action || a.binding[i].bind != b.binding[i].bind ||
            a.binding[i].scope != b.binding[i].scope ||
            a.binding[i].explanation != b.binding[i].explanation)
            return "trace: binding step " + std::to_string(i) + " differs";
    return {};
}

} // namespace

std::string scheduleDifference(const Schedule& a, const Schedule& b) {
    for (const std::string& d :
         {partitions(a.partition, b.partition), groups(a, b), instances(a, b), edges(a, b),
          differ("order", a.order, b.order), differ("order kind", a.orderKind, b.orderKind),
          differ("BFS utilization", a.bfsUtilization, b.bfsUtilization),
          differ("DFS utilization", a.dfsUtilization, b.dfsUtilization), moves(a, b),
          clusters(a.clusters, b.clusters), differ("level", a.level, b.level),
          differ("capacity", a.capacityBytes, b.capacityBytes), traces(a.trace, b.trace)})
        if (!d.empty())
            return d;
    if ((a.grouping == nullptr) != (b.grouping == nullptr))
        return "grouping presence differs";
    if (a.grouping != nullptr) {
        if (std::string d = partitions(a.grouping->partition, b.grouping->partition); !d.empty())
            return "grouping " + d;
        if (a.grouping->splits.size() != b.grouping->splits.size())
            return "grouping: split count differs";
        for (partition::GroupId g : a.grouping->splits.ids())
            if (std::string d = splitInfos(a.grouping->splits[g], b.grouping->splits[g]);
                !d.empty())
                return "grouping: " + d;
    }
    return {};
}

} // namespace stagecraft::test
