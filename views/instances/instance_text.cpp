// Texts of the instance view. Shapes and bindings use the bracket notation
// of Fig. 9 rather than the "1x3x224x224" of the command line, so the view
// reads like the paper's figures.

#include "instances/instance_text.h"

#include "ir/graph.h"
#include "support/strings.h"

#include <QStringView>

#include <algorithm>
#include <array>

namespace stagecraft::views {

namespace {

using namespace Qt::StringLiterals;

QString scopeText(schedule::Scope scope) {
    return QString::fromUtf8(schedule::scopeName(scope));
}

QString labelsOf(const schedule::Schedule& schedule, const std::vector<schedule::InstanceId>& ids) {
    QStringList labels;
    for (schedule::InstanceId id : ids)
        labels << QString::fromStdString(schedule.instances[id].label);
    return labels.join(u", ");
}

} // namespace

QString bracketed(const std::vector<int64_t>& values) {
    QStringList parts;
    for (int64_t value : values)
        parts << QString::number(value);
    return u'[' + parts.join(u',') + u']';
}

namespace {

QString bindDetail(const schedule::Binding& bind) {
    const std::vector<int64_t> kept = schedule::trimmed(bind);
    return kept.empty() ? u"bind: 1 core"_s : u"bind="_s + bracketed(kept);
}

/// "cores 0–3" for the cores a binding uses, "core 0" for one.
QString coresText(const schedule::Binding& bind) {
    const int64_t cores = schedule::coresUsed(bind);
    return cores <= 1 ? u"core 0"_s : u"cores 0\u2013%1"_s.arg(cores - 1);
}

} // namespace

QString groupLetter(schedule::GroupId group) {
    return QString::fromStdString(partition::Partition::label(group));
}

QStringList instanceDetails(const schedule::Instance& instance) {
    return {u"shape="_s + bracketed(instance.shape), bindDetail(instance.bind),
            u"scope="_s + scopeText(instance.scope)};
}

QString moveTitle(const schedule::DataMove& move) {
    const QString kind = QString::fromUtf8(schedule::moveKindName(move.kind));
    switch (move.kind) {
    case schedule::DataMove::Kind::Copy:
        return kind + u'(' + scopeText(move.scope) + u',' + scopeText(move.fromScope) + u')';
    case schedule::DataMove::Kind::Redistribute:
        return kind + (schedule::coresUsed(move.bind) <= 1 ? u" onto "_s : u" over "_s) +
               coresText(move.bind);
    case schedule::DataMove::Kind::Concat:
        break;
    }
    return kind;
}

QStringList moveDetails(const schedule::DataMove& move) {
    return {u"shape="_s + bracketed(move.shape), u"scope="_s + scopeText(move.scope),
            bindDetail(move.bind)};
}

QString bundleTitle(const MoveBundle& bundle) {
    const QString from =
        bundle.from == partition::kNoGroup ? u"inputs"_s : groupLetter(bundle.from);
    return from + u" \u2192 "_s + groupLetter(bundle.to);
}

QStringList bundleDetails(const schedule::Schedule& schedule, const MoveBundle& bundle) {
    std::array<int, 3> byKind{};
    for (int32_t m : bundle.moves)
        ++byKind[static_cast<size_t>(schedule.moves[static_cast<size_t>(m)].kind)];
    QStringList kinds;
    for (auto kind : {schedule::DataMove::Kind::Copy, schedule::DataMove::Kind::Redistribute,
                      schedule::DataMove::Kind::Concat})
        if (const int n = byKind[static_cast<size_t>(kind)]; n > 0)
            kinds << QString::number(n) + u' ' + QString::fromUtf8(schedule::moveKindName(kind));
    const auto ops = static_cast<int>(bundle.moves.size());
    return {ops == 1 ? u"1 op"_s : QString::number(ops) + u" ops"_s, kinds.join(u" \u00b7 "_s)};
}

QString bundleToolTip(const schedule::Schedule& schedule, const ir::Graph& graph,
                      const MoveBundle& bundle) {
    std::vector<ir::TensorId> tensors;
    int64_t bytes = 0;
    for (int32_t m : bundle.moves) {
        const schedule::DataMove& move = schedule.moves[static_cast<size_t>(m)];
        if (std::find(tensors.begin(), tensors.end(), move.tensor) == tensors.end())
            tensors.push_back(move.tensor);
        if (graph.hasTensor(move.tensor))
            bytes += ir::elementCount(move.shape) * ir::dtypeSize(graph.tensor(move.tensor).dtype);
    }
    QStringList names;
    for (ir::TensorId t : tensors)
        names << (graph.hasTensor(t) ? QString::fromStdString(graph.tensor(t).name) : u"?"_s);
    return bundleTitle(bundle) + u": data movement inserted between the groups\n"_s +
           bundleDetails(schedule, bundle).join(u", "_s) + u", writing "_s +
           QString::fromStdString(formatBytes(bytes)) + u"\ntensors: "_s + names.join(u", "_s) +
           u"\nTurn off Bundle to see each op"_s;
}

QString instanceToolTip(const schedule::Instance& instance, int orderPosition) {
    QString text = QString::fromStdString(instance.label) + u"\nshape "_s +
                   bracketed(instance.shape) + u"\nfootprint "_s +
                   QString::fromStdString(formatBytes(instance.footprintBytes));
    if (!instance.fitsLocalBuffer)
        text += u" (exceeds the level's capacity)"_s;
    return text + u"\nbind "_s + bracketed(schedule::trimmed(instance.bind)) + u"\nscope "_s +
           scopeText(instance.scope) + u"\norder position "_s + QString::number(orderPosition);
}

QString moveToolTip(const schedule::Schedule& schedule, const schedule::DataMove& move) {
    const auto& consumer = schedule.instances[move.consumer];
    return moveTitle(move) + u'\n' + moveDetails(move).join(u'\n') + u"\nfrom "_s +
           labelsOf(schedule, move.sources) + u"\nto "_s + QString::fromStdString(consumer.label);
}

QString groupToolTip(const schedule::Schedule& schedule, schedule::GroupId group) {
    const schedule::Group& g = schedule.groups[group];
    QString text = u"group "_s + groupLetter(group) + u"\n"_s +
                   QString::number(g.instances.size()) + u" instances"_s;
    if (g.split)
        text += u", split: dim "_s + QString::number(g.split->dim) + u" x "_s +
                QString::number(g.split->factor);
    return text;
}

} // namespace stagecraft::views
