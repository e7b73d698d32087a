#pragma once
/// \file
/// The id of a group (sub-graph) of a partition, for headers that name groups
/// without needing the partition itself (view data, colors).

#include "support/id.h"

namespace stagecraft::partition {

using GroupId = Id<struct GroupTag>;
inline constexpr GroupId kNoGroup{-1};

} // namespace stagecraft::partition
