// Schedule diff. Note on the method: a group of a matches the group of b
// holding its first op when both hold exactly the same ops (each op is in one
// group on each side, so this finds every match in one pass over a's groups).
// An op is regrouped when its group is unmatched, which is the same as: some
// other op shares its group on one side and not on the other. Instances are
// only comparable between matched groups split the same way (an instance is a
// slice of the group's output); those are paired by index, and an order
// change is a pair whose rank among the paired instances differs between the
// two orders, so one instance moved ahead of k others shows up with them.

#include "schedule/diff.h"

#include <algorithm>
#include <cassert>
#include <sstream>

namespace stagecraft::schedule {

namespace {

std::vector<ir::OpId> sortedOps(const Schedule& s, GroupId group) {
    auto ops = s.partition.ops(group);
    std::vector<ir::OpId> sorted(ops.begin(), ops.end());
    std::sort(sorted.begin(), sorted.end());
    return sorted;
}

/// For each group of a, the matching group of b or kNoGroup.
IdVector<GroupId, GroupId> matchGroups(const Schedule& a, const Schedule& b) {
    IdVector<GroupId, GroupId> match(a.partition.groupCount(), partition::kNoGroup);
    for (GroupId g : match.ids()) {
        auto ops = a.partition.ops(g);
        if (ops.empty())
            continue;
        GroupId candidate = b.partition.groupOf(ops.front());
        if (sortedOps(a, g) == sortedOps(b, candidate))
            match[g] = candidate;
    }
    return match;
}

bool sameSplit(const Group& a, const Group& b) {
    auto key = [](const Group& g) {
        // A factor-1 split runs as one instance, the same as none.
        return g.split && g.split->factor > 1
                   ? std::pair<int, int64_t>{g.split->dim, g.split->factor}
                   : std::pair<int, int64_t>{-1, 1};
    };
    return key(a) == key(b) && a.splitOverridden == b.splitOverridden;
}

void compareMatched(const Schedule& a, const Schedule& b, const MatchedGroup& m,
                    ScheduleDiff& diff) {
    const Group& ga = a.groups[m.a];
    const Group& gb = b.groups[m.b];
    if (!sameSplit(ga, gb))
        diff.splits.push_back({m, ga.split, gb.split, ga.splitOverridden, gb.splitOverridden});
    auto countA = static_cast<int64_t>(ga.instances.size());
    auto countB = static_cast<int64_t>(gb.instances.size());
    if (countA != countB)
        diff.instanceCounts.push_back({m, countA, countB});
}

/// Rank of each instance among the paired ones in \p s's order (-1: unpaired).
IdVector<InstanceId, int64_t> ranks(const Schedule& s,
                                    const IdVector<InstanceId, InstanceId>& partner) {
    IdVector<InstanceId, int64_t> rank(s.instances.size(), -1);
    int64_t next = 0;
    for (InstanceId i : s.order)
        if (partner[i] != kNoInstance)
            rank[i] = next++;
    return rank;
}

void compareOrder(const Schedule& a, const Schedule& b, ScheduleDiff& diff) {
    IdVector<InstanceId, InstanceId> partnerA(a.instances.size(), kNoInstance);
    IdVector<InstanceId, InstanceId> partnerB(b.instances.size(), kNoInstance);
    for (const MatchedGroup& m : diff.matched) {
        const Group& ga = a.groups[m.a];
        const Group& gb = b.groups[m.b];
        if (!sameSplit(ga, gb) || ga.instances.size() != gb.instances.size())
            continue;
        for (size_t k = 0; k < ga.instances.size(); ++k) {
            partnerA[ga.instances[k]] = gb.instances[k];
            partnerB[gb.instances[k]] = ga.instances[k];
            ++diff.commonInstances;
        }
    }
    IdVector<InstanceId, int64_t> rankA = ranks(a, partnerA);
    IdVector<InstanceId, int64_t> rankB = ranks(b, partnerB);
    for (InstanceId i : a.order) {
        InstanceId j = partnerA[i];
        if (j != kNoInstance && rankA[i] != rankB[j])
            diff.order.push_back({i, j, rankA[i], rankB[j]});
    }
}

[[maybe_unused]] size_t opsCovered(const Schedule& s) {
    size_t count = 0;
    for (GroupId g : s.partition.groupIds())
        count += s.partition.ops(g).size();
    return count;
}

} // namespace

ScheduleDiff diffSchedules(const ir::Graph& graph, const Schedule& a, const Schedule& b) {
    assert(opsCovered(a) == graph.opCount() && opsCovered(b) == graph.opCount());
    ScheduleDiff diff;
    diff.groupsA = static_cast<int64_t>(a.groups.size());
    diff.groupsB = static_cast<int64_t>(b.groups.size());
    diff.instancesA = static_cast<int64_t>(a.instances.size());
    diff.instancesB = static_cast<int64_t>(b.instances.size());
    diff.levelA = a.level;
    diff.levelB = b.level;
    IdVector<GroupId, GroupId> match = matchGroups(a, b);
    IdVector<GroupId, bool> matchedInB(b.partition.groupCount(), false);
    for (GroupId g : match.ids()) {
        if (match[g] == partition::kNoGroup) {
            diff.onlyInA.push_back(g);
            continue;
        }
        diff.matched.push_back({g, match[g]});
        matchedInB[match[g]] = true;
        compareMatched(a, b, diff.matched.back(), diff);
    }
    for (GroupId g : matchedInB.ids())
        if (!matchedInB[g])
            diff.onlyInB.push_back(g);
    for (ir::OpId op : graph.opIds()) {
        GroupId groupA = a.partition.groupOf(op);
        if (match[groupA] == partition::kNoGroup)
            diff.regrouped.push_back({op, groupA, b.partition.groupOf(op)});
    }
    compareOrder(a, b, diff);
    return diff;
}

std::string splitText(const std::optional<partition::SplitCandidate>& split) {
    if (!split || split->factor <= 1)
        return "whole";
    return "d=" + std::to_string(split->dim) + " f=" + std::to_string(split->factor);
}

namespace {

/// "1 group", "3 groups".
std::string counted(int64_t count, std::string_view noun) {
    return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

} // namespace

std::string diffSummary(const ScheduleDiff& diff, std::string_view labelA,
                        std::string_view labelB) {
    std::ostringstream text;
    text << labelA << " has " << counted(diff.groupsA, "group") << " and "
         << counted(diff.instancesA, "instance") << ", " << labelB << " has "
         << counted(diff.groupsB, "group") << " and " << counted(diff.instancesB, "instance")
         << ". ";
    if (diff.empty()) {
        text << "The schedules are identical.";
        return text.str();
    }
    text << counted(diff.matched.size(), "group")
         << (diff.matched.size() == 1 ? " matches; " : " match; ")
         << counted(diff.regrouped.size(), "op") << (diff.regrouped.size() == 1 ? " is" : " are")
         << " regrouped (" << counted(diff.onlyInA.size(), "group") << " only in " << labelA << ", "
         << diff.onlyInB.size() << " only in " << labelB << "); "
         << counted(diff.splits.size(), "matched group") << " split differently, "
         << diff.instanceCounts.size() << " with another instance count; ";
    if (diff.commonInstances == 0)
        text << "no instances in common to compare the order of.";
    else
        text << diff.order.size() << " of " << diff.commonInstances
             << " common instances run in a different order.";
    if (diff.levelA != diff.levelB)
        text << " " << labelA << " fills " << levelName(diff.levelA) << ", " << labelB << " fills "
             << levelName(diff.levelB) << ".";
    return text.str();
}

} // namespace stagecraft::schedule
