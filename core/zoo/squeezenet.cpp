// SqueezeNet 1.1 (Iandola et al., 2016; the v1.1 of the authors' repository)
// as torchvision's `squeezenet1_1`, one of the networks IOS (Table 2) and AGO
// (§VI) are measured on.
//
// features: Conv 3x3/2 3->64, ReLU, MaxPool 3x3/2 (ceil mode), Fire 64-16-64,
// Fire 128-16-64, MaxPool, Fire 128-32-128, Fire 256-32-128, MaxPool, Fire
// 256-48-192, Fire 384-48-192, Fire 384-64-256, Fire 512-64-256. A Fire
// module in-s-e squeezes to s channels (Conv 1x1, ReLU), then expands by a
// Conv 1x1 and a Conv 3x3 of e channels each (ReLU each), concatenated: 2e
// channels. Every conv has a bias. classifier: Dropout(0.5) (kept, an
// identity at inference), Conv 1x1 512->1000, ReLU, GlobalAveragePool,
// Flatten. 1,235,496 learnable parameters, 0.35 GMACs at 224x224.

#include "zoo/internal/models.h"
#include "zoo/layers.h"

namespace stagecraft::zoo {

namespace {

/// torchvision Fire `scope`: squeeze, expand1x1, expand3x3 (+ _activation).
std::string fire(Net& net, const std::string& x, const std::string& scope, int64_t in,
                 int64_t squeeze, int64_t expand) {
    std::string s = conv(net, x, scope + ".squeeze", conv2d(in, squeeze, 1, 1, 0, true));
    s = relu(net, s, scope + ".squeeze_activation");
    std::string e1 = conv(net, s, scope + ".expand1x1", conv2d(squeeze, expand, 1, 1, 0, true));
    e1 = relu(net, e1, scope + ".expand1x1_activation");
    std::string e3 = conv(net, s, scope + ".expand3x3", conv2d(squeeze, expand, 3, 1, 1, true));
    e3 = relu(net, e3, scope + ".expand3x3_activation");
    return concat(net, {e1, e3}, 1, scope + "/Concat");
}

} // namespace

void buildSqueezeNet11(Net& net, const ModelConfig& config) {
    const int64_t n = config.batch;
    net.builder().addInput("input", ir::DType::Float32, {n, 3, 224, 224});
    std::string x = conv(net, "input", "features.0", conv2d(3, 64, 3, 2, 0, true));
    x = relu(net, x, "features.1");
    x = maxPool(net, x, "features.2", 3, 2, 0, true);
    x = fire(net, x, "features.3", 64, 16, 64);
    x = fire(net, x, "features.4", 128, 16, 64);
    x = maxPool(net, x, "features.5", 3, 2, 0, true);
    x = fire(net, x, "features.6", 128, 32, 128);
    x = fire(net, x, "features.7", 256, 32, 128);
    x = maxPool(net, x, "features.8", 3, 2, 0, true);
    x = fire(net, x, "features.9", 256, 48, 192);
    x = fire(net, x, "features.10", 384, 48, 192);
    x = fire(net, x, "features.11", 384, 64, 256);
    x = fire(net, x, "features.12", 512, 64, 256);
    x = net.add("Dropout", {x, net.scalar(0.5f)}, "classifier.0").output;
    x = conv(net, x, "classifier.1", conv2d(512, 1000, 1, 1, 0, true));
    x = relu(net, x, "classifier.2");
    x = unary(net, "GlobalAveragePool", x, "classifier.3/GlobalAveragePool");
    net.add("Flatten", {x}, "/Flatten", "logits").node.attr("axis", int64_t{1});
    net.builder().addOutput("logits", ir::DType::Float32, {n, 1000});
}

} // namespace stagecraft::zoo
