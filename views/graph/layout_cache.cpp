// A list is enough: the cache holds a handful of entries.

#include "graph/layout_cache.h"

#include <algorithm>

namespace stagecraft::views::graphview {

LayoutPtr LayoutCache::find(const LayoutKey& key) {
    auto found = std::find_if(entries_.begin(), entries_.end(),
                              [&](const auto& entry) { return entry.first == key; });
    if (found == entries_.end())
        return nullptr;
    entries_.splice(entries_.begin(), entries_, found);
    return entries_.front().second;
}

void LayoutCache::insert(const LayoutKey& key, LayoutPtr layout) {
    if (capacity_ == 0)
        return;
    std::erase_if(entries_, [&](const auto& entry) { return entry.first == key; });
    entries_.emplace_front(key, std::move(layout));
    if (entries_.size() > capacity_)
        entries_.pop_back();
}

} // namespace stagecraft::views::graphview
