// The synthetic graph is scheduled like a model the studio opened.

#include "graph_fixture.h"

#include "arch/presets.h"
#include "random_graphs.h"

#include <QtGlobal>

#include <map>
#include <memory>

namespace stagecraft::test {

views::ResultPtr syntheticResult(int ops) {
    static std::map<int, views::ResultPtr> cache;
    if (auto found = cache.find(ops); found != cache.end())
        return found->second;
    views::PipelineRequest request;
    request.graph = std::make_shared<const ir::Graph>(syntheticGraph(ops, 7));
    request.modelPath = "synthetic";
    Expected<arch::Arch> arch = arch::loadPreset("stcp920");
    if (!arch.ok())
        qFatal("preset stcp920: %s", arch.error().message().c_str());
    request.arch = *arch;
    Expected<views::ResultPtr> result = views::runPipeline(request, nullptr, 1);
    if (!result.ok())
        qFatal("pipeline on the synthetic graph: %s", result.error().message().c_str());
    cache.emplace(ops, *result);
    return *result;
}

} // namespace stagecraft::test
