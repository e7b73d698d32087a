#pragma once
// Internal to core/sim: the chip's rates shared by the roofline and the IOS
// stage costs.

#include "arch/arch.h"

namespace stagecraft::sim::detail {

/// A unit's operations per cycle on \p dtype: its entry, else its slowest
/// listed rate, as the simulator runs it (kernel/layers.cpp).
double unitRate(const arch::ComputeUnit& unit, ir::DType dtype);

/// How many copies of a path's pipe the chip has: 1 for a chip-wide path,
/// one per cluster or one per core.
double sharingDomains(const arch::Arch& arch, arch::Sharing sharing);

/// Bytes per ns all paths touching DDR can carry for the whole chip.
double ddrBandwidth(const arch::Arch& arch);

} // namespace stagecraft::sim::detail
