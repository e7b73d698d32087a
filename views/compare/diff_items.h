#pragma once
// The entries of the diff tree as data: for each category (regrouped ops,
// groups only in A or B, split changes, instance counts, order changes) its
// items, each with its text, the highlights it lights up in result A (the one
// the views show) and the selection it makes there.
//
// Highlights in A: ops are always regrouped ops (a group only in B lights up
// its ops and the A groups holding them); split and instance-count changes
// light up the A group and its instances; an order change its A instance.

#include "common/highlight.h"
#include "common/pipeline_result.h"
#include "common/selection.h"
#include "schedule/diff.h"

#include <QString>

#include <vector>

namespace stagecraft::views {

struct DiffItem {
    QString text;
    Highlights marks;
    Selection selection;
};

struct DiffCategory {
    QString title;
    std::vector<DiffItem> items;
    /// The union of the items' highlights.
    Highlights marks;
};

/// How a group of A lies in B, by the ops they share: the same ops
/// (kept), spread over several B groups that hold nothing else (split),
/// inside one larger B group (merged), or neither (regrouped).
struct GroupMapping {
    enum class Kind { Kept, Split, Merged, Regrouped };
    schedule::GroupId a;
    Kind kind = Kind::Kept;
    /// The B groups holding its ops, with how many each, most first.
    std::vector<std::pair<schedule::GroupId, int64_t>> shared;
};

/// Every group of \p a mapped to \p b's groups (same graph), by A's group index.
std::vector<GroupMapping> mapGroups(const PipelineResult& a, const PipelineResult& b);
/// "tvm's 57 groups from graphturbo's 13: 2 kept, 9 split, 1 merged, 1 regrouped."
QString mappingSummary(const std::vector<GroupMapping>& mapping, int64_t groupsB,
                       const QString& labelA, const QString& labelB);

/// The categories of \p diff between results \p a and \p b (same graph),
/// the group mapping (mapGroups) last.
std::vector<DiffCategory> diffCategories(const schedule::ScheduleDiff& diff,
                                         const PipelineResult& a, const PipelineResult& b,
                                         const QString& labelA, const QString& labelB);

/// The union of \p parts, each list sorted and without repeats, with \p caption.
Highlights unite(const std::vector<const Highlights*>& parts, const QString& caption);

} // namespace stagecraft::views
