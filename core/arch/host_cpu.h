#pragma once
/// \file
/// The host-cpu preset: the machine Stagecraft runs on, seen through the
/// Fig. 1 abstraction (docs/arch.md, "host-cpu").

#include "arch/arch.h"

#include <cstdint>
#include <filesystem>
#include <string_view>

namespace stagecraft::arch {

inline constexpr std::string_view kHostCpuPreset = "host-cpu";

/// Where detectHostCpu looks; zero fields are detected, tests set them.
struct HostProbe {
    /// Linux CPU sysfs: <dir>/cpu0/cache/index*/{level,type,size,shared_cpu_list}.
    std::filesystem::path cpuSysfs = "/sys/devices/system/cpu";
    /// Logical CPUs (0: std::thread::hardware_concurrency, else sysfs, else 1).
    int64_t logicalCpus = 0;
    /// Physical memory in bytes (0: sysconf, else 8 GiB).
    int64_t physicalBytes = 0;
    /// SIMD width in bits (0: from the CPU the build targets, at least 128).
    int64_t vectorBits = 0;
    /// Linux powercap: <dir>/intel-rapl:N/constraint_0_power_limit_uw, the
    /// packages' power that the energy table's leakage is a share of.
    std::filesystem::path powercap = "/sys/class/powercap";
};

/// Where the calibration of this machine is kept (docs/simulator.md,
/// "Fidelity"): the user's private data directory ($STAGECRAFT_DATA_DIR,
/// else $XDG_DATA_HOME/stagecraft, else ~/.local/share/stagecraft;
/// support/private_dir.h), file host-cpu-<hostname>.json; empty when there
/// is no such directory. Never in the repository, never in a shared folder.
std::filesystem::path calibrationPath();

/// Writes \p calibrated as this machine's calibration (atomically, in the
/// private data directory, created 0700 if missing); returns the path.
Expected<std::filesystem::path> saveCalibration(const Arch& calibrated);

/// The host-cpu preset: the calibration of this machine when there is a
/// valid one for it (its description says when it was measured), else
/// detectHostCpu(), whose description says that its rates, bandwidths and
/// overheads are assumptions.
Expected<Arch> hostCpuPreset();

/// Builds the description of this machine: one cluster, one core per logical
/// CPU with its share of L2 (or L1d) as LB, the last-level cache (level 3 or
/// more) as GB, physical memory as DDR, a scalar and a vector unit per core
/// running every category, and an energy table of documented assumptions
/// (leakage from RAPL's power limit where powercap offers it). Fallbacks for
/// missing sysfs entries are listed in docs/arch.md. The result always
/// passes validateArch.
Arch detectHostCpu(const HostProbe& probe = {});

} // namespace stagecraft::arch
