#pragma once
/// \file
/// The built-in architecture presets (resources/arch, embedded at build time,
/// plus host-cpu detected at run time) and the lookup the front ends use for
/// an `--arch NAME|FILE` argument.

#include "arch/arch.h"
#include "support/expected.h"

#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::arch {

/// The preset used when the user names none: the paper's platform (§5 Eq. 2).
inline constexpr std::string_view kDefaultPreset = "stcp920";

/// Every preset name: the embedded ones in a fixed order, then "host-cpu".
std::vector<std::string> presetNames();

/// Loads preset \p name; "host-cpu" is detected from this machine now.
Expected<Arch> loadPreset(std::string_view name);

/// A preset when \p nameOrPath names one, else the file at that path. When
/// neither exists the error lists the presets.
Expected<Arch> resolveArch(std::string_view nameOrPath);

} // namespace stagecraft::arch
