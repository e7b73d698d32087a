// The efficiency fit of calibration (core/calibrate/fit.h) on training
// kernels whose efficiencies are computed by hand.

#include "calibrate/fit.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace stagecraft::calibrate;

namespace {

FamilyKernel kernel(const char* family, double measured, double simulated, double compute) {
    return {"k", family, measured, simulated, compute};
}

/// The squared log error of \p kernels at \p efficiency, as fit.h defines it.
double error(const std::vector<FamilyKernel>& kernels, double efficiency) {
    double sum = 0;
    for (const FamilyKernel& k : kernels) {
        double r =
            std::log((k.simulatedNs - k.computeNs + k.computeNs / efficiency) / k.measuredNs);
        sum += r * r;
    }
    return sum;
}

} // namespace

TEST(CalibrateFit, aComputeBoundKernelGivesItsShareOfThePeak) {
    // 100 ns of compute at peak measured in 200 ns: half the peak.
    auto fitted = fitEfficiency({kernel("conv", 200, 100, 100)});
    EXPECT_NEAR(fitted.at("conv"), 0.5, 1e-6);
}

TEST(CalibrateFit, theNonComputeTimeIsTakenOffFirst) {
    // 50 ns moving data and 50 ns computing at peak, measured 150 ns: the
    // compute took 100 ns, half the peak.
    auto fitted = fitEfficiency({kernel("matmul", 150, 100, 50)});
    EXPECT_NEAR(fitted.at("matmul"), 0.5, 1e-6);
}

TEST(CalibrateFit, aKernelFasterThanItsDataMovementRunsAtThePeak) {
    auto fitted = fitEfficiency({kernel("elementwise", 80, 100, 10)});
    EXPECT_NEAR(fitted.at("elementwise"), 1.0, 1e-9);
}

TEST(CalibrateFit, aFamilyWithoutComputeOrMeasurementKeepsThePeak) {
    auto fitted = fitEfficiency({kernel("injective", 50, 40, 0), kernel("reduction", 0, 40, 10)});
    EXPECT_DOUBLE_EQ(fitted.at("injective"), 1.0);
    EXPECT_DOUBLE_EQ(fitted.at("reduction"), 1.0);
}

TEST(CalibrateFit, aMemoryBoundKernelPullsLessThanItsQuotientWould) {
    // A: compute-bound, 0.8 of the peak. B: 100 ns moving data, 10 ns of
    // compute, measured 30 ns slow — its quotient 10 / (130 - 100) = 1/3
    // rests on a 30 ns difference of two 100 ns times.
    std::vector<FamilyKernel> kernels = {kernel("conv", 125, 100, 100),
                                         kernel("conv", 130, 110, 10)};
    double e = fitEfficiency(kernels).at("conv");
    EXPECT_GT(e, 0.75); // the quotients' mean: 0.57
    EXPECT_LT(e, 0.8);
    // And it is the least squared log error: no better point beside it.
    EXPECT_LE(error(kernels, e), error(kernels, e * 1.001));
    EXPECT_LE(error(kernels, e), error(kernels, e / 1.001));
}

TEST(CalibrateFit, theEfficiencyHasAFloor) {
    // 1 ns of compute at peak measured in 1 s.
    auto fitted = fitEfficiency({kernel("softmax", 1e9, 1, 1)});
    EXPECT_NEAR(fitted.at("softmax"), kLeastEfficiency, 1e-12);
    EXPECT_GE(fitted.at("softmax"), kLeastEfficiency);
}
