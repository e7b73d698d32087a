#include "result_fixture.h"

#include "arch/presets.h"
#include "onnx/importer.h"
#include "zoo/zoo.h"

#include <QTemporaryDir>
#include <QtGlobal>

#include <filesystem>
#include <map>
#include <memory>

namespace stagecraft::test {

namespace {

template <typename T>
T orDie(Expected<T> result, const std::string& what) {
    if (!result.ok())
        qFatal("%s: %s", what.c_str(), result.error().message().c_str());
    return std::move(result).value();
}

std::shared_ptr<const ir::Graph> importZoo(const ResultSpec& spec) {
    static QTemporaryDir dir;
    static std::map<std::string, std::shared_ptr<const ir::Graph>> cache;
    std::string key =
        spec.zoo + "_b" + std::to_string(spec.batch) + "_s" + std::to_string(spec.seq);
    if (auto found = cache.find(key); found != cache.end())
        return found->second;
    auto path = std::filesystem::path(dir.path().toStdString()) / (key + ".onnx");
    zoo::ZooOptions options;
    options.batch = spec.batch;
    options.seq = spec.seq;
    orDie(zoo::writeZooModel(spec.zoo, options, path), "writing " + key);
    auto graph = std::make_shared<const ir::Graph>(
        orDie(onnxio::importModel(path), "importing " + key).graph);
    cache.emplace(key, graph);
    return graph;
}

} // namespace

views::PipelineRequest requestFor(const ResultSpec& spec) {
    views::PipelineRequest request;
    request.graph = importZoo(spec);
    request.modelPath = "zoo:" + spec.zoo;
    request.arch = orDie(arch::loadPreset(spec.arch), "preset " + spec.arch);
    request.strategy = spec.strategy;
    request.level = spec.level;
    request.overrides = spec.overrides;
    return request;
}

views::ResultPtr resultFor(const ResultSpec& spec) {
    return orDie(views::runPipeline(requestFor(spec), nullptr, 1), "pipeline on " + spec.zoo);
}

} // namespace stagecraft::test
