// Alias scopes of a layer function (docs/codegen.md, "Aliasing"). A layer
// reads and writes its views through pointers LLVM cannot tell apart: the
// table's slots are loaded from memory and the stitched buffers are offsets
// into one arena, so every store may clobber every load and the loop
// vectorizer gives up (stitched layers) or guards each loop with run-time
// overlap checks (global ones). The plan knows better: distinct table slots
// are distinct buffers, and views in the arena or in a core's scratch whose
// byte ranges do not overlap are disjoint while the layer runs. Each group
// of possibly overlapping views gets one scope of a domain private to the
// function, and every access is marked noalias with the other scopes.

#include "codegen/internal/lowering.h"

#include <llvm/IR/MDBuilder.h>

#include <algorithm>
#include <numeric>

namespace stagecraft::codegen::detail {

namespace {

/// The memory a view lives in: a table slot (>= 0), the arena or the core's scratch.
constexpr int64_t kArena = -1;
constexpr int64_t kScratch = -2;

int64_t findRoot(std::vector<size_t>& parent, size_t i) {
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return static_cast<int64_t>(i);
}

} // namespace

AliasScopes::Region AliasScopes::regionOf(const View& view) const {
    switch (view.home) {
    case Home::Global:
        return {view.offset, 0, 1};
    case Home::Stitched:
        return {kArena, view.offset, view.offset + view.storageBytes(*graph_, tileSizes_)};
    case Home::Fused:
    case Home::Promoted:
        break;
    }
    return {kScratch, view.offset, view.offset + view.storageBytes(*graph_, tileSizes_)};
}

AliasScopes::AliasScopes(llvm::LLVMContext& context, const ir::Graph& graph, const LayerCode& layer,
                         const std::string& name)
    : graph_(&graph)
    , tileSizes_(layer.tileSizes()) {
    for (const View& v : layer.views)
        regions_.push_back(regionOf(v));
    for (const Promotion& p : layer.promotions)
        regions_.push_back({p.slot, 0, 1});
    std::vector<size_t> parent(regions_.size());
    std::iota(parent.begin(), parent.end(), size_t{0});
    for (size_t i = 0; i < regions_.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (overlap(regions_[i], regions_[j]))
                parent[static_cast<size_t>(findRoot(parent, i))] =
                    static_cast<size_t>(findRoot(parent, j));
    std::vector<int64_t> roots;
    for (size_t i = 0; i < regions_.size(); ++i) {
        int64_t root = findRoot(parent, i);
        auto it = std::find(roots.begin(), roots.end(), root);
        groupOf_.push_back(static_cast<size_t>(it - roots.begin()));
        if (it == roots.end())
            roots.push_back(root);
    }
    if (roots.size() < 2)
        return;
    llvm::MDBuilder md(context);
    llvm::MDNode* domain = md.createAnonymousAliasScopeDomain(name);
    std::vector<llvm::Metadata*> scopes;
    for (size_t g = 0; g < roots.size(); ++g)
        scopes.push_back(md.createAnonymousAliasScope(domain, name + ".r" + std::to_string(g)));
    for (size_t g = 0; g < roots.size(); ++g) {
        std::vector<llvm::Metadata*> others;
        for (size_t o = 0; o < roots.size(); ++o)
            if (o != g)
                others.push_back(scopes[o]);
        scope_.push_back(llvm::MDNode::get(context, scopes[g]));
        noAlias_.push_back(llvm::MDNode::get(context, others));
    }
}

bool AliasScopes::overlap(const Region& a, const Region& b) {
    return a.space == b.space && a.lo < b.hi && b.lo < a.hi;
}

void AliasScopes::annotate(Access& access, const View& view) const {
    if (scope_.empty())
        return;
    Region r = regionOf(view);
    for (size_t i = 0; i < regions_.size(); ++i)
        if (regions_[i].space == r.space && regions_[i].lo == r.lo && regions_[i].hi == r.hi) {
            access.aliasScope = scope_[groupOf_[i]];
            access.noAlias = noAlias_[groupOf_[i]];
            return;
        }
}

} // namespace stagecraft::codegen::detail
