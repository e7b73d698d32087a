#pragma once
/// \file
/// The training set of calibration (docs/simulator.md, "Fidelity"): eleven
/// single-op models, each standing for an op family (ops::familyOf) — conv
/// 3x3, conv 1x1 and depthwise conv (conv); ConvTranspose 2x2
/// (conv_transpose); matmul (matmul); add and relu
/// (elementwise); sigmoid (transcendental); reduce-mean (reduction);
/// softmax (normalization); transpose (injective) — scheduled by tvm,
/// simulated on the architecture being calibrated, emitted and timed on this
/// machine. The unit efficiency of each family is fitted once over its
/// kernels (fit.h); no model of the evaluation is in the set.

#include "arch/arch.h"
#include "calibrate/fit.h"
#include "support/expected.h"

#include <functional>
#include <string>
#include <vector>

namespace stagecraft::calibrate {

using Progress = std::function<void(const std::string& step)>;

/// Builds, schedules, simulates on \p arch, emits for the host and times
/// every model of the set: each timed \p repetitions times (after two
/// warm-up runs) in each of three rounds over the set, the fastest kept.
Expected<std::vector<FamilyKernel>> measureFamilies(const arch::Arch& arch, int repetitions,
                                                    const Progress& progress);

} // namespace stagecraft::calibrate
