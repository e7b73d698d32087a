// stagecraft run: emit a schedule's kernels for the host, link them in
// process and run them in schedule order on the model's real weights (each
// kernel on as many threads as its instance has cores); write the outputs as
// a tensors file and optionally compare them with reference outputs (those
// of ONNX Runtime, say). docs/codegen.md.

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/kernel_build.h"
#include "cli/output_paths.h"
#include "cli/tensor_sources.h"
#include "codegen/code_plan.h"
#include "codegen/host_run.h"
#include "codegen/object_cache.h"
#include "codegen/profile.h"
#include "codegen/riscv_run.h"
#include "support/file.h"
#include "support/strings.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <tuple>

namespace stagecraft::cli {

namespace {

constexpr const char* kName = "stagecraft run: ";

ArgParser makeParser() {
    ArgParser parser(
        "stagecraft run MODEL (--inputs FILE | --seeded) --outputs FILE [options]",
        "Runs a model with the kernels Stagecraft emits for a schedule: the kernels are\n"
        "compiled for the host, linked in process and run in schedule order on the model's\n"
        "weights (zoo models get seeded weights), a kernel bound to c cores on c threads;\n"
        "with --target riscv64 the DSA's kernels run under qemu-riscv64 instead. Inputs\n"
        "and outputs are stagecraft-tensors JSON files.");
    parser.addPositional("MODEL", "the .onnx file, zoo:NAME or a .stagecraft session");
    parser.addOption("inputs", "FILE",
                     "input tensors: stagecraft-tensors JSON, an ONNX TensorProto .pb, or a "
                     "directory of input_K.pb (an ONNX backend test's data set)");
    parser.addSwitch("seeded", "use reproducible pseudo-random inputs instead");
    parser.addOption("seed", "N", "seed of --seeded (default 0)");
    parser.addOption("outputs", "FILE", "write the output tensors here");
    parser.addOption("save-inputs", "FILE", "also write the inputs used (with --seeded)");
    parser.addOption("reference", "FILE",
                     "compare the outputs with these (e.g. ONNX Runtime's) and fail above "
                     "--tolerance");
    parser.addOption("tolerance", "X", "largest relative error accepted (default 1e-4)");
    parser.addOption("atol", "X",
                     "compare element by element instead: |a - e| <= X + tolerance * |e| "
                     "(as numpy.allclose; tolerance at least one ulp of an f16 or bf16 "
                     "reference; the ONNX backend tests use --tolerance 1e-3 --atol 1e-7)");
    parser.addOption("opt", "N", "LLVM optimization level 0-3 (default 2)");
    parser.addOption("target", "host|riscv64",
                     "run on this host (default), or link the DSA's riscv64 kernels with Debian's "
                     "cross compiler and run them under qemu-riscv64 with the vector extension");
    parser.addOption("vlen", "BITS",
                     "VLEN of the emulated RISC-V vector unit, and the least the kernels are "
                     "compiled for, as emit --vlen (default 256)");
    parser.addSwitch("no-cache",
                     "compile every kernel; else kernels compiled before are read from the "
                     "object cache ($STAGECRAFT_CACHE_DIR, $XDG_CACHE_HOME/stagecraft or "
                     "~/.cache/stagecraft)");
    parser.addOption("profile", "FILE",
                     "time every kernel (median of --repeat runs after --warmup runs) and write "
                     "a stagecraft-profile document, also a Chrome trace");
    parser.addOption("repeat", "N", "runs timed for --profile (default 10)");
    parser.addOption("warmup", "N", "runs before the timed ones for --profile (default 2)");
    addKernelOptions(parser, true);
    return parser;
}

struct Request {
    KernelRequest kernels;
    std::optional<std::string> inputs;
    bool seeded = false;
    uint64_t seed = 0;
    std::string outputs;
    std::optional<std::string> saveInputs;
    std::optional<std::string> reference;
    double tolerance = 1e-4;
    std::optional<double> atol;
    int optLevel = 2;
    bool cache = true;
    codegen::Target target = codegen::Target::Host;
    int vlen = 256;
    std::optional<std::string> profile;
    int repeat = 10;
    int warmup = 2;
};

std::optional<std::string> readRequest(const ArgParser& parser, Request& r) {
    if (auto problem = readKernelRequest(parser, *parser.positional("MODEL"), r.kernels))
        return problem;
    r.kernels.model.weights = onnxio::WeightFill::Seeded;
    r.inputs = parser.value("inputs");
    r.seeded = parser.has("seeded");
    if (r.inputs.has_value() == r.seeded)
        return std::string("give either --inputs FILE or --seeded");
    std::optional<int64_t> seed = parseInt(parser.value("seed", "0"));
    if (!seed || *seed < 0)
        return std::string("--seed needs a whole number >= 0");
    r.seed = static_cast<uint64_t>(*seed);
    auto outputs = parser.value("outputs");
    if (!outputs)
        return std::string("--outputs FILE is required");
    r.outputs = *outputs;
    r.saveInputs = parser.value("save-inputs");
    r.reference = parser.value("reference");
    std::optional<double> tolerance = parseDouble(parser.value("tolerance", "1e-4"));
    if (!tolerance || !(*tolerance >= 0))
        return std::string("--tolerance needs a number >= 0");
    r.tolerance = *tolerance;
    if (parser.has("atol")) {
        r.atol = parseDouble(*parser.value("atol"));
        if (!r.atol || !(*r.atol >= 0))
            return std::string("--atol needs a number >= 0");
        if (!r.reference)
            return std::string("--atol goes with --reference");
    }
    std::optional<int64_t> opt = parseInt(parser.value("opt", "2"));
    if (!opt || *opt < 0 || *opt > 3)
        return std::string("--opt must be 0, 1, 2 or 3");
    r.optLevel = static_cast<int>(*opt);
    r.cache = !parser.has("no-cache");
    auto target = codegen::parseTarget(parser.value("target", "host"));
    if (!target)
        return "--target must be host or riscv64, got " + quote(parser.value("target", ""));
    r.target = *target;
    std::optional<int64_t> vlen = parseInt(parser.value("vlen", "256"));
    if (!vlen || (*vlen != 128 && *vlen != 256 && *vlen != 512 && *vlen != 1024))
        return std::string("--vlen must be 128, 256, 512 or 1024");
    if (parser.has("vlen") && r.target != codegen::Target::RiscV64)
        return std::string("--vlen goes with --target riscv64");
    r.vlen = static_cast<int>(*vlen);
    r.profile = parser.value("profile");
    if (r.profile && r.target == codegen::Target::RiscV64)
        return std::string("--profile times the host's kernels: it does not go with --target "
                           "riscv64");
    for (auto [name, slot, least] :
         {std::tuple{"repeat", &r.repeat, 1}, std::tuple{"warmup", &r.warmup, 0}}) {
        std::optional<int64_t> n = parseInt(parser.value(name, std::to_string(*slot)));
        if (!n || *n < least || *n > 100000)
            return "--" + std::string(name) + " needs a whole number from " +
                   std::to_string(least) + " to 100000";
        *slot = static_cast<int>(*n);
    }
    if (!r.profile && (parser.has("repeat") || parser.has("warmup")))
        return std::string("--repeat and --warmup go with --profile");
    return std::nullopt;
}

/// Runs \p host --warmup times, then --repeat times timing each kernel, and
/// writes the profile; the outputs are the last run's.
Expected<codegen::TensorSet> runProfiled(const Request& request, const KernelBuild& build,
                                         codegen::HostProgram& host,
                                         const codegen::TensorSet& inputs, std::ostream& err) {
    codegen::TensorSet outputs;
    std::vector<std::vector<double>> runs;
    int total = request.warmup + request.repeat;
    for (int i = 0; i < total; ++i) {
        codegen::HostRunStats stats;
        SC_ASSIGN_OR_RETURN(outputs, host.run(inputs, &stats));
        if (i >= request.warmup)
            runs.push_back(std::move(stats.kernelSeconds));
        if ((i + 1) % std::max(1, total / 5) == 0 || i + 1 == total)
            err << kName << "profiled " << i + 1 << "/" << total << " runs\n";
    }
    codegen::Profile profile;
    profile.model = build.spec.text; // as given, or as the session names it
    profile.arch = build.arch.name;
    profile.strategy = build.strategy;
    profile.precision = build.evaluation.report.precision;
    profile.warmups = request.warmup;
    profile.repetitions = request.repeat;
    codegen::summarizeProfile(build.plan, runs, profile);
    SC_RETURN_IF_ERROR(writeFileAtomic(*request.profile, codegen::writeProfileJson(profile)));
    return outputs;
}

std::vector<std::string> namesOf(const ir::Graph& graph, const std::vector<ir::TensorId>& ids) {
    std::vector<std::string> names;
    for (ir::TensorId id : ids)
        names.push_back(graph.tensor(id).name);
    return names;
}

/// The relative spacing of a half-width float: a value rounded once to it
/// is not compared tighter (the ONNX 1.12 data truncate float to bfloat16
/// where ONNX Runtime and later ONNX round to nearest).
double ulpOf(ir::DType dtype) {
    if (dtype == ir::DType::BFloat16)
        return 0x1p-7;
    return dtype == ir::DType::Float16 ? 0x1p-10 : 0.0;
}

/// One output's line: the normwise error, or with --atol how many elements
/// lie outside atol + tolerance * |e|. False when the output fails.
bool compareOne(const codegen::HostTensor& o, const codegen::HostTensor& ref,
                const Request& request, std::ostream& out) {
    codegen::Difference d = codegen::compareTensors(o, ref);
    char line[200];
    std::snprintf(line, sizeof line,
                  "%s: relative error %.3g (max |a-e| / max |e|), max absolute %.3g",
                  o.name.c_str(), d.relative, d.maxAbsolute);
    out << line;
    if (!request.atol) {
        out << (d.mismatch.empty() ? "" : " (" + d.mismatch + ")") << "\n";
        return d.mismatch.empty() && d.relative <= request.tolerance;
    }
    codegen::Closeness c =
        codegen::checkClose(o, ref, std::max(request.tolerance, ulpOf(ref.dtype)), *request.atol);
    if (!c.mismatch.empty()) {
        out << " (" << c.mismatch << ")\n";
        return false;
    }
    out << "; " << c.failing << " of " << ref.elementCount() << " elements not close";
    if (c.failing > 0)
        out << " (first at " << c.firstIndex << ": " << o.at(c.firstIndex) << " vs "
            << ref.at(c.firstIndex) << ")";
    out << "\n";
    return c.failing == 0;
}

/// Prints the error of each output against the reference; false when one is
/// above the tolerance or missing.
bool compareWith(const codegen::TensorSet& outputs, const codegen::TensorSet& reference,
                 const Request& request, std::ostream& out, std::ostream& err) {
    bool ok = true;
    for (const codegen::HostTensor& o : outputs) {
        const codegen::HostTensor* ref = codegen::findTensor(reference, o.name);
        if (ref == nullptr) {
            err << kName << "output '" << o.name << "' is not in the reference\n";
            ok = false;
            continue;
        }
        ok = compareOne(o, *ref, request, out) && ok;
    }
    return ok;
}

int fail(std::ostream& err, const Error& error) {
    err << kName << error.message() << "\n";
    return kExitBadInput;
}

} // namespace

namespace {

/// Runs the compiled kernels: linked in process on the host (profiled when
/// asked), or under qemu-riscv64; \p stats gets the wall time.
Expected<codegen::TensorSet> runCompiled(const Request& request, const KernelBuild& build,
                                         const codegen::EmittedProgram& program,
                                         const codegen::TensorSet& inputs,
                                         codegen::HostRunStats& stats, std::ostream& err) {
    const ir::Graph& graph = build.model.graph;
    if (request.target == codegen::Target::RiscV64) {
        err << kName << "linking and running under qemu-riscv64 (VLEN " << request.vlen << ")\n";
        auto start = std::chrono::steady_clock::now();
        auto outputs = codegen::runOnRiscv(graph, build.plan, program, inputs, {request.vlen});
        stats.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return outputs;
    }
    SC_ASSIGN_OR_RETURN(auto host, codegen::HostProgram::load(graph, build.plan, program));
    return request.profile ? runProfiled(request, build, *host, inputs, err)
                           : host->run(inputs, &stats);
}

} // namespace

int runRun(const Args& args, std::ostream& out, std::ostream& err) {
    ArgParser parser = makeParser();
    if (!parser.parse(args)) {
        err << kName << parser.error() << " (see 'stagecraft run --help')\n";
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
    if (Status outputs = checkOutputOptions(parser, {"outputs", "save-inputs", "profile"});
        !outputs.ok())
        return fail(err, outputs.error());
    // Given inputs are read first: they bind a file's input shapes and give
    // the values the importer may need as constants. A file that does not
    // read is reported after the model, whose refusal (a sequence input, say)
    // explains more.
    std::optional<Expected<codegen::TensorSet>> given;
    if (!request.seeded) {
        std::vector<onnxio::DeclaredInput> declared = declaredInputsOf(request.kernels);
        given = readTensorSource(*request.inputs, "input", inputNames(declared));
        if (given->ok())
            bindGivenInputs(request.kernels, **given, declared);
    }
    auto build = buildKernelPlan(request.kernels);
    if (!build.ok())
        return fail(err, build.error());
    for (const std::string& warning : build->warnings)
        err << kName << "warning: " << warning << "\n";
    for (const std::string& warning : build->model.warnings)
        err << kName << "warning: " << warning << "\n";
    const ir::Graph& graph = build->model.graph;
    auto inputs = request.seeded ? codegen::seededInputs(graph, request.seed) : std::move(*given);
    if (!inputs.ok())
        return fail(err, inputs.error());
    readBFloat16Bits(*inputs, graph, graph.inputs());
    applyBoundValues(*inputs, build->model.boundValues);
    if (auto matched = codegen::matchInputs(graph, *inputs); !matched.ok())
        return fail(err, matched.error().withContext(*request.inputs));
    // Read before compiling: a bad reference file fails at once.
    std::optional<codegen::TensorSet> reference;
    if (request.reference) {
        auto read = readTensorSource(*request.reference, "output", namesOf(graph, graph.outputs()));
        if (!read.ok())
            return fail(err, read.error());
        reference = std::move(read).value();
        readBFloat16Bits(*reference, graph, graph.outputs());
    }
    if (request.saveInputs)
        if (Status s = writeFileAtomic(*request.saveInputs, codegen::writeTensorsJson(*inputs));
            !s.ok())
            return fail(err, s.error());
    bool riscv = request.target == codegen::Target::RiscV64;
    if (!riscv) // the host's threads share each layer's tiles
        codegen::runOnThisHost(build->plan);
    if (Status memory = codegen::checkRunMemory(graph, build->plan); !memory.ok())
        return fail(err, inModel(build->spec, memory.error()));
    if (riscv)
        if (Status tools = codegen::checkRiscvTools(); !tools.ok())
            return fail(err, tools.error());
    codegen::EmitOptions emit;
    emit.target = request.target;
    emit.vlen = riscv ? request.vlen : 0;
    emit.optLevel = request.optLevel;
    emit.keepIr = false;
    if (request.cache)
        emit.cacheDir = codegen::defaultObjectCacheDir();
    err << kName << "compiling " << build->plan.kernels.size() << " kernels for "
        << (riscv ? "riscv64" : "the host") << "\n";
    auto compileStart = std::chrono::steady_clock::now();
    auto program =
        codegen::emitProgram(graph, *build->evaluation.schedule.semantics, build->plan, emit);
    if (!program.ok())
        return fail(err, inModel(build->spec, program.error()));
    err << kName << compileSummary(*program, compileStart) << "\n";
    if (request.cache && emit.cacheDir.empty())
        err << kName << codegen::noObjectCacheDirNote() << "\n";
    if (!program->cacheNote.empty())
        err << kName << "warning: " << program->cacheNote << "\n";
    codegen::HostRunStats stats;
    auto outputs = runCompiled(request, *build, *program, *inputs, stats, err);
    if (!outputs.ok())
        return fail(err, inModel(build->spec, outputs.error()));
    if (Status s = writeFileAtomic(request.outputs, codegen::writeTensorsJson(*outputs)); !s.ok())
        return fail(err, s.error());
    char time[64];
    std::snprintf(time, sizeof time, "%.3f s", stats.seconds);
    if (request.profile)
        out << "profiled " << build->plan.kernels.size() << " kernels (" << build->strategy
            << ") over " << request.repeat << " runs\nwrote " << request.outputs << " and "
            << *request.profile << "\n";
    else
        out << "ran " << build->plan.kernels.size() << " kernels (" << build->strategy << ") "
            << (riscv ? "under qemu-riscv64 (VLEN " + std::to_string(request.vlen) + ") " : "")
            << "in " << time << "\nwrote " << request.outputs << "\n";
    // How the configuration was chosen: a note for the reader, not output.
    for (const std::string& note : build->notes)
        err << kName << note << "\n";
    if (!reference)
        return kExitOk;
    if (!compareWith(*outputs, *reference, request, out, err)) {
        err << kName << "the outputs differ from " << *request.reference
            << " by more than the tolerance\n";
        return kExitBadInput;
    }
    return kExitOk;
}

} // namespace stagecraft::cli
