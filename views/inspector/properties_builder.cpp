// Properties of ops and tensors (graph facts plus the group they fall in),
// and the dispatch over selection kinds. Groups and instances are in
// schedule_properties.cpp.

#include "inspector/properties_builder.h"

#include "inspector/inspector_text.h"
#include "inspector/schedule_queries.h"
#include "support/strings.h"

#include <array>

namespace stagecraft::views::inspector {

using namespace Qt::StringLiterals;

namespace {

QString tensorRole(const ir::Graph& graph, ir::TensorId id) {
    const ir::Tensor& tensor = graph.tensor(id);
    if (tensor.isConstant())
        return u", weight"_s;
    if (graph.isGraphInput(id))
        return u", graph input"_s;
    return {};
}

void addTensorList(const ir::Graph& graph, const std::vector<ir::TensorId>& tensors,
                   PropertyNode& node) {
    for (ir::TensorId id : tensors) {
        if (id == ir::kNoTensor) {
            node.add(u"(omitted)"_s);
            continue;
        }
        const ir::Tensor& tensor = graph.tensor(id);
        node.add(QString::fromStdString(tensor.name),
                 tensorTypeText(tensor) % tensorRole(graph, id));
    }
}

void addCost(const PipelineResult& result, ir::OpId op, PropertyNode& root) {
    const auto& semantics = result.eval.schedule.semantics;
    if (!semantics)
        return;
    const ops::OpCost& cost = semantics->of(op).cost;
    if (cost.macs > 0)
        root.add(u"MACs"_s, QString::fromStdString(formatCount(cost.macs)));
    root.add(u"FLOPs"_s, QString::fromStdString(formatCount(cost.flops)));
}

QString producerText(const ir::Graph& graph, ir::TensorId id) {
    const ir::Tensor& tensor = graph.tensor(id);
    if (tensor.producer != ir::kNoOp)
        return QString::fromStdString(graph.op(tensor.producer).name);
    return tensor.isConstant() ? u"(weight)"_s : u"(graph input)"_s;
}

} // namespace

std::unique_ptr<PropertyNode> buildProperties(const PipelineResult& result,
                                              const Selection& selection) {
    auto root = std::make_unique<PropertyNode>();
    Selection valid = validSelection(result, selection);
    switch (valid.kind) {
    case Selection::Kind::Op:
        addOpProperties(result, ir::OpId(valid.id), *root);
        break;
    case Selection::Kind::Tensor:
        addTensorProperties(result, ir::TensorId(valid.id), *root);
        break;
    case Selection::Kind::Group:
        addGroupProperties(result, schedule::GroupId(valid.id), *root);
        break;
    case Selection::Kind::Instance:
        addInstanceProperties(result, schedule::InstanceId(valid.id), *root);
        break;
    case Selection::Kind::None:
        addOverviewProperties(result, *root);
        break;
    }
    return root;
}

void addOpProperties(const PipelineResult& result, ir::OpId op, PropertyNode& root) {
    const ir::Graph& graph = *result.graph;
    const ir::Op& node = graph.op(op);
    root.add(u"Name"_s, QString::fromStdString(node.name));
    root.add(u"Type"_s, QString::fromStdString(node.type));
    addTensorList(graph, node.inputs, root.add(u"Inputs"_s, QString::number(node.inputs.size())));
    addTensorList(graph, node.outputs,
                  root.add(u"Outputs"_s, QString::number(node.outputs.size())));
    const auto& attrs = node.attrs.entries();
    if (!attrs.empty()) {
        PropertyNode& list = root.add(u"Attributes"_s, QString::number(attrs.size()));
        for (const auto& [name, value] : attrs)
            list.add(QString::fromStdString(name),
                     QString::fromStdString(ir::formatAttrValue(value)));
    }
    root.add(u"Group"_s, groupLabel(result.eval.schedule.partition.groupOf(op)));
    addCost(result, op, root);
}

void addTensorProperties(const PipelineResult& result, ir::TensorId id, PropertyNode& root) {
    const ir::Graph& graph = *result.graph;
    const ir::Tensor& tensor = graph.tensor(id);
    root.add(u"Name"_s, QString::fromStdString(tensor.name));
    root.add(u"Shape"_s, shapeText(tensor.shape));
    root.add(u"Dtype"_s, toQString(ir::dtypeName(tensor.dtype)));
    root.add(u"Bytes"_s, bytesText(tensor.byteSize()));
    root.add(u"Producer"_s, producerText(graph, id));
    PropertyNode& consumers = root.add(u"Consumers"_s, QString::number(tensor.uses.size()));
    for (const ir::Use& use : tensor.uses)
        consumers.add(QString::fromStdString(graph.op(use.op).name), u"input %1"_s.arg(use.slot));
    if (auto group = groupWithOutput(result, id)) {
        root.add(u"Output of group"_s, groupLabel(*group));
        root.add(u"Scope"_s, scopeSummary(result.eval.schedule, *group));
    }
}

QString scopeSummary(const schedule::Schedule& schedule, schedule::GroupId group) {
    std::array<int, 3> counts{};
    for (schedule::InstanceId id : schedule.groups[group].instances)
        ++counts[static_cast<size_t>(schedule.instances[id].scope)];
    QStringList parts;
    for (auto scope : {schedule::Scope::LB, schedule::Scope::GB, schedule::Scope::DDR})
        if (int count = counts[static_cast<size_t>(scope)]; count > 0)
            parts << toQString(schedule::scopeName(scope)) % u' ' % QString::number(count);
    if (parts.size() == 1) // one scope for every instance: no count needed
        return parts.front().section(u' ', 0, 0);
    return parts.join(u", "_s);
}

} // namespace stagecraft::views::inspector
