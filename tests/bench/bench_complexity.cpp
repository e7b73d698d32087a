// Benchmark: how scheduling and simulation grow with the op count on the
// graph shapes that once made them quadratic (docs/limits.md, "How long it
// takes"): a chain, a wide Concat of parallel Relus, a Fibonacci-like Add
// DAG and a random DAG of every block kind. Each is scheduled for
// graphturbo at the LB level on stcp920 (buildSchedule) and then planned and
// simulated (evaluateSchedule); one run per size. The last column is the
// time per op relative to the smallest size: near 1.0 means near-linear.
// Targets at 100k ops: scheduled in < 10 s, simulated in < 30 s.
//
//   bench_complexity [--sizes 1000,10000,100000] [--family NAME]...

#include "arch/presets.h"
#include "bench_common.h"
#include "random_graphs.h"
#include "schedule/clusters.h"
#include "sim/compare.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace stagecraft;

namespace {

struct Family {
    std::string name;
    std::function<ir::Graph(int)> build;
};

std::vector<Family> families() {
    return {
        {"chain", test::chainGraph},
        {"wide-concat", test::wideConcatGraph},
        {"fibonacci-add", test::fibonacciAddGraph},
        {"random-dag",
         [](int ops) {
             test::RandomGraphOptions options;
             options.ops = ops;
             return test::randomGraph(7, options);
         }},
    };
}

struct Times {
    double scheduleMs = 0;
    double simulateMs = 0;
    size_t instances = 0;
};

bool timeOne(const ir::Graph& graph, const arch::Arch& arch, Times& times) {
    schedule::ScheduleOptions options;
    options.recordTrace = false;
    options.level = schedule::Level::LB;
    options.clusters = *schedule::makeClusterPlan(arch.clusters, arch.clusters, 1);
    const sim::Strategy& strategy = *sim::findStrategy("graphturbo");
    options = sim::strategyOptions(strategy, options);
    auto start = bench::Clock::now();
    auto s = schedule::buildSchedule(graph, arch, options);
    times.scheduleMs = bench::msSince(start);
    if (!s.ok()) {
        std::fprintf(stderr, "bench_complexity: %s\n", s.error().message().c_str());
        return false;
    }
    times.instances = s->instances.size();
    start = bench::Clock::now();
    auto ev = sim::evaluateSchedule(graph, arch, std::move(s).value(), strategy);
    times.simulateMs = bench::msSince(start);
    if (!ev.ok()) {
        std::fprintf(stderr, "bench_complexity: %s\n", ev.error().message().c_str());
        return false;
    }
    return true;
}

std::vector<int> parseSizes(const char* text) {
    std::vector<int> sizes;
    for (const char* p = text; *p;) {
        sizes.push_back(std::max(1, std::atoi(p)));
        const char* comma = std::strchr(p, ',');
        if (!comma)
            break;
        p = comma + 1;
    }
    return sizes;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes = {1000, 10000, 100000};
    std::vector<std::string> only;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--sizes") == 0)
            sizes = parseSizes(argv[i + 1]);
        else if (std::strcmp(argv[i], "--family") == 0)
            only.push_back(argv[i + 1]);
    }
    auto arch = arch::loadPreset("stcp920");
    if (!arch.ok()) {
        std::fprintf(stderr, "bench_complexity: no stcp920 preset\n");
        return 1;
    }
    std::printf("graphturbo, LB level, %s; one run per size (ms)\n", arch->name.c_str());
    std::printf("%-14s %8s %10s %11s %11s %9s %9s\n", "graph", "ops", "instances", "schedule",
                "simulate", "sched/op", "sim/op");
    int status = 0;
    for (const Family& family : families()) {
        if (!only.empty() && std::find(only.begin(), only.end(), family.name) == only.end())
            continue;
        double firstSchedule = 0, firstSimulate = 0;
        for (size_t k = 0; k < sizes.size(); ++k) {
            ir::Graph graph = family.build(sizes[k]);
            Times t;
            if (!timeOne(graph, *arch, t)) {
                status = 1;
                continue;
            }
            double ops = static_cast<double>(graph.opCount());
            if (k == 0) {
                firstSchedule = t.scheduleMs / ops;
                firstSimulate = t.simulateMs / ops;
            }
            std::printf("%-14s %8zu %10zu %11.1f %11.1f %9.2f %9.2f\n", family.name.c_str(),
                        graph.opCount(), t.instances, t.scheduleMs, t.simulateMs,
                        t.scheduleMs / ops / firstSchedule, t.simulateMs / ops / firstSimulate);
            std::fflush(stdout);
        }
    }
    return status;
}
