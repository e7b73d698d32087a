// BERT (Devlin et al., NAACL 2019) as HuggingFace's `BertModel` exports it:
// the MLPerf v2.0 language model of GraphTurbo §5 (Table 2 rows B-E use
// sequence lengths 128, 256, 384 and 512).
//
// Embeddings: word + token type + position (Gather each; the position ids
// [1,S] are an int64 initializer, the constant-folded slice of HF's
// `embeddings.position_ids` buffer), LayerNorm eps 1e-12. The attention mask
// becomes additive: Unsqueeze to [N,1,1,S], Cast, (1 - mask) * -10000. Each
// encoder layer: Q/K/V linears, attention, output dense + residual + LayerNorm,
// intermediate dense + exact GELU, output dense + residual + LayerNorm.
// Pooler: the first token through Dense + Tanh. Dropout is absent (eval mode).
// bert-base: 109,482,240 parameters; bert-large: 335,141,888. bert-2layer is
// bert-base with two encoder layers, for host-execution tests.

#include "zoo/internal/models.h"
#include "zoo/layers.h"
#include "zoo/transformer.h"

namespace stagecraft::zoo {

namespace {

struct BertSize {
    int64_t layers;
    int64_t hidden;
    int64_t heads;
    int64_t ffn;
};

constexpr int64_t kVocab = 30522;
constexpr int64_t kMaxPositions = 512;
constexpr int64_t kTypeVocab = 2;
constexpr float kLayerNormEps = 1e-12f;
constexpr int64_t kOnnxFloat = 1; // TensorProto.FLOAT, the Cast target

std::string embeddings(Net& net, const BertSize& size, int64_t seq) {
    const std::string scope = "embeddings";
    auto lookup = [&](const std::string& table, int64_t rows, const std::string& ids) {
        std::string weight = net.param(scope + "." + table + ".weight", {rows, size.hidden});
        return net.add("Gather", {weight, ids}, scope + "." + table).output;
    };
    std::vector<int64_t> positions(static_cast<size_t>(seq));
    for (int64_t i = 0; i < seq; ++i)
        positions[static_cast<size_t>(i)] = i;
    std::string positionIds = net.intInitializer(scope + ".position_ids", {1, seq}, positions);
    std::string x = lookup("word_embeddings", kVocab, "input_ids");
    x = binary(net, "Add", x, lookup("token_type_embeddings", kTypeVocab, "token_type_ids"),
               scope + "/Add");
    x = binary(net, "Add", x, lookup("position_embeddings", kMaxPositions, positionIds),
               scope + "/Add");
    return layerNorm(net, x, scope + ".LayerNorm", size.hidden, kLayerNormEps);
}

/// (1 - mask) * -10000 on the mask unsqueezed to [N,1,1,S].
std::string additiveMask(Net& net) {
    std::string mask =
        net.add("Unsqueeze", {"attention_mask", net.ints({1, 2})}, "extended_mask/Unsqueeze")
            .output;
    Added cast = net.add("Cast", {mask}, "extended_mask/Cast");
    cast.node.attr("to", kOnnxFloat);
    mask = binary(net, "Sub", net.scalar(1.0f), cast.output, "extended_mask/Sub");
    return binary(net, "Mul", mask, net.scalar(-10000.0f), "extended_mask/Mul");
}

std::string encoderLayer(Net& net, const BertSize& size, const AttentionShape& shape,
                         const std::string& x, const std::string& mask, int layer,
                         const std::string& output) {
    const std::string scope = "encoder.layer." + std::to_string(layer);
    const int64_t h = size.hidden;
    const std::string self = scope + ".attention.self";
    // Separate statements: the order of nodes must not depend on the compiler.
    std::string q = linear(net, x, self + ".query", h, h);
    std::string k = linear(net, x, self + ".key", h, h);
    std::string v = linear(net, x, self + ".value", h, h);
    std::string context = attention(net, shape, q, k, v, self, mask);
    const std::string attnOut = scope + ".attention.output";
    std::string y = linear(net, context, attnOut + ".dense", h, h);
    y = binary(net, "Add", y, x, attnOut + "/Add");
    y = layerNorm(net, y, attnOut + ".LayerNorm", h, kLayerNormEps);
    std::string inner = linear(net, y, scope + ".intermediate.dense", h, size.ffn);
    inner = gelu(net, inner, scope + ".intermediate.intermediate_act_fn");
    std::string z = linear(net, inner, scope + ".output.dense", size.ffn, h);
    z = binary(net, "Add", z, y, scope + ".output/Add");
    return layerNorm(net, z, scope + ".output.LayerNorm", h, kLayerNormEps, output);
}

void buildBert(Net& net, const ModelConfig& config, const BertSize& size) {
    const int64_t n = config.batch;
    const int64_t s = config.seq;
    for (const char* input : {"input_ids", "token_type_ids", "attention_mask"})
        net.builder().addInput(input, ir::DType::Int64, {n, s});
    std::string x = embeddings(net, size, s);
    std::string mask = additiveMask(net);
    const AttentionShape shape{n, s, size.hidden, size.heads};
    for (int layer = 0; layer < size.layers; ++layer) {
        bool last = layer + 1 == size.layers;
        x = encoderLayer(net, size, shape, x, mask, layer, last ? "last_hidden_state" : "");
    }
    std::string first = gatherIndex(net, x, 0, 1, "pooler/Gather");
    std::string pooled = gemm(net, first, "pooler.dense", size.hidden, size.hidden);
    unary(net, "Tanh", pooled, "pooler.activation", "pooler_output");
    net.builder().addOutput("last_hidden_state", ir::DType::Float32, {n, s, size.hidden});
    net.builder().addOutput("pooler_output", ir::DType::Float32, {n, size.hidden});
}

} // namespace

void buildBertBase(Net& net, const ModelConfig& config) {
    buildBert(net, config, BertSize{12, 768, 12, 3072});
}

void buildBert2Layer(Net& net, const ModelConfig& config) {
    buildBert(net, config, BertSize{2, 768, 12, 3072});
}

void buildBertLarge(Net& net, const ModelConfig& config) {
    buildBert(net, config, BertSize{24, 1024, 16, 4096});
}

} // namespace stagecraft::zoo
