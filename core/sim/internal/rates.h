#pragma once
// Internal to core/sim: the chip's rates shared by the roofline and the IOS
// stage costs.

#include "arch/arch.h"

namespace stagecraft::sim::detail {

/// Bytes per ns all paths touching DDR can carry for the whole chip.
double ddrBandwidth(const arch::Arch& arch);

} // namespace stagecraft::sim::detail
