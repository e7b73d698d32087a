#pragma once
// The graph view's shades of the group colors shared by every view
// (common/group_colors.h).

#include "common/group_colors.h"

#include <QColor>

namespace stagecraft::views::graphview {

using views::groupColor;
/// Fill of a cluster: the base color, light and translucent.
QColor clusterFill(const QColor& base);
/// Borders and text accents of a group of that base color.
QColor groupStroke(const QColor& base);
/// Black or white, whichever reads better on \p fill.
QColor inkOn(const QColor& fill);
/// The pen of whatever the selection highlights.
QColor highlightColor();
/// The halo of ops and groups a teaching or diff tool marks (common/highlight.h).
QColor markColor();
/// The halo of ops (or collapsed groups) that match the find field.
QColor matchColor();

} // namespace stagecraft::views::graphview
