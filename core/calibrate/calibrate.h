#pragma once
/// \file
/// Calibration of the host-cpu architecture (`stagecraft arch calibrate`,
/// docs/simulator.md, "Fidelity"): this machine's logical CPUs and caches
/// (sysfs), the sustained bandwidth of its last-level cache and of DRAM,
/// its vector multiply-add throughput per dtype, the host runner's launch
/// and barrier costs, and the efficiency of generated kernels per op family
/// fitted over a named training set (families.h). What is not measured
/// keeps detectHostCpu()'s documented assumptions.

#include "arch/arch.h"
#include "support/expected.h"

#include <functional>
#include <string>
#include <vector>

namespace stagecraft::calibrate {

struct Calibration {
    arch::Arch arch;
    /// One line per measured figure, for the user (and the docs' table).
    std::vector<std::string> findings;
};

struct CalibrateOptions {
    /// Seconds each bandwidth or throughput measurement runs.
    double secondsPerMeasurement = 0.3;
    /// Timed runs of each training kernel.
    int repetitions = 5;
};

/// Measures this machine; \p progress hears each step.
Expected<Calibration> calibrateHost(const CalibrateOptions& options,
                                    const std::function<void(const std::string&)>& progress);

} // namespace stagecraft::calibrate
