#pragma once
/// \file
/// The Pareto front of a sweep's results over two numeric columns (`sweep
/// --pareto X,Y`): the points no other point beats on both.

#include "sweep/records.h"

#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::sweep {

struct Objective {
    std::string column;
    bool maximize = false;
};

/// "X,Y", each optionally "max:" or "min:" in front; without one,
/// throughput, efficiency and speedup columns are maximized and every other
/// column minimized.
Expected<std::vector<Objective>> parseObjectives(std::string_view text);

/// The points of the successful \p records on the front, ordered by the
/// first objective (best first). An error names a column that is not a
/// number in the records.
Expected<std::vector<int64_t>> paretoFront(const Records& records,
                                           const std::vector<Objective>& objectives);

} // namespace stagecraft::sweep
