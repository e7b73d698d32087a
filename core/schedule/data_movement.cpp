// Concatenating instance outputs (GraphTurbo §3.5, Fig. 8 and 9).
//
// For every consumer instance and every producer group it reads, the
// producer instances it depends on deliver pieces of one tensor. With more
// than one, a concat op joins them in LB with the binding the consumer infers
// for that tensor (Algorithm 4's infer_binding). Each piece whose scope is not
// LB is first copied into LB (Fig. 9 left), and each piece bound otherwise is
// redistributed to the smaller factor of the two bindings on every dim
// (Fig. 9 right). A single piece gets the same copy and is redistributed to
// the consumer's binding, without a concat. At the GB level (§3.6) GB takes
// the place of LB.

#include "schedule/data_movement.h"

#include "schedule/internal/stages.h"

#include <algorithm>

namespace stagecraft::schedule {

namespace {

/// \p out = the elementwise smaller factors of \p a and \p b (reusing its storage).
void smallerInto(Binding& out, const Binding& a, const Binding& b) {
    out.assign(std::max(a.size(), b.size()), 1);
    for (size_t d = 0; d < out.size(); ++d)
        out[d] = std::min(d < a.size() ? a[d] : 1, d < b.size() ? b[d] : 1);
}

/// fitBinding into \p out (reusing its storage).
void fitInto(Binding& out, const Binding& binding, const ir::Shape& shape) {
    out.assign(shape.size(), 1);
    for (size_t d = 0; d < shape.size() && d < binding.size(); ++d)
        for (int64_t f : {8, 4, 2, 1})
            if (f <= binding[d] && shape[d] % f == 0) {
                out[d] = f;
                break;
            }
}

DataMove makeMove(DataMove::Kind kind, InstanceId consumer, ir::TensorId tensor, const Piece& piece,
                  Scope target) {
    DataMove move;
    move.kind = kind;
    move.consumer = consumer;
    move.sources = {piece.instance};
    move.tensor = tensor;
    move.shape = piece.shape;
    move.scope = target;
    move.fromScope = piece.scope;
    move.bind = piece.bind;
    return move;
}

} // namespace

Binding fitBinding(const Binding& binding, const ir::Shape& shape) {
    Binding out;
    fitInto(out, binding, shape);
    return out;
}

std::vector<DataMove> movesForPieces(InstanceId consumer, ir::TensorId tensor,
                                     std::span<const Piece> pieces, const ir::Shape& joinedShape,
                                     const Binding& need, Scope target) {
    std::vector<DataMove> moves;
    bool joined = pieces.size() > 1;
    bool constrained = coresUsed(need) > 1;
    Binding least, bound; // reused across pieces: this runs once per instance edge
    for (const Piece& piece : pieces) {
        if (piece.scope != target)
            moves.push_back(makeMove(DataMove::Kind::Copy, consumer, tensor, piece, target));
        if (!constrained)
            continue;
        if (joined)
            smallerInto(least, piece.bind, need);
        fitInto(bound, joined ? least : need, piece.shape);
        if (bound != piece.bind) {
            DataMove move = makeMove(DataMove::Kind::Redistribute, consumer, tensor, piece, target);
            move.fromScope = target;
            move.bind = bound;
            moves.push_back(std::move(move));
        }
    }
    if (joined) {
        DataMove concat;
        concat.kind = DataMove::Kind::Concat;
        concat.consumer = consumer;
        for (const Piece& piece : pieces)
            concat.sources.push_back(piece.instance);
        concat.tensor = tensor;
        concat.shape = joinedShape;
        concat.scope = target;
        concat.fromScope = target;
        concat.bind = need;
        moves.push_back(std::move(concat));
    }
    return moves;
}

namespace detail {

namespace {

/// \p pieces: the pieces of \p tensor \p sources deliver. Assigned in
/// place, so a buffer reused across calls allocates only while it grows.
void fillPieces(DimMatcher& matcher, const Schedule& s, std::span<const InstanceId> sources,
                ir::TensorId tensor, std::vector<Piece>& pieces) {
    pieces.resize(sources.size());
    for (size_t i = 0; i < sources.size(); ++i) {
        const Instance& instance = s.instances[sources[i]];
        Piece& piece = pieces[i];
        piece.instance = sources[i];
        piece.scope = instance.scope;
        if (tensor == groupOutput(s, instance.group)) {
            piece.shape = instance.shape;
            piece.bind = instance.bind;
        } else {
            piece.shape = matcher.pieceShape(sources[i], tensor);
            piece.bind = matcher.bindingOn(sources[i], tensor);
        }
    }
}

/// The moves that bring \p tensor from the producer instances \p sources
/// (one group) to consumer \p c; \p pieces is scratch space.
void movesForTensor(DimMatcher& matcher, Schedule& s, InstanceId c,
                    std::span<const InstanceId> sources, ir::TensorId tensor,
                    std::vector<Piece>& pieces) {
    fillPieces(matcher, s, sources, tensor, pieces);
    GroupId group = s.instances[sources[0]].group;
    const Group& producer = s.groups[group];
    ir::Shape joined = pieces.front().shape;
    if (producer.split && pieces.size() > 1) { // the pieces lie side by side along the split
        int dim = tensor == producer.splitInfo.output
                      ? producer.split->dim
                      : matcher.map(group, tensor)[static_cast<size_t>(producer.split->dim)];
        if (dim >= 0)
            joined[static_cast<size_t>(dim)] *= static_cast<int64_t>(pieces.size());
    }
    Binding need = fitBinding(inferBinding(matcher, s, c, tensor, joined.size()), joined);
    for (DataMove& move : movesForPieces(c, tensor, pieces, joined, need, levelScope(s.level)))
        s.moves.push_back(std::move(move));
}

} // namespace

void insertDataMoves(DimMatcher& matcher, const Adjacency& a, Schedule& s) {
    s.moves.clear();
    std::vector<Piece> pieces;
    for (InstanceId c : s.order) {
        const auto& preds = a.preds[c];
        GroupId consumer = s.instances[c].group;
        for (size_t start = 0; start < preds.size();) {
            GroupId group = s.instances[preds[start]].group;
            size_t end = start;
            while (end < preds.size() && s.instances[preds[end]].group == group)
                ++end;
            std::span<const InstanceId> sources(preds.data() + start, end - start);
            for (ir::TensorId tensor : matcher.shared(group, consumer))
                movesForTensor(matcher, s, c, sources, tensor, pieces);
            start = end;
        }
    }
}

} // namespace detail

} // namespace stagecraft::schedule
