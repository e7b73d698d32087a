// stagecraft schedule: run the GraphTurbo scheduling pipeline (§3) on a model
// and print the schedule (text), its document (--json, --out) and the
// algorithm trace (--explain), and the simulation's exports (--trace, --roofline).
// The batch is split over the architecture's
// clusters (§2.1, §5.1): K samples per cluster, the model loaded with batch K.

#include "arch/presets.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/compare_report.h"
#include "cli/output_paths.h"
#include "cli/schedule_model.h"
#include "cli/schedule_report.h"
#include "driver/batch_plan.h"
#include "io/chrome_trace.h"
#include "io/dot_export.h"
#include "io/overrides_json.h"
#include "io/roofline_export.h"
#include "io/schedule_json.h"
#include "schedule/clusters.h"
#include "sim/compare.h"
#include "sim/roofline_chart.h"
#include "support/file.h"
#include "support/strings.h"

#include <limits>
#include <optional>
#include <ostream>

namespace stagecraft::cli {

namespace {

constexpr const char* kName = "stagecraft schedule: ";
/// Graphs with more ops are written collapsed (one node per group) by --dot.
constexpr size_t kDotExpandedOps = 2000;

ArgParser makeParser() {
    ArgParser parser(
        "stagecraft schedule MODEL [options]",
        "Schedules a model onto an accelerator as GraphTurbo does (§3): groups of ops\n"
        "(Algorithm 2) split into instances (Algorithm 1), ordered (BFS or Algorithm 3's\n"
        "DFS), bound to cores with buffer scopes (Algorithm 4), data-movement ops\n"
        "inserted; --strategy picks another scheduler (tvm, tvm-llb, astitch, dla, ago, ios,\n"
        "a Fig. 15 variant or gt-paper, the paper's method alone). MODEL is an .onnx file or "
        "zoo:NAME (see 'stagecraft zoo --list').\n"
        "The model runs K samples per cluster: a zoo model is written with batch K, a\n"
        "file's symbolic batch (dim 0 of its first input) is bound to K.");
    parser.addPositional("MODEL", "the .onnx file or zoo:NAME");
    parser.addOption("arch", "A", "architecture preset or file (default stcp920)");
    parser.addOption("strategy", "S",
                     "who schedules: tvm, tvm-llb, astitch, dla, ago, ios, gt-gb, gt-lb, "
                     "gt-instances, gt-paper or graphturbo (default graphturbo; "
                     "docs/baselines.md)");
    parser.addOption("order", "bfs|dfs|best", "instance order (default best)");
    parser.addOption("level", "lb|gb|auto",
                     "buffer level Algorithm 1 fills: the cluster's local buffers (lb, the "
                     "paper's; groups with no split that fits them use the global buffer), its "
                     "global buffer (gb, §3.6), or auto: both simulated, the faster kept "
                     "(default auto)");
    parser.addOption("batch", "N", "total batch over all clusters (default clusters x K)");
    parser.addOption("per-cluster", "K|auto",
                     "samples per cluster (default: the model's batch); auto: the largest "
                     "that fits a cluster (needs --batch)");
    parser.addOption("overrides", "FILE", "an overrides file or a schedule document");
    parser.addOption("out", "FILE", "write the schedule document to FILE");
    parser.addSwitch("json", "print the schedule document instead of text");
    parser.addSwitch("explain", "print the algorithm trace (and include it in the document)");
    parser.addSwitch(
        "simulate", "lower to kernel plans and simulate (§4); print latency, traffic, utilization");
    parser.addOption("trace", "FILE", "simulate and write the timeline as Chrome trace JSON");
    parser.addOption("dot", "FILE", "write the grouped graph as Graphviz DOT");
    parser.addOption("roofline", "FILE.csv|FILE.svg",
                     "simulate and write the roofline chart (kernels and groups per memory "
                     "level) as CSV or SVG, by the extension");
    parser.addOption("seq", "N", "sequence length of zoo:bert-* and zoo:conformer");
    parser.addRepeatedOption("input", "NAME:SHAPE", "bind a whole input shape of a file");
    parser.addRepeatedOption("dim", "NAME=N", "bind a named dynamic dimension of a file");
    parser.addRepeatedOption(
        "value", "NAME=V[,V...]",
        "bind a scalar or vector input's value, e.g. sr=16000; folds an If on it of a file");
    addPrecisionOption(parser);
    return parser;
}

/// What the command line asks for, checked for usage errors.
struct Request {
    ModelSpec model;
    std::string arch;
    std::string strategy = "graphturbo";
    schedule::OrderChoice order = schedule::OrderChoice::Best;
    schedule::LevelChoice level;
    schedule::BatchChoice batch;
    std::optional<std::string> overrides;
    std::optional<std::string> out;
    bool json = false;
    bool explain = false;
    bool simulate = false;
    std::optional<std::string> trace;
    std::optional<std::string> dot;
    std::optional<std::string> roofline;
};

/// A usage error (exit 2) or a bad value (exit 1), with its message.
struct Refusal {
    int code;
    std::string message;
};

std::optional<Refusal> readCount(const ArgParser& parser, const std::string& name,
                                 std::optional<int64_t>& value) {
    std::optional<std::string> text = parser.value(name);
    if (!text)
        return std::nullopt;
    std::optional<int64_t> parsed = parseInt(*text);
    if (!parsed)
        return Refusal{kExitBadUsage, "--" + name + " needs a whole number, got " + quote(*text)};
    if (*parsed < 1)
        return Refusal{kExitBadInput, "--" + name + " must be at least 1, got " + *text};
    value = parsed;
    return std::nullopt;
}

std::optional<Refusal> readOrder(const ArgParser& parser, Request& request) {
    std::string order = parser.value("order", "best");
    std::optional<schedule::OrderChoice> choice = schedule::parseOrderChoice(order);
    if (!choice)
        return Refusal{kExitBadUsage, "--order must be bfs, dfs or best, got " + quote(order)};
    request.order = *choice;
    return std::nullopt;
}

std::optional<Refusal> readStrategy(const ArgParser& parser, Request& request) {
    request.strategy = parser.value("strategy", "graphturbo");
    if (sim::findStrategy(request.strategy) == nullptr)
        return Refusal{kExitBadUsage,
                       "--strategy: " + sim::unknownStrategyMessage(request.strategy)};
    return std::nullopt;
}

std::optional<Refusal> readLevel(const ArgParser& parser, Request& request) {
    std::string level = parser.value("level", "auto");
    std::optional<schedule::LevelChoice> choice = schedule::parseLevelChoice(level);
    if (!choice)
        return Refusal{kExitBadUsage, "--level must be lb, gb or auto, got " + quote(level)};
    request.level = *choice;
    return std::nullopt;
}

std::optional<Refusal> readModel(const ArgParser& parser, Request& request) {
    ModelSpec& model = request.model;
    model.text = *parser.positional("MODEL");
    bool zoo = model.text.rfind("zoo:", 0) == 0;
    if (zoo)
        model.zooName = model.text.substr(4);
    std::optional<int64_t> seq;
    if (auto refusal = readCount(parser, "seq", seq))
        return refusal;
    if (seq && !zoo)
        return Refusal{kExitBadUsage, "--seq applies to zoo models; for a file use --dim"};
    model.seq = seq.value_or(0);
    if (zoo && (parser.has("input") || parser.has("dim") || parser.has("value")))
        return Refusal{kExitBadUsage, "--input, --dim and --value apply to .onnx files; zoo "
                                      "models are written with --per-cluster and --seq"};
    for (const std::string& text : parser.values("input"))
        if (Status status = onnxio::addInputBinding(model.import, text); !status.ok())
            return Refusal{kExitBadUsage, status.error().message()};
    for (const std::string& text : parser.values("dim"))
        if (Status status = onnxio::addDimBinding(model.import, text); !status.ok())
            return Refusal{kExitBadUsage, status.error().message()};
    for (const std::string& text : parser.values("value"))
        if (Status status = onnxio::addValueBinding(model.import, text); !status.ok())
            return Refusal{kExitBadUsage, status.error().message()};
    if (auto problem = readPrecision(parser, model))
        return Refusal{kExitBadUsage, *problem};
    return std::nullopt;
}

std::optional<Refusal> readRequest(const ArgParser& parser, Request& request) {
    if (auto refusal = readModel(parser, request))
        return refusal;
    if (auto refusal = readOrder(parser, request))
        return refusal;
    if (auto refusal = readStrategy(parser, request))
        return refusal;
    if (auto refusal = readLevel(parser, request))
        return refusal;
    if (auto refusal = readCount(parser, "batch", request.batch.total))
        return refusal;
    if (parser.value("per-cluster") == std::optional<std::string>("auto")) {
        request.batch.autoPerCluster = true;
        if (!request.batch.total)
            return Refusal{kExitBadUsage, "--per-cluster auto needs --batch N"};
    } else if (auto refusal = readCount(parser, "per-cluster", request.batch.perCluster)) {
        if (refusal->code == kExitBadUsage)
            refusal->message = "--per-cluster needs a whole number or auto, got " +
                               quote(*parser.value("per-cluster"));
        return refusal;
    }
    request.arch = parser.value("arch", std::string(arch::kDefaultPreset));
    request.overrides = parser.value("overrides");
    request.out = parser.value("out");
    request.json = parser.has("json");
    request.explain = parser.has("explain");
    request.trace = parser.value("trace");
    request.dot = parser.value("dot");
    request.roofline = parser.value("roofline");
    if (request.roofline && !request.roofline->ends_with(".csv") &&
        !request.roofline->ends_with(".svg"))
        return Refusal{kExitBadUsage,
                       "--roofline: " + quote(*request.roofline) + " must end in .csv or .svg"};
    request.simulate =
        parser.has("simulate") || request.trace.has_value() || request.roofline.has_value();
    return std::nullopt;
}

/// A schedule with the model it was built for.
struct Scheduled {
    LoadedModel model;
    schedule::Schedule schedule;
    /// Under --level auto: the level chosen and why (printed with the text).
    std::string levelWhy;
};

/// Each line of the auto batch's search on \p err, prefixed as the CLI's
/// messages are.
driver::BatchNote noteOn(std::ostream& err) {
    return [&err](const std::string& line) {
        err << kName << line << "\n";
    };
}

Expected<schedule::Overrides> readOverrides(const Request& request) {
    if (!request.overrides)
        return schedule::Overrides{};
    SC_ASSIGN_OR_RETURN(std::string text, readFile(*request.overrides));
    return io::readOverridesJson(text, *request.overrides);
}

Expected<Scheduled> scheduleRequest(const Request& request, const arch::Arch& arch,
                                    const schedule::Overrides& overrides, std::ostream& err) {
    driver::Request run;
    run.arch = arch;
    run.level = request.level;
    run.strategy = request.strategy;
    run.order = request.order;
    run.overrides = overrides;
    run.recordTrace = request.explain;
    auto failure = [&](const Error& cause) {
        Error error = inModel(request.model, cause);
        return request.overrides
                   ? Error(error.message() + " (overrides from " + *request.overrides + ")")
                   : error;
    };
    SC_ASSIGN_OR_RETURN(driver::PlannedAtBatch planned,
                        driver::scheduleAtBatch(request.model, request.batch, std::move(run),
                                                noteOn(err), failure));
    return Scheduled{std::move(planned.at.model), std::move(planned.planned.schedule),
                     std::move(planned.planned.levelWhy)};
}

/// The --roofline file of \p ev, CSV or SVG by its extension.
Status writeRoofline(const std::string& path, const arch::Arch& arch, const sim::Evaluation& ev) {
    sim::RooflineChart chart = sim::rooflineChart(arch, ev);
    return writeFileAtomic(path, path.ends_with(".svg") ? io::rooflineSvg(chart)
                                                        : io::rooflineCsv(chart));
}

/// --dot, --simulate, --trace and --roofline: the exports and the simulation summary.
int emitExtras(const Request& request, const arch::Arch& arch, const Scheduled& result,
               std::ostream& out, std::ostream& err) {
    const ir::Graph& graph = result.model.graph;
    if (request.dot) {
        io::DotOptions dot;
        dot.title = request.model.text;
        dot.collapsed = graph.opCount() > kDotExpandedOps;
        if (Status w = writeFileAtomic(*request.dot,
                                       io::groupedGraphDot(graph, result.schedule.partition, dot));
            !w.ok()) {
            err << kName << w.error().message() << "\n";
            return kExitBadInput;
        }
    }
    if (!request.simulate)
        return kExitOk;
    const sim::Strategy& strategy = *sim::findStrategy(request.strategy);
    auto ev = sim::evaluateSchedule(graph, arch, result.schedule, strategy);
    if (!ev.ok()) {
        err << kName << inModel(request.model, ev.error()).message() << "\n";
        return kExitBadInput;
    }
    if (request.trace)
        if (Status w = writeFileAtomic(
                *request.trace, io::writeChromeTrace(graph, arch, ev->program, ev->tasks, ev->sim));
            !w.ok()) {
            err << kName << w.error().message() << "\n";
            return kExitBadInput;
        }
    if (request.roofline)
        if (Status w = writeRoofline(*request.roofline, arch, *ev); !w.ok()) {
            err << kName << w.error().message() << "\n";
            return kExitBadInput;
        }
    if (!request.json)
        printSimulationText(ev->report, out);
    return kExitOk;
}

int emit(const Request& request, const arch::Arch& arch, const Scheduled& result,
         const io::ScheduleDocInfo& info, std::ostream& out, std::ostream& err) {
    const ir::Graph& graph = result.model.graph;
    std::string document;
    if (request.json || request.out)
        document = io::writeScheduleJson(graph, result.schedule, info);
    if (request.out)
        if (Status written = writeFileAtomic(*request.out, document); !written.ok()) {
            err << kName << written.error().message() << "\n";
            return kExitBadInput;
        }
    if (request.json) {
        out << document;
        return emitExtras(request, arch, result, out, err);
    }
    // The level auto chose is a note for the reader (stderr); stdout is the schedule.
    if (!result.levelWhy.empty())
        err << kName << "level auto: " << result.levelWhy << "\n";
    printScheduleText({request.model.text, &graph, &arch, &result.schedule, request.order}, out);
    if (request.explain)
        printTraceText(result.schedule.trace, out);
    if (int code = emitExtras(request, arch, result, out, err); code != kExitOk)
        return code;
    if (request.out)
        out << "\nwrote " << *request.out << "\n";
    for (const auto* file : {&request.dot, &request.trace, &request.roofline})
        if (*file)
            out << "wrote " << **file << "\n";
    return kExitOk;
}

} // namespace

int runSchedule(const Args& args, std::ostream& out, std::ostream& err) {
    ArgParser parser = makeParser();
    if (!parser.parse(args)) {
        err << kName << parser.error() << " (see 'stagecraft schedule --help')\n";
        return kExitBadUsage;
    }
    if (parser.helpRequested()) {
        out << parser.helpText();
        return kExitOk;
    }
    Request request;
    if (std::optional<Refusal> refusal = readRequest(parser, request)) {
        err << kName << refusal->message << "\n";
        return refusal->code;
    }
    if (Status outputs = checkOutputOptions(parser, {"out", "trace", "dot", "roofline"});
        !outputs.ok()) {
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
    auto overrides = readOverrides(request);
    if (!overrides.ok()) {
        err << kName << overrides.error().message() << "\n";
        return kExitBadInput;
    }
    auto result = scheduleRequest(request, *arch, *overrides, err);
    if (!result.ok()) {
        err << kName << result.error().message() << "\n";
        return kExitBadInput;
    }
    for (const std::string& warning : result->model.warnings)
        err << kName << "warning: " << warning << "\n";
    io::ScheduleDocInfo info{request.model.text, arch->name, request.order, *overrides,
                             request.explain};
    return emit(request, *arch, *result, info, out, err);
}

} // namespace stagecraft::cli
