// ViT-B/16 (Dosovitskiy et al., ICLR 2021) as torchvision's `vit_b_16`,
// GraphTurbo §5, Table 2 row H ("Vision_Transformer").
//
// Patch embedding: Conv 16x16 stride 16, 3->768 with bias, Reshape to
// [N,768,196] and Transpose to [N,196,768]. The class token is Expanded to the
// batch and Concatenated in front ([N,197,768]), the learned position embedding
// [1,197,768] is Added. 12 pre-norm encoder layers: LayerNorm (eps 1e-6),
// nn.MultiheadAttention (one fused in_proj MatMul + Add, Split into Q/K/V,
// 12 heads, out_proj), residual; LayerNorm, MLP 768-3072-768 with exact GELU,
// residual. A final LayerNorm, then the class token (Gather index 0) through
// the head Gemm 768->1000. 86,567,656 learnable parameters.

#include "zoo/internal/models.h"
#include "zoo/layers.h"
#include "zoo/transformer.h"

namespace stagecraft::zoo {

namespace {

constexpr int64_t kHidden = 768;
constexpr int64_t kHeads = 12;
constexpr int64_t kMlp = 3072;
constexpr int64_t kLayers = 12;
constexpr int64_t kPatch = 16;
constexpr int64_t kPatches = (224 / kPatch) * (224 / kPatch);
constexpr float kLayerNormEps = 1e-6f;

/// nn.MultiheadAttention `scope` on \p x, including its output projection.
/// The packed in_proj weight is stored transposed, [768, 2304], for the MatMul.
std::string selfAttention(Net& net, const AttentionShape& shape, const std::string& x,
                          const std::string& scope) {
    std::string weight = net.param(scope + ".in_proj_weight", {kHidden, 3 * kHidden});
    std::string bias = net.param(scope + ".in_proj_bias", {3 * kHidden});
    std::string packed = net.add("MatMul", {x, weight}, scope + "/MatMul").output;
    packed = binary(net, "Add", bias, packed, scope + "/Add");
    // Without a "split" input, Split cuts the axis into equal parts.
    AddedMulti qkv = net.addMulti("Split", {packed}, scope + "/Split", 3);
    qkv.node.attr("axis", int64_t{-1});
    std::string context =
        attention(net, shape, qkv.outputs[0], qkv.outputs[1], qkv.outputs[2], scope);
    return linear(net, context, scope + ".out_proj", kHidden, kHidden);
}

std::string encoderBlock(Net& net, const AttentionShape& shape, const std::string& x, int layer) {
    const std::string scope = "encoder.layers.encoder_layer_" + std::to_string(layer);
    std::string y = layerNorm(net, x, scope + ".ln_1", kHidden, kLayerNormEps);
    y = selfAttention(net, shape, y, scope + ".self_attention");
    y = binary(net, "Add", y, x, scope + "/Add");
    std::string z = layerNorm(net, y, scope + ".ln_2", kHidden, kLayerNormEps);
    z = linear(net, z, scope + ".mlp.0", kHidden, kMlp);
    z = gelu(net, z, scope + ".mlp.1");
    z = linear(net, z, scope + ".mlp.3", kMlp, kHidden);
    return binary(net, "Add", z, y, scope + "/Add");
}

/// Patches [N,196,768] with the class token in front: [N,197,768].
std::string patchEmbedding(Net& net, int64_t n) {
    ConvSpec patch = conv2d(3, kHidden, kPatch, kPatch, 0, true);
    std::string x = conv(net, "input", "conv_proj", patch);
    x = reshape(net, x, {n, kHidden, kPatches}, "/Reshape");
    x = transpose(net, x, {0, 2, 1}, "/Transpose");
    std::string token = net.param("class_token", {1, 1, kHidden});
    token = net.add("Expand", {token, net.ints({n, 1, kHidden})}, "/Expand").output;
    return concat(net, {token, x}, 1, "/Concat");
}

} // namespace

void buildVitB16(Net& net, const ModelConfig& config) {
    const int64_t n = config.batch;
    const int64_t tokens = kPatches + 1;
    net.builder().addInput("input", ir::DType::Float32, {n, 3, 224, 224});
    std::string x = patchEmbedding(net, n);
    x = binary(net, "Add", x, net.param("encoder.pos_embedding", {1, tokens, kHidden}),
               "encoder/Add");
    const AttentionShape shape{n, tokens, kHidden, kHeads};
    for (int layer = 0; layer < kLayers; ++layer)
        x = encoderBlock(net, shape, x, layer);
    x = layerNorm(net, x, "encoder.ln", kHidden, kLayerNormEps);
    x = gatherIndex(net, x, 0, 1, "/Gather");
    gemm(net, x, "heads.head", kHidden, 1000, "logits");
    net.builder().addOutput("logits", ir::DType::Float32, {n, 1000});
}

} // namespace stagecraft::zoo
