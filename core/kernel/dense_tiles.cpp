// Dense-form tiles (GraphTurbo §4.1 on Relay's nn.dense; docs/decisions.md,
// "Dense-form tiles"). GraphTurbo builds on TVM's Relay, where a fully
// connected layer is nn.dense on a [rows, K] input with rows = batch ×
// tokens: the anchor's two outer loops are the rows and the output features,
// and Fig. 11 promotes weight tiles indexed by both tile loops. So a layer
// whose anchor is a MatMul or Gemm (or their integer forms) with a weight as
// its second matrix operand is tiled on its flattened rows (every output dim
// but the last) and its output features (the last), whatever its rank: a
// tile of rows × features reads its rows of the input, the features' slice
// of the weight (streamed through the LB's reserve along K), and writes its
// rows × features of the output.
//
// A rows tile is a box of the output: a divisor of each row dim's extent
// (two images by one token is a tile of 2 rows), so the emitted code tiles
// it as any other tile loop. A tile fits when the bytes it holds fit the
// LB: each activation's bytes times the share of it the tile covers on the
// dims that activation follows (the input's rows tile holds every K,
// whatever the features tile). Of the fitting tiles, the
// count that keeps the kernel's cores busiest wins, then the largest rows
// tile (each rows tile reads the weight once), then the largest features
// tile: §4.1's "largest integer that divides the loop extent", outer loop
// first. Every strategy, the simulator and the code generator alike.

#include "kernel/internal/layer_tiles.h"
#include "kernel/internal/layers.h"
#include "kernel/tile_rule.h"
#include "support/divisors.h"

#include <algorithm>
#include <set>

namespace stagecraft::kernel::detail {

namespace {

/// Every rows tile: per row dim a divisor of its extent (a box of the
/// output), the inner dims varying fastest.
std::vector<std::vector<int64_t>> rowTileShapes(std::span<const int64_t> extents) {
    std::vector<std::vector<int64_t>> shapes = {{}};
    for (int64_t extent : extents) {
        std::vector<std::vector<int64_t>> longer;
        for (const std::vector<int64_t>& shape : shapes)
            for (int64_t d : divisors(extent)) {
                longer.push_back(shape);
                longer.back().push_back(d);
            }
        shapes = std::move(longer);
    }
    return shapes;
}

/// The bytes a tile of the layer holds in the LB: the layer's outside
/// inputs by the tiled dims each follows (tile_rule.h), found once; its
/// outputs (they follow every tiled dim) by the tile's share of the output.
class DenseTileBytes {
public:
    DenseTileBytes(const Layer& layer, const TileContext& c, size_t rank) {
        std::vector<int> dims(rank);
        for (size_t i = 0; i < rank; ++i)
            dims[i] = static_cast<int>(i);
        int64_t inputBytes = 0;
        for (const Operand& in : layer.inputs) {
            inputBytes += in.bytes;
            std::vector<int> follows = weightTileDims(c.graph, c.semantics, c.ops, dims, in.tensor);
            std::set<int> followed(follows.begin(), follows.end());
            followed.erase(-1);
            inputs_.push_back({static_cast<double>(in.bytes), {followed.begin(), followed.end()}});
        }
        outputBytes_ = static_cast<double>(std::max<int64_t>(c.layerBytes - inputBytes, 0));
    }

    double of(const std::vector<TileLoop>& tiles) const {
        auto share = [&](int d) {
            const TileLoop& t = tiles[static_cast<size_t>(d)];
            return static_cast<double>(t.tile) / static_cast<double>(t.extent);
        };
        double outputShare = 1;
        for (size_t d = 0; d < tiles.size(); ++d)
            outputShare *= share(static_cast<int>(d));
        double bytes = outputBytes_ * outputShare;
        for (const auto& [inputBytes, followed] : inputs_) {
            double inputShare = 1;
            for (int d : followed)
                inputShare *= share(d);
            bytes += inputBytes * inputShare;
        }
        return bytes;
    }

private:
    std::vector<std::pair<double, std::vector<int>>> inputs_;
    double outputBytes_ = 0;
};

} // namespace

bool isDenseAnchor(const ir::Graph& graph, ir::OpId op) {
    const ir::Op& o = graph.op(op);
    size_t weightSlot = o.kind == ir::OpKind::QLinearMatMul ? 3 : 1;
    if (o.kind != ir::OpKind::MatMul && o.kind != ir::OpKind::Gemm &&
        o.kind != ir::OpKind::MatMulInteger && o.kind != ir::OpKind::QLinearMatMul)
        return false;
    if (o.inputs.size() <= weightSlot || o.inputs[weightSlot] == ir::kNoTensor || o.outputs.empty())
        return false;
    return graph.tensor(o.inputs[weightSlot]).isConstant() &&
           graph.tensor(o.outputs[0]).shape.size() >= 2;
}

std::vector<TileLoop> chooseDenseTiles(const Layer& layer, const TileContext& c,
                                       const partition::Box& anchorBox, bool tileFeatures,
                                       int64_t capacityBytes) {
    const ops::LoopNest& nest = c.semantics.of(layer.anchor).nests.front();
    const size_t rank = anchorBox.size();
    std::vector<TileLoop> tiles;
    std::vector<int64_t> rowExtents;
    for (size_t d = 0; d < rank; ++d) {
        int64_t extent = std::max<int64_t>(anchorBox[d].size(), 1);
        tiles.push_back({nest.loops[d].name, extent, 1});
        if (d + 1 < rank)
            rowExtents.push_back(extent);
    }
    int64_t rows = 1;
    for (int64_t e : rowExtents)
        rows *= e;
    const int64_t features = tiles.back().extent;
    // Without a features loop the tile holds every feature.
    std::vector<int64_t> featureTiles =
        tileFeatures ? divisors(features) : std::vector<int64_t>{features};
    int64_t bestRows = 1, bestFeatures = featureTiles.front();
    tiles.back().tile = bestFeatures;
    std::vector<TileLoop> best = tiles, candidate = tiles;
    const DenseTileBytes tileBytes(layer, c, rank);
    auto better = [&](int64_t r, int64_t f) {
        int64_t count = (rows / r) * (features / f);
        int64_t bestCount = (rows / bestRows) * (features / bestFeatures);
        double share = parallelShare(count, c.cores), bestShare = parallelShare(bestCount, c.cores);
        if (share != bestShare)
            return share > bestShare;
        return r != bestRows ? r > bestRows : f > bestFeatures;
    };
    for (const std::vector<int64_t>& perDim : rowTileShapes(rowExtents)) {
        int64_t r = 1;
        for (size_t d = 0; d + 1 < rank; ++d) {
            candidate[d].tile = perDim[d];
            r *= perDim[d];
        }
        for (int64_t f : featureTiles) {
            candidate.back().tile = f;
            if (tileBytes.of(candidate) <= static_cast<double>(capacityBytes) && better(r, f)) {
                best = candidate;
                bestRows = r;
                bestFeatures = f;
            }
        }
    }
    return best;
}

} // namespace stagecraft::kernel::detail
