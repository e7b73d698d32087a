#pragma once
/// \file
/// The difference between two schedules of the same graph (two strategies or
/// two sessions): which groups match (identical op sets), which ops are
/// regrouped, which groups exist on one side only, how matched groups split
/// differently, and which common instances run in a different order.

#include "ir/graph.h"
#include "schedule/schedule.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::schedule {

/// A group of a and the group of b with the same op set.
struct MatchedGroup {
    GroupId a;
    GroupId b;
};

/// An op whose group holds different ops in a and in b.
struct RegroupedOp {
    ir::OpId op;
    GroupId groupA;
    GroupId groupB;
};

/// A matched group split differently (dim, factor or override flag).
struct SplitChange {
    MatchedGroup group;
    /// nullopt: the group runs whole.
    std::optional<partition::SplitCandidate> splitA;
    std::optional<partition::SplitCandidate> splitB;
    bool overriddenA = false;
    bool overriddenB = false;
};

/// A matched group with a different number of instances.
struct InstanceCountChange {
    MatchedGroup group;
    int64_t countA = 0;
    int64_t countB = 0;
};

/// An instance common to both schedules whose rank among the common
/// instances differs between the two orders.
struct OrderChange {
    InstanceId instanceA;
    InstanceId instanceB;
    /// 0-based rank among the common instances in each order.
    int64_t rankA = 0;
    int64_t rankB = 0;
};

/// Every list is sorted: ops by op id, groups and changes by a's group index,
/// order changes by rank in a.
struct ScheduleDiff {
    std::vector<MatchedGroup> matched;
    std::vector<RegroupedOp> regrouped;
    std::vector<GroupId> onlyInA;
    std::vector<GroupId> onlyInB;
    std::vector<SplitChange> splits;
    std::vector<InstanceCountChange> instanceCounts;
    /// Instances common to both: those of matched groups split the same way,
    /// paired by index. Their count.
    int64_t commonInstances = 0;
    std::vector<OrderChange> order;
    int64_t groupsA = 0;
    int64_t groupsB = 0;
    int64_t instancesA = 0;
    int64_t instancesB = 0;
    Level levelA = Level::LB;
    Level levelB = Level::LB;

    /// True when the schedules group, split, order and fill levels alike.
    bool empty() const {
        return regrouped.empty() && onlyInA.empty() && onlyInB.empty() && splits.empty() &&
               instanceCounts.empty() && order.empty() && levelA == levelB;
    }
};

/// Compares \p a and \p b, two schedules of \p graph. Groups match when their
/// op sets are identical; instances of matched groups with the same split are
/// paired by index and compared by rank in each order.
ScheduleDiff diffSchedules(const ir::Graph& graph, const Schedule& a, const Schedule& b);

/// One paragraph saying what differs, naming the sides \p labelA and \p labelB.
std::string diffSummary(const ScheduleDiff& diff, std::string_view labelA, std::string_view labelB);

/// "d=1 f=4" or "whole": a split as the summary and the views print it.
std::string splitText(const std::optional<partition::SplitCandidate>& split);

} // namespace stagecraft::schedule
