// The riscv64 runner (riscv_run.h). In a fresh temporary directory: the
// kernel objects, kernels.c (the table sc_kernels naming them in plan
// order), runtime.c (riscv_runtime.cpp) and job.bin (the table's contents
// before the first kernel, as the host runner sets them up: weights and
// given inputs with their bytes, constant outputs with their value, the
// rest zero); riscv64-linux-gnu-gcc links them statically into `runner`,
// qemu-riscv64 -cpu rv64,v=true,vlen=N runs it, and outputs.bin holds each
// graph output's slot in graph order. Child processes are started without a
// shell, their output kept in a log that an error quotes.

#include "codegen/riscv_run.h"

#include "codegen/internal/riscv_runtime.h"
#include "support/file.h"
#include "support/strings.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <span>
#include <spawn.h>
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
    std::string said = text.ok() ? text->substr(0, 600) : std::string();
    std::replace(said.begin(), said.end(), '\n', ' ');
    return Error("riscv64 runner: " + step + " failed" + (said.empty() ? "" : ": " + said));
}

void putU64(std::string& out, uint64_t v) {
    for (int i = 0; i < 8; ++i)
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void putBytes(std::string& out, std::span<const std::byte> bytes) {
    out.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

/// The bytes slot \p slot holds before the first kernel, or nothing (zeros).
Expected<std::optional<std::span<const std::byte>>>
initialBytes(const ir::Graph& graph, const GlobalTensor& g, const TensorSet& inputs) {
    const ir::Tensor& t = graph.tensor(g.tensor);
    if (const HostTensor* in = findTensor(inputs, t.name); in != nullptr && !in->data.empty())
        return std::optional<std::span<const std::byte>>(in->data);
    if ((g.role == TensorRole::Weight || t.isConstant()) && t.data) {
        auto bytes = t.data->bytes();
        if (!bytes.ok())
            return Error("weight '" + t.name + "': " + bytes.error().message());
        return std::optional<std::span<const std::byte>>(*bytes);
    }
    return std::optional<std::span<const std::byte>>();
}

Expected<std::string> jobFile(const ir::Graph& graph, const CodePlan& plan,
                              const TensorSet& inputs) {
    std::string job = "SCJOB001";
    putU64(job, plan.globals.size());
    for (const GlobalTensor& g : plan.globals) {
        SC_ASSIGN_OR_RETURN(auto bytes, initialBytes(graph, g, inputs));
        int64_t size = std::max<int64_t>(g.bytes, bytes ? static_cast<int64_t>(bytes->size()) : 0);
        putU64(job, static_cast<uint64_t>(size));
        putU64(job, bytes ? 1 : 0);
        if (bytes) {
            putBytes(job, *bytes);
            job.append(static_cast<size_t>(size) - bytes->size(), '\0');
        }
    }
    int64_t arena = 1, scratch = 1;
    for (const KernelCode& k : plan.kernels) {
        arena = std::max(arena, k.arenaBytes);
        scratch = std::max(scratch, k.scratchBytes * k.cores);
    }
    putU64(job, static_cast<uint64_t>(arena));
    putU64(job, static_cast<uint64_t>(scratch));
    putU64(job, plan.kernels.size());
    for (const KernelCode& k : plan.kernels) {
        putU64(job, static_cast<uint64_t>(k.cores));
        putU64(job, k.continuesLaunch ? 1 : 0);
    }
    putU64(job, graph.outputs().size());
    for (ir::TensorId id : graph.outputs()) {
        int32_t slot = plan.slotOf(id);
        if (slot < 0)
            return Error("output '" + graph.tensor(id).name + "' is not computed by any kernel");
        putU64(job, static_cast<uint64_t>(slot));
    }
    return job;
}

bool isIdentifier(const std::string& name) {
    return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
           std::all_of(name.begin(), name.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
           });
}

/// kernels.c: the kernels' declarations and the table in plan order.
Expected<std::string> kernelTable(const EmittedProgram& program) {
    std::string text = "#include <stdint.h>\ntypedef void (*sc_kernel)(void **, void *, void *, "
                       "int64_t, int64_t, void *);\n";
    std::string table;
    for (const EmittedKernel& k : program.kernels) {
        if (!isIdentifier(k.symbol))
            return Error("riscv64 runner: kernel symbol '" + k.symbol + "' is not a C name");
        text += "void " + k.symbol + "(void **, void *, void *, int64_t, int64_t, void *);\n";
        table += "    " + k.symbol + ",\n";
    }
    text += "const sc_kernel sc_kernels[] = {\n" + table + "    0};\n";
    text += "const int64_t sc_kernel_count = " + std::to_string(program.kernels.size()) + ";\n";
    return text;
}

/// Links the program; returns the path of the runner.
Expected<fs::path> linkRunner(const EmittedProgram& program, const fs::path& dir) {
    SC_ASSIGN_OR_RETURN(std::string table, kernelTable(program));
    SC_RETURN_IF_ERROR(writeFileAtomic(dir / "kernels.c", table));
    SC_RETURN_IF_ERROR(writeFileAtomic(dir / "runtime.c", detail::riscvRuntimeSource()));
    std::vector<std::string> argv = {kRiscvCompiler,
                                     "-O2",
                                     "-static",
                                     "-o",
                                     (dir / "runner").string(),
                                     (dir / "runtime.c").string(),
                                     (dir / "kernels.c").string()};
    for (const EmittedKernel& k : program.kernels)
        for (size_t p = 0; p < k.parts.size(); ++p) {
            fs::path object = dir / (k.fileStem(p) + ".o");
            SC_RETURN_IF_ERROR(writeFileAtomic(object, k.parts[p].object));
            argv.push_back(object.string());
        }
    argv.insert(argv.end(), {"-lm", "-lpthread"});
    SC_RETURN_IF_ERROR(runProcess(argv, dir / "link.log", "linking with " + argv[0]));
    return dir / "runner";
}

Expected<TensorSet> readOutputs(const ir::Graph& graph, const CodePlan& plan,
                                const fs::path& file) {
    SC_ASSIGN_OR_RETURN(std::string bytes, readFile(file));
    TensorSet outputs;
    size_t at = 0;
    for (ir::TensorId id : graph.outputs()) {
        const ir::Tensor& t = graph.tensor(id);
        const GlobalTensor& g = plan.globals[static_cast<size_t>(plan.slotOf(id))];
        auto size = static_cast<size_t>(std::max<int64_t>(g.bytes, t.byteSize()));
        if (at + size > bytes.size())
            return Error("riscv64 runner: the outputs file is short");
        HostTensor out{t.name, t.dtype, t.shape, {}};
        const auto* start = reinterpret_cast<const std::byte*>(bytes.data() + at);
        out.data.assign(start, start + t.byteSize());
        outputs.push_back(std::move(out));
        at += size;
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
    SC_ASSIGN_OR_RETURN(std::string job, jobFile(graph, plan, matched));
    SC_ASSIGN_OR_RETURN(ScratchDir dir, ScratchDir::create());
    SC_ASSIGN_OR_RETURN(fs::path runner, linkRunner(program, dir.path()));
    SC_RETURN_IF_ERROR(writeFileAtomic(dir.path() / "job.bin", job));
    fs::path outputs = dir.path() / "outputs.bin";
    SC_RETURN_IF_ERROR(
        runProcess({kRiscvEmulator, "-cpu", "rv64,v=true,vlen=" + std::to_string(vlen),
                    runner.string(), (dir.path() / "job.bin").string(), outputs.string()},
                   dir.path() / "run.log", "running under qemu-riscv64"));
    return readOutputs(graph, plan, outputs);
}

} // namespace stagecraft::codegen
