// stagecraft compare: runs every strategy of §5 (the baselines, the Fig. 15
// variants, gt-paper, graphturbo) through schedule → kernel plans →
// simulation on one architecture, each at its own best configuration
// (driver/optimum.h: samples per cluster, level, order, as §5.1 tunes them),
// and prints its configuration, latency, throughput, speedup over tvm,
// traffic per memory level, buffer scopes (Table 3), unit utilization
// (Fig. 16/17) and the roofline bound. Zoo models of Table 2 run its total
// batch.

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/compare_report.h"
#include "cli/output_paths.h"
#include "cli/schedule_model.h"
#include "cli/strategy_runs.h"
#include "io/chrome_trace.h"
#include "io/compare_json.h"
#include "support/file.h"

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
    StrategyRuns runs;
    std::optional<std::string> trace;
    bool json = false;
    bool csv = false;
};

std::optional<std::string> readRequest(const ArgParser& parser, Request& r) {
    if (auto refusal = readStrategyRuns(parser, r.runs))
        return refusal;
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

/// Writes graphturbo's simulation as a trace when asked, then says which
/// configuration \p strategy took and how it was found.
Status traceAndTell(const Request& r, const arch::Arch& arch, const driver::Workload& workload,
                    const sim::Strategy& strategy, const sim::Evaluation& ev, std::ostream& err) {
    if (r.trace && strategy.name == "graphturbo") {
        std::shared_ptr<const ir::Graph> graph = *workload.graphAt(ev.report.perCluster);
        std::string text = io::writeChromeTrace(*graph, arch, ev.program, ev.tasks, ev.sim);
        SC_RETURN_IF_ERROR(writeFileAtomic(*r.trace, text));
    }
    const sim::Report& report = ev.report;
    err << kName << "  " << strategy.name << ": " << sim::configurationText(report) << " ("
        << report.chosenBy << ", " << report.trials << " configuration"
        << (report.trials == 1 ? "" : "s") << " in " << seconds(report.searchMs) << ")\n";
    return Status::success();
}

int compare(const Request& r, const arch::Arch& arch, std::ostream& out, std::ostream& err) {
    auto workload = workloadOf(r.runs, arch);
    if (!workload.ok()) {
        err << kName << workload.error().message() << "\n";
        return kExitBadInput;
    }
    auto reports = runStrategies(r.runs, arch, *workload, kName, err,
                                 [&](const sim::Strategy& s, const sim::Evaluation& ev) {
                                     return traceAndTell(r, arch, *workload, s, ev, err);
                                 });
    if (!reports.ok()) {
        err << kName << reports.error().message() << "\n";
        return kExitBadInput;
    }
    std::string table2 =
        workload->chosenBy.rfind("Table 2 ", 0) == 0 ? workload->chosenBy.substr(8) : std::string();
    const std::string& model = r.runs.model.text;
    if (r.json)
        out << io::writeCompareJson({model, arch.name, table2}, *reports);
    else if (r.csv)
        out << io::writeCompareCsv(*reports);
    else
        printCompareText({model, arch.name, table2}, *reports, out);
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
    auto arch = archOf(request.runs);
    if (!arch.ok()) {
        err << kName << arch.error().message() << "\n";
        return kExitBadInput;
    }
    return compare(request, *arch, out, err);
}

} // namespace stagecraft::cli
