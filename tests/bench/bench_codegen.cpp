// Benchmark: kernel emission and host execution (issue 7).
//
// 1. Emitting all ResNet-50 kernels (graphturbo on stcp920, batch 1) for
//    riscv64 at O2: code plan + LLVM lowering, optimization and object
//    emission, wall time on every hardware thread and on one (target < 5 s
//    on this 2-core machine; GraphTurbo reports 139 s for ResNet-50, Table 4).
//    The host target and tvm's schedule in the same run for comparison.
// 2. Host execution of PP-OCR mobile v2 cls (1x3x48x192) with the emitted
//    kernels against ONNX Runtime single-threaded (tests/oracle/run-model.js
//    --time) on the same seeded inputs: medians and their ratio.
//
//   bench_codegen [--runs N] [--execution-only]
//   (default 3 emission runs, 30 executions)

#include "arch/presets.h"
#include "bench_common.h"
#include "codegen/code_plan.h"
#include "codegen/host_run.h"
#include "onnx/importer.h"
#include "schedule/clusters.h"
#include "sim/compare.h"
#include "support/file.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace stagecraft;

namespace {

using bench::Clock;
using bench::median;
using bench::msSince;

struct Planned {
    sim::Evaluation evaluation;
    codegen::CodePlan plan;
};

std::optional<Planned> planFor(const ir::Graph& graph, const char* strategy) {
    auto arch = arch::resolveArch("stcp920");
    auto clusters = schedule::makeClusterPlan(arch->clusters, arch->clusters, 1);
    auto ev = sim::evaluate(graph, *arch, *sim::findStrategy(strategy), *clusters);
    if (!ev.ok()) {
        std::fprintf(stderr, "bench_codegen: %s\n", ev.error().message().c_str());
        return std::nullopt;
    }
    auto plan = codegen::planCode(graph, ev->schedule, ev->program);
    if (!plan.ok()) {
        std::fprintf(stderr, "bench_codegen: %s\n", plan.error().message().c_str());
        return std::nullopt;
    }
    return Planned{std::move(ev).value(), std::move(plan).value()};
}

/// Median wall time of planning and emitting every kernel.
bool timeEmission(const ir::Graph& graph, const char* strategy, codegen::Target target, int threads,
                  int runs) {
    std::vector<double> times;
    size_t kernels = 0;
    int64_t instructions = 0;
    double longest = 0;
    for (int run = 0; run < runs; ++run) {
        auto start = Clock::now();
        std::optional<Planned> p = planFor(graph, strategy);
        if (!p)
            return false;
        codegen::EmitOptions options{target, 2, threads, false, {}};
        auto program =
            codegen::emitProgram(graph, *p->evaluation.schedule.semantics, p->plan, options);
        if (!program.ok()) {
            std::fprintf(stderr, "bench_codegen: %s\n", program.error().message().c_str());
            return false;
        }
        times.push_back(msSince(start));
        kernels = program->kernels.size();
        instructions = 0;
        longest = 0;
        for (const auto& k : program->kernels) {
            instructions += k.instructions;
            longest = std::max(longest, k.seconds * 1e3);
        }
    }
    // The kernel of most compile work (its parts' seconds summed; the parts
    // compile on several threads, so it no longer bounds the wall time).
    std::printf("  %-10s %-8s %d thread%s: %3zu kernels, %7lld IR instructions, median %8.0f ms"
                " (min %.0f, max %.0f; largest kernel's work %.0f ms)\n",
                strategy, std::string(codegen::targetName(target)).c_str(),
                threads == 0 ? 2 : threads, threads == 1 ? " " : "s", kernels,
                static_cast<long long>(instructions), median(times),
                *std::min_element(times.begin(), times.end()),
                *std::max_element(times.begin(), times.end()), longest);
    return true;
}

/// ONNX Runtime's median single-threaded run time in ms, or a negative number.
double onnxRuntimeMs(const std::filesystem::path& model, const codegen::TensorSet& inputs,
                     int runs) {
    std::filesystem::path dir = bench::makeTempDir();
    std::filesystem::path in = dir / "inputs.json";
    if (!writeFileAtomic(in, codegen::writeTensorsJson(inputs)).ok())
        return -1;
    const char* source = std::getenv("STAGECRAFT_SOURCE_DIR");
    std::string script =
        std::string(source != nullptr ? source : STAGECRAFT_SOURCE) + "/tests/oracle/run-model.js";
    std::string command = "node '" + script + "' '" + model.string() + "' '" + in.string() + "' '" +
                          (dir / "out.json").string() + "' --time " + std::to_string(runs);
    std::FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr)
        return -1;
    char line[256] = {};
    double ms = -1;
    while (std::fgets(line, sizeof line, pipe) != nullptr)
        if (const char* at = std::strstr(line, "\"median_ms\":"))
            ms = std::atof(at + 12);
    pclose(pipe);
    return ms;
}

bool timeExecution(const std::filesystem::path& model, const char* strategy, int runs) {
    onnxio::ImportOptions options;
    options.inputShapes["x"] = {1, 3, 48, 192};
    auto imported = onnxio::importModel(model, options);
    if (!imported.ok()) {
        std::fprintf(stderr, "bench_codegen: %s\n", imported.error().message().c_str());
        return false;
    }
    const ir::Graph& graph = imported->graph;
    std::optional<Planned> p = planFor(graph, strategy);
    if (!p)
        return false;
    codegen::runOnThisHost(p->plan); // as `stagecraft run` runs it
    auto program = codegen::emitProgram(graph, *p->evaluation.schedule.semantics, p->plan,
                                        {codegen::Target::Host, 2, 0, false, {}});
    if (!program.ok())
        return false;
    auto host = codegen::HostProgram::load(graph, p->plan, *program);
    if (!host.ok()) {
        std::fprintf(stderr, "bench_codegen: %s\n", host.error().message().c_str());
        return false;
    }
    auto seeded = codegen::seededInputs(graph);
    if (!seeded.ok()) {
        std::fprintf(stderr, "bench_codegen: %s\n", seeded.error().message().c_str());
        return false;
    }
    const codegen::TensorSet& inputs = *seeded;
    std::vector<double> times;
    int64_t maxCores = 1;
    for (const auto& k : p->plan.kernels)
        maxCores = std::max(maxCores, k.cores);
    for (int run = 0; run <= runs; ++run) {
        codegen::HostRunStats stats;
        if (!(*host)->run(inputs, &stats).ok())
            return false;
        if (run > 0) // the first run warms caches
            times.push_back(stats.seconds * 1000);
    }
    double ours = median(times);
    double ort = onnxRuntimeMs(model, inputs, runs);
    std::printf("  %-10s %3zu kernels (up to %lld threads): median %.2f ms; ONNX Runtime "
                "(1 thread) %.2f ms; ratio %.2f\n",
                strategy, p->plan.kernels.size(), static_cast<long long>(maxCores), ours, ort,
                ort > 0 ? ours / ort : 0.0);
    return true;
}

} // namespace

int main(int argc, char** argv) {
    int runs = 3;
    bool emission = true;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[i + 1]));
        if (std::strcmp(argv[i], "--execution-only") == 0)
            emission = false;
    }
    std::filesystem::path dir = bench::makeTempDir();
    std::optional<ir::Graph> resnet = bench::zooGraph(dir, "resnet50", {});
    if (!resnet)
        return 1;
    bool ok = true;
    if (emission) {
        std::printf("emit every ResNet-50 kernel (plan + lower + O2 + object), median of %d\n",
                    runs);
        ok = timeEmission(*resnet, "graphturbo", codegen::Target::RiscV64, 0, runs) &&
             timeEmission(*resnet, "graphturbo", codegen::Target::RiscV64, 1, runs) &&
             timeEmission(*resnet, "graphturbo", codegen::Target::Host, 0, runs) &&
             timeEmission(*resnet, "tvm", codegen::Target::RiscV64, 0, runs);
    }
    const char* models = std::getenv("STAGECRAFT_MODELS");
    std::filesystem::path cls =
        std::filesystem::path(models != nullptr ? models
                                                : std::string(std::getenv("HOME")) +
                                                      "/.cache/stagecraft/models") /
        "ppocr/ch_ppocr_mobile_v2.0_cls_infer.onnx";
    std::printf("run PP-OCR mobile v2 cls 1x3x48x192 on this host, median of %d\n", runs * 10);
    ok = ok && timeExecution(cls, "graphturbo", runs * 10) && timeExecution(cls, "tvm", runs * 10);
    return ok ? 0 : 1;
}
