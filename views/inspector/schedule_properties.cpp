// Properties of groups and instances: the schedule's facts about them
// (§3.1 split, §3.3 instances and order, §3.4 binding and scope).

#include "inspector/inspector_text.h"
#include "inspector/properties_builder.h"
#include "inspector/schedule_queries.h"

#include <algorithm>

namespace stagecraft::views::inspector {

using namespace Qt::StringLiterals;

namespace {

/// Hub instances of large models have hundreds of neighbours; the tree
/// lists the first ones and says how many it left out.
constexpr size_t kListedNeighbours = 64;

void addInstanceList(const schedule::Schedule& schedule,
                     const std::vector<schedule::InstanceId>& instances, PropertyNode& node) {
    size_t listed = std::min(instances.size(), kListedNeighbours);
    for (size_t i = 0; i < listed; ++i)
        node.add(QString::fromStdString(schedule.instances[instances[i]].label),
                 instanceText(schedule, instances[i]));
    if (listed < instances.size())
        node.add(u"…"_s, u"%1 more"_s.arg(instances.size() - listed));
}

QString splitSource(const schedule::Group& group) {
    if (group.splitOverridden)
        return u" (override)"_s;
    return group.split ? u" (Algorithm 1)"_s : QString();
}

int orderPosition(const schedule::Schedule& schedule, schedule::InstanceId instance) {
    auto it = std::find(schedule.order.begin(), schedule.order.end(), instance);
    return it == schedule.order.end() ? -1 : static_cast<int>(it - schedule.order.begin());
}

} // namespace

void addGroupProperties(const PipelineResult& result, schedule::GroupId group, PropertyNode& root) {
    const ir::Graph& graph = *result.graph;
    const schedule::Schedule& s = result.eval.schedule;
    const schedule::Group& g = s.groups[group];
    auto ops = s.partition.ops(group);
    root.add(u"Label"_s, groupLabel(group));
    PropertyNode& opsNode = root.add(u"Ops"_s, QString::number(ops.size()));
    for (ir::OpId op : ops)
        opsNode.add(QString::fromStdString(graph.op(op).name),
                    QString::fromStdString(graph.op(op).type));
    const ir::Tensor& output = graph.tensor(g.splitInfo.output);
    root.add(u"Output"_s, QString::fromStdString(output.name));
    root.add(u"Output shape"_s, shapeText(output.shape));
    root.add(u"Peak footprint, unsplit"_s, bytesText(g.splitInfo.peakBytes));
    root.add(u"Split"_s, splitText(g.split) % splitSource(g));
    root.add(u"Instances"_s, QString::number(g.instances.size()));
    root.add(u"Split overridden"_s, yesNo(g.splitOverridden));
    root.add(u"Scope"_s, scopeSummary(s, group));
}

void addInstanceProperties(const PipelineResult& result, schedule::InstanceId instance,
                           PropertyNode& root) {
    const schedule::Schedule& s = result.eval.schedule;
    const schedule::Instance& inst = s.instances[instance];
    const schedule::Group& g = s.groups[inst.group];
    root.add(u"Label"_s, QString::fromStdString(inst.label));
    root.add(u"Group"_s, groupLabel(inst.group));
    root.add(u"Index"_s, u"%1 of %2"_s.arg(inst.index).arg(g.instances.size()));
    root.add(u"Shape"_s, shapeText(inst.shape));
    const int64_t cores = std::max<int64_t>(1, schedule::coresUsed(inst.bind));
    root.add(u"Footprint, all its cores"_s, bytesText(inst.footprintBytes));
    root.add(u"Footprint per core"_s,
             cores == 1 ? u"%1 on its one core"_s.arg(bytesText(inst.footprintBytes))
                        : u"%1 on each of %2 cores"_s
                              .arg(bytesText((inst.footprintBytes + cores - 1) / cores))
                              .arg(cores));
    root.add(u"Level capacity"_s, levelCapacityText(result));
    // A footprint over the level's capacity moves the output a level out
    // (applyScopeRules, core/schedule/binding.cpp).
    root.add(u"Fits the level"_s, inst.fitsLocalBuffer
                                      ? u"yes"_s
                                      : u"no: its output is kept in the %1"_s.arg(
                                            toQString(schedule::scopeName(inst.scope))));
    root.add(u"Binding"_s, bindingGloss(inst.bind));
    root.add(u"Scope"_s, toQString(schedule::scopeName(inst.scope)));
    int position = orderPosition(s, instance);
    root.add(u"Position in order"_s,
             position < 0 ? u"—"_s : u"%1 of %2"_s.arg(position + 1).arg(s.order.size()));
    std::vector<schedule::InstanceId> preds = predecessors(s, instance);
    addInstanceList(s, preds, root.add(u"Predecessors"_s, QString::number(preds.size())));
    std::vector<schedule::InstanceId> succs = successors(s, instance);
    addInstanceList(s, succs, root.add(u"Successors"_s, QString::number(succs.size())));
}

} // namespace stagecraft::views::inspector
