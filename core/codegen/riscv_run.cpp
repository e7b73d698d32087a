// The riscv64 runner (riscv_run.h). In a fresh temporary directory: the
// model library `emit --format library` writes (model_library.h: weights.bin,
// model.c, the runtime and the example program) with the kernel objects;
// riscv64-linux-gnu-gcc links them statically into `example`, qemu-riscv64
// -cpu rv64,v=true,vlen=N runs it on inputs.json and it writes outputs.json
// (tensors files). So `run --target riscv64` runs what a user of the library
// runs. Child processes are started without a shell, their output kept in a
// log that an error quotes.

#include "codegen/riscv_run.h"

#include "codegen/model_library.h"
#include "support/file.h"
#include "support/strings.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <spawn.h>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

extern char** environ;

namespace stagecraft::codegen {

namespace fs = std::filesystem;

namespace {

std::optional<fs::path> onPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        size_t end = dirs.find(':', start);
        std::string dir = dirs.substr(start, end == std::string::npos ? end : end - start);
        fs::path candidate = fs::path(dir.empty() ? "." : dir) / program;
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate;
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return std::nullopt;
}

/// A temporary directory, removed with everything in it when destroyed.
class ScratchDir {
public:
    static Expected<ScratchDir> create() {
        std::string pattern = (fs::temp_directory_path() / "stagecraft-riscv-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            return Error("riscv64 runner: cannot create a temporary directory");
        return ScratchDir(pattern);
    }
    ScratchDir(ScratchDir&& other) noexcept
        : path_(std::exchange(other.path_, {})) {}
    ScratchDir& operator=(ScratchDir&&) = delete;
    ~ScratchDir() {
        std::error_code ec;
        if (!path_.empty())
            fs::remove_all(path_, ec);
    }
    const fs::path& path() const { return path_; }

private:
    explicit ScratchDir(fs::path path)
        : path_(std::move(path)) {}
    fs::path path_;
};

/// Runs \p argv (no shell) with its output in \p log; an error quotes the
/// log's first lines.
Status runProcess(const std::vector<std::string>& argv, const fs::path& log,
                  const std::string& step) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<char*> args;
    for (const std::string& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return Error("riscv64 runner: cannot start " + argv[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return Status::success();
    Expected<std::string> text = readFile(log);
    std::string said;
    size_t start = 0;
    while (text.ok() && start < text->size() && said.size() < 600) {
        size_t end = std::min(text->find('\n', start), text->size());
        std::string_view line(text->data() + start, end - start);
        // qemu 7.2 warns so once per thread; what failed follows.
        if (line.find("vector version is not specified") == std::string_view::npos)
            said += (said.empty() ? "" : " ") + std::string(line);
        start = end + 1;
    }
    said = said.substr(0, 600);
    return Error("riscv64 runner: " + step + " failed" + (said.empty() ? "" : ": " + said));
}

/// Writes the model library of \p program and its kernel objects into
/// \p dir and links the example program statically; returns its path.
Expected<fs::path> linkRunner(const ir::Graph& graph, const CodePlan& plan,
                              const EmittedProgram& program, const fs::path& dir) {
    SC_ASSIGN_OR_RETURN(ModelLibrary library,
                        buildModelLibrary(graph, plan, program, "riscv64 run"));
    SC_RETURN_IF_ERROR(writeFileAtomic(dir / "weights.bin", library.weights.bytes));
    std::error_code ec;
    fs::create_directory(dir / "runtime", ec);
    std::vector<std::string> argv = {kRiscvCompiler,
                                     "-O2",
                                     "-std=c99",
                                     "-pthread",
                                     "-static",
                                     "-I" + dir.string(),
                                     "-I" + (dir / "runtime").string(),
                                     "-o",
                                     (dir / "example").string()};
    for (const LibraryFile& f : library.files) {
        SC_RETURN_IF_ERROR(writeFileAtomic(dir / f.path, f.bytes));
        if (f.path.ends_with(".c"))
            argv.push_back((dir / f.path).string());
    }
    for (const EmittedKernel& k : program.kernels)
        for (size_t p = 0; p < k.parts.size(); ++p) {
            fs::path object = dir / (k.fileStem(p) + ".o");
            SC_RETURN_IF_ERROR(writeFileAtomic(object, k.parts[p].object));
            argv.push_back(object.string());
        }
    argv.insert(argv.end(), {"-lm", "-lpthread"});
    SC_RETURN_IF_ERROR(runProcess(argv, dir / "link.log", "linking with " + argv[0]));
    return dir / "example";
}

/// The outputs file the example wrote, in graph order.
Expected<TensorSet> readOutputs(const ir::Graph& graph, const fs::path& file) {
    SC_ASSIGN_OR_RETURN(std::string text, readFile(file));
    SC_ASSIGN_OR_RETURN(TensorSet written, readTensorsJson(text, file.string()));
    TensorSet outputs;
    for (ir::TensorId id : graph.outputs()) {
        const ir::Tensor& t = graph.tensor(id);
        const HostTensor* found = findTensor(written, t.name);
        if (found == nullptr || found->dtype != t.dtype || found->shape != t.shape)
            return Error("riscv64 runner: the program wrote no output '" + t.name + "' of " +
                         std::string(ir::dtypeName(t.dtype)) + " " + ir::formatShape(t.shape));
        outputs.push_back(*found);
    }
    return outputs;
}

} // namespace

Status checkRiscvTools() {
    std::vector<std::string> missing;
    for (const char* tool : {kRiscvCompiler, kRiscvEmulator})
        if (!onPath(tool))
            missing.push_back(tool);
    if (missing.empty())
        return Status::success();
    return Error("running riscv64 kernels needs " + join(missing, " and ") +
                 ": install Debian's gcc-riscv64-linux-gnu and qemu-user "
                 "(apt-get install gcc-riscv64-linux-gnu qemu-user)");
}

Expected<TensorSet> runOnRiscv(const ir::Graph& graph, const CodePlan& plan,
                               const EmittedProgram& program, const TensorSet& inputs,
                               const RiscvRunOptions& options) {
    if (program.target != Target::RiscV64)
        return Error("riscv64 runner: the kernels were emitted for " +
                     std::string(targetName(program.target)) + ", not for riscv64");
    if (program.kernels.size() != plan.kernels.size())
        return Error("riscv64 runner: the program has " + std::to_string(program.kernels.size()) +
                     " kernels, the plan " + std::to_string(plan.kernels.size()));
    int vlen = options.vlen;
    if (vlen < 128 || vlen > 1024 || (vlen & (vlen - 1)) != 0)
        return Error("riscv64 runner: VLEN must be 128, 256, 512 or 1024, not " +
                     std::to_string(vlen));
    SC_RETURN_IF_ERROR(checkRiscvTools());
    SC_ASSIGN_OR_RETURN(TensorSet matched, matchInputs(graph, inputs));
    if (program.vlen > vlen)
        return Error("riscv64 runner: the kernels assume a VLEN of at least " +
                     std::to_string(program.vlen) + " bits, not " + std::to_string(vlen));
    SC_ASSIGN_OR_RETURN(ScratchDir dir, ScratchDir::create());
    SC_ASSIGN_OR_RETURN(fs::path runner, linkRunner(graph, plan, program, dir.path()));
    const fs::path inputsFile = dir.path() / "inputs.json";
    const fs::path outputs = dir.path() / "outputs.json";
    SC_RETURN_IF_ERROR(writeFileAtomic(inputsFile, writeTensorsJson(matched)));
    SC_RETURN_IF_ERROR(runProcess(
        {kRiscvEmulator, "-cpu", "rv64,v=true,vlen=" + std::to_string(vlen), runner.string(),
         (dir.path() / "weights.bin").string(), inputsFile.string(), outputs.string()},
        dir.path() / "run.log", "running under qemu-riscv64"));
    return readOutputs(graph, outputs);
}

} // namespace stagecraft::codegen
