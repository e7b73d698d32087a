#pragma once
// The graph view's shades of the group colors shared by every view
// (common/group_colors.h).

#include "common/group_colors.h"

#include <QColor>

namespace stagecraft::views::graphview {

using views::groupColor;
/// Fill of a cluster: the base color, light and translucent.
QColor clusterFill(partition::GroupId group);
/// Borders and text accents of the group.
QColor groupStroke(partition::GroupId group);
/// The pen of whatever the selection highlights.
QColor highlightColor();
/// The halo of ops and groups a teaching or diff tool marks (common/highlight.h).
QColor markColor();

} // namespace stagecraft::views::graphview
