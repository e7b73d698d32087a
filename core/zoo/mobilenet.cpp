// MobileNet v2 (Sandler et al., CVPR 2018) as torchvision's `mobilenet_v2`
// (width 1.0), GraphTurbo §5, Table 2 row G.
//
// features.0 is a ConvBNReLU6 3->32 stride 2; features.1..17 are inverted
// residuals (expand 1x1, depthwise 3x3, project 1x1 without activation; a
// residual Add when stride 1 and the channels match); features.18 a ConvBNReLU6
// 320->1280. ReLU6 is exported as opset 13 does: Clip with min 0 and max 6
// inputs. The classifier is Dropout(0.2) then Linear 1280->1000 (Gemm); the
// Dropout node is kept (an identity at inference) so the classifier keeps the
// structure of the torch module.
// 3,504,872 learnable parameters.

#include "zoo/internal/models.h"
#include "zoo/layers.h"

namespace stagecraft::zoo {

namespace {

/// torchvision ConvBNActivation `scope`: conv (scope.0), BN (scope.1), ReLU6 (scope.2).
std::string convBnRelu6(Net& net, const std::string& x, const std::string& scope, ConvSpec spec) {
    int64_t out = spec.out;
    std::string y = conv(net, x, scope + ".0", spec);
    y = batchNorm(net, y, scope + ".1", out);
    return relu6(net, y, scope + ".2");
}

ConvSpec depthwise(int64_t channels, int64_t stride) {
    ConvSpec spec = conv2d(channels, channels, 3, stride, 1);
    spec.groups = channels;
    return spec;
}

/// torchvision InvertedResidual `features.<index>`.
std::string invertedResidual(Net& net, const std::string& x, int index, int64_t in, int64_t out,
                             int64_t stride, int64_t expand) {
    const std::string scope = "features." + std::to_string(index) + ".conv";
    const int64_t hidden = in * expand;
    std::string y = x;
    int part = 0;
    if (expand != 1)
        y = convBnRelu6(net, y, scope + "." + std::to_string(part++), conv2d(in, hidden, 1, 1, 0));
    y = convBnRelu6(net, y, scope + "." + std::to_string(part++), depthwise(hidden, stride));
    y = conv(net, y, scope + "." + std::to_string(part++), conv2d(hidden, out, 1, 1, 0));
    y = batchNorm(net, y, scope + "." + std::to_string(part), out);
    if (stride == 1 && in == out)
        y = binary(net, "Add", x, y, "features." + std::to_string(index) + "/Add");
    return y;
}

struct Stage {
    int64_t expand;
    int64_t channels;
    int repeats;
    int64_t stride;
};

} // namespace

void buildMobileNetV2(Net& net, const ModelConfig& config) {
    const int64_t n = config.batch;
    net.builder().addInput("input", ir::DType::Float32, {n, 3, 224, 224});
    std::string x = convBnRelu6(net, "input", "features.0", conv2d(3, 32, 3, 2, 1));
    const Stage stages[] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                            {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    int64_t channels = 32;
    int index = 1;
    for (const Stage& stage : stages)
        for (int i = 0; i < stage.repeats; ++i) {
            int64_t stride = i == 0 ? stage.stride : 1;
            x = invertedResidual(net, x, index++, channels, stage.channels, stride, stage.expand);
            channels = stage.channels;
        }
    x = convBnRelu6(net, x, "features." + std::to_string(index), conv2d(channels, 1280, 1, 1, 0));
    x = poolAndFlatten(net, x, "features");
    x = net.add("Dropout", {x, net.scalar(0.2f)}, "classifier.0").output;
    gemm(net, x, "classifier.1", 1280, 1000, "logits");
    net.builder().addOutput("logits", ir::DType::Float32, {n, 1000});
}

} // namespace stagecraft::zoo
