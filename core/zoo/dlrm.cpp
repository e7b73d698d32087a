// DLRM (Naumov et al., 2019) in the MLPerf v2.0 recommendation configuration
// (Criteo Terabyte), GraphTurbo §5, Table 2 row F, with the module names of
// facebookresearch/dlrm (`bot_l`, `emb_l`, `top_l`).
//
// Bottom MLP 13-512-256-128 (ReLU after every layer), 26 embedding tables of
// dimension 128 looked up with one index each (column i of `sparse_ids` taken
// with Gather axis=1, then Gather on the table: an EmbeddingBag of one index),
// dot interaction (Concat to [N,27,128], MatMul with its transpose, Reshape to
// [N,729], Gather of the 351 strictly-lower-triangle entries, Concat with the
// bottom output to [N,479]), top MLP 479-1024-1024-512-256-1 with ReLU and a
// final Sigmoid. The MLPerf tables have up to 40M rows; every table is capped
// at kMaxEmbeddingRows rows so the zero-filled weights stay a 3.6 GB sparse
// file and seeded weights stay writable (the doc_string and docs/zoo.md say so).
// The 2-D linears export as Gemm, as torch.onnx does for 2-D inputs.

#include "support/strings.h"
#include "zoo/internal/models.h"
#include "zoo/layers.h"

#include <algorithm>
#include <iterator>
#include <string>

namespace stagecraft::zoo {

namespace {

constexpr int64_t kDenseFeatures = 13;
constexpr int64_t kEmbeddingDim = 128;
constexpr int64_t kTables = 26;
/// Pairs of distinct features among the bottom output and the 26 embeddings.
constexpr int64_t kInteractions = (kTables + 1) * kTables / 2;

/// MLPerf DLRM (Criteo Terabyte) rows per table, before the cap.
constexpr int64_t kMlperfRows[kTables] = {
    39884406, 39043,    17289,    7420,     20263,  3,     7120, 1543, 63,
    38532951, 2953546,  403346,   10,       2208,   11938, 155,  4,    976,
    14,       39979771, 25641295, 39664984, 585935, 12972, 108,  36};

/// Rows of table \p table after the cap.
int64_t tableRows(int table) {
    return std::min(kMlperfRows[table], kMaxEmbeddingRows);
}

/// A create_mlp Sequential: Linear layers at even indices, ReLU (or the final
/// Sigmoid when \p sigmoidLast) at odd ones.
std::string mlp(Net& net, std::string x, const std::string& scope,
                const std::vector<int64_t>& widths, bool sigmoidLast) {
    for (size_t i = 0; i + 1 < widths.size(); ++i) {
        std::string layer = scope + "." + std::to_string(2 * i);
        std::string act = scope + "." + std::to_string(2 * i + 1);
        x = gemm(net, x, layer, widths[i], widths[i + 1]);
        bool last = i + 2 == widths.size();
        x = last && sigmoidLast ? unary(net, "Sigmoid", x, act, "probability") : relu(net, x, act);
    }
    return x;
}

std::vector<int64_t> strictlyLowerTriangle(int64_t size) {
    std::vector<int64_t> indices;
    for (int64_t i = 0; i < size; ++i)
        for (int64_t j = 0; j < i; ++j)
            indices.push_back(i * size + j);
    return indices;
}

std::string interaction(Net& net, const std::string& bottom,
                        const std::vector<std::string>& embeddings, int64_t n) {
    const std::string scope = "interact_features";
    const int64_t features = kTables + 1;
    std::vector<std::string> all = {bottom};
    all.insert(all.end(), embeddings.begin(), embeddings.end());
    std::string t = concat(net, all, 1, scope + "/Concat");
    t = reshape(net, t, {n, features, kEmbeddingDim}, scope + "/Reshape");
    std::string tt = transpose(net, t, {0, 2, 1}, scope + "/Transpose");
    std::string z = net.add("MatMul", {t, tt}, scope + "/MatMul").output;
    z = reshape(net, z, {n, features * features}, scope + "/Reshape");
    std::vector<int64_t> tril = strictlyLowerTriangle(features);
    std::string indices =
        net.intInitializer(scope + ".tril_indices", {static_cast<int64_t>(tril.size())}, tril);
    Added flat = net.add("Gather", {z, indices}, scope + "/Gather");
    flat.node.attr("axis", int64_t{1});
    return concat(net, {bottom, flat.output}, 1, scope + "/Concat");
}

} // namespace

std::string dlrmDocNote() {
    std::vector<std::string> rows;
    for (int table = 0; table < kTables; ++table)
        rows.push_back(std::to_string(tableRows(table)));
    int64_t largest = *std::max_element(std::begin(kMlperfRows), std::end(kMlperfRows));
    return "Embedding tables are capped at " + std::to_string(kMaxEmbeddingRows) +
           " rows (the MLPerf Criteo Terabyte tables have up to " + std::to_string(largest) +
           "); rows per table: " + join(rows, ", ");
}

void buildDlrm(Net& net, const ModelConfig& config) {
    const int64_t n = config.batch;
    net.builder().addInput("dense_x", ir::DType::Float32, {n, kDenseFeatures});
    net.builder().addInput("sparse_ids", ir::DType::Int64, {n, kTables});
    std::string bottom = mlp(net, "dense_x", "bot_l", {kDenseFeatures, 512, 256, 128}, false);
    std::vector<std::string> embeddings;
    for (int table = 0; table < kTables; ++table) {
        std::string scope = "emb_l." + std::to_string(table);
        std::string ids = gatherIndex(net, "sparse_ids", table, 1, scope + "/Gather");
        std::string weight = net.param(scope + ".weight", {tableRows(table), kEmbeddingDim});
        embeddings.push_back(net.add("Gather", {weight, ids}, scope).output);
    }
    std::string z = interaction(net, bottom, embeddings, n);
    mlp(net, z, "top_l", {kEmbeddingDim + kInteractions, 1024, 1024, 512, 256, 1}, true);
    net.builder().addOutput("probability", ir::DType::Float32, {n, 1});
}

} // namespace stagecraft::zoo
