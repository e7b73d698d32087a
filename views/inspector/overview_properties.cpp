// The inspector's rows when nothing is selected: the schedule as a whole, and
// where the capacity of its level comes from (§3.1: Algorithm 1 fills the
// cluster's aggregate LB; §3.6: or its GB).

#include "common/byte_text.h"
#include "common/time_axis.h"
#include "inspector/inspector_text.h"
#include "inspector/properties_builder.h"

#include <filesystem>

namespace stagecraft::views::inspector {

using namespace Qt::StringLiterals;

namespace {

/// " (L1)": the architecture's name of a memory the paper calls \p role;
/// empty when the names agree.
QString alsoCalled(const std::string& name, const char* role) {
    return name == role ? QString() : u" (%1)"_s.arg(QString::fromStdString(name));
}

} // namespace

QString levelCapacityText(const PipelineResult& result) {
    const schedule::Schedule& s = result.eval.schedule;
    const arch::Cluster& cluster = result.arch.cluster;
    const int64_t capacity = s.capacityBytes;
    if (s.level == schedule::Level::GB && cluster.globalBuffer)
        return u"GB%1: %2"_s.arg(alsoCalled(cluster.globalBuffer->name, "GB"),
                                 formatBufferBytes(capacity));
    if (cluster.coreGroups.empty() || !cluster.coreGroups.front().localBuffer)
        return formatBufferBytes(capacity);
    const arch::LocalBuffer& lb = *cluster.coreGroups.front().localBuffer;
    const int64_t cores = arch::coresPerCluster(result.arch);
    QString text =
        u"LB%1 of the cluster: %2"_s.arg(alsoCalled(lb.name, "LB"), formatBufferBytes(capacity));
    if (capacity != cores * lb.activationBytes())
        return text;
    text += u", %1 cores × %2"_s.arg(cores).arg(formatBufferBytes(lb.activationBytes()));
    if (lb.weightReserveBytes > 0)
        text += u" (+ %1 each for weights)"_s.arg(formatBufferBytes(lb.weightReserveBytes));
    return text;
}

namespace {

QString levelText(const PipelineResult& result) {
    const QString level = toQString(schedule::levelName(result.eval.schedule.level));
    return result.levelChoice ? level % u" (as asked)"_s : level % u" (auto)"_s;
}

} // namespace

void addOverviewProperties(const PipelineResult& result, PropertyNode& root) {
    const schedule::Schedule& s = result.eval.schedule;
    const sim::Report& report = result.eval.report;
    root.add(u"Selection"_s, u"none: click an op, group, instance or tensor in any view"_s);
    if (!result.modelPath.empty())
        root.add(u"Model"_s, QString::fromStdString(
                                 std::filesystem::path(result.modelPath).filename().string()));
    root.add(u"Architecture"_s, QString::fromStdString(result.arch.name));
    root.add(u"Strategy"_s, QString::fromStdString(result.strategy));
    PropertyNode& level = root.add(u"Level"_s, levelText(result));
    if (!result.levelWhy.empty())
        level.add(u"Why"_s, QString::fromStdString(result.levelWhy));
    root.add(u"Level capacity"_s, levelCapacityText(result));
    root.add(u"Precision"_s, QString::fromStdString(report.precision));
    root.add(u"Groups"_s, QString::number(s.groups.size()));
    root.add(u"Instances"_s, QString::number(s.instances.size()));
    root.add(u"Kernels per cluster"_s, QString::number(report.kernels));
    root.add(u"Simulated latency"_s, formatNs(report.latencyUs * 1000.0));
    root.add(u"Share of the roofline"_s, u"%1 %"_s.arg(report.efficiency * 100.0, 0, 'f', 1));
    root.add(u"DDR traffic"_s, formatBytes(report.trafficBytes[0]));
    root.add(u"Spills"_s, QString::number(report.spills));
}

} // namespace stagecraft::views::inspector
