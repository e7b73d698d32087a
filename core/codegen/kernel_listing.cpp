// A kernel plan as pseudo-code in the manner of GraphTurbo's Fig. 11
// (right): the anchor's tile loops (§4.1; a flat tile index shared by the
// cores round-robin, written as one loop per tiled output dim), the weight
// promotions the plan inserts (once per layer, or per tile when the slice
// follows a tile loop), the layer's ops fused on one tile, and the barrier
// that lets the next layer read what every core wrote (§4.2). Buffers are
// named by their tensor, with @arena for a stitched buffer and @lb for a
// fused intermediate or a promoted weight in the core's scratch; the list at
// the head of each layer says where each one lives and how big it is.

#include "codegen/kernel_listing.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace stagecraft::codegen {

namespace {

/// An on-chip buffer's size in binary units, as the architecture files give
/// them: "512 B", "56 KiB", "49.1 KiB", "8 MiB".
std::string bufferBytes(int64_t bytes) {
    if (bytes < 1024)
        return std::to_string(bytes) + " B";
    const bool mebi = bytes >= 1024 * 1024;
    const double value = static_cast<double>(bytes) / (mebi ? 1024.0 * 1024.0 : 1024.0);
    char text[32];
    const bool whole = value == static_cast<double>(static_cast<int64_t>(value));
    std::snprintf(text, sizeof text, whole ? "%.0f %s" : "%.1f %s", value, mebi ? "MiB" : "KiB");
    return text;
}

/// A tensor's name as the listing writes it: its own when at most 32
/// characters of letters, digits and _ . / -, else t<id>.
std::string shortName(const ir::Graph& graph, ir::TensorId id) {
    const std::string& name = graph.tensor(id).name;
    bool plain =
        !name.empty() && name.size() <= 32 &&
        (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_' || name[0] == '/');
    for (char c : name)
        plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
                          c == '/' || c == '-');
    return plain ? name : "t" + std::to_string(id.value());
}

std::string bufferName(const ir::Graph& graph, const View& view) {
    std::string name = shortName(graph, view.tensor);
    switch (view.home) {
    case Home::Global:
        return name;
    case Home::Stitched:
        return name + "@arena";
    case Home::Fused:
    case Home::Promoted:
        return name + "@lb";
    }
    return name;
}

std::string shapeText(const ir::Shape& shape) {
    std::string text = "[";
    for (size_t d = 0; d < shape.size(); ++d)
        text += (d ? ", " : "") + std::to_string(shape[d]);
    return text + "]";
}

/// The range of dim \p d of \p box, "lo:hi" (hi exclusive), or the tile of
/// loop \p loop, "16*t1:+16" (16 elements from 16*t1).
std::string rangeText(const partition::Box& box, size_t d, const LayerCode& layer, int loop) {
    if (loop < 0)
        return std::to_string(box[d].lo) + ":" + std::to_string(box[d].hi + 1);
    const TileLoop& t = layer.tiles[static_cast<size_t>(loop)];
    std::string start =
        (t.tile == 1 ? "" : std::to_string(t.tile) + "*") + "t" + std::to_string(t.dim);
    if (t.lo != 0)
        start = std::to_string(t.lo) + "+" + start;
    return t.tile == 1 ? start : start + ":+" + std::to_string(t.tile);
}

std::string regionText(const partition::Box& box, const std::vector<int>& loopOfDim,
                       const LayerCode& layer) {
    std::string text = "[";
    for (size_t d = 0; d < box.size(); ++d) {
        int loop = d < loopOfDim.size() ? loopOfDim[d] : -1;
        text += (d ? ", " : "") + rangeText(box, d, layer, loop);
    }
    return text + "]";
}

/// Per dim of an output of rank \p rank: the index of the tile loop over it, or -1.
std::vector<int> outputLoops(const LayerCode& layer, size_t rank) {
    std::vector<int> loops(rank, -1);
    for (size_t i = 0; i < layer.tiles.size(); ++i)
        if (static_cast<size_t>(layer.tiles[i].dim) < rank)
            loops[static_cast<size_t>(layer.tiles[i].dim)] = static_cast<int>(i);
    return loops;
}

class ListingWriter {
public:
    ListingWriter(const ir::Graph& graph, const CodePlan& plan, const KernelCode& kernel)
        : graph_(graph)
        , plan_(plan)
        , k_(kernel) {}

    KernelListing run() {
        listing_.symbol = k_.symbol;
        header();
        for (size_t l = 0; l < k_.layers.size(); ++l)
            layer(k_.layers[l], static_cast<int>(l));
        return std::move(listing_);
    }

private:
    void add(ListingLine::Kind kind, int indent, std::string text, ir::OpId op, int layer) {
        listing_.lines.push_back(
            {kind, std::string(static_cast<size_t>(indent) * 2, ' ') + std::move(text), op, layer,
             ir::kNoTensor});
    }
    void comment(std::string text, int layer = -1) {
        add(ListingLine::Kind::Comment, 0, "# " + std::move(text), ir::kNoOp, layer);
    }

    void header() {
        comment("kernel " + k_.symbol + ": instance " + k_.label + " on " +
                std::to_string(k_.cores) + (k_.cores == 1 ? " core" : " cores") +
                (k_.cores > 1 ? "; core c takes tiles c, c+cores, ... of each layer" : ""));
        comment("arena " + bufferBytes(k_.arenaBytes) +
                " (stitched buffers, shared by the cores, reused across layers, §4.2-4.3); "
                "scratch " +
                bufferBytes(k_.scratchBytes) + " per core (fused tiles, promoted weights)");
        if (k_.splitDim >= 0)
            comment("computes [" + std::to_string(k_.sliceLo) + ", " + std::to_string(k_.sliceHi) +
                    ") of dim " + std::to_string(k_.splitDim) + " of " +
                    shortName(graph_, k_.splitTensor) + " (its slice of the split, §3.3)");
        comment("t<d> counts the tiles of output dim d; a:+n is the n elements from a; a:b "
                "is a up to b, b excluded");
    }

    void bufferList(const LayerCode& layer, int index) {
        std::vector<int64_t> sizes = layer.tileSizes();
        size_t width = 0;
        for (const View& v : layer.views)
            width = std::max(width, bufferName(graph_, v).size());
        for (const View& v : layer.views) {
            std::string where;
            const ir::Tensor& t = graph_.tensor(v.tensor);
            switch (v.home) {
            case Home::Global: {
                auto role = plan_.globals[static_cast<size_t>(v.offset)].role;
                where = "global    table[" + std::to_string(v.offset) + "], " +
                        std::string(roleName(role)) + " " + shapeText(t.shape) + " " +
                        std::string(ir::dtypeName(t.dtype));
                break;
            }
            case Home::Stitched:
                where = "stitched  arena+" + std::to_string(v.offset) + ", " +
                        bufferBytes(v.storageBytes(graph_, sizes)) + ", the instance's box";
                break;
            case Home::Fused:
                where = "fused     scratch+" + std::to_string(v.offset) + ", " +
                        bufferBytes(v.storageBytes(graph_, sizes)) + ", one tile";
                break;
            case Home::Promoted:
                where = "promoted  scratch+" + std::to_string(v.offset) + ", " +
                        bufferBytes(v.storageBytes(graph_, sizes));
                break;
            }
            std::string name = bufferName(graph_, v);
            name.resize(width, ' ');
            comment("  " + name + " " + where, index);
        }
    }

    /// The first op of \p layer that reads \p weight.
    ir::OpId readerOf(const LayerCode& layer, ir::TensorId weight) const {
        for (const OpStep& step : layer.ops) {
            const auto& inputs = graph_.op(step.op).inputs;
            if (std::find(inputs.begin(), inputs.end(), weight) != inputs.end())
                return step.op;
        }
        return ir::kNoOp;
    }

    void promotion(const LayerCode& layer, const Promotion& p, int indent, int index) {
        const View& local = layer.views[static_cast<size_t>(p.view)];
        std::string region = regionText(local.box, local.tileLoop, layer);
        add(ListingLine::Kind::Promotion, indent,
            bufferName(graph_, local) + region + " = " + shortName(graph_, p.weight) + region +
                "    # promote weight to LB, " + (p.perTile ? "per tile" : "once"),
            readerOf(layer, p.weight), index);
        listing_.lines.back().weight = p.weight;
    }

    void statement(const LayerCode& layer, const OpStep& step, int indent, int index) {
        const ir::Op& op = graph_.op(step.op);
        std::string outs;
        for (size_t o = 0; o < op.outputs.size(); ++o) {
            const View* v = layer.viewOf(op.outputs[o]);
            if (v == nullptr)
                continue;
            const partition::Box& region = step.regions[o];
            outs += (outs.empty() ? "" : ", ") + bufferName(graph_, *v) +
                    regionText(region, outputLoops(layer, region.size()), layer);
        }
        std::string ins;
        for (size_t i = 0; i < op.inputs.size(); ++i) {
            const View* v = op.inputs[i] == ir::kNoTensor ? nullptr : layer.viewOf(op.inputs[i]);
            ins += (i ? ", " : "") + (v ? bufferName(graph_, *v) : std::string("_"));
        }
        add(ListingLine::Kind::Statement, indent,
            outs + " = " + op.type + "(" + ins + ")    # " + op.name, step.op, index);
    }

    void layer(const LayerCode& layer, int index) {
        const ir::Op& anchor = graph_.op(layer.anchor);
        comment("", index);
        std::string tiling =
            layer.tiles.empty()
                ? "one tile" + (layer.untiledReason.empty() ? std::string()
                                                            : " (" + layer.untiledReason + ")")
                : std::to_string(layer.tileCount()) + " tiles";
        comment("layer " + std::to_string(index) + ", anchor " + anchor.name + " (" + anchor.type +
                    "): " + std::to_string(layer.ops.size()) + " fused ops, " + tiling,
                index);
        bufferList(layer, index);
        for (const Promotion& p : layer.promotions)
            if (!p.perTile)
                promotion(layer, p, 0, index);
        int indent = 0;
        for (const TileLoop& t : layer.tiles) {
            add(ListingLine::Kind::Loop, indent,
                "for t" + std::to_string(t.dim) + " in 0.." + std::to_string(t.count()) +
                    ":    # output dim " + std::to_string(t.dim) + ", tiles of " +
                    std::to_string(t.tile) + " over [" + std::to_string(t.lo) + ", " +
                    std::to_string(t.lo + t.extent) + ")",
                layer.anchor, index);
            ++indent;
        }
        for (const Promotion& p : layer.promotions)
            if (p.perTile)
                promotion(layer, p, indent, index);
        for (const OpStep& step : layer.ops)
            statement(layer, step, indent, index);
        if (k_.cores > 1 && static_cast<size_t>(index) + 1 < k_.layers.size())
            add(ListingLine::Kind::Barrier, 0,
                "barrier()    # the cores meet: layer " + std::to_string(index + 1) +
                    " reads what every core wrote",
                ir::kNoOp, index);
    }

    const ir::Graph& graph_;
    const CodePlan& plan_;
    const KernelCode& k_;
    KernelListing listing_;
};

} // namespace

int KernelListing::statementLine(ir::OpId op) const {
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].kind == ListingLine::Kind::Statement && lines[i].op == op)
            return static_cast<int>(i) + 1;
    return 0;
}

int KernelListing::headerLine(int layer) const {
    const std::string prefix = "# layer " + std::to_string(layer) + ",";
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].layer == layer && lines[i].text.starts_with(prefix))
            return static_cast<int>(i) + 1;
    return 0;
}

int KernelListing::layerLine(int layer) const {
    int first = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].layer != layer || lines[i].kind == ListingLine::Kind::Comment)
            continue;
        if (lines[i].kind == ListingLine::Kind::Loop)
            return static_cast<int>(i) + 1;
        if (first == 0 && lines[i].kind == ListingLine::Kind::Statement)
            first = static_cast<int>(i) + 1;
    }
    return first;
}

int KernelListing::promotionLine(int layer, ir::TensorId weight) const {
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].layer == layer && lines[i].kind == ListingLine::Kind::Promotion &&
            lines[i].weight == weight)
            return static_cast<int>(i) + 1;
    return 0;
}

ir::OpId KernelListing::opOfLine(int line) const {
    if (line < 1 || static_cast<size_t>(line) > lines.size())
        return ir::kNoOp;
    return lines[static_cast<size_t>(line) - 1].op;
}

KernelListing listKernel(const ir::Graph& graph, const CodePlan& plan, size_t index) {
    if (index >= plan.kernels.size())
        return {};
    return ListingWriter(graph, plan, plan.kernels[index]).run();
}

std::string listingText(const KernelListing& listing) {
    std::string text;
    for (const ListingLine& line : listing.lines)
        text += line.text + "\n";
    return text;
}

} // namespace stagecraft::codegen
