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
std::string writeCompareCsv(const std::vector<sim::Report>& reports);

} // namespace stagecraft::io
