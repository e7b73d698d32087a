// Fuzzes the ONNX loader, onnxio::importModel (docs/onnx-import.md): parse,
// opset conversion and checker, graph building, shape inference with
// constant folding, simplification, validation; then the model statistics
// `stagecraft inspect` prints. Any bytes give a graph or a one-line error,
// never a crash, hang or exception. importModel takes a path: the bytes go
// to model.onnx in the scratch directory, next to a sparse model.weights of
// zeros that stands for the external weights of the zoo seeds.

#include "fuzz_harness.h"
#include "fuzz_support.h"
#include "onnx/importer.h"
#include "ops/model_stats.h"

#include <fstream>

using namespace stagecraft;

namespace {

/// Room for the weights of the zoo seeds (bert-2layer, the largest, has 147 MiB).
constexpr std::uintmax_t kWeightsBytes = std::uintmax_t{256} << 20;

const std::filesystem::path& modelPath() {
    static const std::filesystem::path path = [] {
        const std::filesystem::path& dir = fuzz::scratchDirectory();
        std::ofstream(dir / "model.weights").close();
        std::filesystem::resize_file(dir / "model.weights", kWeightsBytes);
        return dir / "model.onnx";
    }();
    return path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    {
        std::ofstream out(modelPath(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        out.close();
        fuzz::check(!out.fail(), "the input is written to the scratch directory");
    }
    auto imported = onnxio::importModel(modelPath());
    if (!imported.ok())
        return 0;
    (void)ops::computeModelStats(imported->graph);
    return 0;
}
