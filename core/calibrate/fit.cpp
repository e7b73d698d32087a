// The efficiency fit of calibration (fit.h): a one-parameter least squares
// in log time, solved by a grid over log efficiency refined by a
// golden-section search around the grid's best point (deterministic, and
// safe where the error is not unimodal over the whole range).

#include "calibrate/fit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stagecraft::calibrate {

namespace {

using Kernels = std::vector<const FamilyKernel*>;

/// Sum over \p kernels of log(predicted / measured)² at efficiency e^logE.
double logError(const Kernels& kernels, double logE) {
    double efficiency = std::exp(logE);
    double sum = 0;
    for (const FamilyKernel* k : kernels) {
        double other = std::max(0.0, k->simulatedNs - k->computeNs);
        double predicted = other + k->computeNs / efficiency;
        double r = std::log(predicted / k->measuredNs);
        sum += r * r;
    }
    return sum;
}

constexpr int kGridSteps = 600;
constexpr int kGoldenSteps = 60;

double bestLogEfficiency(const Kernels& kernels) {
    const double lo = std::log(kLeastEfficiency);
    const double step = -lo / kGridSteps;
    int best = kGridSteps;
    double bestError = std::numeric_limits<double>::infinity();
    for (int i = kGridSteps; i >= 0; --i) { // from 1 down: ties keep the higher
        double e = logError(kernels, lo + i * step);
        if (e < bestError) {
            bestError = e;
            best = i;
        }
    }
    double a = lo + std::max(0, best - 1) * step;
    double b = lo + std::min(kGridSteps, best + 1) * step;
    const double inv = (std::sqrt(5.0) - 1) / 2;
    for (int i = 0; i < kGoldenSteps; ++i) {
        double c = b - inv * (b - a);
        double d = a + inv * (b - a);
        if (logError(kernels, c) <= logError(kernels, d))
            b = d;
        else
            a = c;
    }
    return (a + b) / 2;
}

} // namespace

std::map<std::string, double> fitEfficiency(const std::vector<FamilyKernel>& kernels) {
    std::map<std::string, Kernels> byFamily;
    for (const FamilyKernel& k : kernels)
        if (k.measuredNs > 0 && k.computeNs > 0 && k.simulatedNs > 0)
            byFamily[k.category].push_back(&k);
        else
            byFamily.try_emplace(k.category);
    std::map<std::string, double> efficiency;
    for (const auto& [family, members] : byFamily) {
        double share = members.empty() ? 1.0 : std::exp(bestLogEfficiency(members));
        efficiency[family] = std::clamp(share, kLeastEfficiency, 1.0);
    }
    return efficiency;
}

} // namespace stagecraft::calibrate
