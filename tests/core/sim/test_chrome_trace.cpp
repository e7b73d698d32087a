// The simulator's exports checked as their readers see them: the Chrome
// trace of ResNet-50 (Table 2 row A, the `graphturbo` run of `stagecraft
// compare`) parsed and validated against the Trace Event Format that
// Perfetto's JSON importer reads, exact event counts on the Fig. 3 chain, and
// the keys of the `stagecraft-compare` document (docs/exports.md,
// docs/simulator.md).

#include "driver/workload.h"
#include "io/chrome_trace.h"
#include "io/compare_json.h"
#include "sim_fixture.h"
#include "suite_fixture.h"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>

using namespace stagecraft;
using nlohmann::json;

namespace {

/// A zoo model imported for one architecture and cluster plan.
struct Workload {
    arch::Arch arch;
    ir::Graph graph;
    schedule::ClusterPlan plan;
};

/// The zoo model \p model on preset \p arch at \p k samples per cluster and
/// \p total in all (held by pointer: evaluations refer to the graph).
std::unique_ptr<const Workload> load(const test::TempDir& dir, const std::string& model,
                                     const std::string& arch, int64_t total, int64_t k) {
    auto w = std::make_unique<Workload>();
    w->arch = test::preset(arch);
    w->graph = test::importZoo(dir, model, k);
    w->plan = test::valueOrDie(schedule::makeClusterPlan(total, w->arch.clusters, k), "plan");
    return w;
}

/// \p strategy on \p w at \p level, or at the level `stagecraft compare`
/// chooses (sim::chooseLevel).
sim::Evaluation run(const Workload& w, const sim::Strategy& strategy,
                    std::optional<schedule::Level> level = std::nullopt) {
    if (!level)
        level = test::valueOrDie(
            sim::chooseLevel(w.graph, w.arch, w.plan, test::compareOptions(schedule::Level::LB)),
            "choosing the level");
    return test::valueOrDie(
        sim::evaluate(w.graph, w.arch, strategy, w.plan, test::compareOptions(*level)),
        strategy.name);
}

std::string trace(const Workload& w, const sim::Evaluation& ev, int64_t clusters = 0) {
    io::TraceOptions options;
    options.clusters = clusters;
    return io::writeChromeTrace(w.graph, w.arch, ev.program, ev.tasks, ev.sim, options);
}

/// `<memory> [core <i>] bytes` (docs/exports.md) -> capacity of that memory.
std::map<std::string, int64_t> counterCapacities(const sim::SimResult& result) {
    std::map<std::string, int64_t> out;
    for (const sim::Occupancy& occ : result.occupancy)
        out[occ.memory + (occ.core >= 0 ? " core " + std::to_string(occ.core) : "") + " bytes"] =
            occ.capacityBytes;
    return out;
}

/// Slack for the microsecond times of the trace (nanosecond resolution).
constexpr double kSlackUs = 1e-3;

/// Checks \p doc against the Trace Event Format as Perfetto's JSON importer
/// reads it; \returns the first problem found.
class TraceChecker {
public:
    TraceChecker(int64_t clusters, std::map<std::string, int64_t> capacities)
        : clusters_(clusters)
        , capacities_(std::move(capacities)) {}

    std::optional<std::string> check(const json& doc) {
        if (!doc.is_object() || !doc.contains("traceEvents") || !doc["traceEvents"].is_array())
            return "no traceEvents array";
        if (!doc.contains("displayTimeUnit") || !doc["displayTimeUnit"].is_string())
            return "no displayTimeUnit";
        const json& events = doc["traceEvents"];
        for (size_t i = 0; i < events.size(); ++i)
            if (auto problem = checkEvent(events[i]))
                return "event " + std::to_string(i) + ": " + *problem + ": " + events[i].dump();
        return checkNames();
    }

    /// X events per pid, by their args.kind.
    std::map<int64_t, std::map<std::string, int64_t>> completeByKind;

private:
    std::optional<std::string> checkEvent(const json& e) {
        if (!e.is_object() || !e.contains("ph") || !e["ph"].is_string())
            return "no ph";
        std::string ph = e["ph"];
        if (ph != "X" && ph != "M" && ph != "C")
            return "ph " + ph;
        if (!e.contains("pid") || !e["pid"].is_number_integer())
            return "no integer pid";
        int64_t pid = e["pid"];
        if (pid < 0 || pid >= clusters_)
            return "pid out of range";
        if (!e.contains("name") || !e["name"].is_string() || e["name"].get<std::string>().empty())
            return "no name";
        bool processName = ph == "M" && e["name"] == "process_name";
        if (!processName && (!e.contains("tid") || !e["tid"].is_number_integer()))
            return "no integer tid";
        if (ph == "M")
            return checkMetadata(e, pid, processName);
        if (ph == "X")
            return checkComplete(e, pid);
        return checkCounter(e, pid);
    }

    std::optional<std::string> checkMetadata(const json& e, int64_t pid, bool processName) {
        if (!e.contains("args") || !e["args"].contains("name") || !e["args"]["name"].is_string())
            return "metadata without args.name";
        if (processName)
            processNames_.insert(pid);
        else if (e["name"] == "thread_name")
            threadNames_.insert({pid, e["tid"].get<int64_t>()});
        else
            return "metadata " + e["name"].get<std::string>();
        return std::nullopt;
    }

    std::optional<std::string> checkComplete(const json& e, int64_t pid) {
        if (!e.contains("ts") || !e["ts"].is_number() || !e.contains("dur") ||
            !e["dur"].is_number())
            return "X without numeric ts and dur";
        double ts = e["ts"], dur = e["dur"];
        if (ts < 0 || dur < 0)
            return "negative ts or dur";
        Thread thread{pid, e["tid"].get<int64_t>()};
        auto last = threadEnds_.find(thread);
        if (last != threadEnds_.end() && ts + kSlackUs < last->second.second)
            return "X overlaps or precedes the thread's previous event (ends " +
                   test::figure(last->second.second) + " us, started " +
                   test::figure(last->second.first) + " us)";
        threadEnds_[thread] = {ts, ts + dur};
        if (!e.contains("args") || !e["args"].contains("kind"))
            return "X without args.kind";
        completeByKind[pid][e["args"]["kind"].get<std::string>()]++;
        return std::nullopt;
    }

    std::optional<std::string> checkCounter(const json& e, int64_t pid) {
        if (!e.contains("ts") || !e["ts"].is_number() || e["ts"].get<double>() < 0)
            return "C without ts";
        if (!e.contains("args") || !e["args"].is_object() || e["args"].empty())
            return "C without args";
        std::string name = e["name"];
        auto capacity = capacities_.find(name);
        if (capacity == capacities_.end())
            return "counter of no memory";
        for (const auto& [key, value] : e["args"].items()) {
            if (!value.is_number())
                return "C arg " + key + " not numeric";
            if (value.get<double>() < 0 || value.get<double>() > capacity->second)
                return "counter outside [0, " + std::to_string(capacity->second) + "]";
        }
        double ts = e["ts"];
        auto [last, fresh] = counterTimes_.try_emplace({pid, name}, ts);
        if (!fresh && ts < last->second)
            return "counter track goes back in time";
        last->second = ts;
        return std::nullopt;
    }

    std::optional<std::string> checkNames() const {
        for (int64_t pid = 0; pid < clusters_; ++pid)
            if (processNames_.count(pid) == 0)
                return "pid " + std::to_string(pid) + " has no process_name";
        for (const auto& [thread, span] : threadEnds_)
            if (threadNames_.count(thread) == 0)
                return "pid " + std::to_string(thread.first) + " tid " +
                       std::to_string(thread.second) + " has no thread_name";
        return std::nullopt;
    }

    using Thread = std::pair<int64_t, int64_t>;
    int64_t clusters_;
    std::map<std::string, int64_t> capacities_;
    std::set<int64_t> processNames_;
    std::set<Thread> threadNames_;
    /// (start, end) of the last X event of each thread.
    std::map<Thread, std::pair<double, double>> threadEnds_;
    std::map<std::pair<int64_t, std::string>, double> counterTimes_;
};

/// X events one cluster's process should hold, by task kind: one per core
/// for compute tasks (one on the fallback CPU), one per other task.
std::map<std::string, int64_t> expectedByKind(const kernel::TaskGraph& tasks) {
    std::map<std::string, int64_t> out;
    std::set<int32_t> kernels; // one "kernel" span each
    for (const kernel::Task& t : tasks.tasks)
        if (t.kernel >= 0)
            kernels.insert(t.kernel);
    out["kernel"] = static_cast<int64_t>(kernels.size());
    for (const kernel::Task& t : tasks.tasks) {
        bool perCore = t.kind == kernel::TaskKind::Compute && t.unit != kernel::kFallbackUnit;
        out[std::string(kernel::taskKindName(t.kind))] += perCore ? t.cores : 1;
    }
    return out;
}

/// The index of the first event of \p events from \p begin that \p holds,
/// or events.size().
template <typename Predicate>
size_t findEvent(const json& events, Predicate holds, size_t begin = 0) {
    for (size_t i = begin; i < events.size(); ++i)
        if (holds(events[i]))
            return i;
    return events.size();
}

bool isComplete(const json& e) {
    return e["ph"] == "X";
}
bool isCounter(const json& e) {
    return e["ph"] == "C";
}

/// Breaks the valid trace \p doc as \p how says; false when it cannot.
bool breakTrace(const std::string& how, json& doc) {
    json& events = doc["traceEvents"];
    size_t x = findEvent(events, isComplete);
    size_t c = findEvent(events, isCounter);
    if (x == events.size() || c == events.size())
        return false;
    if (how == "no time unit")
        doc.erase("displayTimeUnit");
    else if (how == "bad phase")
        events[x]["ph"] = "B";
    else if (how == "pid out of range")
        events[x]["pid"] = 1;
    else if (how == "negative duration")
        events[x]["dur"] = -1.0;
    else if (how == "overlap") {
        // Two neighbours on one thread; the first now ends after the second starts.
        size_t i = 0;
        while (i + 1 < events.size() && !(isComplete(events[i]) && isComplete(events[i + 1]) &&
                                          events[i]["tid"] == events[i + 1]["tid"]))
            ++i;
        if (i + 1 >= events.size())
            return false;
        events[i]["dur"] = events[i + 1]["ts"].get<double>() - events[i]["ts"].get<double>() + 1;
    } else if (how == "unnamed thread") {
        json tid = events[x]["tid"];
        json kept = json::array();
        for (json& e : events)
            if (!(e["ph"] == "M" && e["name"] == "thread_name" && e["tid"] == tid))
                kept.push_back(std::move(e));
        events = std::move(kept);
    } else if (how == "counter over capacity")
        events[c]["args"]["bytes"] = int64_t{1} << 60;
    else if (how == "counter back in time") {
        size_t next = findEvent(
            events, [&](const json& e) { return isCounter(e) && e["name"] == events[c]["name"]; },
            c + 1);
        if (next == events.size())
            return false;
        events[c]["ts"] = events[next]["ts"].get<double>() + 1;
    } else
        return false;
    return true;
}

const sim::Strategy& graphturbo() {
    return *sim::findStrategy("graphturbo");
}

/// "compute 12, launch 3, …": X events by task kind.
std::string describe(const std::map<std::string, int64_t>& counts) {
    std::string out;
    for (const auto& [kind, n] : counts)
        out += (out.empty() ? "" : ", ") + kind + " " + std::to_string(n);
    return out;
}

} // namespace

/// The ResNet-50 and fig3-chain runs, simulated once for the whole program
/// (the Qt suite's initTestCase) and shared by both suites below.
class TestChromeTrace : public test::OnceSuite<TestChromeTrace> {
public:
    /// Imports both models into dir_ and simulates them (OnceSuite's setup).
    static void prepare() {
        const driver::Table2Row& row = *driver::table2Row("resnet50", 0);
        resnet = load(*dir_, "resnet50", "stcp920", row.totalBatch, row.perCluster);
        resnetRun = run(*resnet, graphturbo());
        resnetText = trace(*resnet, resnetRun);
        chain = load(*dir_, "fig3-chain", "teaching", 8, 8);
        chainRun = run(*chain, graphturbo());
    }

protected:
    static inline std::unique_ptr<const Workload> resnet;
    static inline sim::Evaluation resnetRun;
    static inline std::string resnetText;
    static inline std::unique_ptr<const Workload> chain;
    static inline sim::Evaluation chainRun;

    /// \p text is a valid trace of \p ev with \p clusters processes, each
    /// holding exactly the simulated cluster's events.
    static void checkTrace(const sim::Evaluation& ev, const std::string& text, int64_t clusters) {
        json doc = json::parse(text);
        TraceChecker checker(clusters, counterCapacities(ev.sim));
        std::optional<std::string> problem = checker.check(doc);
        ASSERT_TRUE(!problem) << (problem ? problem->c_str() : "");
        ASSERT_EQ(static_cast<int64_t>(checker.completeByKind.size()), clusters);
        for (const auto& [pid, counts] : checker.completeByKind)
            ASSERT_EQ(describe(counts), describe(expectedByKind(ev.tasks)));
    }
};

/// Every event well formed, every thread named and in order, counters
/// within their memory's capacity, each cluster's process complete.
TEST_F(TestChromeTrace, resnetTraceIsValid) {
    ASSERT_TRUE(sim::validateTimeline(resnetRun.tasks, resnetRun.sim).ok());
    ASSERT_EQ(resnet->arch.clusters, int64_t(4));
    checkTrace(resnetRun, resnetText, resnet->arch.clusters);
}

/// Times are whole nanoseconds, written so: at most three decimals of a
/// microsecond (a difference of two divided times once wrote
/// 0.0039999999999054126 for 4 ns).
TEST_F(TestChromeTrace, resnetTraceTimesAreWholeNanoseconds) {
    size_t times = 0;
    for (const char* key : {"\"ts\":", "\"dur\":"})
        for (size_t at = resnetText.find(key); at != std::string::npos;
             at = resnetText.find(key, at + 1)) {
            const size_t start = at + std::string_view(key).size();
            const size_t end = resnetText.find_first_of(",}", start);
            const std::string number = resnetText.substr(start, end - start);
            const size_t dot = number.find('.');
            ASSERT_TRUE(dot == std::string::npos || number.size() - dot - 1 <= 3) << number;
            ++times;
        }
    ASSERT_GT(times, 1000u);
}

/// The same inputs give the same bytes; one cluster's trace is valid alone.
TEST_F(TestChromeTrace, resnetTraceIsDeterministic) {
    ASSERT_TRUE(trace(*resnet, resnetRun) == resnetText);
    std::string one = trace(*resnet, resnetRun, 1);
    checkTrace(resnetRun, one, 1);
    ASSERT_TRUE(one.size() < resnetText.size());
}

/// Fig. 3's chain on the one-cluster teaching DSA: the exact events.
TEST_F(TestChromeTrace, fig3ChainTraceCounts) {
    checkTrace(chainRun, trace(*chain, chainRun), 1);
    int64_t computeTasks = 0, coreEvents = 0;
    for (const kernel::Task& t : chainRun.tasks.tasks)
        if (t.kind == kernel::TaskKind::Compute) {
            ++computeTasks;
            coreEvents += t.cores;
        }
    ASSERT_TRUE(coreEvents > computeTasks); // some instances are bound to several cores
    std::map<std::string, int64_t> byKind = expectedByKind(chainRun.tasks);
    ASSERT_EQ(byKind["compute"], coreEvents);
    ASSERT_EQ(byKind["launch"], static_cast<int64_t>(chainRun.program.kernels.size()));
}

/// Scheduling and simulating again gives the same bytes.
TEST_F(TestChromeTrace, fig3ChainTraceIsReproducible) {
    schedule::Level level = chainRun.schedule.level;
    ASSERT_EQ(trace(*chain, run(*chain, graphturbo(), level)), trace(*chain, chainRun));
}

/// The checker itself: each kind of broken trace is caught.
struct CheckerCatchesBrokenTracesRow {
    std::string rowLabel;
    std::string breakage;
    std::string problem;
};

std::vector<CheckerCatchesBrokenTracesRow> checkerCatchesBrokenTracesRows() {
    std::vector<CheckerCatchesBrokenTracesRow> rows;
    const std::pair<const char*, const char*> cases[] = {
        {"no time unit", "no displayTimeUnit"},
        {"bad phase", "ph B"},
        {"pid out of range", "pid out of range"},
        {"negative duration", "negative ts or dur"},
        {"overlap", "overlaps"},
        {"unnamed thread", "has no thread_name"},
        {"counter over capacity", "counter outside"},
        {"counter back in time", "back in time"},
    };
    for (auto [breakage, problem] : cases)
        rows.push_back({breakage, std::string(breakage), std::string(problem)});
    return rows;
}

class CheckerCatchesBrokenTracesRows
    : public TestChromeTrace,
      public ::testing::WithParamInterface<CheckerCatchesBrokenTracesRow> {};

TEST_P(CheckerCatchesBrokenTracesRows, checkerCatchesBrokenTraces) {
    std::string breakage = GetParam().breakage;
    std::string problem = GetParam().problem;
    json doc = json::parse(trace(*chain, chainRun));
    ASSERT_TRUE(breakTrace(breakage, doc));
    TraceChecker checker(1, counterCapacities(chainRun.sim));
    std::optional<std::string> found = checker.check(doc);
    ASSERT_TRUE(found);
    ASSERT_TRUE(found->find(problem) != std::string::npos) << (found->c_str());
}

INSTANTIATE_TEST_SUITE_P(TestChromeTrace, CheckerCatchesBrokenTracesRows,
                         ::testing::ValuesIn(checkerCatchesBrokenTracesRows()), test::RowName{});

/// The keys `stagecraft compare --json` promises for every strategy.
TEST_F(TestChromeTrace, compareJsonKeys) {
    std::vector<sim::Report> reports;
    for (const sim::Strategy& s : sim::strategies())
        reports.push_back(run(*chain, s, schedule::Level::LB).report);
    sim::fillSpeedups(reports);
    json doc = json::parse(io::writeCompareJson({"zoo:fig3-chain", "teaching", ""}, reports));
    ASSERT_EQ(doc["format"].get<std::string>(), std::string("stagecraft-compare"));
    const json& list = doc["strategies"];
    ASSERT_TRUE(list.is_array());
    ASSERT_EQ(list.size(), reports.size());
    for (size_t i = 0; i < reports.size(); ++i) {
        const json& s = list[i];
        const sim::Report& r = reports[i];
        ASSERT_EQ(s["name"].get<std::string>(), r.strategy);
        ASSERT_TRUE(s["kernels"].is_number_integer());
        ASSERT_EQ(s["kernels"].get<int64_t>(), r.kernels);
        for (const char* key : {"latency_us", "throughput", "speedup_vs_tvm", "roofline_us"})
            ASSERT_TRUE(s.contains(key) && s[key].is_number()) << key;
        ASSERT_FUZZY_EQ(s["latency_us"].get<double>(), r.latencyUs);
        ASSERT_FUZZY_EQ(s["roofline_us"].get<double>(), r.rooflineUs);
        for (const char* key : {"traffic_bytes", "scopes"}) {
            ASSERT_TRUE(s.contains(key) && s[key].is_object() && s[key].size() == 3) << key;
            for (const char* level : {"DDR", "GB", "LB"})
                ASSERT_TRUE(s[key].contains(level) && s[key][level].is_number_integer()) << level;
        }
        ASSERT_EQ(s["scopes"]["DDR"].get<int64_t>(), r.scopes[0]);
        ASSERT_EQ(s["traffic_bytes"]["LB"].get<int64_t>(), r.trafficBytes[2]);
        ASSERT_TRUE(s["cu_utilization"].is_object());
        ASSERT_EQ(s["cu_utilization"].size(), r.cuUtilization.size());
        for (const auto& [unit, value] : s["cu_utilization"].items()) {
            ASSERT_TRUE(value.is_number()) << unit.c_str();
            ASSERT_TRUE(value.get<double>() >= 0 && value.get<double>() <= 1 + 1e-9)
                << unit.c_str();
        }
    }
    ASSERT_EQ(list[0]["name"].get<std::string>(), std::string("tvm"));
    ASSERT_FUZZY_EQ(list[0]["speedup_vs_tvm"].get<double>(), 1.0);
}
