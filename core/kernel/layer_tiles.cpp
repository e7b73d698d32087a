// A layer's tiles (GraphTurbo §4.1), weight hoists (Fig. 11) and latency
// hiding inside it, for every strategy alike.
//
// Tiles cut the anchor's two outer loops (chooseTiles, layers.cpp) so that a
// tile's share of the layer's bytes fits one core's LB; a MatMul or Gemm with
// a weight is tiled as a dense, on rows × output features (dense_tiles.cpp).
// A layer may instead double-buffer them, as TVM hides memory latency with
// virtual threads (tvm-end-to-end §4, "Explicit Memory Latency Hiding"): its
// tiles are sized so that the LB holds two, and each core loads its next tile
// and stores its previous one while it computes the current one. Halving the
// tiles can cost bytes (a weight that streams per tile is read twice as
// often) and a core with one tile has nothing to overlap, so the planner
// estimates both from the architecture's rates and keeps the faster
// (LayerEstimate); the streams (streams.cpp) then charge what was chosen. A
// weight's hoist follows the tiles as the emitted code promotes it: the part
// that follows the tiled loops once per tile; a weight that follows none
// whole into each core that takes a tile, or, larger than a core keeps, once
// per tile (streamed).

#include "kernel/internal/layer_tiles.h"

#include "kernel/internal/layers.h"
#include "kernel/tile_rule.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace stagecraft::kernel::detail {

namespace {

using arch::Memory;

Memory memoryOf(Scope scope) {
    return scope == Scope::LB ? Memory::LB : scope == Scope::GB ? Memory::GB : Memory::DDR;
}

/// The most weight bytes a core keeps across its tiles: the LB's weight
/// reserve, or the whole LB when it has none (docs/simulator.md).
int64_t weightKeepBytes(const arch::Arch& arch) {
    const auto& lb = arch.cluster.coreGroups.front().localBuffer;
    if (!lb)
        return std::numeric_limits<int64_t>::max();
    return lb->weightReserveBytes > 0 ? lb->weightReserveBytes : lb->bytes;
}

/// Into how many parts the tiles cut \p weight: the product of the tile
/// counts of the tiled loops it follows (kernel/tile_rule.h).
int64_t tileParts(const Layer& layer, const TileContext& c, const std::vector<int>& tiledDims,
                  ir::TensorId weight) {
    if (tiledDims.empty())
        return 1;
    std::vector<int> follows = weightTileDims(c.graph, c.semantics, c.ops, tiledDims, weight);
    std::set<int> dims(follows.begin(), follows.end());
    int64_t parts = 1;
    for (int d : dims)
        if (d >= 0)
            parts *= layer.tiles[static_cast<size_t>(d)].extent /
                     layer.tiles[static_cast<size_t>(d)].tile;
    return parts;
}

/// Layer::hoistBytes and hoistOnceBytes for the layer's tiles, marking the
/// streamed weights (plan.h, Layer::WeightUse::streamed).
void planHoists(Layer& layer, const TileContext& c) {
    std::vector<int> tiledDims;
    for (size_t i = 0; i < layer.tiles.size(); ++i)
        if (layer.tiles[i].extent / layer.tiles[i].tile > 1)
            tiledDims.push_back(static_cast<int>(i));
    int64_t busyCores = std::clamp<int64_t>(layer.tileCount, 1, std::max<int64_t>(c.cores, 1));
    layer.hoistBytes = 0;
    layer.hoistOnceBytes = 0;
    for (Layer::WeightUse& w : layer.weights) {
        int64_t parts = w.gathered ? 1 : tileParts(layer, c, tiledDims, w.tensor);
        w.streamed = !w.gathered && parts == 1 && w.readBytes > weightKeepBytes(c.arch);
        if (parts > 1) {
            layer.hoistBytes += layer.tileCount * ((w.readBytes + parts - 1) / parts);
        } else if (w.streamed) {
            layer.hoistBytes += layer.tileCount * w.readBytes;
        } else {
            layer.hoistBytes += w.readBytes * busyCores;
            layer.hoistOnceBytes += w.readBytes * busyCores;
        }
    }
}

void setTiles(Layer& layer, std::vector<TileLoop> tiles, const TileContext& c) {
    layer.tiles = std::move(tiles);
    layer.tileCount = 1;
    for (const TileLoop& t : layer.tiles)
        layer.tileCount *= t.extent / t.tile;
    planHoists(layer, c);
}

/// A tile's share of the layer's bytes.
double tileBytes(const Layer& layer, int64_t layerBytes) {
    return static_cast<double>(layerBytes) /
           static_cast<double>(std::max<int64_t>(layer.tileCount, 1));
}

/// Bytes per ns of a hop on \p path for a transfer of the kernel's cores,
/// as the simulator runs it.
double hopBytesPerNs(const arch::Arch& arch, const arch::Path& path, int64_t cores) {
    double bw = path.bandwidthGBps;
    if (path.sharedBy == arch::Sharing::Chip)
        return bw / static_cast<double>(std::max<int64_t>(arch.clusters, 1));
    if (path.sharedBy == arch::Sharing::Core)
        return bw * static_cast<double>(cores);
    return bw;
}

/// Channels of \p path one cluster's transfers can use, as the simulator
/// makes them (a chip-shared path's divided among the clusters).
double channelsOf(const arch::Arch& arch, const arch::Path& path) {
    int64_t slots = path.channels;
    if (path.sharedBy == arch::Sharing::Chip)
        slots = std::max<int64_t>(1, slots / std::max<int64_t>(arch.clusters, 1));
    return static_cast<double>(std::max<int64_t>(slots, 1));
}

/// Time per path of a layer's transfers, hop by hop (through the GB where
/// no direct path exists, as the streams route them): a transfer holds a
/// channel for the path's latency and its data, and the path's pipe for
/// its data, so a path is busy for its bytes plus the latencies its
/// channels cannot hide.
class PathTimes {
public:
    PathTimes(const arch::Arch& arch, int64_t cores)
        : arch_(arch)
        , cores_(cores) {}

    /// Adds \p bytes from \p from to \p to in \p transfers transfers;
    /// returns the time one transfer of them takes over all hops, times
    /// \p transfers.
    double add(Memory from, Memory to, int64_t bytes, int64_t transfers = 1) {
        if (bytes <= 0)
            return 0;
        bool direct =
            arch::findPath(arch_, from, to) != nullptr || from == Memory::GB || to == Memory::GB;
        if (direct)
            return hop(from, to, bytes, transfers);
        return hop(from, Memory::GB, bytes, transfers) + hop(Memory::GB, to, bytes, transfers);
    }

    double busiest() const {
        double most = 0;
        for (const auto& [path, ns] : byPath_)
            most = std::max(most, ns);
        return most;
    }

private:
    double hop(Memory from, Memory to, int64_t bytes, int64_t transfers) {
        const arch::Path* path = arch::findPath(arch_, from, to);
        if (path == nullptr)
            return 0;
        double data = static_cast<double>(bytes) / hopBytesPerNs(arch_, *path, cores_);
        double latency = path->latencyNs * static_cast<double>(transfers);
        byPath_[path] += data + latency / channelsOf(arch_, *path);
        return data + latency;
    }

    const arch::Arch& arch_;
    int64_t cores_;
    std::map<const arch::Path*, double> byPath_;
};

/// The estimate of \p layer's tiles run one at a time (\p pipelined false:
/// one transfer per source and output) or double-buffered (one per chunk).
LayerEstimate estimateFor(const Layer& layer, const TileContext& c, bool pipelined) {
    LayerEstimate e;
    int64_t cores = std::max<int64_t>(c.cores, 1);
    e.tilesPerCore = (std::max<int64_t>(layer.tileCount, 1) + cores - 1) / cores;
    int64_t n = pipelined ? std::min(e.tilesPerCore, kPipelineChunks) : 1;
    for (const OpWork& w : layer.ops)
        e.computeNs +=
            w.unitNs / (w.unit == kFallbackUnit ? 1.0 : parallelShare(layer.tileCount, cores));
    PathTimes paths(c.arch, cores);
    for (const Operand& in : layer.inputs) {
        Scope scope = in.buffer == kNoBuffer ? Scope::DDR : c.buffers[in.buffer].scope;
        if (scope != Scope::LB || in.redistributed)
            e.loadNs += paths.add(memoryOf(scope), Memory::LB, in.bytes, n);
    }
    Memory weightsFrom = c.arch.cluster.globalBuffer ? Memory::GB : Memory::DDR;
    e.loadNs += paths.add(weightsFrom, Memory::LB, layer.hoistBytes - layer.hoistOnceBytes, n);
    for (BufferId b : layer.outputs)
        if (c.buffers[b].scope != Scope::LB)
            e.storeNs += paths.add(Memory::LB, memoryOf(c.buffers[b].scope), c.buffers[b].bytes, n);
    e.busiestPathNs = paths.busiest();
    PathTimes once(c.arch, cores);
    e.hoistOnceNs = once.add(weightsFrom, Memory::LB, layer.hoistOnceBytes);
    return e;
}

} // namespace

double LayerEstimate::serialNs() const {
    return hoistOnceNs + loadNs + computeNs + storeNs;
}

double LayerEstimate::pipelinedNs() const {
    double chunks = static_cast<double>(std::min(tilesPerCore, kPipelineChunks));
    double steady = std::max(computeNs, busiestPathNs);
    return hoistOnceNs + (loadNs + computeNs + storeNs) / chunks + steady * (chunks - 1) / chunks;
}

void planTiles(Layer& layer, const TileContext& c) {
    const ops::OpSemantics& anchor = c.semantics.of(layer.anchor);
    const auto& outs = c.graph.op(layer.anchor).outputs;
    const partition::Box* box = outs.empty() ? nullptr : c.slices.find(outs.front());
    if (anchor.nests.empty() || box == nullptr) {
        setTiles(layer, {}, c);
        return;
    }
    const int rank = anchor.nests.front().outputRank;
    const bool dense =
        isDenseAnchor(c.graph, layer.anchor) && static_cast<size_t>(rank) == box->size();
    int tileable =
        tileableDims(c.graph, c.semantics, c.slices, c.ops, *box, dense ? rank : std::min(rank, 2));
    auto tilesAt = [&](int64_t capacity) {
        if (dense && tileable >= rank - 1)
            return chooseDenseTiles(layer, c, *box, tileable == rank, capacity);
        return chooseTiles(anchor.nests.front(), *box, std::min(tileable, 2), c.layerBytes,
                           capacity, c.cores);
    };
    setTiles(layer, tilesAt(c.capacityBytes), c);
    if (!c.doubleBuffering)
        return;
    double serial = estimateFor(layer, c, false).serialNs();
    Layer halved = layer;
    setTiles(halved, tilesAt(c.capacityBytes / 2), c);
    LayerEstimate pipelined = estimateFor(halved, c, true);
    bool twoFit = 2 * tileBytes(halved, c.layerBytes) <= static_cast<double>(c.capacityBytes);
    bool moreBytes = halved.hoistBytes > layer.hoistBytes;
    if (twoFit && pipelined.tilesPerCore >= 2 && pipelined.pipelinedNs() < serial &&
        !(c.acrossLayer && moreBytes)) {
        layer = std::move(halved);
        layer.doubleBuffered = true;
    }
}

} // namespace stagecraft::kernel::detail
