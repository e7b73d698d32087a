// stagecraft emit: lower every kernel plan of a schedule to LLVM IR (one
// function per sub-graph instance, GraphTurbo §4) and compile it for the
// DSA's RISC-V vector cores or the host; write a .o per kernel, the model
// library that runs them (weights.bin, model.c/h, runtime/, example.c, build
// files) and manifest.json (docs/codegen.md).

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/kernel_build.h"
#include "codegen/object_cache.h"
#include "driver/emit.h"
#include "support/strings.h"

#include <chrono>
#include <cstdio>
#include <ostream>
#include <string>

namespace stagecraft::cli {

namespace {

constexpr const char* kName = "stagecraft emit: ";

ArgParser makeParser() {
    ArgParser parser(
        "stagecraft emit MODEL|SESSION --out DIR [options]",
        "Emits the kernels of a schedule through LLVM: one function per sub-graph instance\n"
        "(its layers' fused, tiled loop nests, stitched buffers in local memory, weight\n"
        "promotion as explicit copies, the core id and count as parameters), optimized at\n"
        "O2 for the target and compiled to an object. Writes into DIR a <kernel>.o per\n"
        "kernel, manifest.json and, as --format library (the default), a model library\n"
        "that runs without Stagecraft: weights.bin, model.h, model.c, runtime/, example.c,\n"
        "CMakeLists.txt and a Makefile ('make' builds libmodel.a and the example). MODEL\n"
        "is an .onnx file or zoo:NAME; SESSION a stagecraft-studio session (.stagecraft)\n"
        "whose schedule choices are used.");
    parser.addPositional("MODEL", "the .onnx file, zoo:NAME or a .stagecraft session");
    parser.addOption("out", "DIR", "directory for the kernel files (created if missing)");
    parser.addOption("target", "riscv64|host",
                     "the DSA's RISC-V vector cores (default) or this host");
    parser.addOption("format", "library|objects",
                     "a model library (default), or the kernel objects, their .ll and the "
                     "manifest alone");
    parser.addOption("cpu", "NAME",
                     "host: the CPU to compile for, an LLVM name (default " +
                         codegen::portableHostCpu() + "; native: this machine's)");
    parser.addOption("vlen", "BITS",
                     "riscv64: the least VLEN the objects may assume, 128-1024 (default: any)");
    parser.addSwitch("ir", "library: also write each kernel's optimized IR (<kernel>.ll)");
    parser.addSwitch("report",
                     "riscv64: print how every kernel's inner loops use the vector unit (lanes "
                     "filled at VLEN 128/256/512, multiply-adds per vector FMA, spills) and "
                     "write it to DIR/vector-report.json");
    parser.addOption("opt", "N", "LLVM optimization level 0-3 (default 2)");
    parser.addOption("threads", "N", "kernels compiled at once (default: one per hardware thread)");
    parser.addSwitch("no-cache",
                     "compile every kernel; else kernels compiled before are read from the "
                     "object cache ($STAGECRAFT_CACHE_DIR, $XDG_CACHE_HOME/stagecraft or "
                     "~/.cache/stagecraft)");
    addKernelOptions(parser, false);
    return parser;
}

struct Request {
    KernelRequest kernels;
    std::string out;
    codegen::EmitOptions emit;
    driver::EmitFormat format = driver::EmitFormat::Library;
};

/// --format, --cpu, --vlen and --ir into \p request.
std::optional<std::string> readOutputForm(const ArgParser& parser, Request& request) {
    const std::string format = parser.value("format", "library");
    if (format != "library" && format != "objects")
        return "--format must be library or objects, got " + quote(format);
    request.format =
        format == "library" ? driver::EmitFormat::Library : driver::EmitFormat::Objects;
    request.emit.keepIr = request.format == driver::EmitFormat::Objects || parser.has("ir");
    const bool host = request.emit.target == codegen::Target::Host;
    request.emit.cpu = parser.value("cpu", host ? codegen::portableHostCpu() : "");
    std::optional<int64_t> vlen = parseInt(parser.value("vlen", "0"));
    if (!vlen || *vlen < 0 || *vlen > 1024)
        return std::string("--vlen must be 128, 256, 512 or 1024");
    request.emit.vlen = static_cast<int>(*vlen);
    Expected<codegen::TargetInfo> machine =
        codegen::resolveTarget(request.emit.target, request.emit.cpu, request.emit.vlen);
    return machine.ok() ? std::nullopt : std::optional<std::string>(machine.error().message());
}

std::optional<std::string> readRequest(const ArgParser& parser, Request& request) {
    if (auto problem = readKernelRequest(parser, *parser.positional("MODEL"), request.kernels))
        return problem;
    auto out = parser.value("out");
    if (!out)
        return std::string("--out DIR is required");
    request.out = *out;
    std::string target = parser.value("target", "riscv64");
    auto parsed = codegen::parseTarget(target);
    if (!parsed)
        return "--target must be riscv64 or host, got " + quote(target);
    request.emit.target = *parsed;
    if (auto problem = readOutputForm(parser, request))
        return problem;
    std::optional<int64_t> opt = parseInt(parser.value("opt", "2"));
    if (!opt || *opt < 0 || *opt > 3)
        return "--opt must be 0, 1, 2 or 3";
    request.emit.optLevel = static_cast<int>(*opt);
    std::optional<int64_t> threads = parseInt(parser.value("threads", "0"));
    if (!threads || *threads < 0 || *threads > 256)
        return "--threads needs a whole number from 0 to 256";
    request.emit.threads = static_cast<int>(*threads);
    if (!parser.has("no-cache"))
        request.emit.cacheDir = codegen::defaultObjectCacheDir();
    request.emit.vectorReport = parser.has("report");
    if (request.emit.vectorReport && request.emit.target != codegen::Target::RiscV64)
        return std::string("--report reads the vector code of riscv64 kernels: use it with "
                           "--target riscv64");
    return std::nullopt;
}

/// Reports progress on \p err about every tenth of the kernels, or of
/// their parts when kernels have several (a long kernel then says how far
/// it is instead of falling silent).
codegen::EmitProgress progressOn(std::ostream& err) {
    return [&err, last = size_t{0}](const codegen::EmitCount& count) mutable {
        const bool parts = count.partsTotal > count.total;
        const size_t done = parts ? count.partsDone : count.done;
        const size_t total = parts ? count.partsTotal : count.total;
        if (done == last || total == 0)
            return true;
        if (done == total || done * 10 / total != last * 10 / total) {
            err << kName << "compiled " << count.done << "/" << count.total << " kernels (";
            if (parts)
                err << count.partsDone << "/" << count.partsTotal << " parts, ";
            err << count.cached << " from the object cache)\n";
        }
        last = done;
        return true;
    };
}

/// What follows "a .ll and .o per kernel" when some kernels have several
/// parts (docs/codegen.md), or nothing.
std::string partsNote(const codegen::EmittedProgram& program) {
    size_t split = 0;
    for (const codegen::EmittedKernel& k : program.kernels)
        split += k.parts.size() > 1 ? 1 : 0;
    if (split == 0)
        return {};
    return " part (" + std::to_string(split) + (split == 1 ? " kernel" : " kernels") +
           " of many layers compiled in parts: <kernel>.partN)";
}

} // namespace

int runEmit(const Args& args, std::ostream& out, std::ostream& err) {
    ArgParser parser = makeParser();
    if (!parser.parse(args)) {
        err << kName << parser.error() << " (see 'stagecraft emit --help')\n";
        return kExitBadUsage;
    }
    if (parser.helpRequested()) {
        out << parser.helpText();
        return kExitOk;
    }
    Request request;
    if (auto problem = readRequest(parser, request)) {
        err << kName << *problem << "\n";
        return kExitBadUsage;
    }
    auto start = std::chrono::steady_clock::now();
    auto build = buildKernelPlan(request.kernels);
    if (!build.ok()) {
        err << kName << build.error().message() << "\n";
        return kExitBadInput;
    }
    for (const std::string& warning : build->warnings)
        err << kName << "warning: " << warning << "\n";
    for (const std::string& warning : build->model.warnings)
        err << kName << "warning: " << warning << "\n";
    codegen::ManifestInfo info{request.kernels.session.value_or(request.kernels.model.text),
                               build->arch.name, build->strategy};
    auto written =
        driver::emitKernels(request.out, build->model.graph, *build->evaluation.schedule.semantics,
                            build->plan, request.emit, info, progressOn(err), request.format);
    if (!written.ok()) {
        err << kName << written.error().message() << "\n";
        return kExitBadInput;
    }
    const codegen::EmittedProgram& program = written->program;
    if (!parser.has("no-cache") && request.emit.cacheDir.empty())
        err << kName << codegen::noObjectCacheDirNote() << "\n";
    for (const std::string& note : written->notes)
        err << kName << "warning: " << note << "\n";
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char time[32];
    std::snprintf(time, sizeof time, "%.2f s", seconds);
    out << "emitted " << program.kernels.size() << " kernels (" << build->strategy << " on "
        << build->arch.name << ") for " << codegen::targetName(program.target) << " ("
        << program.machine.triple << ", " << program.machine.cpu << ") at O" << program.optLevel
        << " in " << time << "\nwrote " << request.out << "/manifest.json"
        << (request.format == driver::EmitFormat::Library
                ? ", the model library (" + request.out + "/model.h; build with 'make -C " +
                      request.out + "')"
                : std::string())
        << " and " << (request.emit.keepIr ? "a .ll and .o" : "a .o") << " per kernel"
        << partsNote(program) << "\n";
    if (program.vectorReport)
        out << "\n"
            << codegen::vectorReportText(*program.vectorReport) << "wrote " << request.out << "/"
            << codegen::kVectorReportFile << "\n";
    // How the configuration was chosen: a note for the reader, not output.
    for (const std::string& note : build->notes)
        err << kName << note << "\n";
    return kExitOk;
}

} // namespace stagecraft::cli
