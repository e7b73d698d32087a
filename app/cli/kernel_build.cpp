// The model and schedule behind `stagecraft emit` and `stagecraft run`: a
// model file or zoo model with the schedule options of the command line, or
// a studio session whose choices are used unless the command line names
// them too. The schedule is the strategy's (sim/compare.h) at the model's
// own batch, so the kernels compute exactly the model.

#include "cli/kernel_build.h"

#include "arch/presets.h"
#include "driver/model_check.h"
#include "driver/optimum.h"
#include "driver/pipeline.h"
#include "io/overrides_json.h"
#include "io/session_json.h"
#include "schedule/clusters.h"
#include "support/file.h"
#include "support/sha256.h"
#include "support/strings.h"

#include <cstdio>
#include <filesystem>

namespace stagecraft::cli {

namespace {

/// Whether two model arguments name the same model: equal texts, or paths
/// to the same file.
bool sameModel(const std::string& a, const std::string& b) {
    std::error_code ec;
    return a == b || std::filesystem::equivalent(a, b, ec);
}

bool isSessionFile(const std::string& path) {
    return path.size() > 11 && path.compare(path.size() - 11, 11, ".stagecraft") == 0;
}

std::optional<std::string> readChoices(const ArgParser& parser, KernelRequest& request) {
    std::string level = parser.value("level", "auto");
    std::optional<schedule::LevelChoice> parsedLevel = schedule::parseLevelChoice(level);
    if (!parsedLevel)
        return "--level must be lb, gb or auto, got " + quote(level);
    request.level = *parsedLevel;
    std::string order = parser.value("order", "best");
    std::optional<schedule::OrderChoice> parsedOrder = schedule::parseOrderChoice(order);
    if (!parsedOrder)
        return "--order must be bfs, dfs or best, got " + quote(order);
    request.order = *parsedOrder;
    request.strategy = parser.value("strategy", "graphturbo");
    if (sim::findStrategy(request.strategy) == nullptr) {
        std::vector<std::string> names;
        for (const sim::Strategy& s : sim::strategies())
            names.push_back(s.name);
        return "--strategy must be one of " + join(names, ", ") + ", got " +
               quote(request.strategy);
    }
    request.arch = parser.value("arch", std::string(arch::kDefaultPreset));
    request.overrides = parser.value("overrides");
    for (const char* name : {"arch", "strategy", "level", "order", "overrides"})
        if (parser.has(name))
            request.given.insert(name);
    return std::nullopt;
}

std::optional<std::string> readModel(const ArgParser& parser, const std::string& text,
                                     ModelSpec& model) {
    model.text = text;
    bool zoo = text.rfind("zoo:", 0) == 0;
    if (zoo)
        model.zooName = text.substr(4);
    if (auto seq = parser.value("seq")) {
        std::optional<int64_t> n = parseInt(*seq);
        if (!n || *n < 1)
            return "--seq needs a whole number >= 1, got " + quote(*seq);
        if (!zoo)
            return "--seq applies to zoo models; for a file use --dim";
        model.seq = *n;
    }
    if (zoo && (parser.has("input") || parser.has("dim") || parser.has("value")))
        return "--input, --dim and --value apply to .onnx files";
    for (const std::string& binding : parser.values("input"))
        if (Status s = onnxio::addInputBinding(model.import, binding); !s.ok())
            return s.error().message();
    for (const std::string& binding : parser.values("dim"))
        if (Status s = onnxio::addDimBinding(model.import, binding); !s.ok())
            return s.error().message();
    for (const std::string& binding : parser.values("value"))
        if (Status s = onnxio::addValueBinding(model.import, binding); !s.ok())
            return s.error().message();
    return std::nullopt;
}

/// Applies a session: its choices, unless the command line gave them.
void applySession(const io::Session& session, KernelRequest& request, bool modelFromSession,
                  std::vector<std::string>& warnings) {
    if (modelFromSession) {
        ModelSpec fresh;
        fresh.text = session.modelPath;
        fresh.weights = request.model.weights;
        fresh.precision = request.model.precision;
        request.model = std::move(fresh);
    } else if (!sameModel(request.model.text, session.modelPath)) {
        warnings.push_back("the session was saved for " + session.modelPath + ", not " +
                           request.model.text + "; its bindings and overrides may not fit");
    }
    if (request.model.import.inputShapes.empty() && request.model.import.dims.empty()) {
        request.model.import.inputShapes = session.inputShapes;
        request.model.import.dims = session.dims;
    }
    if (request.model.import.values.empty())
        request.model.import.values = session.values;
    if (!request.given.count("strategy"))
        request.strategy = session.strategy;
    if (!request.given.count("level"))
        request.level = session.level;
    if (!request.given.count("order"))
        request.order = session.order;
    if (!request.given.count("precision"))
        request.model.precision = session.precision;
    if (request.model.zooName.empty() && !session.modelSha256.empty()) {
        auto sha = fileSha256(request.model.text);
        if (sha.ok())
            if (auto changed =
                    driver::modelChangedMessage(request.model.text, session.modelSha256, *sha))
                warnings.push_back(*changed);
    }
}

Expected<schedule::Overrides> overridesOf(const KernelRequest& request,
                                          const std::optional<io::Session>& session) {
    if (request.overrides) {
        SC_ASSIGN_OR_RETURN(std::string text, readFile(*request.overrides));
        return io::readOverridesJson(text, *request.overrides);
    }
    return session ? session->overrides : schedule::Overrides{};
}

} // namespace

void addKernelOptions(ArgParser& parser, bool sessionOption) {
    parser.addOption("arch", "A", "architecture preset or file (default stcp920)");
    parser.addOption(
        "strategy", "S",
        "who schedules: tvm, tvm-llb, astitch, dla, ago, ios, gt-gb, gt-lb, gt-instances, "
        "gt-paper or graphturbo (default graphturbo)");
    parser.addOption("level", "lb|gb|auto",
                     "buffer level Algorithm 1 fills; auto simulates both and keeps the faster "
                     "(default auto)");
    parser.addOption("order", "bfs|dfs|best", "instance order (default best)");
    parser.addOption("overrides", "FILE", "user edits: an overrides file or a schedule document");
    if (sessionOption)
        parser.addOption("session", "FILE",
                         "a stagecraft-studio session: its bindings, architecture, strategy, "
                         "level, order and overrides");
    parser.addOption("seq", "N", "sequence length of zoo:bert-* and zoo:conformer");
    parser.addRepeatedOption("input", "NAME:SHAPE", "bind a whole input shape of a file");
    parser.addRepeatedOption("dim", "NAME=N", "bind a named dynamic dimension of a file");
    parser.addRepeatedOption(
        "value", "NAME=V[,V...]",
        "bind a scalar or vector input's value, e.g. sr=16000; folds an If on it of a file");
    addPrecisionOption(parser);
}

std::optional<std::string> readKernelRequest(const ArgParser& parser, const std::string& model,
                                             KernelRequest& request) {
    if (auto problem = readChoices(parser, request))
        return problem;
    if (isSessionFile(model))
        request.session = model;
    else if (auto problem = readModel(parser, model, request.model))
        return problem;
    if (auto session = parser.value("session")) {
        if (request.session)
            return "give the session either as MODEL or with --session, not both";
        request.session = session;
    }
    if (request.session && isSessionFile(model) &&
        (parser.has("input") || parser.has("dim") || parser.has("value")))
        return "--input, --dim and --value come from the session";
    if (auto problem = readPrecision(parser, request.model))
        return problem;
    if (parser.has("precision"))
        request.given.insert("precision");
    return std::nullopt;
}

namespace {

/// \p strategy at its best configuration on the loaded model's batch (the
/// level and order given fixed), as compare runs it.
Expected<sim::Evaluation> tunedEvaluation(const KernelRequest& request, KernelBuild& build,
                                          const sim::Strategy& strategy,
                                          schedule::Overrides overrides, int64_t batch) {
    // The model outlives the search: a non-owning pointer to it.
    std::shared_ptr<const ir::Graph> graph(std::shared_ptr<const ir::Graph>(), &build.model.graph);
    driver::Workload workload =
        driver::loadedModelWorkload(std::move(graph), batch, build.arch.clusters);
    driver::Fixed fixed;
    fixed.level = request.level;
    if (request.order != schedule::OrderChoice::Best)
        fixed.order = request.order;
    schedule::ScheduleOptions options;
    options.recordTrace = false;
    options.overrides = std::move(overrides);
    Expected<driver::Optimum> best =
        driver::bestConfiguration(workload, build.arch, strategy, fixed, options);
    if (!best.ok())
        return inModel(request.model, best.error());
    build.notes.push_back(sim::configurationText(best->eval.report) + " (" +
                          best->eval.report.chosenBy + " of " +
                          std::to_string(best->trials.size()) + " configurations)");
    return std::move(best->eval);
}

} // namespace

Expected<KernelBuild> buildKernelPlan(const KernelRequest& given) {
    KernelRequest request = given;
    KernelBuild build;
    std::optional<io::Session> session;
    if (request.session) {
        SC_ASSIGN_OR_RETURN(session, io::loadSession(*request.session));
        if (request.given.count("arch")) {
            SC_ASSIGN_OR_RETURN(session->arch, arch::resolveArch(request.arch));
        }
        bool fromSession = request.model.text.empty() || request.model.text == *request.session;
        applySession(*session, request, fromSession, build.warnings);
        build.arch = session->arch;
    } else {
        SC_ASSIGN_OR_RETURN(build.arch, arch::resolveArch(request.arch));
    }
    SC_RETURN_IF_ERROR(checkPrecision(request.model, build.arch));
    SC_ASSIGN_OR_RETURN(schedule::Overrides overrides, overridesOf(request, session));
    SC_ASSIGN_OR_RETURN(int64_t batch, defaultBatch(request.model, false));
    SC_ASSIGN_OR_RETURN(build.model, loadModel(request.model, batch));
    build.spec = request.model;
    const sim::Strategy* strategy = sim::findStrategy(request.strategy);
    if (strategy == nullptr)
        return Error("unknown strategy " + quote(request.strategy));
    build.strategy = strategy->name;
    if (request.tuned) {
        SC_ASSIGN_OR_RETURN(build.evaluation, tunedEvaluation(request, build, *strategy,
                                                              std::move(overrides), batch));
    } else {
        driver::Request run;
        run.graph = &build.model.graph;
        run.arch = build.arch;
        run.strategy = build.strategy;
        run.level = request.level;
        run.order = request.order;
        run.overrides = std::move(overrides);
        run.perCluster = batch;
        run.recordTrace = false;
        Expected<driver::Scheduled> scheduled = driver::scheduleAndSimulate(run);
        if (!scheduled.ok())
            return inModel(request.model, scheduled.error());
        if (!request.level)
            build.notes.push_back("level auto: " + scheduled->levelWhy);
        build.evaluation = std::move(scheduled->eval);
    }
    Expected<codegen::CodePlan> plan = driver::planCode(build.model.graph, build.evaluation);
    if (!plan.ok())
        return inModel(request.model, plan.error());
    build.plan = std::move(plan).value();
    return build;
}

std::string compileSummary(const codegen::EmittedProgram& program,
                           std::chrono::steady_clock::time_point start) {
    size_t cached = 0;
    double compiling = 0;
    for (const codegen::EmittedKernel& k : program.kernels) {
        cached += k.cached ? 1 : 0;
        compiling += k.cached ? 0 : k.seconds;
    }
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char text[160];
    std::snprintf(text, sizeof text,
                  "compiled %zu kernels in %.2f s (%zu from the object cache, %.2f s compiling "
                  "the others)",
                  program.kernels.size(), wall, cached, compiling);
    return text;
}

} // namespace stagecraft::cli
