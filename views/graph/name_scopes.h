#pragma once
// The module hierarchy written into op names, as exporters write it
// ("/encoder/layer.3/attention/self/query/MatMul",
// "encoder.layer.3.attention.self.query", "layer2.0.conv1"): the graph
// view can fold the ops of a scope ("encoder.layer.3") into one node, as
// TensorBoard and Netron do, which a model of 12 layers needs more than its
// schedule's groups. Pure functions of the graph; no widgets.

#include "ir/graph.h"

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::views::graphview {

/// The parts of an op name: split at '/' and '.', a numeric part joined to
/// the one before it ("layer", "3" → "layer.3"), empty parts dropped. The
/// last part is the op itself; the ones before it are its scopes.
std::vector<std::string> nameParts(std::string_view name);

struct NameScope {
    /// The op names' own prefix, e.g. "encoder.layer.3"; "" for the root.
    std::string name;
    int parent = -1;
    int depth = 0;
    std::vector<int> children;
    /// Ops whose innermost scope this is, ascending.
    std::vector<ir::OpId> ops;
    /// Ops in this scope and every scope below it.
    size_t opCount = 0;
};

/// Scope 0 is the root (ops without a scope sit there); every other scope
/// comes after its parent, children in the order of their first op.
struct NameScopes {
    std::vector<NameScope> scopes;
    /// The innermost scope of each op.
    IdVector<ir::OpId, int> scopeOfOp;

    bool empty() const { return scopes.size() <= 1; }
    /// Every op under \p scope, ascending.
    std::vector<ir::OpId> opsUnder(int scope) const;
};

NameScopes nameScopes(const ir::Graph& graph);

/// Scopes drawn as one node each; an op is drawn by its outermost folded
/// scope, or as itself when no scope around it is folded.
using FoldedScopes = std::set<int>;

/// The outermost folded scope holding \p op; -1 when none.
int foldedScopeOf(const NameScopes& scopes, const FoldedScopes& folded, ir::OpId op);
/// How many nodes the ops make when \p folded are folded.
size_t nodeCount(const NameScopes& scopes, const FoldedScopes& folded);

/// The folding a graph opens with: every scope folded, then one depth at a
/// time unfolded whole while the ops make at most \p maxNodes nodes (a
/// scope with a single child scope and no ops of its own always unfolds:
/// "encoder" shows its layers). Uniform by depth, so that all 12 layers of
/// BERT look alike.
FoldedScopes openingFolding(const NameScopes& scopes, size_t maxNodes);

/// Every scope's children folded (the root's, after the chain of single
/// scopes): the coarsest useful drawing.
FoldedScopes coarsestFolding(const NameScopes& scopes);

/// \p folded with \p scope unfolded into its children, themselves folded.
FoldedScopes unfold(const NameScopes& scopes, FoldedScopes folded, int scope);
/// \p folded with \p scope folded (and nothing inside it folded on its own).
FoldedScopes fold(const NameScopes& scopes, FoldedScopes folded, int scope);

} // namespace stagecraft::views::graphview
