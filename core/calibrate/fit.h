#pragma once
/// \file
/// The efficiency fit of calibration (docs/simulator.md, "Fidelity"): per
/// op family, the one efficiency that best explains its training kernels'
/// measured times. A kernel is predicted as its simulated non-compute time
/// plus its simulated compute time divided by the efficiency; the fit
/// minimises the squared log ratios of predicted to measured times over the
/// family's kernels. A kernel whose time barely depends on the efficiency (a
/// memory-bound one) so pulls barely on it, where a per-kernel quotient
/// would divide by the small difference of two near-equal times.

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

/// The lowest efficiency the fit returns.
constexpr double kLeastEfficiency = 1e-6;

/// Per family, the efficiency in [kLeastEfficiency, 1] of least squared
/// log error; 1 for a family none of whose kernels computes or was measured.
std::map<std::string, double> fitEfficiency(const std::vector<FamilyKernel>& kernels);

} // namespace stagecraft::calibrate
