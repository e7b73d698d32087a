// Benchmark: load BERT-base at sequence length 384 (about 440 MB of external
// weights) into a static graph. Each run is a fresh process (this program
// with --child) so its wall time and peak RSS are the import's own; the
// parent reads the child's peak RSS with wait4. A child that only starts and
// exits gives the baseline RSS of the process itself.
//
//   bench_load [--runs N] [--model FILE]   (default: writes bert-base seq 384)

#include "onnx/importer.h"
#include "ops/semantics.h"
#include "zoo/zoo.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace stagecraft;

namespace {

struct ChildResult {
    double importMs = 0;
    double semanticsMs = 0;
    long peakRssKb = 0;
    bool ok = false;
};

int runChild(const char* model) {
    auto start = std::chrono::steady_clock::now();
    auto imported = onnxio::importModel(model);
    auto loaded = std::chrono::steady_clock::now();
    if (!imported.ok()) {
        std::fprintf(stderr, "%s\n", imported.error().message().c_str());
        return 1;
    }
    int64_t macs = 0;
    for (ir::OpId op : imported->graph.opIds()) {
        auto semantics = ops::semanticsOf(imported->graph, op);
        if (semantics.ok())
            macs += semantics->cost.macs;
    }
    auto done = std::chrono::steady_clock::now();
    std::printf("%f %f %zu %lld\n",
                std::chrono::duration<double, std::milli>(loaded - start).count(),
                std::chrono::duration<double, std::milli>(done - loaded).count(),
                imported->graph.opCount(), static_cast<long long>(macs));
    return 0;
}

ChildResult spawn(const std::string& self, const std::vector<std::string>& args) {
    int pipeFds[2];
    ChildResult result;
    if (pipe(pipeFds) != 0)
        return result;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pipeFds[1], STDOUT_FILENO);
        close(pipeFds[0]);
        std::vector<char*> argv{const_cast<char*>(self.c_str())};
        for (const auto& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(self.c_str(), argv.data());
        _exit(127);
    }
    close(pipeFds[1]);
    char buffer[256] = {};
    ssize_t n = read(pipeFds[0], buffer, sizeof buffer - 1);
    close(pipeFds[0]);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    result.peakRssKb = usage.ru_maxrss;
    result.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (n > 0)
        std::sscanf(buffer, "%lf %lf", &result.importMs, &result.semanticsMs);
    return result;
}

} // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "--child-idle") == 0)
        return 0;
    if (argc >= 3 && std::strcmp(argv[1], "--child") == 0)
        return runChild(argv[2]);
    int runs = 5;
    std::string model;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--runs") == 0)
            runs = std::atoi(argv[i + 1]);
        else if (std::strcmp(argv[i], "--model") == 0)
            model = argv[i + 1];
    }
    std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("stagecraft-bench-" + std::to_string(getpid()));
    if (model.empty()) {
        std::filesystem::create_directories(dir);
        model = (dir / "bert-base-384.onnx").string();
        zoo::ZooOptions options;
        options.seq = 384;
        if (auto written = zoo::writeZooModel("bert-base", options, model); !written.ok()) {
            std::fprintf(stderr, "%s\n", written.error().message().c_str());
            return 1;
        }
    }
    std::string self = std::filesystem::canonical("/proc/self/exe").string();
    ChildResult idle = spawn(self, {"--child-idle"});
    std::vector<ChildResult> results;
    for (int i = 0; i < runs; ++i) {
        results.push_back(spawn(self, {"--child", model}));
        if (!results.back().ok) {
            std::fprintf(stderr, "bench_load: the import failed\n");
            return 1;
        }
    }
    std::sort(results.begin(), results.end(),
              [](auto& a, auto& b) { return a.importMs < b.importMs; });
    long peak = 0;
    for (const auto& r : results)
        peak = std::max(peak, r.peakRssKb);
    auto weights = std::filesystem::path(model).replace_extension(".weights");
    std::error_code ec;
    auto weightBytes = std::filesystem::file_size(weights, ec);
    std::printf("model            %s (external weights %.1f MB)\n", model.c_str(),
                ec ? 0.0 : static_cast<double>(weightBytes) / 1e6);
    std::printf("import           median %.1f ms, min %.1f ms, max %.1f ms over %d runs (target < "
                "1000 ms)\n",
                results[results.size() / 2].importMs, results.front().importMs,
                results.back().importMs, runs);
    std::printf("op semantics     median %.1f ms for every op of the graph\n",
                results[results.size() / 2].semanticsMs);
    std::printf("peak RSS         %.1f MB (target < 200 MB); an idle child process: %.1f MB\n",
                static_cast<double>(peak) / 1024.0, static_cast<double>(idle.peakRssKb) / 1024.0);
    std::filesystem::remove_all(dir, ec);
    return 0;
}
