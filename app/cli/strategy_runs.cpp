// The options and the per-strategy loop of `stagecraft compare` and
// `stagecraft report` (cli/strategy_runs.h). Counts must be whole numbers of
// at least 1; the strategies keep the order they are given in; a failing
// strategy stops the runs, as a partial comparison would mislead.

#include "cli/strategy_runs.h"

#include "arch/presets.h"
#include "cli/batch_config.h"
#include "support/strings.h"

namespace stagecraft::cli {

namespace {

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

std::optional<std::string> readModel(const ArgParser& parser, StrategyRuns& r) {
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

std::optional<std::string> readStrategies(const ArgParser& parser, StrategyRuns& r) {
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
    return std::nullopt;
}

std::optional<std::string> readFixed(const ArgParser& parser, StrategyRuns& r) {
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
    return std::nullopt;
}

} // namespace

std::optional<std::string> readStrategyRuns(const ArgParser& parser, StrategyRuns& runs) {
    if (auto refusal = readModel(parser, runs))
        return refusal;
    if (auto refusal = readStrategies(parser, runs))
        return refusal;
    if (auto refusal = readFixed(parser, runs))
        return refusal;
    runs.arch = parser.value("arch", std::string(arch::kDefaultPreset));
    return std::nullopt;
}

Expected<arch::Arch> archOf(const StrategyRuns& runs) {
    SC_ASSIGN_OR_RETURN(arch::Arch arch, arch::resolveArch(runs.arch));
    SC_RETURN_IF_ERROR(checkPrecision(runs.model, arch));
    return arch;
}

Expected<driver::Workload> workloadOf(const StrategyRuns& runs, const arch::Arch& arch) {
    auto workload = workloadFor(runs.model, runs.batch, runs.perCluster, arch);
    if (!workload.ok())
        return inModel(runs.model, workload.error());
    return workload;
}

Expected<std::vector<sim::Report>> runStrategies(const StrategyRuns& runs, const arch::Arch& arch,
                                                 const driver::Workload& workload,
                                                 std::string_view prefix, std::ostream& err,
                                                 const EachRun& each) {
    std::vector<sim::Report> reports;
    schedule::ScheduleOptions options;
    options.recordTrace = false;
    for (size_t i = 0; i < runs.strategies.size(); ++i) {
        const sim::Strategy& s = *runs.strategies[i];
        err << prefix << "[" << i + 1 << "/" << runs.strategies.size() << "] " << s.name << "\n";
        auto best = driver::bestConfiguration(workload, arch, s, runs.fixed, options);
        if (!best.ok())
            return Error(s.name + ": " + inModel(runs.model, best.error()).message());
        reports.push_back(best->eval.report);
        if (!each)
            continue;
        if (Status done = each(s, best->eval); !done.ok())
            return Error(s.name + ": " + done.error().message());
    }
    sim::fillSpeedups(reports);
    return reports;
}

} // namespace stagecraft::cli
