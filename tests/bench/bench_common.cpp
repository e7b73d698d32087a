// Helpers of the benchmarks (bench_common.h).

#include "bench_common.h"

#include "onnx/importer.h"

#include <cstdio>
#include <cstdlib>

namespace stagecraft::bench {

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
