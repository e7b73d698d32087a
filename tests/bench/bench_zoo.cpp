// bench_zoo: writes every model of the zoo with its default options (zero
// weights, a sparse file) into a temporary directory and prints the wall time
// per model and in total. Target: all models together in under 10 s.
// Usage: bench_zoo [--weights zeros|seeded]

#include "zoo/zoo.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

using namespace stagecraft;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// A fresh directory under the system temporary directory.
std::filesystem::path makeTempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "stagecraft-zoo-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
        return {};
    return pattern;
}

} // namespace

int main(int argc, char** argv) {
    zoo::ZooOptions options;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--weights") == 0 && i + 1 < argc &&
            std::strcmp(argv[i + 1], "seeded") == 0) {
            options.weights = onnxio::WeightFill::Seeded;
            ++i;
        } else if (std::strcmp(argv[i], "--weights") == 0 && i + 1 < argc &&
                   std::strcmp(argv[i + 1], "zeros") == 0) {
            ++i;
        } else {
            std::fprintf(stderr, "usage: bench_zoo [--weights zeros|seeded]\n");
            return 2;
        }
    }
    std::filesystem::path dir = makeTempDir();
    if (dir.empty()) {
        std::fprintf(stderr, "bench_zoo: cannot create a temporary directory\n");
        return 1;
    }
    int status = 0;
    auto total = std::chrono::steady_clock::now();
    for (const zoo::ZooModelInfo& model : zoo::zooModels()) {
        auto start = std::chrono::steady_clock::now();
        auto written = zoo::writeZooModel(model.name, options, dir / (model.name + ".onnx"));
        double seconds = secondsSince(start);
        if (!written.ok()) {
            std::fprintf(stderr, "bench_zoo: %s\n", written.error().message().c_str());
            status = 1;
            continue;
        }
        std::printf("%-14s %8.3f s  %14lld parameters  %14lld weight bytes\n", model.name.c_str(),
                    seconds, static_cast<long long>(written->parameters),
                    static_cast<long long>(written->weightBytes));
        std::filesystem::remove(written->modelPath);
        std::filesystem::remove(written->weightsPath);
    }
    std::printf("%-14s %8.3f s\n", "total", secondsSince(total));
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    return status;
}
