// RandWire-WS in the small regime (Xie et al., "Exploring Randomly Wired
// Neural Networks for Image Recognition", ICCV 2019, Table 1 and Table 2:
// C = 78, N = 32, WS(K = 4, P = 0.75)), one of the networks IOS (Table 2)
// is measured on.
//
// Stem at 224x224: Conv 3x3/2 3->C/2, BatchNorm, ReLU; Conv 3x3/2 C/2->C,
// BatchNorm. Then three random stages at 28, 14 and 7 pixels with C, 2C and
// 4C channels, then the classifier: ReLU, Conv 1x1 4C->1280, BatchNorm,
// ReLU, GlobalAveragePool, Flatten, fc 1280->1000.
//
// A stage is a Watts-Strogatz graph (§3.3): N nodes on a ring, each joined
// to its K/2 clockwise neighbours; then, neighbour distance by distance and
// node by node clockwise, each such edge is rewired with probability P to a
// uniformly chosen node that is neither the node itself nor already joined
// to it. Edges point from the lower to the higher index (§3.1), so the graph
// is a DAG. A node (§3.2) sums its inputs weighted by the sigmoids of
// learned per-edge weights, then applies ReLU, a 3x3 separable conv
// (depthwise 3x3, pointwise 1x1, no bias) and BatchNorm. Nodes without
// inputs read the stage's input with stride 2 (its channels are the previous
// stage's); the stage's output is the unweighted mean of the nodes without
// consumers. The graphs come from a fixed seed per stage (std::mt19937_64,
// specified bit for bit), so the file is the same on every machine.
//
// Parameters and MACs depend on the graph (the nodes without inputs have
// fewer input channels); over random graphs this structure gives
// 5.61 +- 0.08 M parameters and 581 +- 4 M MACs, the published 5.6 +- 0.1 M
// and 583 +- 6.2 M FLOPs (Table 2 counts multiply-adds). This file's graphs:
// see docs/zoo.md.

#include "zoo/internal/models.h"
#include "zoo/layers.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

namespace stagecraft::zoo {

namespace {

constexpr int64_t kChannels = 78;
constexpr int kNodes = 32;
constexpr int kNeighbours = 4;
constexpr double kRewire = 0.75;
/// One seed per random stage; fixed so that the model file never changes.
constexpr uint64_t kStageSeeds[] = {1, 2, 3};

/// A uniform double in [0, 1) from the generator's next 53 bits.
double uniform01(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * (1.0 / 9007199254740992.0);
}

/// Every node's inputs (lower indices) in a WS(n, k, p) graph, in index order.
std::vector<std::vector<int>> wattsStrogatzInputs(int n, int k, double p, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::set<int>> adjacent(static_cast<size_t>(n));
    for (int v = 0; v < n; ++v)
        for (int j = 1; j <= k / 2; ++j) {
            adjacent[static_cast<size_t>(v)].insert((v + j) % n);
            adjacent[static_cast<size_t>((v + j) % n)].insert(v);
        }
    for (int j = 1; j <= k / 2; ++j)
        for (int v = 0; v < n; ++v) {
            int u = (v + j) % n;
            auto& here = adjacent[static_cast<size_t>(v)];
            if (here.count(u) == 0 || uniform01(rng) >= p)
                continue;
            std::vector<int> free;
            for (int w = 0; w < n; ++w)
                if (w != v && here.count(w) == 0)
                    free.push_back(w);
            if (free.empty())
                continue;
            int w = free[static_cast<size_t>(rng() % free.size())];
            here.erase(u);
            adjacent[static_cast<size_t>(u)].erase(v);
            here.insert(w);
            adjacent[static_cast<size_t>(w)].insert(v);
        }
    std::vector<std::vector<int>> inputs(static_cast<size_t>(n));
    for (int v = 0; v < n; ++v)
        for (int u : adjacent[static_cast<size_t>(v)])
            if (u < v)
                inputs[static_cast<size_t>(v)].push_back(u);
    return inputs;
}

/// The weighted sum of a node's inputs: sigmoid(w_i) * x_i summed.
std::string aggregate(Net& net, const std::vector<std::string>& xs, const std::string& scope) {
    if (xs.size() == 1)
        return xs.front();
    std::string weights = net.param(scope + ".edge_weights", {static_cast<int64_t>(xs.size())});
    std::string positive = unary(net, "Sigmoid", weights, scope + "/Sigmoid");
    std::string sum;
    for (size_t i = 0; i < xs.size(); ++i) {
        std::string w = gatherIndex(net, positive, static_cast<int64_t>(i), 0,
                                    scope + "/Gather_" + std::to_string(i));
        std::string term = binary(net, "Mul", xs[i], w, scope + "/Mul_" + std::to_string(i));
        sum = sum.empty() ? term : binary(net, "Add", sum, term, scope + "/Add");
    }
    return sum;
}

/// ReLU, depthwise 3x3 (stride \p stride), pointwise 1x1 \p in -> \p out,
/// BatchNorm: a node's transformation.
std::string reluSepConvBn(Net& net, const std::string& x, const std::string& scope, int64_t in,
                          int64_t out, int64_t stride) {
    std::string y = relu(net, x, scope + "/Relu");
    ConvSpec depthwise = conv2d(in, in, 3, stride, 1);
    depthwise.groups = in;
    y = conv(net, y, scope + ".depthwise", depthwise);
    y = conv(net, y, scope + ".pointwise", conv2d(in, out, 1, 1, 0));
    return batchNorm(net, y, scope + ".bn", out);
}

/// One random stage from \p x (\p in channels) to \p out channels.
std::string randomStage(Net& net, const std::string& x, const std::string& scope, int64_t in,
                        int64_t out, uint64_t seed) {
    std::vector<std::vector<int>> inputs = wattsStrogatzInputs(kNodes, kNeighbours, kRewire, seed);
    std::vector<bool> consumed(kNodes, false);
    std::vector<std::string> outputs(kNodes);
    for (int v = 0; v < kNodes; ++v) {
        std::string node = scope + ".node" + std::to_string(v);
        const auto& from = inputs[static_cast<size_t>(v)];
        if (from.empty()) {
            outputs[static_cast<size_t>(v)] = reluSepConvBn(net, x, node, in, out, 2);
            continue;
        }
        std::vector<std::string> xs;
        for (int u : from) {
            xs.push_back(outputs[static_cast<size_t>(u)]);
            consumed[static_cast<size_t>(u)] = true;
        }
        outputs[static_cast<size_t>(v)] =
            reluSepConvBn(net, aggregate(net, xs, node), node, out, out, 1);
    }
    std::vector<std::string> ends;
    for (int v = 0; v < kNodes; ++v)
        if (!consumed[static_cast<size_t>(v)])
            ends.push_back(outputs[static_cast<size_t>(v)]);
    return ends.size() == 1 ? ends.front() : net.add("Mean", ends, scope + "/Mean").output;
}

} // namespace

void buildRandWireSmall(Net& net, const ModelConfig& config) {
    const int64_t n = config.batch;
    const int64_t c = kChannels;
    net.builder().addInput("input", ir::DType::Float32, {n, 3, 224, 224});
    std::string x = conv(net, "input", "conv1", conv2d(3, c / 2, 3, 2, 1));
    x = relu(net, batchNorm(net, x, "bn1", c / 2), "/Relu");
    x = conv(net, x, "conv2", conv2d(c / 2, c, 3, 2, 1));
    x = batchNorm(net, x, "bn2", c);
    x = randomStage(net, x, "conv3", c, c, kStageSeeds[0]);
    x = randomStage(net, x, "conv4", c, 2 * c, kStageSeeds[1]);
    x = randomStage(net, x, "conv5", 2 * c, 4 * c, kStageSeeds[2]);
    x = relu(net, x, "classifier/Relu");
    x = conv(net, x, "classifier.conv", conv2d(4 * c, 1280, 1, 1, 0));
    x = relu(net, batchNorm(net, x, "classifier.bn", 1280), "classifier/Relu_1");
    x = poolAndFlatten(net, x, "classifier");
    gemm(net, x, "fc", 1280, 1000, "logits");
    net.builder().addOutput("logits", ir::DType::Float32, {n, 1000});
}

} // namespace stagecraft::zoo
