// Benchmark: the GraphTurbo scheduling pipeline (buildSchedule: grouping,
// splits, instances, order, binding, data moves) on stcp920. Each graph is
// built or imported once; only buildSchedule is timed, the median of several
// runs reported. Rows: ResNet-50 at 16 images per cluster (target < 20 ms),
// BERT-base seq 384 batch 2 (target < 100 ms), and syntheticGraph at 1k, 10k
// and 100k ops (target < 3 s at 100k) with the time per op relative to 1k:
// near 1.0 means near-linear growth.
//
//   bench_schedule [--runs N] [--max-ops N]   (defaults: 5 runs, 100000 ops)

#include "arch/presets.h"
#include "bench_common.h"
#include "random_graphs.h"
#include "schedule/clusters.h"
#include "schedule/pipeline.h"
#include "zoo/zoo.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

using namespace stagecraft;

namespace {

struct Row {
    std::string name;
    size_t ops = 0;
    size_t groups = 0;
    size_t instances = 0;
    double medianMs = 0;
    double minMs = 0;
    double maxMs = 0;
    std::string target;
};

/// Times \p runs calls of buildSchedule; nullopt (with a message) on failure.
std::optional<Row> timeSchedule(const std::string& name, const ir::Graph& graph,
                                const arch::Arch& arch, int64_t perCluster, int runs,
                                const std::string& target) {
    schedule::ScheduleOptions options;
    auto plan = schedule::makeClusterPlan(perCluster * arch.clusters, arch.clusters, perCluster);
    if (!plan.ok()) {
        std::fprintf(stderr, "bench_schedule: %s: %s\n", name.c_str(),
                     plan.error().message().c_str());
        return std::nullopt;
    }
    options.clusters = *plan;
    Row row{name, graph.opCount(), 0, 0, 0, 0, 0, target};
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        auto start = std::chrono::steady_clock::now();
        auto s = schedule::buildSchedule(graph, arch, options);
        times.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
        if (!s.ok()) {
            std::fprintf(stderr, "bench_schedule: %s: %s\n", name.c_str(),
                         s.error().message().c_str());
            return std::nullopt;
        }
        row.groups = s->groups.size();
        row.instances = s->instances.size();
    }
    if (times.empty())
        return std::nullopt;
    std::sort(times.begin(), times.end());
    row.medianMs = times[times.size() / 2];
    row.minMs = times.front();
    row.maxMs = times.back();
    return row;
}

void printRow(const Row& row, const std::string& perOp) {
    std::printf("%-28s %8zu %7zu %9zu %10.2f %10.2f %10.2f  %-10s %s\n", row.name.c_str(), row.ops,
                row.groups, row.instances, row.medianMs, row.minMs, row.maxMs, row.target.c_str(),
                perOp.c_str());
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
    if (!arch.ok()) {
        std::fprintf(stderr, "bench_schedule: %s\n", arch.error().message().c_str());
        return 1;
    }
    std::filesystem::path dir = bench::makeTempDir();
    if (dir.empty()) {
        std::fprintf(stderr, "bench_schedule: cannot create a temporary directory\n");
        return 1;
    }
    std::printf("buildSchedule on %s, best order, median of %d runs (ms)\n", arch->name.c_str(),
                runs);
    std::printf("%-28s %8s %7s %9s %10s %10s %10s  %-10s %s\n", "graph", "ops", "groups",
                "instances", "median", "min", "max", "target", "per op vs 1k");
    int status = 0;
    zoo::ZooOptions resnet;
    resnet.batch = 16;
    zoo::ZooOptions bert;
    bert.batch = 2;
    bert.seq = 384;
    for (auto [name, model, options, perCluster, target] :
         {std::tuple{"resnet50 batch 16", "resnet50", resnet, 16, "< 20 ms"},
          std::tuple{"bert-base seq 384 batch 2", "bert-base", bert, 2, "< 100 ms"}}) {
        std::optional<ir::Graph> graph = bench::zooGraph(dir, model, options);
        std::optional<Row> row =
            graph ? timeSchedule(name, *graph, *arch, perCluster, runs, target) : std::nullopt;
        if (!row) {
            status = 1;
            continue;
        }
        printRow(*row, "");
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);

    double perOp1k = 0;
    for (int ops = 1000; ops <= maxOps; ops *= 10) {
        ir::Graph graph = test::syntheticGraph(ops, 1);
        std::string target = ops == 100000 ? "< 3000 ms" : "";
        std::optional<Row> row = timeSchedule("synthetic " + std::to_string(ops) + " ops", graph,
                                              *arch, 1, runs, target);
        if (!row) {
            status = 1;
            break;
        }
        double perOp = row->medianMs / static_cast<double>(ops);
        if (ops == 1000)
            perOp1k = perOp;
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%.2f", perOp / perOp1k);
        printRow(*row, ratio);
    }
    return status;
}
