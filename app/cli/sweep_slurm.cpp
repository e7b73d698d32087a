#include "cli/sweep_slurm.h"

#include "support/file.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <ostream>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace stagecraft::cli {

namespace fs = std::filesystem;

namespace {

/// \p text quoted for a POSIX shell.
std::string shellQuote(const std::string& text) {
    std::string quoted = "'";
    for (char c : text)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

fs::path absolutePath(const fs::path& path) {
    std::error_code ec;
    fs::path result = fs::absolute(path, ec);
    return ec ? path : result.lexically_normal();
}

fs::path selfExecutable() {
    std::error_code ec;
    fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path("stagecraft") : self;
}

/// Runs sbatch with stdout and stderr in files; returns its pid.
Expected<pid_t> spawnSbatch(const fs::path& script, const fs::path& out, const fs::path& errFile) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    std::string program = "sbatch";
    std::vector<std::string> argv{program, "--parsable", "--wait", script.string()};
    std::vector<char*> args;
    for (std::string& a : argv)
        args.push_back(a.data());
    args.push_back(nullptr);
    pid_t pid = 0;
    int spawned = posix_spawnp(&pid, program.c_str(), &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return Error("cannot run sbatch (" + std::string(std::strerror(spawned)) +
                     "): install Slurm's client (Debian: slurm-client) or run without --slurm");
    return pid;
}

std::string firstLine(const fs::path& file) {
    Expected<std::string> text = readFile(file, 1 << 20);
    if (!text.ok())
        return {};
    std::string line = text->substr(0, text->find('\n'));
    return line.size() > 300 ? line.substr(0, 300) + "..." : line;
}

} // namespace

std::string slurmScript(const SweepDir& dir, int64_t tasks, const SlurmOptions& options) {
    fs::path root = absolutePath(dir.root);
    std::string script = "#!/bin/sh\n"
                         "# Written by stagecraft sweep --slurm: one shard of the sweep per task.\n"
                         "#SBATCH --job-name=stagecraft-sweep\n"
                         "#SBATCH --array=1-" +
                         std::to_string(tasks) +
                         "\n#SBATCH --cpus-per-task=" + std::to_string(options.jobs) +
                         "\n#SBATCH --chdir=" + absolutePath(fs::current_path()).string() +
                         "\n#SBATCH --output=" + (root / "slurm" / "task-%a.log").string() + "\n";
    if (options.partition)
        script += "#SBATCH --partition=" + *options.partition + "\n";
    script += "exec " + shellQuote(selfExecutable().string()) + " sweep " +
              shellQuote((root / "spec.json").string()) + " --out " + shellQuote(root.string()) +
              " --shard \"$SLURM_ARRAY_TASK_ID/" + std::to_string(tasks) + "\" --jobs " +
              std::to_string(options.jobs) + "\n";
    return script;
}

Status runSlurmJob(const SweepDir& dir, const std::string& script, int64_t tasks,
                   const std::function<int64_t()>& recordsNow, int64_t totalPoints,
                   std::ostream& err) {
    fs::path slurmDir = dir.root / "slurm";
    std::error_code ec;
    fs::create_directory(slurmDir, ec);
    fs::path scriptFile = slurmDir / "sweep.sbatch";
    SC_RETURN_IF_ERROR(writeFileAtomic(scriptFile, script));
    fs::path out = slurmDir / "sbatch.out";
    fs::path errFile = slurmDir / "sbatch.err";
    SC_ASSIGN_OR_RETURN(pid_t pid, spawnSbatch(scriptFile, out, errFile));
    err << "stagecraft sweep: submitted " << tasks << " array task(s) with sbatch ("
        << scriptFile.string() << "); waiting for the job\n";
    int status = 0;
    int64_t shown = -1;
    auto lastShown = std::chrono::steady_clock::now() - std::chrono::seconds(10);
    for (;;) {
        pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR))
            break;
        auto now = std::chrono::steady_clock::now();
        int64_t records = now - lastShown >= std::chrono::seconds(2) ? recordsNow() : shown;
        if (records != shown) {
            lastShown = now;
            err << "stagecraft sweep: slurm job " << firstLine(out) << ": " << records << "/"
                << totalPoints << " points recorded\n";
            err.flush();
            shown = records;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::string said = firstLine(errFile);
        return Error("the slurm job failed" + (said.empty() ? std::string() : ": " + said) +
                     " (task logs in " + slurmDir.string() + ")");
    }
    return Status::success();
}

} // namespace stagecraft::cli
