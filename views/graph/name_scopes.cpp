// Name scopes (name_scopes.h). Op names are split into parts; ops sharing
// leading parts share scopes, found through a map keyed by (parent, part).
// Foldings are sets of scope indices; an op belongs to the outermost folded
// scope on its path to the root.

#include "graph/name_scopes.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <utility>

namespace stagecraft::views::graphview {

namespace {

struct Part {
    std::string text;
    /// Where the part ends in the name.
    size_t end = 0;
};

bool isNumber(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(),
                                        [](unsigned char c) { return std::isdigit(c) != 0; });
}

std::vector<Part> splitName(std::string_view name) {
    std::vector<Part> parts;
    size_t start = 0;
    for (size_t i = 0; i <= name.size(); ++i) {
        if (i < name.size() && name[i] != '/' && name[i] != '.')
            continue;
        std::string_view text = name.substr(start, i - start);
        if (!text.empty()) {
            if (isNumber(text) && !parts.empty()) {
                parts.back().text += '.';
                parts.back().text += text;
                parts.back().end = i;
            } else {
                parts.push_back({std::string(text), i});
            }
        }
        start = i + 1;
    }
    return parts;
}

/// \p scope, or the scope a chain of single children without ops of their
/// own leads to.
int settle(const NameScopes& scopes, int scope) {
    while (scopes.scopes[scope].children.size() == 1 && scopes.scopes[scope].ops.empty())
        scope = scopes.scopes[scope].children.front();
    return scope;
}

std::vector<int> settledChildren(const NameScopes& scopes, int scope) {
    std::vector<int> children;
    for (int child : scopes.scopes[scope].children)
        children.push_back(settle(scopes, child));
    return children;
}

bool isUnder(const NameScopes& scopes, int scope, int ancestor) {
    for (int s = scopes.scopes[scope].parent; s >= 0; s = scopes.scopes[s].parent)
        if (s == ancestor)
            return true;
    return false;
}

} // namespace

std::vector<std::string> nameParts(std::string_view name) {
    std::vector<std::string> texts;
    for (Part& part : splitName(name))
        texts.push_back(std::move(part.text));
    return texts;
}

NameScopes nameScopes(const ir::Graph& graph) {
    NameScopes result;
    result.scopes.push_back({});
    result.scopeOfOp.assign(graph.opCount(), 0);
    std::map<std::pair<int, std::string>, int> byPart;
    for (ir::OpId id : graph.opIds()) {
        const std::string& name = graph.op(id).name;
        const std::vector<Part> parts = splitName(name);
        const size_t begin = name.find_first_not_of('/');
        int scope = 0;
        for (size_t p = 0; p + 1 < parts.size(); ++p) {
            auto [it, added] = byPart.try_emplace({scope, parts[p].text}, 0);
            if (added) {
                it->second = static_cast<int>(result.scopes.size());
                NameScope child;
                child.name = name.substr(begin, parts[p].end - begin);
                child.parent = scope;
                child.depth = result.scopes[scope].depth + 1;
                result.scopes[scope].children.push_back(it->second);
                result.scopes.push_back(std::move(child));
            }
            scope = it->second;
        }
        result.scopeOfOp[id] = scope;
        result.scopes[scope].ops.push_back(id);
        for (int s = scope; s >= 0; s = result.scopes[s].parent)
            ++result.scopes[s].opCount;
    }
    return result;
}

std::vector<ir::OpId> NameScopes::opsUnder(int scope) const {
    std::vector<ir::OpId> ops;
    std::vector<int> pending{scope};
    while (!pending.empty()) {
        const NameScope& s = scopes[pending.back()];
        pending.pop_back();
        ops.insert(ops.end(), s.ops.begin(), s.ops.end());
        pending.insert(pending.end(), s.children.begin(), s.children.end());
    }
    std::sort(ops.begin(), ops.end());
    return ops;
}

int foldedScopeOf(const NameScopes& scopes, const FoldedScopes& folded, ir::OpId op) {
    int outermost = -1;
    for (int s = scopes.scopeOfOp[op]; s > 0; s = scopes.scopes[s].parent)
        if (folded.contains(s))
            outermost = s;
    return outermost;
}

size_t nodeCount(const NameScopes& scopes, const FoldedScopes& folded) {
    std::set<int> shown;
    size_t ops = 0;
    for (ir::OpId op : scopes.scopeOfOp.ids()) {
        const int scope = foldedScopeOf(scopes, folded, op);
        if (scope < 0)
            ++ops;
        else
            shown.insert(scope);
    }
    return ops + shown.size();
}

FoldedScopes coarsestFolding(const NameScopes& scopes) {
    if (scopes.scopes.empty())
        return {};
    const std::vector<int> top = settledChildren(scopes, settle(scopes, 0));
    return FoldedScopes(top.begin(), top.end());
}

FoldedScopes openingFolding(const NameScopes& scopes, size_t maxNodes) {
    FoldedScopes folded = coarsestFolding(scopes);
    std::vector<int> level(folded.begin(), folded.end());
    while (!level.empty()) {
        FoldedScopes deeper = folded;
        std::vector<int> next;
        for (int scope : level) {
            deeper.erase(scope);
            for (int child : settledChildren(scopes, scope)) {
                deeper.insert(child);
                next.push_back(child);
            }
        }
        // One node for everything shows nothing: unfold it whatever it costs.
        const size_t shown = nodeCount(scopes, folded);
        if (nodeCount(scopes, deeper) > maxNodes && shown > 1)
            break;
        folded = std::move(deeper);
        level = std::move(next);
    }
    return folded;
}

FoldedScopes unfold(const NameScopes& scopes, FoldedScopes folded, int scope) {
    folded.erase(scope);
    for (int child : settledChildren(scopes, scope))
        folded.insert(child);
    return folded;
}

FoldedScopes fold(const NameScopes& scopes, FoldedScopes folded, int scope) {
    std::erase_if(folded, [&](int s) { return isUnder(scopes, s, scope); });
    folded.insert(scope);
    return folded;
}

} // namespace stagecraft::views::graphview
