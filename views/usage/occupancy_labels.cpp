#include "usage/occupancy_labels.h"

#include "common/byte_text.h"

namespace stagecraft::views {

QString memoryTitle(const MemoryUsage& usage) {
    if (usage.memory.empty())
        return QStringLiteral("no memory");
    const std::string role = poolName(usage.pool);
    QString title = QString::fromStdString(role);
    if (usage.memory != role)
        title += QStringLiteral(" (%1)").arg(QString::fromStdString(usage.memory));
    return title + (usage.core >= 0 ? QStringLiteral(", core %1").arg(usage.core)
                                    : QStringLiteral(", cluster"));
}

namespace {

QString spills(int64_t n) {
    return n == 1 ? QStringLiteral("1 spill") : QStringLiteral("%1 spills").arg(n);
}

QString spillText(std::span<const SpillMark> marks) {
    int64_t toDdr = 0;
    for (const SpillMark& mark : marks)
        toDdr += mark.to == kernel::kDdrPool ? 1 : 0;
    const auto total = static_cast<int64_t>(marks.size());
    if (total == 0)
        return QStringLiteral("no spills");
    if (toDdr == 0)
        return spills(total) + QStringLiteral(" to GB");
    if (toDdr == total)
        return spills(total) + QStringLiteral(" to DDR");
    return spills(total - toDdr) + QStringLiteral(" to GB\n%1 to DDR").arg(toDdr);
}

} // namespace

QString memorySummary(const MemoryUsage& usage, int64_t peakBytes,
                      std::span<const SpillMark> marks) {
    QString capacity = QStringLiteral("capacity %1").arg(formatBufferBytes(usage.capacityBytes));
    if (usage.reservedBytes > 0)
        capacity +=
            QStringLiteral("\n(+ %1 for weights)").arg(formatBufferBytes(usage.reservedBytes));
    // Spills before tensors: when the plot is short, the count of tensors is
    // what the clip takes.
    return capacity + QStringLiteral("\npeak %1\n%2\n%3 tensors")
                          .arg(formatBufferBytes(peakBytes), spillText(marks))
                          .arg(usage.rects.size());
}

} // namespace stagecraft::views
