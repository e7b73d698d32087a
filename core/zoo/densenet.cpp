// DenseNet-121 (Huang et al., CVPR 2017) as torchvision's `densenet121`,
// GraphTurbo §5, Table 2 row I.
//
// Stem conv 7x7/2 -> BN -> ReLU -> MaxPool 3x3/2. Four dense blocks of 6, 12,
// 24 and 16 layers, growth rate 32, bottleneck width bn_size 4 * 32 = 128:
// each layer Concats every earlier feature map of its block (a layer with a
// single input takes it directly, as torch.cat of one tensor is a no-op), then
// BN-ReLU-Conv1x1-BN-ReLU-Conv3x3. The block output Concats them all.
// Transitions halve the channels: BN-ReLU-Conv1x1-AvgPool 2x2/2. A final BN
// (norm5) and ReLU, GlobalAveragePool, Flatten, classifier Gemm 1024->1000.
// 7,978,856 learnable parameters.

#include "zoo/internal/models.h"
#include "zoo/layers.h"

namespace stagecraft::zoo {

namespace {

constexpr int64_t kGrowth = 32;
constexpr int64_t kBottleneck = 4 * kGrowth;

/// BN (norm<k>), ReLU (relu<k>), Conv (conv<k>) of a dense layer or transition.
std::string bnReluConv(Net& net, const std::string& x, const std::string& scope,
                       const std::string& suffix, int64_t in, const ConvSpec& spec) {
    std::string y = batchNorm(net, x, scope + ".norm" + suffix, in);
    y = relu(net, y, scope + ".relu" + suffix);
    return conv(net, y, scope + ".conv" + suffix, spec);
}

std::string denseBlock(Net& net, const std::string& x, int block, int layers, int64_t& channels) {
    const std::string scope = "features.denseblock" + std::to_string(block);
    std::vector<std::string> features = {x};
    for (int layer = 1; layer <= layers; ++layer) {
        const std::string name = scope + ".denselayer" + std::to_string(layer);
        std::string in =
            features.size() == 1 ? features[0] : concat(net, features, 1, name + "/Concat");
        std::string y =
            bnReluConv(net, in, name, "1", channels, conv2d(channels, kBottleneck, 1, 1, 0));
        y = bnReluConv(net, y, name, "2", kBottleneck, conv2d(kBottleneck, kGrowth, 3, 1, 1));
        features.push_back(y);
        channels += kGrowth;
    }
    return concat(net, features, 1, scope + "/Concat");
}

std::string transition(Net& net, const std::string& x, int index, int64_t& channels) {
    const std::string scope = "features.transition" + std::to_string(index);
    std::string y =
        bnReluConv(net, x, scope, "", channels, conv2d(channels, channels / 2, 1, 1, 0));
    channels /= 2;
    return averagePool(net, y, scope + ".pool", 2, 2);
}

} // namespace

void buildDenseNet121(Net& net, const ModelConfig& config) {
    const int64_t n = config.batch;
    net.builder().addInput("input", ir::DType::Float32, {n, 3, 224, 224});
    std::string x = conv(net, "input", "features.conv0", conv2d(3, 64, 7, 2, 3));
    x = relu(net, batchNorm(net, x, "features.norm0", 64), "features.relu0");
    x = maxPool(net, x, "features.pool0", 3, 2, 1);
    const int layers[] = {6, 12, 24, 16};
    int64_t channels = 64;
    for (int block = 1; block <= 4; ++block) {
        x = denseBlock(net, x, block, layers[block - 1], channels);
        if (block < 4)
            x = transition(net, x, block, channels);
    }
    x = relu(net, batchNorm(net, x, "features.norm5", channels), "/Relu");
    x = poolAndFlatten(net, x, "/adaptive_avg_pool2d");
    gemm(net, x, "classifier", channels, 1000, "logits");
    net.builder().addOutput("logits", ir::DType::Float32, {n, 1000});
}

} // namespace stagecraft::zoo
