#pragma once
/// \file
/// Internal to core/arch: the `energy` section of an architecture file
/// (docs/arch.md, "Energy") read, written and validated.

#include "arch/arch.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace stagecraft::arch::detail {

/// Reads `energy` (absent or null: unset); checks the shape only.
Expected<std::optional<EnergyModel>> parseEnergy(const nlohmann::json* value,
                                                 const std::string& path);

/// The `energy` section as written by toJson.
nlohmann::ordered_json energyJson(const EnergyModel& energy);

/// The rules of docs/arch.md ("Energy"): an entry for every unit (covering
/// each dtype it runs), level and path the arch has and none for what it
/// lacks; every figure finite and non-negative.
Status validateEnergy(const Arch& arch);

} // namespace stagecraft::arch::detail
