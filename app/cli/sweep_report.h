#pragma once
// What `stagecraft sweep` prints at the end: a summary line on standard
// error and, with --pareto, the front as a table on standard output.

#include "cli/sweep_store.h"
#include "sweep/pareto.h"

#include <iosfwd>

namespace stagecraft::cli {

void printSweepSummary(const SweepDir& dir, size_t points, const sweep::Records& records,
                       std::ostream& err);

void printParetoFront(const sweep::SweepSpec& spec, const sweep::Records& records,
                      const std::vector<sweep::Objective>& objectives,
                      const std::vector<int64_t>& front, std::ostream& out);

} // namespace stagecraft::cli
