#pragma once
// `stagecraft sweep --slurm`: the points left to run go to a Slurm job
// array, each task running `stagecraft sweep --shard I/N` into the sweep's
// directory; the front end waits for the job (`sbatch --wait`), shows
// progress from the records the tasks append, then merges them.

#include "cli/sweep_store.h"

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

namespace stagecraft::cli {

struct SlurmOptions {
    std::optional<std::string> partition;
    /// Array tasks at most (each a shard).
    int64_t maxTasks = 64;
    /// Threads per task (its --jobs and --cpus-per-task).
    int jobs = 1;
};

/// The batch script that runs \p tasks shards of the spec in \p dir.
std::string slurmScript(const SweepDir& dir, int64_t tasks, const SlurmOptions& options);

/// Submits the script (written to DIR/slurm/sweep.sbatch) and waits for the
/// job, printing on \p err how many of \p totalPoints have a record
/// (\p recordsNow counts them). An error when sbatch cannot run or the job
/// fails.
Status runSlurmJob(const SweepDir& dir, const std::string& script, int64_t tasks,
                   const std::function<int64_t()>& recordsNow, int64_t totalPoints,
                   std::ostream& err);

} // namespace stagecraft::cli
