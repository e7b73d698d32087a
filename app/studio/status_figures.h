#pragma once
// The figures of the current schedule in the status bar, with the change
// against the result shown before it (after an edit): latency, DDR traffic,
// kernels, spills and roofline efficiency.

#include "sim/compare.h"

#include <QString>

namespace stagecraft::studio {

/// "graphturbo · LB · latency 2.91 ms (−0.12 ms) · DDR 4.90 GB (+1.2 MB) ·
/// 15 kernels (+2) · 3 spills · 8% of roofline"; deltas only when \p before
/// is given and differs.
QString figuresText(const sim::Report& now, const sim::Report* before);

} // namespace stagecraft::studio
