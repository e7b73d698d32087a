#pragma once
// What the graph can colour its groups by (issue 20's overlays): their own
// colour (the default), or a figure of each group — simulated time, DDR
// traffic, spills or energy (cost_rows.h, over the whole batch; energy is
// unknown, every group grey, without an energy table) or its split factor
// (§3.1) — on one sequential scale from 0 to the largest group's figure;
// or by category: the kind of compute unit (matrix, vector, fallback) that
// computes longest in the group. The scale or the categories and their
// words are the legend's.

#include "common/pipeline_result.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

namespace stagecraft::views {

enum class GroupOverlay { Groups, Time, DdrTraffic, Spills, SplitFactor, Unit, Energy };

/// "groups", "time", "ddr", "spills", "split", "unit", "energy", in
/// GroupOverlay's order.
QStringList groupOverlayNames();
std::optional<GroupOverlay> parseGroupOverlay(const QString& name);
/// "Groups", "Simulated time", "DDR traffic"... for a menu.
QString groupOverlayTitle(GroupOverlay overlay);

struct GroupShading {
    GroupOverlay overlay = GroupOverlay::Groups;
    /// By group id; empty for GroupOverlay::Groups (each group's own colour).
    /// A group without kernels gets the "no figure" grey.
    std::vector<QColor> colors;
    /// By group id, the figure shaded (0 without kernels).
    std::vector<double> values;
    double maxValue = 0;
    /// "Simulated time per group (whole batch)", the low and high ends as text.
    QString title;
    QString lowText;
    QString highText;
    /// A categorical overlay (Unit): each category's name and colour, in
    /// the order shown; empty for the scales.
    std::vector<std::pair<QString, QColor>> categories;
    /// The figure is unknown (energy without an energy table): every group
    /// grey, the title says why, and there is no scale.
    bool unknown = false;
};

GroupShading groupShading(const PipelineResult& result, GroupOverlay overlay);

/// The sequential scale at \p fraction (0..1): pale yellow to dark red.
QColor shadeAt(double fraction);
/// The colour of groups without a figure (no kernel: nothing simulated).
QColor noFigureColor();

} // namespace stagecraft::views
