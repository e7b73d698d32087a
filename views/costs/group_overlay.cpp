// Group overlays: each group's figure from its cost row (or its split), shaded
// linearly from 0 (palest) to the largest (darkest), so that equal steps of
// colour are equal steps of the figure. The scale runs through five stops of
// ColorBrewer's sequential "YlOrRd", interpolated in sRGB.

#include "costs/group_overlay.h"

#include "common/byte_text.h"
#include "common/energy_text.h"
#include "costs/cost_rows.h"
#include "usage/busy_chart.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>

namespace stagecraft::views {

namespace {

constexpr std::array kNames{"groups", "time", "ddr", "spills", "split", "unit", "energy"};
constexpr std::array kStops{0xffffb2U, 0xfecc5cU, 0xfd8d3cU, 0xf03b20U, 0xbd0026U};

std::vector<double> figures(const PipelineResult& result, GroupOverlay overlay) {
    const schedule::Schedule& schedule = result.eval.schedule;
    std::vector<double> values(schedule.groups.size(), 0.0);
    if (overlay == GroupOverlay::SplitFactor) {
        for (schedule::GroupId g : schedule.groups.ids())
            values[g.index()] = static_cast<double>(schedule.groups[g].instances.size());
        return values;
    }
    for (const CostRow& row : costRows(result, CostGrain::Groups)) {
        const size_t g = static_cast<size_t>(row.selection.id);
        values[g] = overlay == GroupOverlay::Time         ? row.breakdown.totalNs
                    : overlay == GroupOverlay::DdrTraffic ? static_cast<double>(row.traffic[0])
                    : overlay == GroupOverlay::Energy     ? (row.energy ? row.energy->totalPj() : 0)
                                                          : static_cast<double>(row.spills);
    }
    return values;
}

QString figureText(GroupOverlay overlay, double value) {
    switch (overlay) {
    case GroupOverlay::Time:
        return QString::number(value / 1000.0, 'f', 1) + QStringLiteral(" µs");
    case GroupOverlay::DdrTraffic:
        return formatBytes(static_cast<int64_t>(value));
    case GroupOverlay::Spills:
        return QString::number(static_cast<int64_t>(value)) + QStringLiteral(" spills");
    case GroupOverlay::SplitFactor:
        return QStringLiteral("×") + QString::number(static_cast<int64_t>(value));
    case GroupOverlay::Energy:
        return formatEnergy(value);
    case GroupOverlay::Groups:
    case GroupOverlay::Unit:
        break;
    }
    return {};
}

QString titleOf(GroupOverlay overlay) {
    switch (overlay) {
    case GroupOverlay::Time:
        return QStringLiteral("Simulated time per group, whole batch");
    case GroupOverlay::DdrTraffic:
        return QStringLiteral("Bytes each group moves to and from DDR, whole batch");
    case GroupOverlay::Spills:
        return QStringLiteral("Spills made while each group runs");
    case GroupOverlay::SplitFactor:
        return QStringLiteral("Split factor of each group (instances, §3.1)");
    case GroupOverlay::Unit:
        return QStringLiteral("The compute unit that computes longest in each group");
    case GroupOverlay::Energy:
        return QStringLiteral("Energy of each group (dynamic and static), whole batch");
    case GroupOverlay::Groups:
        break;
    }
    return QStringLiteral("Groups: each its own colour, its label on its box");
}

/// "matrix", "vector"... of a compute task's unit; "fallback" for the fallback CPU.
std::string unitKindOf(const PipelineResult& result, const kernel::Task& task) {
    const auto& groups = result.arch.cluster.coreGroups;
    if (task.unit == kernel::kFallbackUnit || groups.empty() || task.unit < 0 ||
        static_cast<size_t>(task.unit) >= groups.front().units.size())
        return "fallback";
    return std::string(
        arch::unitKindName(groups.front().units[static_cast<size_t>(task.unit)].kind));
}

/// Each group coloured by the unit kind with the most compute time (task
/// time on the unit, summed over the group's kernels); groups without a
/// compute task in the no-figure grey.
GroupShading unitShading(const PipelineResult& result, GroupShading shading) {
    const schedule::Schedule& schedule = result.eval.schedule;
    const auto& kernels = result.eval.program.kernels;
    std::vector<std::map<std::string, double>> perGroup(schedule.groups.size());
    for (const sim::Event& event : result.eval.sim.events) {
        const kernel::Task& task = result.eval.tasks.tasks[event.task];
        if (task.kind != kernel::TaskKind::Compute || task.kernel < 0 ||
            static_cast<size_t>(task.kernel) >= kernels.size())
            continue;
        const schedule::GroupId g =
            schedule.instances[kernels[static_cast<size_t>(task.kernel)].instance].group;
        perGroup[g.index()][unitKindOf(result, task)] += event.end - event.start;
    }
    std::set<std::string> used;
    for (const auto& times : perGroup) {
        if (times.empty()) {
            shading.colors.push_back(noFigureColor());
            shading.values.push_back(0);
            continue;
        }
        auto longest =
            std::max_element(times.begin(), times.end(),
                             [](const auto& a, const auto& b) { return a.second < b.second; });
        used.insert(longest->first);
        shading.colors.push_back(unitKindColor(longest->first));
        shading.values.push_back(longest->second);
    }
    for (const std::string& kind : used)
        shading.categories.push_back({QString::fromStdString(kind), unitKindColor(kind)});
    return shading;
}

/// Every group in the no-figure grey: energy is unknown without an energy
/// table, and a scale from 0 would say it was nothing.
GroupShading unknownEnergyShading(const PipelineResult& result, GroupShading shading) {
    const size_t groups = result.eval.schedule.groups.size();
    shading.colors.assign(groups, noFigureColor());
    shading.values.assign(groups, 0.0);
    shading.title = QStringLiteral("Energy per group: unknown, the architecture has no energy "
                                   "table");
    shading.lowText = shading.highText = unknownEnergyText();
    shading.unknown = true;
    return shading;
}

} // namespace

QStringList groupOverlayNames() {
    QStringList names;
    for (const char* name : kNames)
        names << QLatin1String(name);
    return names;
}

std::optional<GroupOverlay> parseGroupOverlay(const QString& name) {
    for (size_t i = 0; i < kNames.size(); ++i)
        if (name == QLatin1String(kNames[i]))
            return static_cast<GroupOverlay>(i);
    return std::nullopt;
}

QString groupOverlayTitle(GroupOverlay overlay) {
    switch (overlay) {
    case GroupOverlay::Time:
        return QStringLiteral("Simulated time");
    case GroupOverlay::DdrTraffic:
        return QStringLiteral("DDR traffic");
    case GroupOverlay::Spills:
        return QStringLiteral("Spills");
    case GroupOverlay::SplitFactor:
        return QStringLiteral("Split factor");
    case GroupOverlay::Unit:
        return QStringLiteral("Compute unit");
    case GroupOverlay::Energy:
        return QStringLiteral("Energy");
    case GroupOverlay::Groups:
        break;
    }
    return QStringLiteral("Groups");
}

QColor shadeAt(double fraction) {
    const double x = std::clamp(fraction, 0.0, 1.0) * static_cast<double>(kStops.size() - 1);
    const size_t low = std::min(static_cast<size_t>(x), kStops.size() - 2);
    const double t = x - static_cast<double>(low);
    const QColor a = QColor::fromRgb(kStops[low]);
    const QColor b = QColor::fromRgb(kStops[low + 1]);
    auto mix = [t](int u, int v) {
        return static_cast<int>(u + t * (v - u) + 0.5);
    };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

QColor noFigureColor() {
    return QColor(0xdd, 0xdd, 0xdd);
}

GroupShading groupShading(const PipelineResult& result, GroupOverlay overlay) {
    GroupShading shading;
    shading.overlay = overlay;
    shading.title = titleOf(overlay);
    if (overlay == GroupOverlay::Groups)
        return shading;
    if (overlay == GroupOverlay::Unit)
        return unitShading(result, std::move(shading));
    if (overlay == GroupOverlay::Energy && !result.eval.report.energy)
        return unknownEnergyShading(result, std::move(shading));
    shading.values = figures(result, overlay);
    shading.maxValue = shading.values.empty()
                           ? 0.0
                           : *std::max_element(shading.values.begin(), shading.values.end());
    const std::vector<CostRow> rows = costRows(result, CostGrain::Groups);
    std::vector<char> simulated(shading.values.size(), 0);
    for (const CostRow& row : rows)
        simulated[static_cast<size_t>(row.selection.id)] = 1;
    for (size_t g = 0; g < shading.values.size(); ++g)
        shading.colors.push_back(
            !simulated[g] && overlay != GroupOverlay::SplitFactor
                ? noFigureColor()
                : shadeAt(shading.maxValue > 0 ? shading.values[g] / shading.maxValue : 0.0));
    shading.lowText = figureText(overlay, 0);
    shading.highText = figureText(overlay, shading.maxValue);
    return shading;
}

} // namespace stagecraft::views
