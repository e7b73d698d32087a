#pragma once
// The text output of `stagecraft schedule`: a summary of the schedule (groups,
// order, bindings and scopes, inserted ops) and, for --explain, the algorithm
// trace step by step.

#include "arch/arch.h"
#include "schedule/pipeline.h"
#include "schedule/schedule.h"

#include <iosfwd>
#include <string>

namespace stagecraft::cli {

struct ScheduleSummary {
    /// The model as the user named it.
    std::string model;
    const ir::Graph* graph = nullptr;
    const arch::Arch* arch = nullptr;
    const schedule::Schedule* schedule = nullptr;
    schedule::OrderChoice orderChoice = schedule::OrderChoice::Best;
};

void printScheduleText(const ScheduleSummary& summary, std::ostream& out);

/// Every step of the trace: its explanation line, and for Algorithm 3 the
/// visit, ready and order lists after the step.
void printTraceText(const partition::Trace& trace, std::ostream& out);

} // namespace stagecraft::cli
