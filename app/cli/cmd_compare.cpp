// stagecraft compare: runs every strategy of §5 (the baselines, the Fig. 15
// variants, gt-paper, graphturbo) through schedule → kernel plans →
// simulation on one architecture, each at its own best configuration
// (driver/optimum.h: samples per cluster, level, order, as §5.1 tunes them),
// and prints its configuration, latency, throughput, speedup over tvm,
// traffic per memory level, buffer scopes (Table 3), unit utilization
// (Fig. 16/17) and the roofline bound. Zoo models of Table 2 run its total
// batch.

#include "arch/presets.h"
#include "cli/args.h"
#include "cli/batch_config.h"
#include "cli/commands.h"
#include "cli/compare_report.h"
#include "cli/output_paths.h"
#include "cli/schedule_model.h"
#include "driver/optimum.h"
#include "io/chrome_trace.h"
#include "io/compare_json.h"
#include "schedule/clusters.h"
#include "support/file.h"
#include "support/strings.h"

#include <cstdio>
#include <ostream>

namespace stagecraft::cli {

namespace {

constexpr const char* kName = "stagecraft compare: ";

ArgParser makeParser() {
    ArgParser parser(
        "stagecraft compare MODEL [options]",
        "Runs every strategy (tvm, tvm-llb, astitch, dla, ago, ios, gt-gb, gt-lb,\n"
        "gt-instances, gt-paper, graphturbo) on the same simulator, each at its own best\n"
        "configuration: the samples per cluster (loop iterations make up the batch),\n"
        "level and order its autotuning round may vary, chosen by simulation (the\n"
        "paper's section 5.1). Reports each one's configuration, kernels, latency,\n"
        "throughput, speedup over tvm, traffic per memory level, buffer scopes, unit\n"
        "utilization and roofline bound.\n"
        "Zoo models of the paper's Table 2 run its total batch unless --batch or\n"
        "--per-cluster is given. --per-cluster, --level and --order fix that part of the\n"
        "configuration for every strategy; --fixed searches nothing (Table 2's samples\n"
        "per cluster, TVM's for tvm and tvm-llb, else the model's batch; LB; the\n"
        "order of the paper's section 3.3).");
    parser.addPositional("MODEL", "the .onnx file or zoo:NAME");
    parser.addOption("arch", "A", "architecture preset or file (default stcp920)");
    parser.addOption("batch", "N", "total batch over all clusters");
    parser.addOption("per-cluster", "K", "samples per cluster for every strategy (not searched)");
    parser.addOption("seq", "N", "sequence length of zoo:bert-* and zoo:conformer");
    parser.addOption("strategies", "LIST", "comma-separated strategies (default all)");
    parser.addOption("level", "lb|gb|auto",
                     "buffer level Algorithm 1 fills for the GraphTurbo strategies (§3.6); "
                     "auto: each strategy that tunes it takes its faster (default)");
    parser.addOption("order", "bfs|dfs|best",
                     "order of the instances for every strategy that splits groups; default: "
                     "each strategy that tunes it takes its faster, the others section 3.3's");
    parser.addSwitch("fixed", "search no configuration: run each strategy as given or by default");
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
    driver::Fixed fixed;
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
        r.fixed.level = schedule::parseLevel(level);
        if (!r.fixed.level)
            return "--level must be lb, gb or auto, got " + quote(level);
    }
    if (auto order = parser.value("order")) {
        r.fixed.order = schedule::parseOrderChoice(*order);
        if (!r.fixed.order)
            return "--order must be bfs, dfs or best, got " + quote(*order);
    }
    r.fixed.perCluster = r.perCluster;
    r.fixed.everything = parser.has("fixed");
    r.arch = parser.value("arch", std::string(arch::kDefaultPreset));
    r.trace = parser.value("trace");
    r.json = parser.has("json");
    r.csv = parser.has("csv");
    if (r.json && r.csv)
        return "--json and --csv exclude each other";
    return std::nullopt;
}

std::string seconds(double ms) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", ms / 1000.0);
    return text;
}

/// One strategy at its best configuration, written as a trace when asked.
Expected<sim::Report> runOne(const Request& r, const arch::Arch& arch,
                             const sim::Strategy& strategy, const driver::Workload& workload) {
    schedule::ScheduleOptions options;
    options.recordTrace = false;
    Expected<driver::Optimum> best =
        driver::bestConfiguration(workload, arch, strategy, r.fixed, options);
    if (!best.ok())
        return inModel(r.model, best.error());
    if (r.trace && strategy.name == "graphturbo") {
        const sim::Evaluation& ev = best->eval;
        std::shared_ptr<const ir::Graph> graph = *workload.graphAt(ev.report.perCluster);
        std::string text = io::writeChromeTrace(*graph, arch, ev.program, ev.tasks, ev.sim);
        SC_RETURN_IF_ERROR(writeFileAtomic(*r.trace, text));
    }
    return std::move(best->eval.report);
}

int compare(const Request& r, const arch::Arch& arch, std::ostream& out, std::ostream& err) {
    auto workload = workloadFor(r.model, r.batch, r.perCluster, arch);
    if (!workload.ok()) {
        err << kName << inModel(r.model, workload.error()).message() << "\n";
        return kExitBadInput;
    }
    std::vector<sim::Report> reports;
    for (size_t i = 0; i < r.strategies.size(); ++i) {
        const sim::Strategy& s = *r.strategies[i];
        err << kName << "[" << i + 1 << "/" << r.strategies.size() << "] " << s.name << "\n";
        auto report = runOne(r, arch, s, *workload);
        if (!report.ok()) {
            err << kName << s.name << ": " << report.error().message() << "\n";
            return kExitBadInput;
        }
        err << kName << "  " << s.name << ": " << sim::configurationText(*report) << " ("
            << report->chosenBy << ", " << report->trials << " configuration"
            << (report->trials == 1 ? "" : "s") << " in " << seconds(report->searchMs) << ")\n";
        reports.push_back(std::move(report).value());
    }
    sim::fillSpeedups(reports);
    std::string table2 =
        workload->chosenBy.rfind("Table 2 ", 0) == 0 ? workload->chosenBy.substr(8) : std::string();
    if (r.json)
        out << io::writeCompareJson({r.model.text, arch.name, table2}, reports);
    else if (r.csv)
        out << io::writeCompareCsv(reports);
    else
        printCompareText({r.model.text, arch.name, table2}, reports, out);
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
