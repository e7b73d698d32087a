// Benchmark: schedule + kernel plans + simulation (sim::evaluate with the
// graphturbo strategy) on stcp920, timed per stage, median of several runs.
// Rows: ResNet-50 at 16 images per cluster at both levels (target < 50 ms),
// BERT-base seq 384 batch 2 (target < 250 ms), syntheticGraph at 1k, 10k and
// 100k ops (target < 10 s at 100k). For comparison in the same run: tvm on
// ResNet-50 (2 images per cluster).
//
//   bench_simulate [--runs N] [--max-ops N]   (defaults: 5 runs, 100000 ops)

#include "arch/presets.h"
#include "bench_common.h"
#include "random_graphs.h"
#include "schedule/clusters.h"
#include "sim/compare.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

using namespace stagecraft;

namespace {

using bench::Clock;
using bench::median;
using bench::msSince;

struct Case {
    std::string name;
    const ir::Graph* graph;
    int64_t perCluster;
    std::string strategy;
    schedule::Level level;
    std::string target;
};

/// Times the stages of \p runs evaluations; false (with a message) on failure.
bool timeCase(const Case& c, const arch::Arch& arch, int runs) {
    auto plan =
        schedule::makeClusterPlan(c.perCluster * arch.clusters, arch.clusters, c.perCluster);
    if (!plan.ok())
        return false;
    schedule::ScheduleOptions options;
    options.recordTrace = false;
    options.level = c.level;
    options.clusters = *plan;
    const sim::Strategy& strategy = *sim::findStrategy(c.strategy);
    options = sim::strategyOptions(strategy, options);
    std::vector<double> sched, rest, total;
    size_t kernels = 0, tasks = 0;
    for (int i = 0; i < runs; ++i) {
        auto start = Clock::now();
        auto s = schedule::buildSchedule(*c.graph, arch, options);
        double scheduled = msSince(start);
        if (!s.ok()) {
            std::fprintf(stderr, "bench_simulate: %s: %s\n", c.name.c_str(),
                         s.error().message().c_str());
            return false;
        }
        auto ev = sim::evaluateSchedule(*c.graph, arch, std::move(s).value(), strategy);
        double all = msSince(start);
        if (!ev.ok()) {
            std::fprintf(stderr, "bench_simulate: %s: %s\n", c.name.c_str(),
                         ev.error().message().c_str());
            return false;
        }
        sched.push_back(scheduled);
        rest.push_back(all - scheduled);
        total.push_back(all);
        kernels = ev->program.kernels.size();
        tasks = ev->tasks.tasks.size();
    }
    std::printf("%-34s %-10s %3s %8zu %8zu %9.2f %9.2f %9.2f  %s\n", c.name.c_str(),
                c.strategy.c_str(), std::string(schedule::levelName(c.level)).c_str(), kernels,
                tasks, median(sched), median(rest), median(total), c.target.c_str());
    return true;
}

} // namespace

int main(int argc, char** argv) {
    int runs = 5;
    int maxOps = 100000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--runs") == 0)
            runs = std::max(1, std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--max-ops") == 0)
            maxOps = std::max(1000, std::atoi(argv[i + 1]));
    }
    auto arch = arch::loadPreset("stcp920");
    std::filesystem::path dir = bench::makeTempDir();
    if (!arch.ok() || dir.empty()) {
        std::fprintf(stderr, "bench_simulate: no stcp920 preset or temporary directory\n");
        return 1;
    }
    zoo::ZooOptions resnet16, resnet2, bert;
    resnet16.batch = 16;
    resnet2.batch = 2;
    bert.batch = 2;
    bert.seq = 384;
    auto r16 = bench::zooGraph(dir, "resnet50", resnet16);
    auto r2 = bench::zooGraph(dir, "resnet50", resnet2);
    auto b2 = bench::zooGraph(dir, "bert-base", bert);
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    if (!r16 || !r2 || !b2)
        return 1;
    std::printf("schedule + kernel plans + simulation on %s, median of %d runs (ms)\n",
                arch->name.c_str(), runs);
    std::printf("%-34s %-10s %3s %8s %8s %9s %9s %9s  %s\n", "graph", "strategy", "lvl", "kernels",
                "tasks", "schedule", "plan+sim", "total", "target");
    using L = schedule::Level;
    std::vector<Case> cases = {
        {"resnet50 16/cluster", &*r16, 16, "graphturbo", L::LB, "< 50 ms"},
        {"resnet50 16/cluster", &*r16, 16, "graphturbo", L::GB, "< 50 ms"},
        {"resnet50 2/cluster", &*r2, 2, "tvm", L::LB, "baseline"},
        {"bert-base seq 384 2/cluster", &*b2, 2, "graphturbo", L::LB, "< 250 ms"},
        {"bert-base seq 384 2/cluster", &*b2, 2, "graphturbo", L::GB, "< 250 ms"},
    };
    int status = 0;
    for (const Case& c : cases)
        status |= timeCase(c, *arch, runs) ? 0 : 1;
    for (int ops = 1000; ops <= maxOps; ops *= 10) {
        ir::Graph graph = test::syntheticGraph(ops, 1);
        std::string name = "synthetic " + std::to_string(ops) + " ops";
        status |= timeCase({name, &graph, 1, "graphturbo", L::LB, ops == 100000 ? "< 10 s" : ""},
                           *arch, ops >= 100000 ? std::min(runs, 3) : runs)
                      ? 0
                      : 1;
    }
    return status;
}
