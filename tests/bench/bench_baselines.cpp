// Benchmark: the partitioning algorithms of the other papers' systems, each
// timed alone (median of several runs) on zoo models: AGO's CLUSTER, SPLIT
// and JOIN (target < 100 ms on BERT-base and ResNet-50) and DLA's
// extraction and post-prune (target < 50 ms), with every op supported and
// with every Softmax, LayerNormalization and GlobalAveragePool on the host;
// and IOS's dynamic programming with pruning r = 3, s = 8 (target < 1 s) on
// Inception-v3's last block and a NASNet-A cell, stages priced on stcp920
// (sim/ios_cost.h), with the states and (S, S') pairs it visited; and the
// `ios` strategy end to end (blocks, DP, kernel plans, simulation) on the
// whole Inception-v3 and the cell.
//
//   bench_baselines [--runs N]   (default 5 runs)

#include "arch/presets.h"
#include "bench_common.h"
#include "partition/ago_partition.h"
#include "partition/dla_extraction.h"
#include "partition/ios_scheduler.h"
#include "sim/compare.h"
#include "sim/ios_cost.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

using namespace stagecraft;

namespace {

/// The median of \p runs calls of \p work in ms, or -1 when one failed.
double timeMedian(int runs, const std::function<bool()>& work) {
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        auto start = bench::Clock::now();
        if (!work())
            return -1;
        times.push_back(bench::msSince(start));
    }
    return bench::median(times);
}

IdVector<ir::OpId, char> hostless(const ir::Graph& graph, bool someOnHost) {
    IdVector<ir::OpId, char> supported(graph.opCount(), 1);
    for (ir::OpId op : graph.opIds()) {
        ir::OpKind kind = graph.op(op).kind;
        if (someOnHost && (kind == ir::OpKind::Softmax || kind == ir::OpKind::LayerNormalization ||
                           kind == ir::OpKind::GlobalAveragePool))
            supported[op] = 0;
    }
    return supported;
}

bool benchModel(const std::string& label, const ir::Graph& graph, int runs) {
    auto semantics = partition::SemanticsCache::build(graph);
    if (!semantics.ok()) {
        std::fprintf(stderr, "bench_baselines: %s: %s\n", label.c_str(),
                     semantics.error().message().c_str());
        return false;
    }
    size_t groups = 0, minis = 0;
    double ago = timeMedian(runs, [&] {
        auto p = partition::partitionAgo(graph, *semantics);
        groups = p.ok() ? p->subgraphs.groupCount() : 0;
        minis = p.ok() ? p->minis.groupCount() : 0;
        return p.ok();
    });
    std::printf("%-26s %6zu  ago      %9.2f  < 100 ms  %zu sub-graphs, %zu mini-sub-graphs\n",
                label.c_str(), graph.opCount(), ago, groups, minis);
    bool ok = ago >= 0;
    for (bool someOnHost : {false, true}) {
        IdVector<ir::OpId, char> supported = hostless(graph, someOnHost);
        size_t extracted = 0, parts = 0;
        double dla = timeMedian(runs, [&] {
            auto e = partition::extractDlaSubgraphs(graph, supported);
            extracted = e.ok() ? e->extracted.groupCount() : 0;
            parts = e.ok() ? e->parts.groupCount() : 0;
            return e.ok();
        });
        std::printf("%-26s %6zu  dla%-5s %9.2f  < 50 ms   %zu sub-graphs, %zu parts\n",
                    label.c_str(), graph.opCount(), someOnHost ? "+cpu" : "", dla, extracted,
                    parts);
        ok = ok && dla >= 0;
    }
    return ok;
}

/// Each stage of \p schedule: its groups by the names of their complex ops.
void printStages(const ir::Graph& graph, const partition::IosSchedule& schedule) {
    for (size_t i = 0; i < schedule.stages.size(); ++i) {
        const partition::IosStage& stage = schedule.stages[i];
        std::printf("    stage %zu, %s, %.1f us:", i + 1, stage.merged ? "merged" : "concurrent",
                    stage.latency / 1000.0);
        for (const auto& group : stage.groups) {
            std::string names;
            for (ir::OpId op : group)
                if (graph.op(op).kind != ir::OpKind::Relu)
                    names += (names.empty() ? "" : " ") + graph.op(op).name;
            std::printf(" {%s}", names.c_str());
        }
        std::printf("\n");
    }
}

/// IOS on \p graph's schedule units (a block of at most 64).
bool benchIos(const std::string& label, const ir::Graph& graph, const arch::Arch& arch, int runs) {
    auto semantics = partition::SemanticsCache::build(graph);
    if (!semantics.ok()) {
        std::fprintf(stderr, "bench_baselines: %s: %s\n", label.c_str(),
                     semantics.error().message().c_str());
        return false;
    }
    partition::IosCostModel cost = sim::iosStageCost(graph, arch, *semantics);
    std::vector<ir::OpId> block(graph.opIds().begin(), graph.opIds().end());
    std::vector<std::vector<ir::OpId>> units = partition::iosScheduleUnits(graph, block);
    partition::IosSchedule found;
    std::string error;
    double ms = timeMedian(runs, [&] {
        auto s = partition::scheduleIosUnits(graph, units, cost, {3, 8});
        if (!s.ok())
            error = s.error().message();
        else
            found = *s;
        return s.ok();
    });
    if (ms < 0) {
        std::fprintf(stderr, "bench_baselines: %s: %s\n", label.c_str(), error.c_str());
        return false;
    }
    size_t merged = static_cast<size_t>(std::count_if(
        found.stages.begin(), found.stages.end(), [](const auto& stage) { return stage.merged; }));
    std::printf("%-26s %6zu  ios      %9.2f  < 1000 ms %zu units, %zu stages (%zu merged), %lld "
                "states, %lld (S, S') pairs, %.1f us\n",
                label.c_str(), graph.opCount(), ms, units.size(), found.stages.size(), merged,
                static_cast<long long>(found.states), static_cast<long long>(found.transitions),
                found.latency / 1000.0);
    if (units.size() <= 16)
        printStages(graph, found);
    return true;
}

/// The `ios` strategy end to end on \p graph (blocks, DP, groups, kernel
/// plans, simulation): its time, and the stages and latency it finds.
bool benchIosStrategy(const std::string& label, const ir::Graph& graph, const arch::Arch& arch,
                      int runs) {
    std::optional<sim::Evaluation> found;
    std::string error;
    double ms = timeMedian(runs, [&] {
        schedule::ScheduleOptions options;
        options.recordTrace = false;
        auto ev = sim::evaluate(graph, arch, *sim::findStrategy("ios"), {}, options);
        if (!ev.ok())
            error = ev.error().message();
        else
            found = std::move(*ev);
        return ev.ok();
    });
    if (ms < 0) {
        std::fprintf(stderr, "bench_baselines: %s: %s\n", label.c_str(), error.c_str());
        return false;
    }
    size_t stages = 0;
    for (const kernel::Kernel& k : found->program.kernels)
        stages += k.joinsStage ? 0 : 1;
    std::printf("%-26s %6zu  ios run  %9.2f  -         %zu kernels in %zu stages, %.1f us\n",
                label.c_str(), graph.opCount(), ms, found->program.kernels.size(), stages,
                found->report.latencyUs);
    return true;
}

} // namespace

int main(int argc, char** argv) {
    int runs = 5;
    for (int i = 1; i + 1 < argc; i += 2)
        if (std::strcmp(argv[i], "--runs") == 0)
            runs = std::max(1, std::atoi(argv[i + 1]));
    std::filesystem::path dir = bench::makeTempDir();
    if (dir.empty()) {
        std::fprintf(stderr, "bench_baselines: cannot create a temporary directory\n");
        return 1;
    }
    std::printf("median of %d runs (ms); dla+cpu: Softmax, LayerNormalization and "
                "GlobalAveragePool on the host\n",
                runs);
    std::printf("%-26s %6s  %-8s %9s  %-9s %s\n", "model", "ops", "system", "median", "target",
                "result");
    zoo::ZooOptions resnet;
    resnet.batch = 16;
    zoo::ZooOptions bert;
    bert.batch = 8;
    bert.seq = 128;
    int status = 0;
    for (auto [label, model, options] :
         {std::tuple{"resnet50 batch 16", "resnet50", resnet},
          std::tuple{"bert-base seq 128 batch 8", "bert-base", bert}}) {
        std::optional<ir::Graph> graph = bench::zooGraph(dir, model, options);
        if (!graph || !benchModel(label, *graph, runs))
            status = 1;
    }
    auto arch = arch::resolveArch("stcp920");
    if (!arch.ok()) {
        std::fprintf(stderr, "bench_baselines: %s\n", arch.error().message().c_str());
        return 1;
    }
    zoo::ZooOptions batch32; // IOS Fig. 10's second batch size
    batch32.batch = 32;
    for (auto [label, model, options] :
         {std::tuple{"inception-v3-block", "inception-v3-block", zoo::ZooOptions{}},
          std::tuple{"inception-v3-block batch 32", "inception-v3-block", batch32},
          std::tuple{"nasnet-a-cell", "nasnet-a-cell", zoo::ZooOptions{}}}) {
        std::optional<ir::Graph> graph = bench::zooGraph(dir, model, options);
        if (!graph || !benchIos(label, *graph, *arch, runs))
            status = 1;
    }
    for (auto [label, model] :
         {std::pair{"inception-v3", "inception-v3"}, std::pair{"nasnet-a-cell", "nasnet-a-cell"}}) {
        std::optional<ir::Graph> graph = bench::zooGraph(dir, model, zoo::ZooOptions{});
        if (!graph || !benchIosStrategy(label, *graph, *arch, runs))
            status = 1;
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    return status;
}
