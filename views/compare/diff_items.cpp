// Builds the diff tree's entries from a ScheduleDiff: texts name ops, groups
// (by their figure labels) and instances; marks index result A.

#include "compare/diff_items.h"

#include <algorithm>
#include <array>
#include <map>

namespace stagecraft::views {

namespace {

using schedule::GroupId;

void sortUnique(std::vector<int32_t>& ids) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

QString groupName(GroupId group) {
    return QString::fromStdString(partition::Partition::label(group));
}

QString opName(const PipelineResult& r, ir::OpId op) {
    return QString::fromStdString(r.graph->op(op).name);
}

/// Group \p group of \p r (A) with its instances.
Highlights groupMarks(const PipelineResult& r, GroupId group) {
    Highlights h;
    h.groups.push_back(group.value());
    const auto& instances = r.eval.schedule.groups[group].instances;
    for (schedule::InstanceId id : instances)
        h.instances.push_back(id.value());
    return h;
}

DiffCategory regrouped(const schedule::ScheduleDiff& diff, const PipelineResult& a,
                       const QString& labelA, const QString& labelB) {
    DiffCategory c{QObject::tr("Regrouped ops (%1)").arg(diff.regrouped.size()), {}, {}};
    for (const schedule::RegroupedOp& r : diff.regrouped) {
        Highlights h = groupMarks(a, r.groupA);
        h.ops = {r.op.value()};
        QString text =
            QObject::tr("%1: group %2 in %3, %4 in %5")
                .arg(opName(a, r.op), groupName(r.groupA), labelA, groupName(r.groupB), labelB);
        c.items.push_back({text, h, {Selection::Kind::Op, r.op.value(), -1}});
    }
    return c;
}

DiffCategory onlyInA(const schedule::ScheduleDiff& diff, const PipelineResult& a,
                     const QString& labelA) {
    DiffCategory c{
        QObject::tr("Groups only in %1 (%2)").arg(labelA).arg(diff.onlyInA.size()), {}, {}};
    for (GroupId g : diff.onlyInA) {
        Highlights h = groupMarks(a, g);
        auto ops = a.eval.schedule.partition.ops(g);
        for (ir::OpId op : ops)
            h.ops.push_back(op.value());
        QString text = QObject::tr("group %1: %2 ops from %3")
                           .arg(groupName(g))
                           .arg(ops.size())
                           .arg(opName(a, ops.front()));
        c.items.push_back({text, h, {Selection::Kind::Group, g.value(), -1}});
    }
    return c;
}

DiffCategory onlyInB(const schedule::ScheduleDiff& diff, const PipelineResult& a,
                     const PipelineResult& b, const QString& labelB) {
    DiffCategory c{
        QObject::tr("Groups only in %1 (%2)").arg(labelB).arg(diff.onlyInB.size()), {}, {}};
    for (GroupId g : diff.onlyInB) {
        auto ops = b.eval.schedule.partition.ops(g);
        Highlights h;
        for (ir::OpId op : ops) {
            Highlights ofGroup = groupMarks(a, a.eval.schedule.partition.groupOf(op));
            h.groups.insert(h.groups.end(), ofGroup.groups.begin(), ofGroup.groups.end());
            h.instances.insert(h.instances.end(), ofGroup.instances.begin(),
                               ofGroup.instances.end());
            h.ops.push_back(op.value());
        }
        h = unite({&h}, {});
        QString text = QObject::tr("group %1: %2 ops from %3")
                           .arg(groupName(g))
                           .arg(ops.size())
                           .arg(opName(b, ops.front()));
        c.items.push_back({text, h, {Selection::Kind::Op, ops.front().value(), -1}});
    }
    return c;
}

DiffCategory splits(const schedule::ScheduleDiff& diff, const PipelineResult& a,
                    const QString& labelA, const QString& labelB) {
    DiffCategory c{QObject::tr("Split changes (%1)").arg(diff.splits.size()), {}, {}};
    for (const schedule::SplitChange& s : diff.splits) {
        auto flag = [](bool overridden) {
            return overridden ? QObject::tr(" (override)") : QString();
        };
        QString text =
            QObject::tr("group %1: %2%3 in %4, %5%6 in %7")
                .arg(groupName(s.group.a), QString::fromStdString(schedule::splitText(s.splitA)),
                     flag(s.overriddenA), labelA,
                     QString::fromStdString(schedule::splitText(s.splitB)), flag(s.overriddenB),
                     labelB);
        c.items.push_back(
            {text, groupMarks(a, s.group.a), {Selection::Kind::Group, s.group.a.value(), -1}});
    }
    return c;
}

DiffCategory counts(const schedule::ScheduleDiff& diff, const PipelineResult& a,
                    const QString& labelA, const QString& labelB) {
    DiffCategory c{QObject::tr("Instance counts (%1)").arg(diff.instanceCounts.size()), {}, {}};
    for (const schedule::InstanceCountChange& n : diff.instanceCounts) {
        QString text = QObject::tr("group %1: %2 in %3, %4 in %5")
                           .arg(groupName(n.group.a))
                           .arg(n.countA)
                           .arg(labelA)
                           .arg(n.countB)
                           .arg(labelB);
        c.items.push_back(
            {text, groupMarks(a, n.group.a), {Selection::Kind::Group, n.group.a.value(), -1}});
    }
    return c;
}

DiffCategory order(const schedule::ScheduleDiff& diff, const PipelineResult& a,
                   const PipelineResult& b, const QString& labelA, const QString& labelB) {
    DiffCategory c{QObject::tr("Order changes (%1)").arg(diff.order.size()), {}, {}};
    for (const schedule::OrderChange& o : diff.order) {
        const schedule::Instance& ia = a.eval.schedule.instances[o.instanceA];
        const schedule::Instance& ib = b.eval.schedule.instances[o.instanceB];
        Highlights h;
        h.groups = {ia.group.value()};
        h.instances = {o.instanceA.value()};
        QString text =
            QObject::tr("%1 (%2 in %3): rank %4 in %5, %6 in %7")
                .arg(QString::fromStdString(ia.label), QString::fromStdString(ib.label), labelB)
                .arg(o.rankA)
                .arg(labelA)
                .arg(o.rankB)
                .arg(labelB);
        c.items.push_back({text, h, {Selection::Kind::Instance, o.instanceA.value(), -1}});
    }
    return c;
}

QString sharedText(const GroupMapping& m) {
    QStringList parts;
    for (const auto& [group, ops] : m.shared)
        parts << QObject::tr("%1 (%2)").arg(groupName(group)).arg(ops);
    return parts.join(QStringLiteral(", "));
}

QString mappingText(const GroupMapping& m, int64_t ops, const QString& labelB) {
    const QString head = QObject::tr("group %1 (%2 ops): ").arg(groupName(m.a)).arg(ops);
    switch (m.kind) {
    case GroupMapping::Kind::Split:
        return head %
               QObject::tr("split across %1 groups in %2: ").arg(m.shared.size()).arg(labelB) %
               sharedText(m);
    case GroupMapping::Kind::Merged:
        return head % QObject::tr("merged into %1 with other ops in %2")
                          .arg(groupName(m.shared.front().first), labelB);
    case GroupMapping::Kind::Regrouped:
        return head % QObject::tr("regrouped in %1: ").arg(labelB) % sharedText(m);
    case GroupMapping::Kind::Kept:
        break;
    }
    return head % QObject::tr("kept as %1 in %2").arg(groupName(m.shared.front().first), labelB);
}

DiffCategory mapping(const PipelineResult& a, const PipelineResult& b, const QString& labelB) {
    DiffCategory c;
    for (const GroupMapping& m : mapGroups(a, b)) {
        if (m.kind == GroupMapping::Kind::Kept)
            continue;
        const int64_t ops = static_cast<int64_t>(a.eval.schedule.partition.ops(m.a).size());
        c.items.push_back({mappingText(m, ops, labelB),
                           groupMarks(a, m.a),
                           {Selection::Kind::Group, m.a.value(), -1}});
    }
    c.title = QObject::tr("Group mapping (%1 changed)").arg(c.items.size());
    return c;
}

} // namespace

std::vector<GroupMapping> mapGroups(const PipelineResult& a, const PipelineResult& b) {
    const partition::Partition& pa = a.eval.schedule.partition;
    const partition::Partition& pb = b.eval.schedule.partition;
    std::vector<GroupMapping> out;
    for (GroupId g : pa.groupIds()) {
        GroupMapping m;
        m.a = g;
        std::map<GroupId, int64_t> shared;
        for (ir::OpId op : pa.ops(g))
            ++shared[pb.groupOf(op)];
        m.shared.assign(shared.begin(), shared.end());
        std::stable_sort(m.shared.begin(), m.shared.end(),
                         [](const auto& x, const auto& y) { return x.second > y.second; });
        const auto size = static_cast<int64_t>(pa.ops(g).size());
        const bool onlyOurs = std::all_of(m.shared.begin(), m.shared.end(), [&](const auto& s) {
            return static_cast<int64_t>(pb.ops(s.first).size()) == s.second;
        });
        if (m.shared.size() == 1)
            m.kind = static_cast<int64_t>(pb.ops(m.shared.front().first).size()) == size
                         ? GroupMapping::Kind::Kept
                         : GroupMapping::Kind::Merged;
        else
            m.kind = onlyOurs ? GroupMapping::Kind::Split : GroupMapping::Kind::Regrouped;
        out.push_back(std::move(m));
    }
    return out;
}

QString mappingSummary(const std::vector<GroupMapping>& mapping, int64_t groupsB,
                       const QString& labelA, const QString& labelB) {
    std::array<int64_t, 4> count{};
    for (const GroupMapping& m : mapping)
        ++count[static_cast<size_t>(m.kind)];
    return QObject::tr("%1's %2 groups from %3's %4: %5 kept, %6 split, %7 merged into larger "
                       "ones, %8 regrouped.")
        .arg(labelB)
        .arg(groupsB)
        .arg(labelA)
        .arg(mapping.size())
        .arg(count[0])
        .arg(count[1])
        .arg(count[2])
        .arg(count[3]);
}

Highlights unite(const std::vector<const Highlights*>& parts, const QString& caption) {
    Highlights all;
    for (const Highlights* h : parts) {
        all.ops.insert(all.ops.end(), h->ops.begin(), h->ops.end());
        all.groups.insert(all.groups.end(), h->groups.begin(), h->groups.end());
        all.instances.insert(all.instances.end(), h->instances.begin(), h->instances.end());
    }
    sortUnique(all.ops);
    sortUnique(all.groups);
    sortUnique(all.instances);
    all.caption = caption;
    return all;
}

std::vector<DiffCategory> diffCategories(const schedule::ScheduleDiff& diff,
                                         const PipelineResult& a, const PipelineResult& b,
                                         const QString& labelA, const QString& labelB) {
    std::vector<DiffCategory> all{regrouped(diff, a, labelA, labelB),
                                  onlyInA(diff, a, labelA),
                                  onlyInB(diff, a, b, labelB),
                                  splits(diff, a, labelA, labelB),
                                  counts(diff, a, labelA, labelB),
                                  order(diff, a, b, labelA, labelB),
                                  mapping(a, b, labelB)};
    for (DiffCategory& c : all) {
        std::vector<const Highlights*> parts;
        for (const DiffItem& item : c.items)
            parts.push_back(&item.marks);
        c.marks =
            unite(parts, labelA + QStringLiteral(" vs ") + labelB + QStringLiteral(": ") + c.title);
    }
    return all;
}

} // namespace stagecraft::views
