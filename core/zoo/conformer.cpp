// Conformer-S encoder (Gulati et al., Interspeech 2020, Table 1: 16 layers,
// encoder dim 144, 4 heads, conv kernel 32), GraphTurbo §5, Table 2 row J.
// Module names follow ESPnet's Conformer encoder (`encoder.embed`,
// `encoder.encoders.<i>.feed_forward_macaron`, `.self_attn`, `.conv_module`...).
//
// Input: log-mel features [N,T,80]. Conv2d subsampling (4x in time): Unsqueeze
// to [N,1,T,80], Conv 3x3/2 1->144 + ReLU, Conv 3x3/2 144->144 + ReLU (no
// padding: 80 mel bins become 19), Transpose + Reshape to [N,T',144*19],
// Linear to 144. Each block (pre-norm, as in the paper's Fig. 1):
//   x += 0.5 * FFN(x)   LN, Linear 144->576, Swish, Linear 576->144
//   x += MHSA(x)        LN, Q/K/V linears, 4-head attention, output linear
//   x += Conv(x)        LN, Transpose to [N,C,T], pointwise Conv1d 144->288,
//                       GLU (Split + Sigmoid + Mul), depthwise Conv1d k=32,
//                       BatchNorm, Swish, pointwise Conv1d 144->144, Transpose
//   x += 0.5 * FFN(x)
//   x = LN(x)
// Choices:
// - Attention is plain multi-head self-attention: the paper's relative
//   positional encoding (Transformer-XL style) adds a position projection, two
//   bias vectors and a "relative shift" (Pad/Reshape/Slice over a [2T'-1]
//   position table) whose exported form is implementation specific. The
//   Q/K/V/output projections, the [N,4,T',T'] scores and the Softmax, which
//   dominate compute and memory traffic, are the same.
// - The depthwise conv's kernel (32) is even, so "same" padding is asymmetric:
//   15 frames before and 16 after, TensorFlow's convention (the paper's Lingvo
//   implementation), i.e. ONNX pads [15, 16].
// - All linears and convs have biases (ESPnet's default); Dropout is absent.
// The encoder has 8,356,032 learnable parameters.

#include "zoo/internal/models.h"
#include "zoo/layers.h"
#include "zoo/transformer.h"

namespace stagecraft::zoo {

namespace {

constexpr int64_t kDim = 144;
constexpr int64_t kHeads = 4;
constexpr int64_t kFfn = 4 * kDim;
constexpr int64_t kKernel = 32;
constexpr int64_t kLayers = 16;
constexpr int64_t kMelBins = 80;
constexpr float kLayerNormEps = 1e-5f;

/// Output length of a 3x3 stride 2 conv without padding.
constexpr int64_t subsampled(int64_t length) {
    return (length - 3) / 2 + 1;
}

std::string subsampling(Net& net, int64_t n, int64_t frames) {
    const std::string scope = "encoder.embed";
    std::string x = net.add("Unsqueeze", {"input", net.ints({1})}, scope + "/Unsqueeze").output;
    x = conv(net, x, scope + ".conv.0", conv2d(1, kDim, 3, 2, 0, true));
    x = relu(net, x, scope + ".conv.1");
    x = conv(net, x, scope + ".conv.2", conv2d(kDim, kDim, 3, 2, 0, true));
    x = relu(net, x, scope + ".conv.3");
    const int64_t mel = subsampled(subsampled(kMelBins));
    x = transpose(net, x, {0, 2, 1, 3}, scope + "/Transpose");
    x = reshape(net, x, {n, frames, kDim * mel}, scope + "/Reshape");
    return linear(net, x, scope + ".out.0", kDim * mel, kDim);
}

/// x + 0.5 * FFN(LN(x)): `norm` is the LayerNorm's name, `ffn` the module's.
std::string halfStepFfn(Net& net, const std::string& x, const std::string& scope,
                        const std::string& norm, const std::string& ffn) {
    std::string y = layerNorm(net, x, scope + "." + norm, kDim, kLayerNormEps);
    y = linear(net, y, scope + "." + ffn + ".w_1", kDim, kFfn);
    y = swish(net, y, scope + "." + ffn + ".activation");
    y = linear(net, y, scope + "." + ffn + ".w_2", kFfn, kDim);
    y = binary(net, "Mul", y, net.scalar(0.5f), scope + "." + ffn + "/Mul");
    return binary(net, "Add", x, y, scope + "." + ffn + "/Add");
}

std::string selfAttention(Net& net, const AttentionShape& shape, const std::string& x,
                          const std::string& scope) {
    std::string y = layerNorm(net, x, scope + ".norm_mha", kDim, kLayerNormEps);
    const std::string attn = scope + ".self_attn";
    std::string q = linear(net, y, attn + ".linear_q", kDim, kDim);
    std::string k = linear(net, y, attn + ".linear_k", kDim, kDim);
    std::string v = linear(net, y, attn + ".linear_v", kDim, kDim);
    y = attention(net, shape, q, k, v, attn);
    y = linear(net, y, attn + ".linear_out", kDim, kDim);
    return binary(net, "Add", x, y, attn + "/Add");
}

ConvSpec conv1d(int64_t in, int64_t out, int64_t kernel, std::vector<int64_t> pads,
                int64_t groups) {
    ConvSpec spec;
    spec.in = in;
    spec.out = out;
    spec.kernel = {kernel};
    spec.pads = std::move(pads);
    spec.groups = groups;
    spec.bias = true;
    return spec;
}

std::string convModule(Net& net, const std::string& x, const std::string& scope) {
    std::string y = layerNorm(net, x, scope + ".norm_conv", kDim, kLayerNormEps);
    const std::string module = scope + ".conv_module";
    y = transpose(net, y, {0, 2, 1}, module + "/Transpose"); // [N,C,T]
    y = conv(net, y, module + ".pointwise_conv1", conv1d(kDim, 2 * kDim, 1, {0, 0}, 1));
    AddedMulti halves = net.addMulti("Split", {y}, module + "/Split", 2);
    halves.node.attr("axis", int64_t{1});
    std::string gate = unary(net, "Sigmoid", halves.outputs[1], module + "/Sigmoid");
    y = binary(net, "Mul", halves.outputs[0], gate, module + "/Mul");
    const std::vector<int64_t> samePads = {(kKernel - 1) / 2, kKernel / 2};
    y = conv(net, y, module + ".depthwise_conv", conv1d(kDim, kDim, kKernel, samePads, kDim));
    y = batchNorm(net, y, module + ".norm", kDim);
    y = swish(net, y, module + ".activation");
    y = conv(net, y, module + ".pointwise_conv2", conv1d(kDim, kDim, 1, {0, 0}, 1));
    y = transpose(net, y, {0, 2, 1}, module + "/Transpose"); // [N,T,C]
    return binary(net, "Add", x, y, module + "/Add");
}

} // namespace

void buildConformer(Net& net, const ModelConfig& config) {
    const int64_t n = config.batch;
    const int64_t frames = subsampled(subsampled(config.seq));
    net.builder().addInput("input", ir::DType::Float32, {n, config.seq, kMelBins});
    std::string x = subsampling(net, n, frames);
    const AttentionShape shape{n, frames, kDim, kHeads};
    for (int layer = 0; layer < kLayers; ++layer) {
        const std::string scope = "encoder.encoders." + std::to_string(layer);
        x = halfStepFfn(net, x, scope, "norm_ff_macaron", "feed_forward_macaron");
        x = selfAttention(net, shape, x, scope);
        x = convModule(net, x, scope);
        x = halfStepFfn(net, x, scope, "norm_ff", "feed_forward");
        bool last = layer + 1 == kLayers;
        x = layerNorm(net, x, scope + ".norm_final", kDim, kLayerNormEps, last ? "output" : "");
    }
    net.builder().addOutput("output", ir::DType::Float32, {n, frames, kDim});
}

} // namespace stagecraft::zoo
