// Label text of the graph view. The reserved widths cover the longest split
// ("dim 9 × 9999") and footprint ("999.99 MB") formatBytes can print.

#include "graph/graph_labels.h"

#include "support/strings.h"

#include <algorithm>

namespace stagecraft::views::graphview {

using namespace Qt::StringLiterals;

namespace {

constexpr int kReservedSplitChars = 12;
constexpr int kReservedClusterChars = 24;
constexpr double kPaddingX = 16;
constexpr double kPaddingY = 8;

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

QString groupName(partition::GroupId group) {
    return qs(partition::Partition::label(group));
}

QString splitText(const schedule::Group& group) {
    if (!group.split || group.split->factor <= 1)
        return u"unsplit"_s;
    return u"dim %1 × %2"_s.arg(group.split->dim).arg(group.split->factor);
}

QString footprintText(const schedule::Schedule& schedule, partition::GroupId group) {
    int64_t bytes = 0;
    for (schedule::InstanceId id : schedule.groups[group].instances)
        bytes = std::max(bytes, schedule.instances[id].footprintBytes);
    return qs(formatBytes(bytes));
}

QString opCountText(size_t ops) {
    return ops == 1 ? u"1 op"_s : u"%1 ops"_s.arg(ops);
}

QStringList opLines(const ir::Graph& graph, ir::OpId id) {
    const ir::Op& op = graph.op(id);
    QStringList shapes;
    for (ir::TensorId t : op.outputs)
        shapes << qs(ir::formatShape(graph.tensor(t).shape));
    return {elided(qs(op.name)), elided(qs(op.type)), elided(shapes.join(u", "_s))};
}

QStringList terminalLines(const ir::Graph& graph, ir::TensorId tensor) {
    const ir::Tensor& t = graph.tensor(tensor);
    return {elided(qs(t.name)), elided(qs(ir::formatShape(t.shape)))};
}

QStringList groupNodeLines(const PipelineResult& result, partition::GroupId group) {
    const schedule::Schedule& schedule = result.eval.schedule;
    return {groupName(group), opCountText(schedule.partition.ops(group).size()),
            splitText(schedule.groups[group]), footprintText(schedule, group)};
}

QStringList clusterLines(const PipelineResult& result, partition::GroupId group) {
    const schedule::Schedule& schedule = result.eval.schedule;
    return {groupName(group) % u" · "_s % opCountText(schedule.partition.ops(group).size()),
            splitText(schedule.groups[group]) % u" · "_s % footprintText(schedule, group)};
}

QString opToolTip(const ir::Graph& graph, ir::OpId id, partition::GroupId group) {
    const ir::Op& op = graph.op(id);
    QStringList lines{qs(op.name), qs(op.type)};
    for (ir::TensorId t : op.outputs)
        lines << qs(graph.tensor(t).name) % u" "_s % qs(ir::formatShape(graph.tensor(t).shape));
    lines << u"group "_s % groupName(group);
    return lines.join(u'\n');
}

QString edgeToolTip(const ir::Graph& graph, const std::vector<ir::TensorId>& tensors) {
    constexpr size_t kShown = 6;
    QStringList lines;
    for (size_t i = 0; i < tensors.size() && i < kShown; ++i) {
        const ir::Tensor& t = graph.tensor(tensors[i]);
        lines << qs(t.name) % u" "_s % qs(ir::formatShape(t.shape)) % u", "_s %
                     qs(formatBytes(t.byteSize()));
    }
    if (tensors.size() > kShown)
        lines << u"and %1 more"_s.arg(tensors.size() - kShown);
    return lines.join(u'\n');
}

QString elided(const QString& text, int maxChars) {
    if (text.size() <= maxChars)
        return text;
    qsizetype head = (maxChars - 1) / 2;
    qsizetype tail = maxChars - 1 - head;
    return text.left(head) % u"…"_s % text.right(tail);
}

QSizeF textBlockSize(const QStringList& lines, int reservedChars) {
    qsizetype chars = reservedChars;
    for (const QString& line : lines)
        chars = std::max(chars, line.size());
    return {static_cast<double>(chars) * kCharWidth + kPaddingX,
            static_cast<double>(lines.size()) * kLineHeight + kPaddingY};
}

// Split and footprint lines count by their reserved width only.
QSizeF groupNodeSize(const PipelineResult& result, partition::GroupId group) {
    QStringList lines = groupNodeLines(result, group).mid(0, 2);
    lines << QString() << QString();
    return textBlockSize(lines, kReservedSplitChars);
}

QSizeF clusterLabelSize(const PipelineResult& result, partition::GroupId group) {
    QStringList lines = clusterLines(result, group).mid(0, 1);
    lines << QString();
    return textBlockSize(lines, kReservedClusterChars);
}

} // namespace stagecraft::views::graphview
