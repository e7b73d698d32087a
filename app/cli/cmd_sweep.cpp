// stagecraft sweep: schedules and simulates every point of a design-space
// sweep (models × architecture variants × precisions × batches × levels ×
// strategies) on all cores, records each point as it finishes, resumes where
// an interrupted run stopped, merges the records of shards and prints the
// Pareto front of two columns. docs/sweeps.md.

#include "arch/presets.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/sweep_report.h"
#include "cli/sweep_runner.h"
#include "cli/sweep_slurm.h"
#include "cli/sweep_store.h"
#include "support/file.h"
#include "support/strings.h"
#include "sweep/pareto.h"
#include "sweep/variant.h"
#include "zoo/zoo.h"

#include <ostream>
#include <thread>

namespace stagecraft::cli {

namespace {

constexpr const char* kName = "stagecraft sweep: ";
/// More points than this is a spec mistake, not a sweep.
constexpr int64_t kMaxPoints = 1000000;

ArgParser makeParser() {
    ArgParser parser(
        "stagecraft sweep SPEC --out DIR [options]",
        "Schedules and simulates every point of a design-space sweep: the models, architecture\n"
        "variants, strategies, precisions, batches and levels the SPEC (JSON, docs/sweeps.md)\n"
        "names. Each point's record is appended to DIR/results.jsonl as it finishes; at the end\n"
        "DIR/results.jsonl is sorted and DIR/results.csv written. Run again to resume: finished\n"
        "points are kept, the others run. A failing point is recorded with its error.");
    parser.addPositional("SPEC", "the sweep spec (JSON)");
    parser.addOption("out", "DIR", "the results directory (created; its parent must exist)");
    parser.addOption("jobs", "N", "points run at once (default: the number of cores)");
    parser.addOption("shard", "I/N",
                     "run only points I, I+N, I+2N... (I from 1) into DIR/shards/; a later run "
                     "without --shard merges them");
    parser.addOption("pareto", "X,Y",
                     "print the Pareto front of two numeric columns (\"max:\" or \"min:\" before "
                     "a column sets its direction; throughput and efficiency are maximized)");
    parser.addSwitch("slurm",
                     "run the points as a Slurm job array (sbatch --array), each task a --shard, "
                     "wait for it and merge");
    parser.addOption("partition", "P", "the Slurm partition (default: the cluster's default)");
    parser.addOption("max-tasks", "N", "Slurm array tasks at most (default 64)");
    parser.addSwitch("dry-run", "with --slurm: print the batch script and submit nothing");
    return parser;
}

struct Request {
    std::string specPath;
    SweepDir dir;
    int jobs = 1;
    int64_t shardIndex = 0;
    int64_t shardCount = 0;
    std::vector<sweep::Objective> pareto;
    bool slurm = false;
    bool dryRun = false;
    SlurmOptions slurmOptions;
};

std::optional<std::string> readSlurm(const ArgParser& parser, Request& r) {
    r.slurm = parser.has("slurm");
    r.dryRun = parser.has("dry-run");
    r.slurmOptions.partition = parser.value("partition");
    r.slurmOptions.jobs = parser.has("jobs") ? r.jobs : 1;
    if (std::optional<std::string> text = parser.value("max-tasks")) {
        std::optional<int64_t> n = parseInt(*text);
        if (!n || *n < 1 || *n > 1000000)
            return "--max-tasks needs a whole number of at least 1, got " + quote(*text);
        r.slurmOptions.maxTasks = *n;
    }
    bool slurmOnly = r.dryRun || parser.has("partition") || parser.has("max-tasks");
    if (slurmOnly && !r.slurm)
        return "--dry-run, --partition and --max-tasks go with --slurm";
    if (r.slurm && r.shardCount)
        return "--slurm makes the shards itself: leave out --shard";
    return std::nullopt;
}

std::optional<std::string> readShard(const std::string& text, Request& r) {
    std::vector<std::string> parts = split(text, '/');
    std::optional<int64_t> i = parts.size() == 2 ? parseInt(parts[0]) : std::nullopt;
    std::optional<int64_t> n = parts.size() == 2 ? parseInt(parts[1]) : std::nullopt;
    if (!i || !n || *n < 1 || *i < 1 || *i > *n)
        return "--shard needs I/N with 1 <= I <= N, got " + quote(text);
    r.shardIndex = *i;
    r.shardCount = *n;
    return std::nullopt;
}

std::optional<std::string> readRequest(const ArgParser& parser, Request& r) {
    r.specPath = *parser.positional("SPEC");
    std::optional<std::string> out = parser.value("out");
    if (!out || out->empty())
        return "--out DIR is required";
    r.dir.root = *out;
    unsigned cores = std::thread::hardware_concurrency();
    r.jobs = static_cast<int>(cores == 0 ? 1 : cores);
    if (std::optional<std::string> jobs = parser.value("jobs")) {
        std::optional<int64_t> n = parseInt(*jobs);
        if (!n || *n < 1 || *n > 1024)
            return "--jobs needs a whole number from 1 to 1024, got " + quote(*jobs);
        r.jobs = static_cast<int>(*n);
    }
    if (std::optional<std::string> shard = parser.value("shard"))
        if (auto problem = readShard(*shard, r))
            return problem;
    if (std::optional<std::string> pareto = parser.value("pareto")) {
        Expected<std::vector<sweep::Objective>> objectives = sweep::parseObjectives(*pareto);
        if (!objectives.ok())
            return objectives.error().message();
        r.pareto = std::move(objectives).value();
        if (r.shardCount)
            return "--pareto needs the merged results: give it to a run without --shard";
    }
    return readSlurm(parser, r);
}

/// The spec read, checked against its base architecture, and expanded.
struct LoadedSpec {
    std::string text;
    sweep::SweepSpec spec;
    arch::Arch base;
    std::vector<sweep::SweepPoint> points;
};

/// Every model of the spec exists: a zoo name the zoo has, or a regular file.
Status checkModels(const sweep::SweepSpec& spec, const std::string& path) {
    for (size_t i = 0; i < spec.models.size(); ++i) {
        const std::string& text = spec.models[i].text;
        std::string where = path + ": models[" + std::to_string(i) + "]: ";
        if (text.rfind("zoo:", 0) == 0) {
            if (zoo::findZooModel(text.substr(4)) == nullptr)
                return Error(where + "unknown zoo model " + quote(text.substr(4)) +
                             " (see 'stagecraft zoo --list')");
        } else if (Status file = checkRegularFile(text); !file.ok()) {
            return Error(where + file.error().message());
        }
    }
    return Status::success();
}

Expected<LoadedSpec> loadSpec(const std::string& path) {
    LoadedSpec loaded;
    SC_ASSIGN_OR_RETURN(loaded.text, readFile(path, 16 << 20));
    SC_ASSIGN_OR_RETURN(loaded.spec, sweep::parseSpec(loaded.text, path));
    Expected<arch::Arch> base = arch::resolveArch(loaded.spec.arch);
    if (!base.ok())
        return Error(path + ": arch: " + base.error().message());
    loaded.base = std::move(base).value();
    SC_RETURN_IF_ERROR(checkModels(loaded.spec, path));
    SC_RETURN_IF_ERROR(sweep::checkAxes(loaded.base, loaded.spec, path));
    if (int64_t n = sweep::countPoints(loaded.spec); n > kMaxPoints)
        return Error(path + ": the spec has " + std::to_string(n) + " points, more than " +
                     std::to_string(kMaxPoints));
    loaded.points = sweep::expandPoints(loaded.spec);
    return loaded;
}

std::vector<const sweep::SweepPoint*> pointsToRun(const Request& r, const LoadedSpec& loaded,
                                                  const sweep::Records& done) {
    std::vector<const sweep::SweepPoint*> todo;
    for (const sweep::SweepPoint& point : loaded.points) {
        bool mine = r.shardCount == 0 || point.index % r.shardCount == r.shardIndex - 1;
        if (mine && !done.count(point.index))
            todo.push_back(&point);
    }
    return todo;
}

/// Runs the points left locally, or as a shard into DIR/shards/.
Status runLocally(const Request& r, const LoadedSpec& loaded,
                  const std::vector<const sweep::SweepPoint*>& todo, std::ostream& err) {
    std::filesystem::path target =
        r.shardCount ? r.dir.shard(r.shardIndex, r.shardCount) : r.dir.results();
    if (r.shardCount) {
        std::error_code ec;
        std::filesystem::create_directory(r.dir.shards(), ec);
    }
    SC_ASSIGN_OR_RETURN(sweep::RecordAppender appender, sweep::RecordAppender::open(target));
    return runSweepPoints(loaded.spec, loaded.base, todo, r.jobs, appender, err);
}

Status runOnSlurm(const Request& r, const LoadedSpec& loaded, size_t todo, std::ostream& err) {
    int64_t tasks = std::min<int64_t>(r.slurmOptions.maxTasks, static_cast<int64_t>(todo));
    auto recordsNow = [&]() -> int64_t {
        int64_t torn = 0;
        Expected<sweep::Records> now = gatherRecords(r.dir, loaded.spec, loaded.points, torn);
        return now.ok() ? static_cast<int64_t>(now->size()) : 0;
    };
    return runSlurmJob(r.dir, slurmScript(r.dir, tasks, r.slurmOptions), tasks, recordsNow,
                       static_cast<int64_t>(loaded.points.size()), err);
}

/// Merges every record into results.jsonl and .csv and reports.
Status finish(const Request& r, const LoadedSpec& loaded, std::ostream& out, std::ostream& err) {
    int64_t torn = 0;
    SC_ASSIGN_OR_RETURN(sweep::Records all, gatherRecords(r.dir, loaded.spec, loaded.points, torn));
    SC_RETURN_IF_ERROR(writeMerged(r.dir, loaded.spec, all));
    printSweepSummary(r.dir, loaded.points.size(), all, err);
    if (all.size() < loaded.points.size())
        return Error(std::to_string(loaded.points.size() - all.size()) +
                     " points have no record: run the sweep again to resume");
    if (!r.pareto.empty()) {
        SC_ASSIGN_OR_RETURN(std::vector<int64_t> front, sweep::paretoFront(all, r.pareto));
        printParetoFront(loaded.spec, all, r.pareto, front, out);
    }
    return Status::success();
}

/// --slurm --dry-run: the script the run would submit; nothing is written.
Status printDryRun(const Request& r, const LoadedSpec& loaded, std::ostream& out) {
    int64_t torn = 0;
    sweep::Records done;
    if (std::filesystem::is_directory(r.dir.root)) {
        SC_ASSIGN_OR_RETURN(done, gatherRecords(r.dir, loaded.spec, loaded.points, torn));
    }
    size_t todo = pointsToRun(r, loaded, done).size();
    out << slurmScript(r.dir,
                       std::max<int64_t>(1, std::min<int64_t>(r.slurmOptions.maxTasks,
                                                              static_cast<int64_t>(todo))),
                       r.slurmOptions);
    return Status::success();
}

Status sweep(const Request& r, std::ostream& out, std::ostream& err) {
    SC_ASSIGN_OR_RETURN(LoadedSpec loaded, loadSpec(r.specPath));
    if (r.dryRun)
        return printDryRun(r, loaded, out);
    // Shards (and the Slurm run that waits for its own) share the folder; a
    // run that writes results.jsonl has it alone.
    SC_ASSIGN_OR_RETURN(SweepLock lock, lockSweepDir(r.dir, !r.shardCount && !r.slurm));
    SC_RETURN_IF_ERROR(prepareSweepDir(r.dir, loaded.text, loaded.spec, loaded.points));
    int64_t torn = 0;
    SC_ASSIGN_OR_RETURN(sweep::Records done,
                        gatherRecords(r.dir, loaded.spec, loaded.points, torn));
    if (torn > 0)
        err << kName << "dropped " << torn
            << " torn last line(s) of an interrupted run; their points run again\n";
    std::vector<const sweep::SweepPoint*> todo = pointsToRun(r, loaded, done);
    err << kName << loaded.points.size() << " points, " << done.size() << " done before, "
        << todo.size() << " to run";
    if (r.slurm) {
        err << " on Slurm\n";
        if (!todo.empty())
            SC_RETURN_IF_ERROR(runOnSlurm(r, loaded, todo.size(), err));
    } else {
        err << " on " << std::min<size_t>(r.jobs, std::max<size_t>(1, todo.size()))
            << " thread(s)\n";
        SC_RETURN_IF_ERROR(runLocally(r, loaded, todo, err));
    }
    return r.shardCount ? Status::success() : finish(r, loaded, out, err);
}

} // namespace

int runSweep(const Args& args, std::ostream& out, std::ostream& err) {
    ArgParser parser = makeParser();
    if (!parser.parse(args)) {
        err << kName << parser.error() << " (see 'stagecraft sweep --help')\n";
        return kExitBadUsage;
    }
    if (parser.helpRequested()) {
        out << parser.helpText();
        return kExitOk;
    }
    Request request;
    if (auto refusal = readRequest(parser, request)) {
        err << kName << *refusal << "\n";
        return kExitBadUsage;
    }
    if (Status done = sweep(request, out, err); !done.ok()) {
        err << kName << done.error().message() << "\n";
        return kExitBadInput;
    }
    return kExitOk;
}

} // namespace stagecraft::cli
