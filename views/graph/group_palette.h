#pragma once
// Colors of the groups: a fixed cycle of twelve hues (ColorBrewer "Set3"),
// indexed by group id, so group "a" has the same color in every run.

#include <QColor>

namespace stagecraft::views::graphview {

/// The base color of group \p group.
QColor groupColor(int group);
/// Fill of a cluster: the base color, light and translucent.
QColor clusterFill(int group);
/// Borders and text accents of the group.
QColor groupStroke(int group);
/// The pen of whatever the selection highlights.
QColor highlightColor();

} // namespace stagecraft::views::graphview
