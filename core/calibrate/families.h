#pragma once
/// \file
/// The training set of calibration (docs/simulator.md, "Fidelity"): ten
/// single-op models, each standing for an op family (ops::familyOf) — conv
/// 3x3, conv 1x1 and depthwise conv (conv); matmul (matmul); add and relu
/// (elementwise); sigmoid (transcendental); reduce-mean (reduction);
/// softmax (normalization); transpose (injective) — scheduled by tvm,
/// simulated on the architecture being calibrated, emitted and timed on this
/// machine. The unit efficiency of each family is fitted once over its
/// kernels; no model of the evaluation is in the set.

#include "arch/arch.h"
#include "support/expected.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace stagecraft::calibrate {

struct FamilyKernel {
    std::string name;
    /// The op family or category it stands for ("conv", "elementwise"...).
    std::string category;
    double measuredNs = 0;
    /// Simulated on the architecture as given, and the compute part of it.
    double simulatedNs = 0;
    double computeNs = 0;
};

using Progress = std::function<void(const std::string& step)>;

/// Builds, schedules, simulates on \p arch, emits for the host and times
/// every model of the set: each timed \p repetitions times (after two
/// warm-up runs) in each of three rounds over the set, the median kept.
Expected<std::vector<FamilyKernel>> measureFamilies(const arch::Arch& arch, int repetitions,
                                                    const Progress& progress);

/// Per family, the median over its kernels of computeNs divided by the
/// time the measurement leaves for compute (measured minus the simulated
/// non-compute part), clamped to [1e-6, 1].
std::map<std::string, double> fitEfficiency(const std::vector<FamilyKernel>& kernels);

} // namespace stagecraft::calibrate
