// Inception-v3 (Szegedy et al., CVPR 2016) as torchvision's `inception_v3`
// in eval mode (the auxiliary classifier is not run, so not exported;
// transform_input off), the network IOS (Table 2, Fig. 10) and DLA (Fig. 5)
// are measured on; and its last block alone, Mixed_7c, IOS Fig. 10's block.
//
// Every conv is a BasicConv2d: Conv without bias, BatchNorm (eps 0.001),
// ReLU. Stem at 299x299: 3x3/2 3->32, 3x3 32->32, 3x3 pad 1 32->64, MaxPool
// 3x3/2, 1x1 64->80, 3x3 80->192, MaxPool 3x3/2. Then Mixed_5b-5d
// (InceptionA, pool features 32, 64, 64), Mixed_6a (InceptionB), Mixed_6b-6e
// (InceptionC, 7x7 width 128, 160, 160, 192), Mixed_7a (InceptionD), Mixed_7b
// and 7c (InceptionE), GlobalAveragePool, Dropout, Flatten, fc 2048->1000.
// The branches of each block are concatenated on channels in torchvision's
// order; its average pools are 3x3/1 padded by 1, counting the padding.
// 23,834,568 learnable parameters (torchvision's 27,161,264 less the
// auxiliary classifier's 3,326,696), 5.71 GMACs. Mixed_7c alone on
// [N,2048,8,8]: 6,076,800 parameters, 0.39 GMACs.

#include "zoo/internal/models.h"
#include "zoo/layers.h"

namespace stagecraft::zoo {

namespace {

/// torchvision's BasicConv2d `scope`: scope.conv, scope.bn (eps 0.001), ReLU.
std::string basic(Net& net, const std::string& x, const std::string& scope, ConvSpec spec) {
    spec.bias = false;
    std::string y = conv(net, x, scope + ".conv", spec);
    y = batchNorm(net, y, scope + ".bn", spec.out, 1e-3f);
    return relu(net, y, scope + "/Relu");
}

std::string basic(Net& net, const std::string& x, const std::string& scope, int64_t in, int64_t out,
                  int64_t kernel, int64_t stride = 1, int64_t pad = 0) {
    return basic(net, x, scope, conv2d(in, out, kernel, stride, pad));
}

/// A 1x7 (\p wide) or 7x1 BasicConv2d of \p size taps, padded to keep the size.
std::string strip(Net& net, const std::string& x, const std::string& scope, int64_t in, int64_t out,
                  int64_t size, bool wide) {
    int64_t pad = size / 2;
    ConvSpec spec =
        wide ? conv2dRect(in, out, 1, size, 0, pad) : conv2dRect(in, out, size, 1, pad, 0);
    return basic(net, x, scope, spec);
}

/// The 3x3/1 average pool (pad 1, padding counted) then 1x1 of a branch_pool.
std::string poolBranch(Net& net, const std::string& x, const std::string& scope, int64_t in,
                       int64_t out) {
    std::string pooled = averagePool(net, x, scope + "/AveragePool", 3, 1, 1, true);
    return basic(net, pooled, scope + ".branch_pool", in, out, 1);
}

std::string inceptionA(Net& net, const std::string& x, const std::string& s, int64_t in,
                       int64_t poolFeatures) {
    std::string b1 = basic(net, x, s + ".branch1x1", in, 64, 1);
    std::string b5 = basic(net, x, s + ".branch5x5_1", in, 48, 1);
    b5 = basic(net, b5, s + ".branch5x5_2", 48, 64, 5, 1, 2);
    std::string b3 = basic(net, x, s + ".branch3x3dbl_1", in, 64, 1);
    b3 = basic(net, b3, s + ".branch3x3dbl_2", 64, 96, 3, 1, 1);
    b3 = basic(net, b3, s + ".branch3x3dbl_3", 96, 96, 3, 1, 1);
    std::string bp = poolBranch(net, x, s, in, poolFeatures);
    return concat(net, {b1, b5, b3, bp}, 1, s + "/Concat");
}

std::string inceptionB(Net& net, const std::string& x, const std::string& s, int64_t in) {
    std::string b3 = basic(net, x, s + ".branch3x3", in, 384, 3, 2);
    std::string bd = basic(net, x, s + ".branch3x3dbl_1", in, 64, 1);
    bd = basic(net, bd, s + ".branch3x3dbl_2", 64, 96, 3, 1, 1);
    bd = basic(net, bd, s + ".branch3x3dbl_3", 96, 96, 3, 2);
    std::string bp = maxPool(net, x, s + "/MaxPool", 3, 2, 0);
    return concat(net, {b3, bd, bp}, 1, s + "/Concat");
}

std::string inceptionC(Net& net, const std::string& x, const std::string& s, int64_t in,
                       int64_t c7) {
    std::string b1 = basic(net, x, s + ".branch1x1", in, 192, 1);
    std::string b7 = basic(net, x, s + ".branch7x7_1", in, c7, 1);
    b7 = strip(net, b7, s + ".branch7x7_2", c7, c7, 7, true);
    b7 = strip(net, b7, s + ".branch7x7_3", c7, 192, 7, false);
    std::string bd = basic(net, x, s + ".branch7x7dbl_1", in, c7, 1);
    bd = strip(net, bd, s + ".branch7x7dbl_2", c7, c7, 7, false);
    bd = strip(net, bd, s + ".branch7x7dbl_3", c7, c7, 7, true);
    bd = strip(net, bd, s + ".branch7x7dbl_4", c7, c7, 7, false);
    bd = strip(net, bd, s + ".branch7x7dbl_5", c7, 192, 7, true);
    std::string bp = poolBranch(net, x, s, in, 192);
    return concat(net, {b1, b7, bd, bp}, 1, s + "/Concat");
}

std::string inceptionD(Net& net, const std::string& x, const std::string& s, int64_t in) {
    std::string b3 = basic(net, x, s + ".branch3x3_1", in, 192, 1);
    b3 = basic(net, b3, s + ".branch3x3_2", 192, 320, 3, 2);
    std::string b7 = basic(net, x, s + ".branch7x7x3_1", in, 192, 1);
    b7 = strip(net, b7, s + ".branch7x7x3_2", 192, 192, 7, true);
    b7 = strip(net, b7, s + ".branch7x7x3_3", 192, 192, 7, false);
    b7 = basic(net, b7, s + ".branch7x7x3_4", 192, 192, 3, 2);
    std::string bp = maxPool(net, x, s + "/MaxPool", 3, 2, 0);
    return concat(net, {b3, b7, bp}, 1, s + "/Concat");
}

/// Two 384-channel 1x3 and 3x1 convs of \p x, concatenated (InceptionE's split).
std::string fork3(Net& net, const std::string& x, const std::string& a, const std::string& b,
                  const std::string& name) {
    std::string wide = strip(net, x, a, 384, 384, 3, true);
    std::string tall = strip(net, x, b, 384, 384, 3, false);
    return concat(net, {wide, tall}, 1, name);
}

/// InceptionE; its Concat writes \p output when given (the block model's output).
std::string inceptionE(Net& net, const std::string& x, const std::string& s, int64_t in,
                       const std::string& output = {}) {
    std::string b1 = basic(net, x, s + ".branch1x1", in, 320, 1);
    std::string b3 = basic(net, x, s + ".branch3x3_1", in, 384, 1);
    b3 = fork3(net, b3, s + ".branch3x3_2a", s + ".branch3x3_2b", s + "/Concat_1");
    std::string bd = basic(net, x, s + ".branch3x3dbl_1", in, 448, 1);
    bd = basic(net, bd, s + ".branch3x3dbl_2", 448, 384, 3, 1, 1);
    bd = fork3(net, bd, s + ".branch3x3dbl_3a", s + ".branch3x3dbl_3b", s + "/Concat_2");
    std::string bp = poolBranch(net, x, s, in, 192);
    Added joined = net.add("Concat", {b1, b3, bd, bp}, s + "/Concat", output);
    joined.node.attr("axis", int64_t{1});
    return joined.output;
}

} // namespace

void buildInceptionV3(Net& net, const ModelConfig& config) {
    const int64_t n = config.batch;
    net.builder().addInput("input", ir::DType::Float32, {n, 3, 299, 299});
    std::string x = basic(net, "input", "Conv2d_1a_3x3", 3, 32, 3, 2);
    x = basic(net, x, "Conv2d_2a_3x3", 32, 32, 3);
    x = basic(net, x, "Conv2d_2b_3x3", 32, 64, 3, 1, 1);
    x = maxPool(net, x, "maxpool1", 3, 2, 0);
    x = basic(net, x, "Conv2d_3b_1x1", 64, 80, 1);
    x = basic(net, x, "Conv2d_4a_3x3", 80, 192, 3);
    x = maxPool(net, x, "maxpool2", 3, 2, 0);
    x = inceptionA(net, x, "Mixed_5b", 192, 32);
    x = inceptionA(net, x, "Mixed_5c", 256, 64);
    x = inceptionA(net, x, "Mixed_5d", 288, 64);
    x = inceptionB(net, x, "Mixed_6a", 288);
    x = inceptionC(net, x, "Mixed_6b", 768, 128);
    x = inceptionC(net, x, "Mixed_6c", 768, 160);
    x = inceptionC(net, x, "Mixed_6d", 768, 160);
    x = inceptionC(net, x, "Mixed_6e", 768, 192);
    x = inceptionD(net, x, "Mixed_7a", 768);
    x = inceptionE(net, x, "Mixed_7b", 1280);
    x = inceptionE(net, x, "Mixed_7c", 2048);
    x = unary(net, "GlobalAveragePool", x, "avgpool/GlobalAveragePool");
    x = net.add("Dropout", {x, net.scalar(0.5f)}, "dropout").output;
    Added flat = net.add("Flatten", {x}, "/Flatten");
    flat.node.attr("axis", int64_t{1});
    x = flat.output;
    gemm(net, x, "fc", 2048, 1000, "logits");
    net.builder().addOutput("logits", ir::DType::Float32, {n, 1000});
}

void buildInceptionV3Block(Net& net, const ModelConfig& config) {
    const int64_t n = config.batch;
    net.builder().addInput("input", ir::DType::Float32, {n, 2048, 8, 8});
    inceptionE(net, "input", "Mixed_7c", 2048, "output");
    net.builder().addOutput("output", ir::DType::Float32, {n, 2048, 8, 8});
}

} // namespace stagecraft::zoo
