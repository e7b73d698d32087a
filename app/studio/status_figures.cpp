#include "studio/status_figures.h"

#include "support/strings.h"

#include <cmath>
#include <cstdlib>

namespace stagecraft::studio {

namespace {

QString latencyText(double us) {
    return us >= 1000 ? QString::number(us / 1000, 'f', 2) + QStringLiteral(" ms")
                      : QString::number(us, 'f', 1) + QStringLiteral(" µs");
}

QString signedPrefix(double delta) {
    return delta > 0 ? QStringLiteral("+") : QStringLiteral("−");
}

QString latencyDelta(double now, double before) {
    double delta = now - before;
    if (std::abs(delta) < 1e-3)
        return {};
    return QStringLiteral(" (") + signedPrefix(delta) + latencyText(std::abs(delta)) +
           QStringLiteral(")");
}

QString bytesDelta(int64_t now, int64_t before) {
    int64_t delta = now - before;
    if (delta == 0)
        return {};
    return QStringLiteral(" (") + signedPrefix(static_cast<double>(delta)) +
           QString::fromStdString(formatBytes(std::llabs(delta))) + QStringLiteral(")");
}

QString countDelta(int64_t now, int64_t before) {
    int64_t delta = now - before;
    if (delta == 0)
        return {};
    return QStringLiteral(" (") + signedPrefix(static_cast<double>(delta)) +
           QString::number(std::llabs(delta)) + QStringLiteral(")");
}

/// The change of the roofline share in percentage points, when it shows.
QString shareDelta(double now, double before) {
    const double points = 100 * (now - before);
    if (std::abs(points) < 0.5)
        return {};
    return QStringLiteral(" (") + signedPrefix(points) +
           QString::number(std::lround(std::abs(points))) + QStringLiteral(" pt)");
}

} // namespace

QString figuresText(const sim::Report& now, const sim::Report* before) {
    const QString sep = QStringLiteral(" · ");
    int64_t ddr = now.trafficBytes[0];
    // Strategies that tune no level (tvm, ago, ...) have none to say.
    QString text = QString::fromStdString(now.strategy) + sep;
    if (!now.level.empty())
        text += QString::fromStdString(now.level) + sep;
    text += QStringLiteral("latency ") + latencyText(now.latencyUs);
    if (before)
        text += latencyDelta(now.latencyUs, before->latencyUs);
    text += sep + QStringLiteral("DDR ") + QString::fromStdString(formatBytes(ddr));
    if (before)
        text += bytesDelta(ddr, before->trafficBytes[0]);
    text += sep + QString::number(now.kernels) + QStringLiteral(" kernels");
    if (before)
        text += countDelta(now.kernels, before->kernels);
    text += sep + QString::number(now.spills) + QStringLiteral(" spills");
    if (before)
        text += countDelta(now.spills, before->spills);
    double percent = now.efficiency * 100;
    QString share =
        percent > 0 && percent < 1 ? QStringLiteral("<1") : QString::number(std::lround(percent));
    text += sep + share + QStringLiteral("% of roofline");
    if (before)
        text += shareDelta(now.efficiency, before->efficiency);
    return text;
}

} // namespace stagecraft::studio
