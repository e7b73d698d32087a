#pragma once
// Runs the points of a sweep on worker threads, appending each record as it
// finishes and showing progress (points done, failed, elapsed, ETA) on
// standard error: one updating line on a terminal, a line every few
// seconds otherwise.

#include "arch/arch.h"
#include "sweep/records.h"

#include <iosfwd>

namespace stagecraft::cli {

/// Evaluates \p todo with \p jobs threads and appends each record to
/// \p appender. Stops early only when a record cannot be written.
Status runSweepPoints(const sweep::SweepSpec& spec, const arch::Arch& base,
                      const std::vector<const sweep::SweepPoint*>& todo, int jobs,
                      sweep::RecordAppender& appender, std::ostream& err);

} // namespace stagecraft::cli
