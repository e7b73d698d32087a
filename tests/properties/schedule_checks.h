#pragma once
// The properties every GraphTurbo schedule must have (§3), checked after
// every run by the property suites. The engine's own validators run first;
// then each promise is checked again here independently of the engine's
// code: group membership, the quotient graph and its topological numbering,
// the instance order, which inherited edges may be called redundant, LB
// capacity marks, bindings against the cores and the ops' annotations, data
// moves. Each check returns the first violation as one line (empty: holds).

#include "arch/arch.h"
#include "schedule/pipeline.h"
#include "schedule/schedule.h"

#include <set>
#include <string>
#include <vector>

namespace stagecraft::test {

/// Every property of \p schedule for \p graph on \p arch; "" when all hold.
/// \p semantics: the graph's op semantics when the caller has them (built
/// here otherwise). \p checked: a schedule of the same graph and arch that
/// passed these checks; when its partition, instances and edges equal
/// \p schedule's (compared here), the edge analysis is not repeated.
std::string scheduleProblem(const ir::Graph& graph, const arch::Arch& arch,
                            const schedule::Schedule& schedule,
                            const partition::SemanticsCache* semantics = nullptr,
                            const schedule::Schedule* checked = nullptr);

/// The first field in which \p a and \p b differ (groups, splits, instances,
/// edges, order, bindings, scopes, moves, partition, cluster plan, trace);
/// "" when they are equal.
std::string scheduleDifference(const schedule::Schedule& a, const schedule::Schedule& b);

namespace detail {
/// Instance edges (§3.3): the needed edges and redundantEdges() partition
/// the instance pairs of the group edges, and no edge is dropped whose
/// consumer reads its producer's tile.
/// \p succs: the consumers of each group, built from the ops.
std::string edgeProblem(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                        const schedule::Schedule& schedule,
                        const IdVector<partition::GroupId, std::set<partition::GroupId>>& succs);
/// LB capacity marks, bindings (cores, divisibility, annotations, §3.4),
/// scopes and data moves (§3.5).
std::string resourceProblem(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                            const arch::Arch& arch, const schedule::Schedule& schedule);
} // namespace detail

} // namespace stagecraft::test
