#pragma once
/// \file
/// The training set of calibration (docs/simulator.md, "Fidelity"): ten
/// single-op models, each standing for an op family — conv 3x3, conv 1x1,
/// depthwise conv, matmul (complex); add, relu, sigmoid (elementwise);
/// reduce-mean, softmax (reduction); transpose (injective) — scheduled by
/// tvm, simulated on the architecture being calibrated, emitted and timed on
/// this machine. The unit efficiency of each category is fitted once over
/// its kernels; no model of the evaluation is in the set.

#include "arch/arch.h"
#include "support/expected.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace stagecraft::calibrate {

struct FamilyKernel {
    std::string name;
    /// The op category it stands for ("complex", "elementwise"...).
    std::string category;
    double measuredNs = 0;
    /// Simulated on the architecture as given, and the compute part of it.
    double simulatedNs = 0;
    double computeNs = 0;
};

using Progress = std::function<void(const std::string& step)>;

/// Builds, schedules, simulates on \p arch, emits for the host and times
/// (median of \p repetitions after warm-up) every model of the set.
Expected<std::vector<FamilyKernel>> measureFamilies(const arch::Arch& arch, int repetitions,
                                                    const Progress& progress);

/// Per category, the median over its kernels of computeNs divided by the
/// time the measurement leaves for compute (measured minus the simulated
/// non-compute part), clamped to [1e-6, 1].
std::map<std::string, double> fitEfficiency(const std::vector<FamilyKernel>& kernels);

} // namespace stagecraft::calibrate
