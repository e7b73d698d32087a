// The graph of the schedule harness and its seeds (fuzz_support.h).

#include "fuzz_support.h"
#include "onnx/importer.h"
#include "zoo/zoo.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace stagecraft::fuzz {

namespace {

[[noreturn]] void fail(const Error& error) {
    std::fprintf(stderr, "fuzz: %s: %s\n", kScheduleModel.data(), error.message().c_str());
    std::abort();
}

} // namespace

ir::Graph scheduleGraph() {
    std::filesystem::path dir = scratchDirectory() / "schedule-graph";
    std::filesystem::create_directories(dir);
    std::filesystem::path file = dir / "model.onnx";
    if (auto written = zoo::writeZooModel(kScheduleModel, {}, file); !written.ok())
        fail(written.error());
    auto imported = onnxio::importModel(file);
    if (!imported.ok())
        fail(imported.error());
    std::filesystem::remove_all(dir);
    return std::move(imported->graph);
}

} // namespace stagecraft::fuzz
