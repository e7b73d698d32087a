#pragma once
/// \file
/// The `stagecraft-compare` document and CSV of `stagecraft compare`
/// (docs/simulator.md, "Reports"): one entry per strategy, deterministic.

#include "sim/compare.h"

#include <string>
#include <vector>

namespace stagecraft::io {

struct CompareInfo {
    std::string model;
    std::string arch;
    /// Table 2 row label, or empty.
    std::string table2;
};

std::string writeCompareJson(const CompareInfo& info, const std::vector<sim::Report>& reports);
/// One row per strategy: the report's figures, then the run's breakdown
/// (time per cause in µs, bytes per transfer cause).
std::string writeCompareCsv(const std::vector<sim::Report>& reports);
/// The breakdown of one report: a row for the run, one per group, one per
/// kernel (docs/simulator.md, "Attribution").
std::string writeBreakdownCsv(const sim::Report& report);

} // namespace stagecraft::io
