#pragma once
// The last few layouts by key, most recently used first, so that collapsing
// a group again or returning to an earlier grouping needs no new dot run.

#include "graph/graph_layout.h"

#include <cstddef>
#include <list>
#include <utility>

namespace stagecraft::views::graphview {

class LayoutCache {
public:
    explicit LayoutCache(size_t capacity)
        : capacity_(capacity) {}

    /// The layout under \p key, now the most recently used; null when absent.
    LayoutPtr find(const LayoutKey& key);
    /// Stores \p layout under \p key, dropping the least recently used entry
    /// when the cache is full.
    void insert(const LayoutKey& key, LayoutPtr layout);
    size_t size() const { return entries_.size(); }

private:
    size_t capacity_;
    std::list<std::pair<LayoutKey, LayoutPtr>> entries_;
};

} // namespace stagecraft::views::graphview
