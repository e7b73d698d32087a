// The graph view's shades of the group colors (common/group_colors.h).

#include "graph/group_palette.h"

namespace stagecraft::views::graphview {

QColor clusterFill(partition::GroupId group) {
    QColor color = groupColor(group).lighter(108);
    color.setAlpha(110);
    return color;
}

QColor groupStroke(partition::GroupId group) {
    return groupColor(group).darker(170);
}

QColor highlightColor() {
    return QColor(0xd6, 0x27, 0x28);
}

QColor markColor() {
    return QColor(0x9b, 0x30, 0xff, 150);
}

} // namespace stagecraft::views::graphview
