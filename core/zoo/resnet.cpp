// ResNet-50 v1.5 as torchvision's `resnet50` (He et al., CVPR 2016; the MLPerf
// v2.0 image-classification model of GraphTurbo §5, Table 2 row A).
//
// v1.5 puts the stride 2 of a down-sampling bottleneck on its 3x3 conv (v1
// put it on the first 1x1 conv). Stages of 3, 4, 6 and 3 bottlenecks; the first
// bottleneck of each stage has a projection shortcut (`downsample.0` conv1x1 +
// `downsample.1` BN). Every conv is followed by a BatchNormalization node, as
// an export in training-preserving mode keeps them (eval-mode export would fold
// them into the convs and hide the layer structure of GraphTurbo Fig. 2).
// 25,557,032 learnable parameters. resnet-reduced keeps one bottleneck per
// stage on 112x112 images (host-execution tests run it in seconds).

#include "zoo/internal/models.h"
#include "zoo/layers.h"

namespace stagecraft::zoo {

namespace {

constexpr int kExpansion = 4;

/// torchvision Bottleneck `scope` (e.g. "layer2.0"): conv1x1, conv3x3 (with
/// the stride), conv1x1 expanding 4x, shortcut, Add, ReLU.
std::string bottleneck(Net& net, const std::string& x, const std::string& scope, int64_t in,
                       int64_t planes, int64_t stride) {
    int64_t out = planes * kExpansion;
    std::string y = conv(net, x, scope + ".conv1", conv2d(in, planes, 1, 1, 0));
    y = relu(net, batchNorm(net, y, scope + ".bn1", planes), scope + ".relu");
    y = conv(net, y, scope + ".conv2", conv2d(planes, planes, 3, stride, 1));
    y = relu(net, batchNorm(net, y, scope + ".bn2", planes), scope + ".relu");
    y = conv(net, y, scope + ".conv3", conv2d(planes, out, 1, 1, 0));
    y = batchNorm(net, y, scope + ".bn3", out);
    std::string shortcut = x;
    if (stride != 1 || in != out) {
        shortcut = conv(net, x, scope + ".downsample.0", conv2d(in, out, 1, stride, 0));
        shortcut = batchNorm(net, shortcut, scope + ".downsample.1", out);
    }
    return relu(net, binary(net, "Add", y, shortcut, scope + "/Add"), scope + ".relu");
}

} // namespace

namespace {

/// The torchvision ResNet with \p blocks bottlenecks per stage on
/// \p size x \p size images.
void buildResNet(Net& net, const ModelConfig& config, const int (&blocks)[4], int64_t size) {
    const int64_t n = config.batch;
    net.builder().addInput("input", ir::DType::Float32, {n, 3, size, size});
    std::string x = conv(net, "input", "conv1", conv2d(3, 64, 7, 2, 3));
    x = relu(net, batchNorm(net, x, "bn1", 64), "relu");
    x = maxPool(net, x, "maxpool", 3, 2, 1);

    int64_t channels = 64;
    for (int stage = 0; stage < 4; ++stage) {
        int64_t planes = int64_t{64} << stage;
        for (int block = 0; block < blocks[stage]; ++block) {
            int64_t stride = stage > 0 && block == 0 ? 2 : 1;
            std::string scope = "layer" + std::to_string(stage + 1) + "." + std::to_string(block);
            x = bottleneck(net, x, scope, channels, planes, stride);
            channels = planes * kExpansion;
        }
    }
    x = poolAndFlatten(net, x, "avgpool");
    gemm(net, x, "fc", channels, 1000, "logits");
    net.builder().addOutput("logits", ir::DType::Float32, {n, 1000});
}

} // namespace

void buildResNet50(Net& net, const ModelConfig& config) {
    buildResNet(net, config, {3, 4, 6, 3}, 224);
}

void buildResNetReduced(Net& net, const ModelConfig& config) {
    buildResNet(net, config, {1, 1, 1, 1}, 112);
}

} // namespace stagecraft::zoo
