// stagecraft fidelity: how far the simulator's verdicts are from this
// machine's. Each strategy's schedule for the host-cpu architecture, at its
// best level and order for the model's batch (driver/optimum.h, as compare
// chooses them), is simulated, its kernels emitted for the host and timed; per kernel the
// simulated time (the kernel's window, docs/simulator.md "Attribution")
// stands beside the fastest of its timed runs (docs/simulator.md, "Fidelity",
// as calibration takes its training kernels). The
// strategies' programs are all linked first and then take turns run by run,
// so that the machine's drift does not decide which one is faster.

#include "arch/host_cpu.h"
#include "arch/presets.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/kernel_build.h"
#include "codegen/code_plan.h"
#include "codegen/codegen.h"
#include "codegen/host_run.h"
#include "codegen/profile.h"
#include "sim/ranking.h"
#include "support/strings.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <ostream>

namespace stagecraft::cli {

namespace {

constexpr const char* kName = "stagecraft fidelity: ";

ArgParser makeParser() {
    ArgParser parser(
        "stagecraft fidelity MODEL [options]",
        "Schedules MODEL with each strategy for the host-cpu architecture (calibrated by\n"
        "'stagecraft arch calibrate' when it has been), each at the level and order its\n"
        "search finds fastest for the model's batch (as compare chooses them), simulates\n"
        "it, runs its kernels on this machine and compares: simulated against measured\n"
        "time (the fastest of each kernel's runs) per kernel and per model, Spearman's\n"
        "rank correlation over the kernels, and the strategies ranked by simulated and\n"
        "by measured latency.");
    parser.addPositional("MODEL", "the .onnx file or zoo:NAME");
    parser.addOption("strategies", "LIST", "comma-separated strategies (default all)");
    parser.addOption("repeat", "N",
                     "timed runs per strategy (default 5, after one warm-up), the strategies "
                     "taking turns run by run");
    parser.addSwitch("json", "print the stagecraft-fidelity document");
    parser.addOption("seq", "N", "sequence length of zoo:bert-* and zoo:conformer");
    parser.addOption("batch", "N", "batch of a zoo model (default: the model's)");
    parser.addRepeatedOption("input", "NAME:SHAPE", "bind a whole input shape of a file");
    parser.addRepeatedOption("dim", "NAME=N", "bind a named dynamic dimension of a file");
    parser.addRepeatedOption(
        "value", "NAME=V[,V...]",
        "bind a scalar or vector input's value, e.g. sr=16000; folds an If on it of a file");
    addPrecisionOption(parser);
    return parser;
}

struct Measured {
    std::string strategy;
    std::vector<std::string> kernels;
    std::vector<double> simulated;
    std::vector<double> measured;
    double simulatedTotal = 0;
    double measuredTotal = 0;
    double rho = 1;
};

/// One strategy's program, compiled and linked, and its timed runs.
struct Prepared {
    std::string strategy;
    KernelBuild build;
    std::unique_ptr<codegen::HostProgram> host;
    codegen::TensorSet inputs;
    /// runs[r][k]: seconds of kernel k in timed run r.
    std::vector<std::vector<double>> runs;
};

/// Schedules, simulates, emits and links \p strategy's program. Boxed: the
/// host program keeps pointers to the build's graph and plan.
Expected<std::unique_ptr<Prepared>> prepare(const KernelRequest& base, const std::string& strategy,
                                            std::ostream& err) {
    auto p = std::make_unique<Prepared>();
    p->strategy = strategy;
    KernelRequest request = base;
    request.strategy = strategy;
    SC_ASSIGN_OR_RETURN(p->build, buildKernelPlan(request));
    for (const std::string& note : p->build.notes)
        err << kName << strategy << ": " << note << "\n";
    const ir::Graph& graph = p->build.model.graph;
    err << kName << strategy << ": compiling " << p->build.plan.kernels.size() << " kernels\n";
    codegen::runOnThisHost(p->build.plan);
    SC_ASSIGN_OR_RETURN(codegen::EmittedProgram program,
                        codegen::emitProgram(graph, *p->build.evaluation.schedule.semantics,
                                             p->build.plan,
                                             {codegen::Target::Host, 2, 0, false, {}}));
    SC_ASSIGN_OR_RETURN(p->host, codegen::HostProgram::load(graph, p->build.plan, program));
    SC_ASSIGN_OR_RETURN(p->inputs, codegen::seededInputs(graph));
    return p;
}

/// Runs every program \p repeat + 1 times, round by round (the first round
/// a warm-up), each round in a rotated order: the machine's drift between
/// minutes then falls on every strategy alike.
Status runInterleaved(std::vector<std::unique_ptr<Prepared>>& programs, int repeat,
                      std::ostream& err) {
    for (int r = 0; r < repeat + 1; ++r) {
        err << kName << "round " << r << (r == 0 ? " (warm-up)" : "") << " of " << repeat << "\n";
        for (size_t i = 0; i < programs.size(); ++i) {
            Prepared& p = *programs[(i + static_cast<size_t>(r)) % programs.size()];
            codegen::HostRunStats stats;
            Expected<codegen::TensorSet> outputs = p.host->run(p.inputs, &stats);
            if (!outputs.ok())
                return Error(p.strategy + ": " + outputs.error().message());
            if (r > 0)
                p.runs.push_back(std::move(stats.kernelSeconds));
        }
    }
    return Status::success();
}

Measured summarize(const Prepared& p) {
    codegen::Profile profile;
    codegen::summarizeProfile(p.build.plan, p.runs, profile);
    Measured m;
    m.strategy = p.strategy;
    const auto& attributed = p.build.evaluation.report.attribution.kernels;
    for (size_t k = 0; k < profile.kernels.size() && k < attributed.size(); ++k) {
        m.kernels.push_back(profile.kernels[k].instance);
        m.simulated.push_back(attributed[k].breakdown.totalNs);
        m.measured.push_back(profile.kernels[k].minNs);
        m.measuredTotal += profile.kernels[k].minNs;
    }
    m.simulatedTotal = p.build.evaluation.report.latencyUs * 1000;
    m.rho = sim::spearman(m.simulated, m.measured);
    return m;
}

std::string fixed(double value, int digits) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
    return buffer;
}

/// A rank correlation says something from three kernels on: of one or two
/// it is 1 or -1 whatever the simulator does.
bool rankable(const Measured& m) {
    return m.kernels.size() >= 3;
}

void printText(const std::string& model, const arch::Arch& arch, bool calibrated,
               const std::vector<Measured>& all, const std::vector<std::string>& conflicts,
               std::ostream& out) {
    out << "fidelity of " << model << " on " << arch.name
        << (calibrated ? " (calibrated)" : " (not calibrated: run 'stagecraft arch calibrate')")
        << "\n\nstrategy      kernels  simulated ms  measured ms  sim/measured  spearman\n";
    for (const Measured& m : all) {
        std::string name =
            m.strategy + std::string(m.strategy.size() < 14 ? 14 - m.strategy.size() : 1, ' ');
        out << name << fixed(static_cast<double>(m.kernels.size()), 0)
            << std::string(9 - std::min<size_t>(8, std::to_string(m.kernels.size()).size()), ' ')
            << fixed(m.simulatedTotal / 1e6, 3) << "      " << fixed(m.measuredTotal / 1e6, 3)
            << "      " << fixed(m.simulatedTotal / std::max(m.measuredTotal, 1e-9), 3)
            << "        " << (rankable(m) ? fixed(m.rho, 3) : std::string("n/a")) << "\n";
    }
    out << "\nranking conflicts (measured more than 5 % apart): "
        << (conflicts.empty() ? std::string("none") : join(conflicts, ", ")) << "\n";
}

nlohmann::json documentJson(const std::string& model, const arch::Arch& arch, bool calibrated,
                            const std::vector<Measured>& all,
                            const std::vector<std::string>& conflicts) {
    nlohmann::json strategies = nlohmann::json::array();
    for (const Measured& m : all) {
        nlohmann::json kernels = nlohmann::json::array();
        for (size_t k = 0; k < m.kernels.size(); ++k)
            kernels.push_back({{"instance", m.kernels[k]},
                               {"simulated_ns", m.simulated[k]},
                               {"measured_ns", m.measured[k]}});
        strategies.push_back({{"name", m.strategy},
                              {"simulated_ns", m.simulatedTotal},
                              {"measured_ns", m.measuredTotal},
                              {"ratio", m.simulatedTotal / std::max(m.measuredTotal, 1e-9)},
                              {"spearman", rankable(m) ? nlohmann::json(m.rho) : nlohmann::json()},
                              {"kernels", kernels}});
    }
    return {{"format", "stagecraft-fidelity"},
            {"version", 1},
            {"model", model},
            {"arch", arch.name},
            {"calibrated", calibrated},
            {"strategies", strategies},
            {"ranking_conflicts", conflicts}};
}

} // namespace

int runFidelity(const Args& args, std::ostream& out, std::ostream& err) {
    ArgParser parser = makeParser();
    if (!parser.parse(args)) {
        err << kName << parser.error() << " (see 'stagecraft fidelity --help')\n";
        return kExitBadUsage;
    }
    if (parser.helpRequested()) {
        out << parser.helpText();
        return kExitOk;
    }
    KernelRequest request;
    if (auto problem = readKernelRequest(parser, *parser.positional("MODEL"), request)) {
        err << kName << *problem << "\n";
        return kExitBadUsage;
    }
    request.model.weights = onnxio::WeightFill::Seeded;
    request.arch = std::string(arch::kHostCpuPreset);
    request.tuned = true; // each strategy at its best level and order, as compare runs it
    if (auto batch = parser.value("batch")) {
        std::optional<int64_t> n = parseInt(*batch);
        if (!n || *n < 1 || *n > 4096 || request.model.zooName.empty()) {
            err << kName << "--batch needs a zoo model and a whole number from 1 to 4096\n";
            return kExitBadUsage;
        }
        request.model.zooBatch = *n;
    }
    std::optional<int64_t> repeat = parseInt(parser.value("repeat", "5"));
    if (!repeat || *repeat < 1 || *repeat > 1000) {
        err << kName << "--repeat needs a whole number from 1 to 1000\n";
        return kExitBadUsage;
    }
    std::vector<std::string> names;
    std::string list = parser.value("strategies", "");
    for (const std::string& name : list.empty() ? std::vector<std::string>{} : split(list, ',')) {
        if (!sim::findStrategy(name)) {
            err << kName << sim::unknownStrategyMessage(name) << "\n";
            return kExitBadUsage;
        }
        names.push_back(name);
    }
    if (names.empty())
        for (const sim::Strategy& s : sim::strategies())
            names.push_back(s.name);
    auto arch = arch::resolveArch(arch::kHostCpuPreset);
    if (!arch.ok()) {
        err << kName << arch.error().message() << "\n";
        return kExitBadInput;
    }
    bool calibrated = arch->description.rfind("this machine, calibrated", 0) == 0;
    if (!calibrated)
        err << kName << "warning: host-cpu is not calibrated; run 'stagecraft arch calibrate'\n";
    std::vector<std::unique_ptr<Prepared>> programs;
    for (const std::string& name : names) {
        auto p = prepare(request, name, err);
        if (!p.ok()) {
            err << kName << name << ": " << p.error().message() << "\n";
            return kExitBadInput;
        }
        programs.push_back(std::move(p).value());
    }
    if (Status s = runInterleaved(programs, static_cast<int>(*repeat), err); !s.ok()) {
        err << kName << s.error().message() << "\n";
        return kExitBadInput;
    }
    std::vector<Measured> all;
    for (const auto& p : programs)
        all.push_back(summarize(*p));
    std::vector<double> simulated, measured;
    for (const Measured& m : all) {
        simulated.push_back(m.simulatedTotal);
        measured.push_back(m.measuredTotal);
    }
    std::vector<std::string> conflicts = sim::rankingConflicts(names, simulated, measured, 0.05);
    std::string model =
        request.model.text.empty() ? *parser.positional("MODEL") : request.model.text;
    if (parser.has("json"))
        out << documentJson(model, *arch, calibrated, all, conflicts).dump(2) << "\n";
    else
        printText(model, *arch, calibrated, all, conflicts, out);
    return kExitOk;
}

} // namespace stagecraft::cli
