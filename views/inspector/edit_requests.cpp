// Edit requests of the inspector (see edit_requests.h). "Unsplit" is a split
// override of factor 1 on dim 0: the pipeline evaluates it like any forced
// split (evaluateSplit accepts factor 1, whose instance is the whole group),
// marks the split overridden and refuses it when the group's footprint is
// over the level's capacity.

#include "inspector/edit_requests.h"

#include "inspector/inspector_text.h"
#include "schedule/edits.h"

#include <algorithm>

namespace stagecraft::views::inspector {

using namespace Qt::StringLiterals;

namespace {

const std::string& firstOpName(const PipelineResult& result, schedule::GroupId group) {
    return schedule::firstOpName(*result.graph, result.eval.schedule, group);
}

bool namesOpOf(const PipelineResult& result, const std::string& opName, schedule::GroupId group) {
    auto op = result.graph->findOp(opName);
    return op && result.eval.schedule.partition.groupOf(*op) == group;
}

/// Drops the hand-set splits of \p group; true when there was one.
bool dropSplitsOf(const PipelineResult& result, schedule::GroupId group,
                  schedule::Overrides& overrides) {
    return std::erase_if(overrides.splits, [&](const schedule::Overrides::Split& split) {
               return namesOpOf(result, split.op, group);
           }) > 0;
}

} // namespace

EditRequest splitRequest(const PipelineResult& result, schedule::GroupId group,
                         const std::optional<partition::SplitCandidate>& candidate) {
    EditRequest request{{}, result.overrides};
    dropSplitsOf(result, group, request.overrides);
    int dim = candidate ? candidate->dim : 0;
    int64_t factor = candidate ? candidate->factor : 1;
    request.overrides.splits.push_back({firstOpName(result, group), dim, factor});
    request.overrides.order.clear();
    request.description =
        candidate && factor > 1
            ? u"Split group %1: dim %2 × %3"_s.arg(groupLabel(group)).arg(dim).arg(factor)
            : u"Unsplit group %1"_s.arg(groupLabel(group));
    return request;
}

EditRequest mergeRequest(const PipelineResult& result, schedule::GroupId group,
                         schedule::GroupId other) {
    EditRequest request{{}, result.overrides};
    QStringList dropped;
    for (schedule::GroupId g : {std::min(group, other), std::max(group, other)})
        if (dropSplitsOf(result, g, request.overrides))
            dropped << groupLabel(g);
    request.overrides.merges.push_back({firstOpName(result, group), firstOpName(result, other)});
    const bool orderDropped = !request.overrides.order.empty();
    request.overrides.order.clear();
    schedule::GroupId first = std::min(group, other), second = std::max(group, other);
    request.description = u"Merge groups %1 and %2"_s.arg(groupLabel(first), groupLabel(second));
    // The merged group is split afresh by Algorithm 1: say what the user loses.
    if (!dropped.isEmpty())
        request.description += u"; drops the split set on group %1"_s.arg(dropped.join(u" and "_s));
    if (orderDropped)
        request.description += u"; drops the instance order set by hand"_s;
    return request;
}

EditRequest ungroupRequest(const PipelineResult& result, ir::OpId op) {
    EditRequest request{{}, result.overrides};
    schedule::GroupId group = result.eval.schedule.partition.groupOf(op);
    dropSplitsOf(result, group, request.overrides);
    const std::string& name = result.graph->op(op).name;
    request.overrides.ungroups.push_back({name});
    request.overrides.order.clear();
    request.description =
        u"Ungroup %1 at %2"_s.arg(groupLabel(group), QString::fromStdString(name));
    return request;
}

EditRequest hostRequest(const PipelineResult& result, ir::OpId op, bool onHost) {
    EditRequest request{{}, result.overrides};
    const std::string& name = result.graph->op(op).name;
    std::erase(request.overrides.host, name);
    if (onHost)
        request.overrides.host.push_back(name);
    if (result.eval.schedule.groupedBy == schedule::Grouping::Dla)
        request.overrides.order.clear();
    request.description = (onHost ? u"Run %1 on the host CPU"_s : u"Run %1 on the accelerator"_s)
                              .arg(QString::fromStdString(name));
    return request;
}

EditRequest scopePinRequest(const PipelineResult& result, ir::TensorId tensor,
                            schedule::Scope scope) {
    EditRequest request{{}, result.overrides};
    const std::string& name = result.graph->tensor(tensor).name;
    std::erase_if(request.overrides.scopes,
                  [&](const schedule::Overrides::ScopePin& pin) { return pin.tensor == name; });
    request.overrides.scopes.push_back({name, scope});
    request.description = u"Pin scope of %1 to %2"_s.arg(QString::fromStdString(name),
                                                         toQString(schedule::scopeName(scope)));
    return request;
}

EditRequest orderRequest(const PipelineResult& result, const QStringList& labels,
                         const QString& description) {
    EditRequest request{description, result.overrides};
    request.overrides.order.clear();
    for (const QString& label : labels)
        request.overrides.order.push_back(label.toStdString());
    return request;
}

} // namespace stagecraft::views::inspector
