// Labels and tool tips of timeline bars (timeline_text.h).

#include "timeline/timeline_text.h"

#include "common/time_axis.h"

#include <QLocale>

using namespace Qt::StringLiterals;

namespace stagecraft::views {

namespace {

QString kindName(const TimelineBar& bar) {
    if (bar.kernelSpan)
        return u"kernel"_s;
    const std::string_view name = kernel::taskKindName(bar.kind);
    return QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
}

bool hasOp(const TimelineBar& bar, const PipelineResult* result) {
    return result != nullptr && result->graph->hasOp(ir::OpId(bar.op));
}

} // namespace

QString barOpName(const TimelineBar& bar, const PipelineResult* result) {
    if (hasOp(bar, result)) {
        const ir::Op& op = result->graph->op(ir::OpId(bar.op));
        return QString::fromStdString(op.type) % u' ' % QString::fromStdString(op.name);
    }
    return bar.op >= 0 ? u"op %1"_s.arg(bar.op) : u"none"_s;
}

QString barInstanceName(const TimelineBar& bar, const PipelineResult* result) {
    if (bar.instance == schedule::kNoInstance)
        return u"none"_s;
    if (result == nullptr || !result->eval.schedule.instances.contains(bar.instance))
        return u"instance %1 (group %2)"_s.arg(bar.instance.value()).arg(bar.group.value());
    const schedule::Instance& instance = result->eval.schedule.instances[bar.instance];
    return QString::fromStdString(instance.label) % u" (group "_s %
           QString::fromStdString(partition::Partition::label(instance.group)) % u')';
}

QString barLabel(const TimelineBar& bar, const PipelineResult* result) {
    if (bar.kernelSpan)
        return barInstanceName(bar, result);
    if (bar.kind == kernel::TaskKind::Compute && hasOp(bar, result))
        return QString::fromStdString(result->graph->op(ir::OpId(bar.op)).name);
    return kindName(bar);
}

QString barToolTip(const TimelineBar& bar, const TimelineLane& lane, const PipelineResult* result) {
    const QLocale locale = QLocale::c();
    QString text = kindName(bar) % u" on "_s % QString::fromStdString(lane.name) % u'\n' %
                   u"op: "_s % barOpName(bar, result) % u'\n' % u"instance: "_s %
                   barInstanceName(bar, result) % u'\n';
    if (bar.bytes > 0)
        text += u"bytes: "_s % locale.toString(static_cast<qlonglong>(bar.bytes)) % u'\n';
    text += u"duration: "_s % formatNs(bar.duration()) % u'\n' % u"start-end: "_s %
            formatNs(bar.start) % u" - "_s % formatNs(bar.end);
    return text;
}

} // namespace stagecraft::views
