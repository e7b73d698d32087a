#pragma once
/// \file
/// Measured kernel times (`stagecraft run --profile`, docs/codegen.md,
/// "Profiles"): every kernel of a host run timed over repetitions of the
/// whole program after warm-up runs, summarized by its median. The
/// "stagecraft-profile" document is also a Chrome trace: the kernels, laid
/// end to end at their medians, are named as in the simulated trace
/// ("kernel a3", io/chrome_trace.h), so both load side by side in Perfetto.

#include "codegen/code_plan.h"
#include "support/expected.h"

#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::codegen {

struct KernelTiming {
    std::string symbol;
    /// The instance's label, e.g. "a3".
    std::string instance;
    int64_t cores = 1;
    double medianNs = 0;
    double minNs = 0;
    double maxNs = 0;
};

struct Profile {
    std::string model;
    std::string arch;
    std::string strategy;
    std::string precision;
    int warmups = 0;
    int repetitions = 0;
    std::vector<KernelTiming> kernels;
    /// The median of the whole program's run time.
    double totalMedianNs = 0;
};

/// \p runs[r][k]: seconds of kernel k in repetition r (all of the plan's
/// kernels in each). Fills the kernels and the total of \p profile.
void summarizeProfile(const CodePlan& plan, const std::vector<std::vector<double>>& runs,
                      Profile& profile);

/// The document, deterministic for the same figures.
std::string writeProfileJson(const Profile& profile);

/// Reads a profile document; errors name \p source and the field.
Expected<Profile> readProfileJson(std::string_view text, const std::string& source);

} // namespace stagecraft::codegen
