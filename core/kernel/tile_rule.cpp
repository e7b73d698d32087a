// Tileable loops of a layer (GraphTurbo §4.1, docs/simulator.md "Anchor"):
// the anchor's two outer loops are tiled when every op of the layer computes
// the anchor's range on them and reads the layer's own results with the
// identity on them. An op that reads across a tiled dim (a transpose, a
// reduction over it, a window) would need other tiles' results, so the last
// loop is dropped until the rest qualify; with none left the layer is one
// tile. The plan and the code generator both ask this one rule, and the
// rule for which dims of a weight follow the tiles (what each tile promotes).

#include "kernel/tile_rule.h"

#include <algorithm>
#include <set>

namespace stagecraft::kernel {

bool isIdentityOf(const ops::IndexExpr& expr, int loop) {
    return !expr.full && expr.offset == 0 && expr.div == 1 && expr.mod == 0 &&
           expr.terms.size() == 1 && expr.terms[0] == ops::IndexTerm{loop, 1, 1, 0};
}

namespace {

bool references(const ops::IndexExpr& expr, int loop) {
    return std::any_of(expr.terms.begin(), expr.terms.end(),
                       [&](const ops::IndexTerm& t) { return t.loop == loop; });
}

/// True when \p map reads its input on loop \p dim only at the same index.
bool readsWithinTile(const ops::AccessMap& map, int dim) {
    for (size_t j = 0; j < map.dims.size(); ++j) {
        bool same = static_cast<int>(j) == dim;
        if (same ? !isIdentityOf(map.dims[j], dim)
                 : (map.dims[j].full || references(map.dims[j], dim)))
            return false;
    }
    return true;
}

} // namespace

std::string tilingProblem(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                          const partition::BoxMap& slices, std::span<const ir::OpId> ops,
                          const partition::Box& anchorBox, int tiledDims) {
    std::set<ir::TensorId> produced;
    for (ir::OpId op : ops)
        for (ir::TensorId out : graph.op(op).outputs)
            produced.insert(out);
    for (ir::OpId op : ops) {
        const ir::Op& o = graph.op(op);
        const ops::OpSemantics& sem = semantics.of(op);
        for (size_t out = 0; out < o.outputs.size(); ++out) {
            const partition::Box* box = slices.find(o.outputs[out]);
            for (int d = 0; d < tiledDims; ++d)
                if (box == nullptr || box->size() <= static_cast<size_t>(d) ||
                    static_cast<size_t>(d) >= anchorBox.size() ||
                    (*box)[static_cast<size_t>(d)] != anchorBox[static_cast<size_t>(d)])
                    return "op '" + o.name + "' computes another range of a tiled dim";
            if (out >= sem.nests.size())
                return "op '" + o.name + "' has no loop nest";
            for (const ops::AccessMap& map : sem.nests[out].inputs) {
                if (produced.count(o.inputs[static_cast<size_t>(map.operand)]) == 0)
                    continue;
                for (int d = 0; d < tiledDims; ++d)
                    if (!readsWithinTile(map, d))
                        return "op '" + o.name + "' reads across tiles";
            }
        }
    }
    return {};
}

int tileableDims(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                 const partition::BoxMap& slices, std::span<const ir::OpId> ops,
                 const partition::Box& anchorBox, int outer) {
    for (int dims = outer; dims > 0; --dims)
        if (tilingProblem(graph, semantics, slices, ops, anchorBox, dims).empty())
            return dims;
    return 0;
}

std::vector<int> weightTileDims(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                                std::span<const ir::OpId> ops, std::span<const int> tiledDims,
                                ir::TensorId weight) {
    size_t rank = graph.tensor(weight).shape.size();
    std::vector<int> dims(rank, -1);
    std::vector<bool> agreed(rank, true), seen(rank, false);
    for (ir::OpId op : ops) {
        const ir::Op& o = graph.op(op);
        for (const ops::LoopNest& nest : semantics.of(op).nests)
            for (const ops::AccessMap& map : nest.inputs) {
                if (o.inputs[static_cast<size_t>(map.operand)] != weight)
                    continue;
                for (size_t j = 0; j < rank && j < map.dims.size(); ++j) {
                    int follows = -1;
                    for (int d : tiledDims)
                        if (isIdentityOf(map.dims[j], d))
                            follows = d;
                    if (seen[j] && dims[j] != follows)
                        agreed[j] = false;
                    seen[j] = true;
                    dims[j] = follows;
                }
            }
    }
    for (size_t j = 0; j < rank; ++j)
        if (!agreed[j])
            dims[j] = -1;
    return dims;
}

} // namespace stagecraft::kernel
