#pragma once
// The text output of `stagecraft compare`: one table row per strategy, then
// unit utilization per strategy.

#include "io/compare_json.h"

#include <iosfwd>
#include <vector>

namespace stagecraft::cli {

/// The simulation of one schedule (`stagecraft schedule --simulate`).
void printSimulationText(const sim::Report& report, std::ostream& out);

void printCompareText(const io::CompareInfo& info, const std::vector<sim::Report>& reports,
                      std::ostream& out);

} // namespace stagecraft::cli
