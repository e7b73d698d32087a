// stagecraft report: one self-contained HTML page of a model (cli/report_html.h):
// every strategy compared at its own best configuration, as `stagecraft
// compare` runs them (driver::bestConfiguration), the chosen one (--strategy)
// in detail, and the session that Studio opens to edit its schedule.

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/output_paths.h"
#include "cli/report_graph.h"
#include "cli/report_html.h"
#include "cli/schedule_model.h"
#include "cli/strategy_runs.h"
#include "support/file.h"
#include "support/sha256.h"
#include "support/strings.h"
#include "zoo/zoo.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <ostream>

namespace stagecraft::cli {

namespace {

constexpr const char* kName = "stagecraft report: ";

ArgParser makeParser() {
    ArgParser parser(
        "stagecraft report MODEL --out FILE.html [options]",
        "Writes one self-contained HTML page (no network, no external file) of a model: its\n"
        "summary, every strategy compared at its own best configuration (as 'stagecraft\n"
        "compare' runs them, with the same options), the chosen strategy's timeline and\n"
        "buffer occupancy (zoomable), roofline, the energy of every strategy and the grouped\n"
        "graph (drawn by Graphviz's dot when installed). The page embeds the session of the\n"
        "chosen schedule: Stagecraft Studio opens it as a session (File > Open).\n"
        "Zoo models of the paper's Table 2 run its total batch unless --batch or\n"
        "--per-cluster is given. The chosen strategy (--strategy) is compared too when\n"
        "--strategies leaves it out.\n"
        "\n"
        "For example, ResNet-50 on the default architecture, then a file on another one with\n"
        "gt-paper in detail:\n"
        "\n"
        "  $ stagecraft report zoo:resnet50 --out resnet50.html\n"
        "  $ stagecraft report model.onnx --arch teaching --strategy gt-paper --out model.html");
    parser.addPositional("MODEL", "the .onnx file or zoo:NAME");
    parser.addOption("out", "FILE.html", "the page to write (required)");
    parser.addOption("strategy", "S", "the strategy shown in detail (default graphturbo)");
    parser.addOption("arch", "A", "architecture preset or file (default stcp920)");
    parser.addOption("batch", "N", "total batch over all clusters");
    parser.addOption("per-cluster", "K", "samples per cluster for every strategy (not searched)");
    parser.addOption("seq", "N", "sequence length of zoo:bert-* and zoo:conformer");
    parser.addOption("strategies", "LIST", "comma-separated strategies compared (default all)");
    parser.addOption("level", "lb|gb|auto",
                     "buffer level Algorithm 1 fills for the GraphTurbo strategies (§3.6); "
                     "auto: each strategy that tunes it takes its faster (default)");
    parser.addOption("order", "bfs|dfs|best",
                     "order of the instances for every strategy that splits groups; default: "
                     "each strategy that tunes it takes its faster, the others section 3.3's");
    parser.addSwitch("fixed", "search no configuration: run each strategy as given or by default");
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
    std::string out;
    const sim::Strategy* chosen = nullptr;
};

std::optional<std::string> readRequest(const ArgParser& parser, Request& r) {
    if (auto refusal = readStrategyRuns(parser, r.runs))
        return refusal;
    std::string chosen = parser.value("strategy", "graphturbo");
    r.chosen = sim::findStrategy(chosen);
    if (r.chosen == nullptr)
        return "--strategy: " + sim::unknownStrategyMessage(chosen);
    std::vector<const sim::Strategy*>& all = r.runs.strategies;
    if (std::find(all.begin(), all.end(), r.chosen) == all.end())
        all.push_back(r.chosen);
    std::optional<std::string> out = parser.value("out");
    if (!out)
        return std::string("--out FILE.html is required");
    if (!out->ends_with(".html") && !out->ends_with(".htm"))
        return "--out: " + quote(*out) + " must end in .html or .htm";
    r.out = *out;
    return std::nullopt;
}

/// The session that rebuilds \p chosen's schedule of \p model.
Expected<io::Session> sessionOf(const ModelSpec& model, const arch::Arch& arch,
                                const sim::Report& chosen) {
    io::Session session;
    if (model.zooName.empty()) {
        std::filesystem::path path = std::filesystem::absolute(model.text);
        session.modelPath = path.string();
        SC_ASSIGN_OR_RETURN(session.modelSha256, fileSha256(path));
    } else {
        SC_ASSIGN_OR_RETURN(std::filesystem::path path,
                            zoo::cachedZooModel(model.zooName, model.seq, 0));
        session.modelPath = path.string();
        session.seq = model.seq;
    }
    session.inputShapes = model.import.inputShapes;
    session.dims = model.import.dims;
    session.values = model.import.values;
    session.arch = arch;
    session.strategy = chosen.strategy;
    session.level = schedule::parseLevel(chosen.level);
    session.order = schedule::parseOrderChoice(chosen.order).value_or(schedule::OrderChoice::Best);
    session.batch = {chosen.totalBatch, chosen.perCluster, false};
    session.precision = model.precision;
    return session;
}

int report(const Request& r, const arch::Arch& arch, std::ostream& out, std::ostream& err) {
    auto workload = workloadOf(r.runs, arch);
    if (!workload.ok()) {
        err << kName << workload.error().message() << "\n";
        return kExitBadInput;
    }
    std::optional<sim::Evaluation> chosen;
    auto reports = runStrategies(r.runs, arch, *workload, kName, err,
                                 [&](const sim::Strategy& s, sim::Evaluation& ev) {
                                     if (&s == r.chosen)
                                         chosen = std::move(ev);
                                     return Status::success();
                                 });
    if (!reports.ok()) {
        err << kName << reports.error().message() << "\n";
        return kExitBadInput;
    }
    auto graph = workload->graphAt(chosen->report.perCluster);
    auto session = graph.ok() ? sessionOf(r.runs.model, arch, chosen->report) : graph.error();
    if (!session.ok()) {
        err << kName << inModel(r.runs.model, session.error()).message() << "\n";
        return kExitBadInput;
    }
    ReportInput input{r.runs.model.text,
                      &arch,
                      graph->get(),
                      &*chosen,
                      std::move(*reports),
                      workload->chosenBy,
                      std::move(*session),
                      {},
                      {}};
    auto svg = groupedGraphSvg(**graph, chosen->schedule.partition, r.runs.model.text);
    input.graphSvg = svg.ok() ? *svg : std::string();
    input.graphNote = svg.ok() ? "Groups of " + chosen->report.strategy + " as clusters."
                               : "The graph is not drawn: " + svg.error().message() + ".";
    std::string page = writeHtmlReport(input);
    if (Status w = writeFileAtomic(r.out, page); !w.ok()) {
        err << kName << w.error().message() << "\n";
        return kExitBadInput;
    }
    out << "wrote " << r.out << " (" << formatBytes(static_cast<int64_t>(page.size())) << ")\n";
    return kExitOk;
}

} // namespace

int runReport(const Args& args, std::ostream& out, std::ostream& err) {
    ArgParser parser = makeParser();
    if (!parser.parse(args)) {
        err << kName << parser.error() << " (see 'stagecraft report --help')\n";
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
    if (Status outputs = checkOutputOptions(parser, {"out"}); !outputs.ok()) {
        err << kName << outputs.error().message() << "\n";
        return kExitBadInput;
    }
    auto arch = archOf(request.runs);
    if (!arch.ok()) {
        err << kName << arch.error().message() << "\n";
        return kExitBadInput;
    }
    return report(request, *arch, out, err);
}

} // namespace stagecraft::cli
