// One NASNet-A normal cell (Zoph et al., CVPR 2018, Fig. 4 left), as
// Keras' `NASNetMobile` builds it (`_normal_a_cell`), the cell IOS's NasNet
// benchmark repeats. This one is NASNet-A Mobile's first-stage cell: F = 44
// filters at 28x28, between two earlier cells' outputs of 6F = 264 channels.
//
// Inputs: `input` (h, the previous cell's output) and `input_prev` (the one
// before it). Each is adjusted to F channels by ReLU, Conv 1x1, BatchNorm.
// Five blocks add two operations each: (sep5x5 h, sep3x3 p), (sep5x5 p,
// sep3x3 p), (avg3x3 h, p), (avg3x3 p, avg3x3 p), (sep3x3 h, h). A sepKxK is
// ReLU, SeparableConv (depthwise KxK, pointwise 1x1), BatchNorm, twice; the
// average pools are 3x3/1 'same' without counting the padding (TensorFlow's
// 'SAME'). The output concatenates p and the five blocks: 6F = 264 channels.
// BatchNorm eps 0.001; no conv has a bias. 50,424 learnable parameters
// (counted by hand in docs/zoo.md).

#include "zoo/internal/models.h"
#include "zoo/layers.h"

namespace stagecraft::zoo {

namespace {

constexpr int64_t kFilters = 44;
constexpr int64_t kCellChannels = 6 * kFilters;
constexpr int64_t kSize = 28;

std::string bn(Net& net, const std::string& x, const std::string& scope) {
    return batchNorm(net, x, scope + ".bn", kFilters, 1e-3f);
}

/// ReLU, Conv 1x1 to F channels, BatchNorm.
std::string adjust(Net& net, const std::string& x, const std::string& scope) {
    std::string y = relu(net, x, scope + "/Relu");
    y = conv(net, y, scope + ".conv", conv2d(kCellChannels, kFilters, 1, 1, 0));
    return bn(net, y, scope);
}

/// ReLU, depthwise KxK, pointwise 1x1, BatchNorm: one half of a sepKxK.
std::string separable(Net& net, const std::string& x, const std::string& scope, int64_t k) {
    std::string y = relu(net, x, scope + "/Relu");
    ConvSpec depthwise = conv2d(kFilters, kFilters, k, 1, k / 2);
    depthwise.groups = kFilters;
    y = conv(net, y, scope + ".depthwise", depthwise);
    y = conv(net, y, scope + ".pointwise", conv2d(kFilters, kFilters, 1, 1, 0));
    return bn(net, y, scope);
}

std::string sepBlock(Net& net, const std::string& x, const std::string& scope, int64_t k) {
    return separable(net, separable(net, x, scope + ".1", k), scope + ".2", k);
}

std::string avg3(Net& net, const std::string& x, const std::string& name) {
    return averagePool(net, x, name, 3, 1, 1, false);
}

} // namespace

void buildNasNetACell(Net& net, const ModelConfig& config) {
    const int64_t n = config.batch;
    net.builder().addInput("input", ir::DType::Float32, {n, kCellChannels, kSize, kSize});
    net.builder().addInput("input_prev", ir::DType::Float32, {n, kCellChannels, kSize, kSize});
    std::string h = adjust(net, "input", "cell.h");
    std::string p = adjust(net, "input_prev", "cell.prev");
    std::string x1 = binary(net, "Add", sepBlock(net, h, "cell.left1", 5),
                            sepBlock(net, p, "cell.right1", 3), "cell.add1");
    std::string x2 = binary(net, "Add", sepBlock(net, p, "cell.left2", 5),
                            sepBlock(net, p, "cell.right2", 3), "cell.add2");
    std::string x3 = binary(net, "Add", avg3(net, h, "cell.left3/AveragePool"), p, "cell.add3");
    std::string x4 = binary(net, "Add", avg3(net, p, "cell.left4/AveragePool"),
                            avg3(net, p, "cell.right4/AveragePool"), "cell.add4");
    std::string x5 = binary(net, "Add", sepBlock(net, h, "cell.left5", 3), h, "cell.add5");
    Added joined = net.add("Concat", {p, x1, x2, x3, x4, x5}, "cell/Concat", "output");
    joined.node.attr("axis", int64_t{1});
    net.builder().addOutput("output", ir::DType::Float32, {n, kCellChannels, kSize, kSize});
}

} // namespace stagecraft::zoo
