#pragma once
/// \file
/// A partition of a graph's ops into sub-graphs (groups) and the quotient
/// graph between them. Immutable once built: groups are numbered in a stable
/// topological order of the quotient graph (Kahn's algorithm, ties broken by
/// the smallest op id), ops within a group are in graph (topological) order.

#include "ir/graph.h"
#include "support/expected.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace stagecraft::partition {

using GroupId = int32_t;
inline constexpr GroupId kNoGroup = -1;

class Partition {
public:
    Partition() = default;

    /// Builds the partition where op i belongs to group \p groupOf[i] (any
    /// numbering). Fails, naming the groups, when the quotient graph has a cycle.
    static Expected<Partition> fromAssignment(const ir::Graph& graph, std::vector<GroupId> groupOf);
    /// Every op its own group.
    static Partition singletons(const ir::Graph& graph);

    size_t groupCount() const { return groups_.size(); }
    std::span<const ir::OpId> ops(GroupId group) const {
        return groups_[static_cast<size_t>(group)].ops;
    }
    GroupId groupOf(ir::OpId op) const { return groupOf_[static_cast<size_t>(op)]; }

    /// Groups whose outputs this group reads, ascending.
    std::span<const GroupId> producers(GroupId group) const {
        return groups_[static_cast<size_t>(group)].producers;
    }
    /// Groups that read this group's outputs, ascending.
    std::span<const GroupId> consumers(GroupId group) const {
        return groups_[static_cast<size_t>(group)].consumers;
    }
    /// Tensors produced in the group and read outside it or graph outputs, in op order.
    std::span<const ir::TensorId> outputs(GroupId group) const {
        return groups_[static_cast<size_t>(group)].outputs;
    }
    /// Non-constant tensors the group reads but does not produce, by first use.
    std::span<const ir::TensorId> inputs(GroupId group) const {
        return groups_[static_cast<size_t>(group)].inputs;
    }

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
    std::vector<Group> groups_;
    std::vector<GroupId> groupOf_;
};

/// Every op in exactly one group, groups non-empty, the quotient graph
/// acyclic and numbered topologically, inputs/outputs consistent.
Status validatePartition(const ir::Graph& graph, const Partition& partition);

} // namespace stagecraft::partition
