// Builds the diff tree's entries from a ScheduleDiff: texts name ops, groups
// (by their figure labels) and instances; marks index result A.

#include "compare/diff_items.h"

#include <algorithm>

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

} // namespace

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
    std::vector<DiffCategory> all{
        regrouped(diff, a, labelA, labelB), onlyInA(diff, a, labelA),
        onlyInB(diff, a, b, labelB),        splits(diff, a, labelA, labelB),
        counts(diff, a, labelA, labelB),    order(diff, a, b, labelA, labelB)};
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
