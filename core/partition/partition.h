#pragma once
/// \file
/// A partition of a graph's ops into sub-graphs (groups) and the quotient
/// graph between them. Immutable once built: groups are numbered in a stable
/// topological order of the quotient graph (Kahn's algorithm, ties broken by
/// the smallest op id), ops within a group are in graph (topological) order.

#include "ir/graph.h"
#include "partition/group_id.h"
#include "support/expected.h"
#include "support/id.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace stagecraft::partition {

/// The group of every op, reached by op id.
using Assignment = IdVector<ir::OpId, GroupId>;

class Partition {
public:
    Partition() = default;

    /// Builds the partition where op i belongs to group \p groupOf[i] (any
    /// numbering). Fails, naming the groups, when the quotient graph has a cycle.
    static Expected<Partition> fromAssignment(const ir::Graph& graph, Assignment groupOf);
    /// Every op its own group.
    static Partition singletons(const ir::Graph& graph);

    size_t groupCount() const { return groups_.size(); }
    /// Every group id, in topological order.
    IdRange<GroupId> groupIds() const { return groups_.ids(); }
    /// True when \p group names a group of the partition.
    bool hasGroup(GroupId group) const { return groups_.contains(group); }
    std::span<const ir::OpId> ops(GroupId group) const { return groups_[group].ops; }
    GroupId groupOf(ir::OpId op) const { return groupOf_[op]; }
    /// The group of every op.
    const Assignment& assignment() const { return groupOf_; }

    /// Groups whose outputs this group reads, ascending.
    std::span<const GroupId> producers(GroupId group) const { return groups_[group].producers; }
    /// Groups that read this group's outputs, ascending.
    std::span<const GroupId> consumers(GroupId group) const { return groups_[group].consumers; }
    /// Tensors produced in the group and read outside it or graph outputs, in op order.
    std::span<const ir::TensorId> outputs(GroupId group) const { return groups_[group].outputs; }
    /// Non-constant tensors the group reads but does not produce, by first use.
    std::span<const ir::TensorId> inputs(GroupId group) const { return groups_[group].inputs; }

    /// "a", "b", …, "z", "aa", "ab", …: the labels of the paper's figures.
    static std::string label(GroupId group);

private:
    struct Group {
        std::vector<ir::OpId> ops;
        std::vector<GroupId> producers;
        std::vector<GroupId> consumers;
        std::vector<ir::TensorId> outputs;
        std::vector<ir::TensorId> inputs;
    };
    IdVector<GroupId, Group> groups_;
    Assignment groupOf_;
};

/// Every op in exactly one group, groups non-empty, the quotient graph
/// acyclic and numbered topologically, inputs/outputs consistent.
Status validatePartition(const ir::Graph& graph, const Partition& partition);

} // namespace stagecraft::partition
