#pragma once
// The words of the instance view, as the paper prints them (Fig. 6 and 9):
// "a1", "shape=[2,28,28,512]", "bind=[2,4]", "copy(LB,GB)", the bundles of
// moves between two groups ("a → c", "12 ops"), and the tooltips.

#include "instances/instance_layout.h"
#include "schedule/schedule.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace stagecraft::ir {
class Graph;
}

namespace stagecraft::views {

/// "[2,28,28,512]"; "[]" for none.
QString bracketed(const std::vector<int64_t>& values);

/// "a", "b", …: the group letter of Fig. 6.
QString groupLetter(schedule::GroupId group);

/// shape, binding (trimmed) and scope of an instance's output.
QStringList instanceDetails(const schedule::Instance& instance);

/// "concat", "copy(LB,GB)" (to, from), "redistribute([2,2])".
QString moveTitle(const schedule::DataMove& move);
/// shape, scope and binding of a move's result, as in Fig. 9.
QStringList moveDetails(const schedule::DataMove& move);

/// "a → c" (producer, consumer), "inputs → c" without a producer group.
QString bundleTitle(const MoveBundle& bundle);
/// "12 ops" and "8 copy · 2 redistribute · 2 concat" (kinds that occur).
QStringList bundleDetails(const schedule::Schedule& schedule, const MoveBundle& bundle);
QString bundleToolTip(const schedule::Schedule& schedule, const ir::Graph& graph,
                      const MoveBundle& bundle);

/// Label, shape, footprint, binding, scope and \p orderPosition (1-based).
QString instanceToolTip(const schedule::Instance& instance, int orderPosition);
QString moveToolTip(const schedule::Schedule& schedule, const schedule::DataMove& move);
QString groupToolTip(const schedule::Schedule& schedule, schedule::GroupId group);

} // namespace stagecraft::views
