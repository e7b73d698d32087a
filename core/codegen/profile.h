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

/// The document's "format" and "version".
inline constexpr std::string_view kProfileFormat = "stagecraft-profile";
inline constexpr int kProfileVersion = 1;

struct KernelTiming {
    std::string symbol;
    /// The instance's label, e.g. "a3".
    std::string instance;
    int64_t cores = 1;
    double medianNs = 0;
    double minNs = 0;
    double maxNs = 0;
    bool operator==(const KernelTiming&) const = default;
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
    bool operator==(const Profile&) const = default;
};

/// \p runs[r][k]: seconds of kernel k in repetition r (all of the plan's
/// kernels in each). Fills the kernels and the total of \p profile.
void summarizeProfile(const CodePlan& plan, const std::vector<std::vector<double>>& runs,
                      Profile& profile);

/// The document, deterministic for the same figures.
std::string writeProfileJson(const Profile& profile);

/// Reads a profile document and checks its figures against what they stand
/// for: times finite, from 0 to 1e15 ns, min <= median <= max; cores from 1
/// to 65,536 (an architecture's most per chip); warmups and repetitions as
/// `run` takes them; each kernel's order its place and its symbol the one
/// kernelSymbol() gives its place and instance. Errors are one line naming
/// \p source, the field and the kernel: `p.json: kernels[3] ('sc_k003_b3').min_ns: ...`.
Expected<Profile> readProfileJson(std::string_view text, const std::string& source);

/// What a profile is shown beside: the loaded model and its schedule.
struct ProfileTarget {
    /// The names the model goes by: its file and, for a zoo model, "zoo:NAME".
    std::vector<std::string> models;
    /// The schedule's strategy (sim::strategies()).
    std::string strategy;
    /// Its kernels' symbols in plan order (kernelSymbols()).
    std::vector<std::string> symbols;
};

/// The symbols of \p program's kernels, in order, as the code plan names them.
std::vector<std::string> kernelSymbols(const kernel::Program& program);

/// Whether \p profile (read from \p source) was measured for \p target: its
/// model one of the target's names, or a file of the same name (`run`
/// records the path as it was given, relative to where it ran); the same
/// strategy; the same kernel symbols in the same order. The error names
/// \p source, the field and both values.
Status checkProfileTarget(const Profile& profile, const ProfileTarget& target,
                          const std::string& source);

} // namespace stagecraft::codegen
