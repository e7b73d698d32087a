// The two small models of GraphTurbo's figures, for teaching and tests.
//
// fig3-chain (Fig. 3): four down-sampling stages. Each stage is Conv 3x3
// stride 2 (C -> 2C, with bias) + Relu + Conv 3x3 stride 1 (2C -> 2C) + Relu,
// so each stage halves H and W and doubles C: [N,8,32,32] -> [N,128,2,2]. With
// the default N = 8 (Fig. 3's n images per cluster) the tensors of stage k are
// 2^(k-1) times smaller than those of stage 1, the imbalance GraphTurbo
// exploits by splitting stage 1 into 8 instances, stage 2 into 4... (§1.3).
//
// fig2-blocks (Fig. 2): ResNet's conv block (main path 1x1/3x3/1x1 with BN,
// projection shortcut conv1x1 + BN, Add, Relu: five layers) followed by an
// identity block (the same main path, the block input as shortcut: four
// layers) on [N,8,8,8]: bottleneck width 4, block outputs of 16 channels.
// The sizes are chosen for the `teaching` architecture: the block outputs
// (32 KiB at N = 8) split in two instances, the bottleneck tensors (8 KiB)
// fit whole, so every merge of Fig. 5 passes Rules (i) and (ii) (§3.2).

#include "zoo/internal/models.h"
#include "zoo/layers.h"

namespace stagecraft::zoo {

namespace {

/// The 1x1 -> 3x3 -> 1x1 main path of a Fig. 2 block (BN after every conv,
/// Relu after the first two).
constexpr int64_t kBlockIn = 8, kWidth = 4, kBlockOut = 16, kSize = 8;

std::string mainPath(Net& net, const std::string& x, const std::string& scope, int64_t in) {
    std::string y = conv(net, x, scope + ".conv1", conv2d(in, kWidth, 1, 1, 0));
    y = relu(net, batchNorm(net, y, scope + ".bn1", kWidth), scope + ".relu1");
    y = conv(net, y, scope + ".conv2", conv2d(kWidth, kWidth, 3, 1, 1));
    y = relu(net, batchNorm(net, y, scope + ".bn2", kWidth), scope + ".relu2");
    y = conv(net, y, scope + ".conv3", conv2d(kWidth, kBlockOut, 1, 1, 0));
    return batchNorm(net, y, scope + ".bn3", kBlockOut);
}

} // namespace

void buildFig3Chain(Net& net, const ModelConfig& config) {
    const int64_t n = config.batch;
    net.builder().addInput("input", ir::DType::Float32, {n, 8, 32, 32});
    std::string x = "input";
    int64_t channels = 8;
    for (int stage = 1; stage <= 4; ++stage) {
        const std::string scope = "stage" + std::to_string(stage);
        x = conv(net, x, scope + ".conv1", conv2d(channels, 2 * channels, 3, 2, 1, true));
        x = relu(net, x, scope + ".relu1");
        x = conv(net, x, scope + ".conv2", conv2d(2 * channels, 2 * channels, 3, 1, 1, true));
        x = unary(net, "Relu", x, scope + ".relu2", stage == 4 ? "output" : "");
        channels *= 2;
    }
    net.builder().addOutput("output", ir::DType::Float32, {n, channels, 2, 2});
}

void buildFig2Blocks(Net& net, const ModelConfig& config) {
    const int64_t n = config.batch;
    net.builder().addInput("input", ir::DType::Float32, {n, kBlockIn, kSize, kSize});
    std::string main = mainPath(net, "input", "conv_block", kBlockIn);
    std::string shortcut =
        conv(net, "input", "conv_block.shortcut_conv", conv2d(kBlockIn, kBlockOut, 1, 1, 0));
    shortcut = batchNorm(net, shortcut, "conv_block.shortcut_bn", kBlockOut);
    std::string x = binary(net, "Add", main, shortcut, "conv_block.add");
    x = relu(net, x, "conv_block.relu");
    main = mainPath(net, x, "identity_block", kBlockOut);
    x = binary(net, "Add", main, x, "identity_block.add");
    unary(net, "Relu", x, "identity_block.relu", "output");
    net.builder().addOutput("output", ir::DType::Float32, {n, kBlockOut, kSize, kSize});
}

} // namespace stagecraft::zoo
