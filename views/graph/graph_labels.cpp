// Label text of the graph view. The reserved widths cover the longest split
// ("dim 9 × 9999") and footprint ("1023.9 KiB") formatBufferBytes can print:
// sizes in memory are in binary units, as in the inspector and the plots.

#include "graph/graph_labels.h"

#include "common/byte_text.h"
#include "support/strings.h"

#include <algorithm>

namespace stagecraft::views::graphview {

using namespace Qt::StringLiterals;

namespace {

constexpr int kReservedSplitChars = 12;
constexpr int kReservedClusterChars = 25;
constexpr double kPaddingX = 16;
constexpr double kPaddingY = 8;

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

bool hasDigit(const QString& text) {
    return std::any_of(text.begin(), text.end(), [](QChar c) { return c.isDigit(); });
}

/// One part of a hierarchical name and the separator ('/' or '.') before it.
struct NamePart {
    QString separator;
    QString text;
};

/// "encoder.layer.11.attention/MatMul" → encoder, .layer.11, .attention,
/// /MatMul: split at '/' and '.', an index ("11") kept with the part it
/// numbers.
std::vector<NamePart> nameParts(const QString& name) {
    std::vector<NamePart> parts;
    NamePart current;
    auto finish = [&] {
        bool index =
            !current.text.isEmpty() && std::all_of(current.text.begin(), current.text.end(),
                                                   [](QChar c) { return c.isDigit(); });
        if (index && !parts.empty())
            parts.back().text += current.separator + current.text;
        else
            parts.push_back(current);
    };
    for (QChar c : name) {
        if (c == u'/' || c == u'.') {
            finish();
            current = {QString(c), QString()};
        } else {
            current.text += c;
        }
    }
    finish();
    return parts;
}

/// The longest end of \p parts after \p from, starting at a part, that
/// fits \p room characters (without its leading separator); may be empty.
QString fittingEnd(const std::vector<NamePart>& parts, size_t from, qsizetype room) {
    QString best;
    QString end;
    for (size_t i = parts.size(); i-- > from;) {
        end = parts[i].text + end;
        if (end.size() > room)
            break;
        best = end;
        end = parts[i].separator + end;
    }
    return best;
}

/// A hierarchical name shortened so that what tells its siblings apart
/// stays: the first numbered part (a layer index, "layer.11") and as much of
/// the end as fits, from a part boundary:
/// "encoder.layer.11.attention.self.query/MatMul" →
/// "…layer.11…self.query/MatMul". Empty when no such form fits.
QString elidedName(const QString& text, int maxChars) {
    std::vector<NamePart> parts = nameParts(text);
    if (parts.size() < 2)
        return {};
    QString head;
    size_t after = 0;
    for (size_t i = 0; i + 1 < parts.size(); ++i)
        if (hasDigit(parts[i].text)) {
            head = (i == 0 ? QString() : u"…"_s) + parts[i].text;
            after = i + 1;
            break;
        }
    QString end = fittingEnd(parts, after, maxChars - head.size() - 1);
    if (end.isEmpty() && !head.isEmpty()) {
        head.clear();
        end = fittingEnd(parts, 0, maxChars - 1);
    }
    return end.isEmpty() ? QString() : head + u"…"_s + end;
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
    // A strategy that does not size its groups for a buffer (tvm) has none.
    return bytes > 0 ? formatBufferBytes(bytes) : QString();
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
    QStringList lines{groupName(group), opCountText(schedule.partition.ops(group).size()),
                      splitText(schedule.groups[group])};
    if (QString footprint = footprintText(schedule, group); !footprint.isEmpty())
        lines << footprint;
    return lines;
}

QStringList scopeLines(const NameScope& scope, const std::set<partition::GroupId>& groups) {
    QString where;
    if (groups.size() == 1)
        where = u"group "_s % groupName(*groups.begin());
    else if (!groups.empty())
        where = QString::number(groups.size()) % u" groups ("_s % groupName(*groups.begin()) %
                u"…"_s % groupName(*groups.rbegin()) % u")"_s;
    return {elided(qs(scope.name)), opCountText(scope.opCount), where};
}

QStringList clusterLines(const PipelineResult& result, partition::GroupId group) {
    const schedule::Schedule& schedule = result.eval.schedule;
    const QString footprint = footprintText(schedule, group);
    return {groupName(group) % u" · "_s % opCountText(schedule.partition.ops(group).size()),
            footprint.isEmpty() ? splitText(schedule.groups[group])
                                : splitText(schedule.groups[group]) % u" · "_s % footprint};
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
                     formatBufferBytes(t.byteSize());
    }
    if (tensors.size() > kShown)
        lines << u"and %1 more"_s.arg(tensors.size() - kShown);
    return lines.join(u'\n');
}

QString elided(const QString& text, int maxChars) {
    if (text.size() <= maxChars)
        return text;
    QString name = elidedName(text, maxChars);
    if (!name.isEmpty())
        return name;
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
