#pragma once
// The words beside an occupancy plot: which memory it is, in the paper's
// terms (LB, GB) and the architecture's (L1, LLB), what its capacity leaves
// out, and where its spills went (§4.3: a tensor spills to the GB first,
// then to DDR).

#include "usage/occupancy_data.h"
#include "usage/spill_marks.h"

#include <QString>

#include <span>

namespace stagecraft::views {

/// "LB (L1), core 0" or "GB (LLB), cluster"; the architecture's name is left
/// out when it is the paper's.
QString memoryTitle(const MemoryUsage& usage);

/// The lines under the title: the capacity (and the weight reserve it
/// leaves out), the peak, the spills by destination ("12 spills to GB" and,
/// on a line of its own, "3 to DDR") and the tensors.
QString memorySummary(const MemoryUsage& usage, int64_t peakBytes,
                      std::span<const SpillMark> marks);

} // namespace stagecraft::views
