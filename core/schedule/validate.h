#pragma once
/// \file
/// Invariants of a schedule, checked by the tests after every run.

#include "arch/arch.h"
#include "schedule/schedule.h"

#include <span>

namespace stagecraft::schedule {

/// \p order is a permutation of the schedule's instances in which every
/// instance comes after the producers of its non-redundant in-edges. The
/// error names the violated dependency: "instance 'b4' comes before its
/// producer 'a7'".
Status validateOrder(const Schedule& schedule, std::span<const InstanceId> order);

/// Everything a schedule promises: a valid partition; per group, instances
/// numbered 1..factor whose shapes tile the group output; edges between
/// instances of producer/consumer groups only; a valid order; bindings that use
/// at most the cluster's cores and divide the instance shapes; every instance
/// fits the LB capacity or is marked as not fitting; data moves that refer to
/// existing instances.
Status validateSchedule(const ir::Graph& graph, const arch::Arch& arch, const Schedule& schedule);

} // namespace stagecraft::schedule
