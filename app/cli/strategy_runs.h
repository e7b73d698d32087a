#pragma once
// What `stagecraft compare` and `stagecraft report` share: the options that
// name the model, the architecture, the batch, the strategies and what of
// their configuration is fixed, and the loop that runs every strategy at its
// own best configuration (driver::bestConfiguration) with a progress line
// per strategy. Each command declares its options itself (their help texts
// differ); this reads them.

#include "cli/args.h"
#include "cli/schedule_model.h"
#include "driver/optimum.h"

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::cli {

/// The strategies to run and on what.
struct StrategyRuns {
    ModelSpec model;
    std::string arch;
    /// `--batch` (total over all clusters) and `--per-cluster`.
    std::optional<int64_t> batch;
    std::optional<int64_t> perCluster;
    /// In the order given; every strategy when none is.
    std::vector<const sim::Strategy*> strategies;
    driver::Fixed fixed;
};

/// Reads MODEL, --arch, --batch, --per-cluster, --seq, --strategies, --level,
/// --order, --fixed, --input, --dim, --value and --precision from \p parser
/// into \p runs; the usage error of the first bad one, or nothing.
std::optional<std::string> readStrategyRuns(const ArgParser& parser, StrategyRuns& runs);

/// The architecture \p runs names, or an error when it cannot be read or has
/// no rates for the model's precision.
Expected<arch::Arch> archOf(const StrategyRuns& runs);

/// The workload \p runs compares strategies on (cli/batch_config.h), errors
/// naming the model.
Expected<driver::Workload> workloadOf(const StrategyRuns& runs, const arch::Arch& arch);

/// Called with each strategy's run after its report is kept; an error stops
/// the runs.
using EachRun = std::function<Status(const sim::Strategy&, sim::Evaluation&)>;

/// Runs every strategy of \p runs on \p workload at its best configuration,
/// in order, writing "<prefix>[i/n] name" to \p err before each. \returns
/// their reports with speedups filled, or the first failure as "name: why".
Expected<std::vector<sim::Report>> runStrategies(const StrategyRuns& runs, const arch::Arch& arch,
                                                 const driver::Workload& workload,
                                                 std::string_view prefix, std::ostream& err,
                                                 const EachRun& each = {});

} // namespace stagecraft::cli
