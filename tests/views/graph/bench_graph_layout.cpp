// How long dot takes on the graph view's layouts: the figure chain, ResNet-50
// (batch 1, stcp920), BERT-large and the synthetic graph, expanded (one node
// per op, a cluster per group) and collapsed (one node per group). The time
// is Graphviz's own (the system library), so a debug build measures it too.
// Usage: bench_graph_layout [--synthetic OPS] [--repeat N]

#include "graph/graph_model.h"
#include "graph/graphviz_layouter.h"
#include "graph_fixture.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace stagecraft;
using namespace stagecraft::views;
using namespace stagecraft::views::graphview;

namespace {

struct Options {
    int syntheticOps = 5000;
    int repeat = 3;
    /// dot on the synthetic graph expanded takes minutes: off unless asked.
    bool syntheticExpanded = false;
};

double medianMs(const LayoutInput& input, int repeat) {
    std::vector<double> times;
    for (int i = 0; i < repeat; ++i) {
        auto start = std::chrono::steady_clock::now();
        Expected<LayoutPtr> layout = GraphvizLayouter::layoutNow(input);
        auto end = std::chrono::steady_clock::now();
        if (!layout.ok()) {
            std::fprintf(stderr, "layout failed: %s\n", layout.error().message().c_str());
            std::exit(1);
        }
        times.push_back(std::chrono::duration<double, std::milli>(end - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

void measure(const std::string& name, const ResultPtr& result, bool expanded, int repeat) {
    GraphModel model = buildGraphModel(*result, expanded ? allGroups(*result) : ExpandedGroups{});
    double ms = medianMs(model.layout, repeat);
    std::printf("%-22s %-9s %6zu ops %5zu groups %6zu nodes %6zu edges %4zu clusters %10.1f ms\n",
                name.c_str(), expanded ? "expanded" : "collapsed", result->graph->opCount(),
                result->eval.schedule.partition.groupCount(), model.nodes.size(),
                model.edges.size(), model.clusters.size(), ms);
    std::fflush(stdout);
}

Options parse(int argc, char** argv) {
    Options options;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--synthetic") == 0)
            options.syntheticOps = std::atoi(argv[i + 1]);
        else if (std::strcmp(argv[i], "--repeat") == 0)
            options.repeat = std::max(1, std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--synthetic-expanded") == 0)
            options.syntheticExpanded = std::strcmp(argv[i + 1], "on") == 0;
    }
    return options;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    Options options = parse(argc, argv);
    struct Model {
        std::string name;
        ResultPtr result;
    };
    std::vector<Model> models = {
        {"fig3-chain teaching", test::resultOf("fig3-chain")},
        {"resnet50 b1 stcp920", test::resultOf("resnet50", 1, "stcp920")},
        {"bert-large b1 stcp920", test::resultOf("bert-large", 1, "stcp920")},
    };
    for (const Model& model : models) {
        measure(model.name, model.result, true, options.repeat);
        measure(model.name, model.result, false, options.repeat);
    }
    std::string synthetic = "synthetic " + std::to_string(options.syntheticOps);
    ResultPtr result = test::syntheticResult(options.syntheticOps);
    measure(synthetic, result, false, options.repeat);
    if (options.syntheticExpanded)
        measure(synthetic, result, true, 1);
    return 0;
}
