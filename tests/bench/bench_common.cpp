// Helpers of the benchmarks (bench_common.h).

#include "bench_common.h"

#include "onnx/importer.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace stagecraft::bench {

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

std::filesystem::path makeTempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "stagecraft-bench-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
        return {};
    return pattern;
}

std::optional<ir::Graph> zooGraph(const std::filesystem::path& dir, const std::string& name,
                                  const zoo::ZooOptions& options) {
    std::filesystem::path path = dir / (name + ".onnx");
    auto written = zoo::writeZooModel(name, options, path);
    if (!written.ok()) {
        std::fprintf(stderr, "bench: %s\n", written.error().message().c_str());
        return std::nullopt;
    }
    auto imported = onnxio::importModel(path);
    if (!imported.ok()) {
        std::fprintf(stderr, "bench: %s\n", imported.error().message().c_str());
        return std::nullopt;
    }
    return std::move(imported->graph);
}

} // namespace stagecraft::bench
