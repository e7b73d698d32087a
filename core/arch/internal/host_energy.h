#pragma once
/// \file
/// Internal to core/arch: the host-cpu preset's energy table
/// (docs/arch.md, "Energy" and "host-cpu").

#include "arch/arch.h"

#include <filesystem>

namespace stagecraft::arch::detail {

/// The energy table of \p arch, a host-cpu description: per action from
/// documented assumptions, leakage a share of the packages' power limit
/// as RAPL gives it under \p powercap (intel-rapl:N/constraint_0_power_limit_uw)
/// where it does, else of an assumed power per core.
EnergyModel hostEnergy(const Arch& arch, const std::filesystem::path& powercap);

} // namespace stagecraft::arch::detail
