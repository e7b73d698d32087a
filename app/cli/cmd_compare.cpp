// stagecraft compare: runs every strategy of §5 (tvm, astitch, the Fig. 15
// variants, graphturbo) through schedule → kernel plans → simulation on one
// architecture and prints latency, throughput, speedup over tvm, traffic per
// memory level, buffer scopes (Table 3), unit utilization (Fig. 16/17) and the
// roofline bound. Zoo models of Table 2 run with its batch configuration.

#include "arch/presets.h"
#include "cli/args.h"
#include "cli/batch_config.h"
#include "cli/commands.h"
#include "cli/compare_report.h"
#include "cli/output_paths.h"
#include "cli/schedule_model.h"
#include "io/chrome_trace.h"
#include "io/compare_json.h"
#include "schedule/clusters.h"
#include "support/file.h"
#include "support/strings.h"

#include <ostream>

namespace stagecraft::cli {

namespace {

constexpr const char* kName = "stagecraft compare: ";

ArgParser makeParser() {
    ArgParser parser(
        "stagecraft compare MODEL [options]",
        "Runs every strategy (tvm, astitch, dla, ago, ios, gt-gb, gt-lb, gt-instances,\n"
        "graphturbo) on the same simulator and reports each one's kernels, latency,\n"
        "throughput, speedup over tvm, traffic per memory level, buffer scopes, unit\n"
        "utilization and roofline bound.\n"
        "Zoo models of the paper's Table 2 use its batch and samples per cluster (TVM's\n"
        "for tvm, GraphTurbo's for the others) unless --batch or --per-cluster is given.");
    parser.addPositional("MODEL", "the .onnx file or zoo:NAME");
    parser.addOption("arch", "A", "architecture preset or file (default stcp920)");
    parser.addOption("batch", "N", "total batch over all clusters");
    parser.addOption("per-cluster", "K", "samples per cluster for every strategy");
    parser.addOption("seq", "N", "sequence length of zoo:bert-* and zoo:conformer");
    parser.addOption("strategies", "LIST", "comma-separated strategies (default all)");
    parser.addOption("level", "lb|gb|auto",
                     "buffer level Algorithm 1 fills for the GraphTurbo strategies (§3.6); "
                     "auto: the one whose graphturbo run is faster (default)");
    parser.addOption("trace", "FILE", "write graphturbo's simulation as Chrome trace JSON");
    parser.addSwitch("json", "print the stagecraft-compare document");
    parser.addSwitch("csv", "print one CSV row per strategy");
    parser.addRepeatedOption("input", "NAME:SHAPE", "bind a whole input shape of a file");
    parser.addRepeatedOption("dim", "NAME=N", "bind a named dynamic dimension of a file");
    parser.addRepeatedOption(
        "value", "NAME=V[,V...]",
        "bind a scalar or vector input's value, e.g. sr=16000; folds an If on it of a file");
    addPrecisionOption(parser);
    return parser;
}

struct Request {
    ModelSpec model;
    std::string arch;
    std::optional<int64_t> batch;
    std::optional<int64_t> perCluster;
    std::vector<const sim::Strategy*> strategies;
    std::optional<std::string> trace;
    std::optional<schedule::Level> level;
    bool json = false;
    bool csv = false;
};

std::optional<std::string> readCountOption(const ArgParser& parser, const char* name,
                                           std::optional<int64_t>& value) {
    auto text = parser.value(name);
    if (!text)
        return std::nullopt;
    auto parsed = parseInt(*text);
    if (!parsed || *parsed < 1)
        return "--" + std::string(name) + " needs a whole number of at least 1, got " +
               quote(*text);
    value = parsed;
    return std::nullopt;
}

std::optional<std::string> readRequest(const ArgParser& parser, Request& r) {
    r.model.text = *parser.positional("MODEL");
    if (r.model.text.rfind("zoo:", 0) == 0)
        r.model.zooName = r.model.text.substr(4);
    std::optional<int64_t> seq;
    for (auto [name, slot] : {std::pair{"seq", &seq}, std::pair{"batch", &r.batch},
                              std::pair{"per-cluster", &r.perCluster}})
        if (auto refusal = readCountOption(parser, name, *slot))
            return refusal;
    r.model.seq = seq.value_or(0);
    for (const std::string& text : parser.values("input"))
        if (Status s = onnxio::addInputBinding(r.model.import, text); !s.ok())
            return s.error().message();
    for (const std::string& text : parser.values("dim"))
        if (Status s = onnxio::addDimBinding(r.model.import, text); !s.ok())
            return s.error().message();
    for (const std::string& text : parser.values("value"))
        if (Status s = onnxio::addValueBinding(r.model.import, text); !s.ok())
            return s.error().message();
    if (auto problem = readPrecision(parser, r.model))
        return problem;
    std::string list = parser.value("strategies", "");
    for (const std::string& name : list.empty() ? std::vector<std::string>{} : split(list, ',')) {
        const sim::Strategy* s = sim::findStrategy(name);
        if (s == nullptr)
            return sim::unknownStrategyMessage(name);
        r.strategies.push_back(s);
    }
    if (r.strategies.empty())
        for (const sim::Strategy& s : sim::strategies())
            r.strategies.push_back(&s);
    std::string level = parser.value("level", "auto");
    if (level != "auto") {
        r.level = schedule::parseLevel(level);
        if (!r.level)
            return "--level must be lb, gb or auto, got " + quote(level);
    }
    r.arch = parser.value("arch", std::string(arch::kDefaultPreset));
    r.trace = parser.value("trace");
    r.json = parser.has("json");
    r.csv = parser.has("csv");
    if (r.json && r.csv)
        return "--json and --csv exclude each other";
    return std::nullopt;
}

/// A model loaded for one per-cluster batch, with its cluster plan.
struct Workload {
    LoadedModel model;
    schedule::ClusterPlan plan;
};

Expected<Workload> loadWorkload(const Request& r, const arch::Arch& arch,
                                const sim::BatchConfig& config, int64_t k) {
    Workload w;
    SC_ASSIGN_OR_RETURN(w.plan, schedule::makeClusterPlan(config.totalBatch, arch.clusters, k));
    w.plan.chosenBy = config.label.empty() ? "given" : "Table 2 " + config.label;
    SC_ASSIGN_OR_RETURN(w.model, loadModel(r.model, k));
    return w;
}

Expected<sim::Evaluation> runOne(const Request& r, const arch::Arch& arch,
                                 const sim::Strategy& strategy, const Workload& w,
                                 schedule::Level level) {
    const LoadedModel& model = w.model;
    const schedule::ClusterPlan& plan = w.plan;
    schedule::ScheduleOptions options;
    options.recordTrace = false;
    options.level = level;
    Expected<sim::Evaluation> evaluated = sim::evaluate(model.graph, arch, strategy, plan, options);
    if (!evaluated.ok())
        return inModel(r.model, evaluated.error());
    sim::Evaluation ev = std::move(evaluated).value();
    if (r.trace && strategy.name == "graphturbo") {
        std::string text = io::writeChromeTrace(model.graph, arch, ev.program, ev.tasks, ev.sim);
        SC_RETURN_IF_ERROR(writeFileAtomic(*r.trace, text));
    }
    return ev;
}

int compare(const Request& r, const arch::Arch& arch, std::ostream& out, std::ostream& err) {
    auto config = batchConfigFor(r.model, r.batch, r.perCluster, arch);
    if (!config.ok()) {
        err << kName << config.error().message() << "\n";
        return kExitBadInput;
    }
    auto baseline = loadWorkload(r, arch, *config, config->tvmPerCluster);
    auto ours = loadWorkload(r, arch, *config, config->perCluster);
    if (!baseline.ok() || !ours.ok()) {
        err << kName << (baseline.ok() ? ours : baseline).error().message() << "\n";
        return kExitBadInput;
    }
    schedule::Level level = r.level.value_or(schedule::Level::LB);
    if (!r.level) {
        err << kName << "choosing the level (lb or gb) by simulating graphturbo at both\n";
        auto chosen = sim::chooseLevel(ours->model.graph, arch, ours->plan);
        if (!chosen.ok()) {
            err << kName << chosen.error().message() << "\n";
            return kExitBadInput;
        }
        level = *chosen;
    }
    std::vector<sim::Report> reports;
    for (size_t i = 0; i < r.strategies.size(); ++i) {
        const sim::Strategy& s = *r.strategies[i];
        err << kName << "[" << i + 1 << "/" << r.strategies.size() << "] " << s.name << "\n";
        auto ev = runOne(r, arch, s, s.tvmBatch ? *baseline : *ours, level);
        if (!ev.ok()) {
            err << kName << s.name << ": " << ev.error().message() << "\n";
            return kExitBadInput;
        }
        reports.push_back(std::move(ev->report));
    }
    sim::fillSpeedups(reports);
    if (r.json)
        out << io::writeCompareJson({r.model.text, arch.name, config->label}, reports);
    else if (r.csv)
        out << io::writeCompareCsv(reports);
    else
        printCompareText({r.model.text, arch.name, config->label}, reports, out);
    return kExitOk;
}

} // namespace

int runCompare(const Args& args, std::ostream& out, std::ostream& err) {
    ArgParser parser = makeParser();
    if (!parser.parse(args)) {
        err << kName << parser.error() << " (see 'stagecraft compare --help')\n";
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
    if (Status outputs = checkOutputOptions(parser, {"trace"}); !outputs.ok()) {
        err << kName << outputs.error().message() << "\n";
        return kExitBadInput;
    }
    auto arch = arch::resolveArch(request.arch);
    if (!arch.ok()) {
        err << kName << arch.error().message() << "\n";
        return kExitBadInput;
    }
    if (Status rates = checkPrecision(request.model, *arch); !rates.ok()) {
        err << kName << rates.error().message() << "\n";
        return kExitBadInput;
    }
    return compare(request, *arch, out, err);
}

} // namespace stagecraft::cli
