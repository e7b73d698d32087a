// stagecraft report: one self-contained HTML page of a model (cli/report_html.h):
// every strategy compared at its own best configuration, as `stagecraft
// compare` runs them (driver::bestConfiguration), the chosen one (--strategy)
// in detail, and the session that Studio opens to edit its schedule.

#include "arch/presets.h"
#include "cli/args.h"
#include "cli/batch_config.h"
#include "cli/commands.h"
#include "cli/output_paths.h"
#include "cli/report_graph.h"
#include "cli/report_html.h"
#include "cli/schedule_model.h"
#include "driver/optimum.h"
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
        "compare' runs them), the chosen strategy's timeline and buffer occupancy (zoomable),\n"
        "roofline, the energy of every strategy and the grouped graph (drawn by Graphviz's\n"
        "dot when installed). The page embeds the session of the chosen schedule:\n"
        "Stagecraft Studio opens it as a session (File > Open).");
    parser.addPositional("MODEL", "the .onnx file or zoo:NAME");
    parser.addOption("out", "FILE.html", "the page to write (required)");
    parser.addOption("arch", "A", "architecture preset or file (default stcp920)");
    parser.addOption("strategy", "S", "the strategy shown in detail (default graphturbo)");
    parser.addOption("strategies", "LIST", "comma-separated strategies compared (default all)");
    parser.addOption("batch", "N", "total batch over all clusters");
    parser.addOption("per-cluster", "K", "samples per cluster for every strategy (not searched)");
    parser.addOption("level", "lb|gb|auto", "buffer level Algorithm 1 fills (default auto)");
    parser.addOption("order", "bfs|dfs|best", "order of the instances (default: searched)");
    parser.addSwitch("fixed", "search no configuration: run each strategy as given or by default");
    parser.addOption("seq", "N", "sequence length of zoo:bert-* and zoo:conformer");
    parser.addRepeatedOption("input", "NAME:SHAPE", "bind a whole input shape of a file");
    parser.addRepeatedOption("dim", "NAME=N", "bind a named dynamic dimension of a file");
    parser.addRepeatedOption("value", "NAME=V[,V...]", "bind a scalar or vector input's value");
    addPrecisionOption(parser);
    return parser;
}

struct Request {
    ModelSpec model;
    std::string arch;
    std::string out;
    std::optional<int64_t> batch;
    std::optional<int64_t> perCluster;
    std::vector<const sim::Strategy*> strategies;
    const sim::Strategy* chosen = nullptr;
    driver::Fixed fixed;
};

std::optional<std::string> readCount(const ArgParser& parser, const char* name,
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

std::optional<std::string> readModel(const ArgParser& parser, Request& r) {
    r.model.text = *parser.positional("MODEL");
    if (r.model.text.rfind("zoo:", 0) == 0)
        r.model.zooName = r.model.text.substr(4);
    std::optional<int64_t> seq;
    for (auto [name, slot] : {std::pair{"seq", &seq}, std::pair{"batch", &r.batch},
                              std::pair{"per-cluster", &r.perCluster}})
        if (auto refusal = readCount(parser, name, *slot))
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
    return readPrecision(parser, r.model);
}

std::optional<std::string> readStrategies(const ArgParser& parser, Request& r) {
    std::string list = parser.value("strategies", "");
    for (const std::string& name : list.empty() ? std::vector<std::string>{} : split(list, ',')) {
        const sim::Strategy* s = sim::findStrategy(name);
        if (s == nullptr)
            return "--strategies: " + sim::unknownStrategyMessage(name);
        r.strategies.push_back(s);
    }
    if (r.strategies.empty())
        for (const sim::Strategy& s : sim::strategies())
            r.strategies.push_back(&s);
    std::string chosen = parser.value("strategy", "graphturbo");
    r.chosen = sim::findStrategy(chosen);
    if (r.chosen == nullptr)
        return "--strategy: " + sim::unknownStrategyMessage(chosen);
    if (std::find(r.strategies.begin(), r.strategies.end(), r.chosen) == r.strategies.end())
        r.strategies.push_back(r.chosen);
    return std::nullopt;
}

std::optional<std::string> readRequest(const ArgParser& parser, Request& r) {
    if (auto refusal = readModel(parser, r))
        return refusal;
    if (auto refusal = readStrategies(parser, r))
        return refusal;
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
    std::optional<std::string> out = parser.value("out");
    if (!out)
        return std::string("--out FILE.html is required");
    if (!out->ends_with(".html") && !out->ends_with(".htm"))
        return "--out: " + quote(*out) + " must end in .html or .htm";
    r.out = *out;
    return std::nullopt;
}

/// The session that rebuilds \p chosen's schedule of \p r's model.
Expected<io::Session> sessionOf(const Request& r, const arch::Arch& arch,
                                const sim::Report& chosen) {
    io::Session session;
    if (r.model.zooName.empty()) {
        std::filesystem::path path = std::filesystem::absolute(r.model.text);
        session.modelPath = path.string();
        SC_ASSIGN_OR_RETURN(session.modelSha256, fileSha256(path));
    } else {
        SC_ASSIGN_OR_RETURN(std::filesystem::path path,
                            zoo::cachedZooModel(r.model.zooName, r.model.seq, 0));
        session.modelPath = path.string();
        session.seq = r.model.seq;
    }
    session.inputShapes = r.model.import.inputShapes;
    session.dims = r.model.import.dims;
    session.values = r.model.import.values;
    session.arch = arch;
    session.strategy = chosen.strategy;
    session.level = schedule::parseLevel(chosen.level);
    session.order = schedule::parseOrderChoice(chosen.order).value_or(schedule::OrderChoice::Best);
    session.batch = {chosen.totalBatch, chosen.perCluster, false};
    session.precision = r.model.precision;
    return session;
}

/// Runs every strategy; \p chosen receives the chosen one's run.
Expected<std::vector<sim::Report>> compareAll(const Request& r, const arch::Arch& arch,
                                              const driver::Workload& workload,
                                              std::optional<sim::Evaluation>& chosen,
                                              std::ostream& err) {
    std::vector<sim::Report> reports;
    schedule::ScheduleOptions options;
    options.recordTrace = false;
    for (size_t i = 0; i < r.strategies.size(); ++i) {
        const sim::Strategy& s = *r.strategies[i];
        err << kName << "[" << i + 1 << "/" << r.strategies.size() << "] " << s.name << "\n";
        auto best = driver::bestConfiguration(workload, arch, s, r.fixed, options);
        if (!best.ok())
            return Error(s.name + ": " + inModel(r.model, best.error()).message());
        reports.push_back(best->eval.report);
        if (&s == r.chosen)
            chosen = std::move(best->eval);
    }
    sim::fillSpeedups(reports);
    return reports;
}

int report(const Request& r, const arch::Arch& arch, std::ostream& out, std::ostream& err) {
    auto workload = workloadFor(r.model, r.batch, r.perCluster, arch);
    if (!workload.ok()) {
        err << kName << inModel(r.model, workload.error()).message() << "\n";
        return kExitBadInput;
    }
    std::optional<sim::Evaluation> chosen;
    auto reports = compareAll(r, arch, *workload, chosen, err);
    if (!reports.ok()) {
        err << kName << reports.error().message() << "\n";
        return kExitBadInput;
    }
    auto graph = workload->graphAt(chosen->report.perCluster);
    auto session = graph.ok() ? sessionOf(r, arch, chosen->report) : graph.error();
    if (!session.ok()) {
        err << kName << inModel(r.model, session.error()).message() << "\n";
        return kExitBadInput;
    }
    ReportInput input{r.model.text,
                      &arch,
                      graph->get(),
                      &*chosen,
                      std::move(*reports),
                      workload->chosenBy,
                      std::move(*session),
                      {},
                      {}};
    auto svg = groupedGraphSvg(**graph, chosen->schedule.partition, r.model.text);
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
    auto arch = arch::resolveArch(request.arch);
    if (!arch.ok()) {
        err << kName << arch.error().message() << "\n";
        return kExitBadInput;
    }
    if (Status rates = checkPrecision(request.model, *arch); !rates.ok()) {
        err << kName << rates.error().message() << "\n";
        return kExitBadInput;
    }
    return report(request, *arch, out, err);
}

} // namespace stagecraft::cli
