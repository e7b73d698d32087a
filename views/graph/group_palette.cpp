// The graph view's shades of the group colors (common/group_colors.h).

#include "graph/group_palette.h"

namespace stagecraft::views::graphview {

QColor clusterFill(const QColor& base) {
    QColor color = base.lighter(108);
    color.setAlpha(110);
    return color;
}

QColor groupStroke(const QColor& base) {
    return base.darker(170);
}

QColor inkOn(const QColor& fill) {
    // Relative luminance (ITU-R BT.709 weights on sRGB, close enough here).
    const double luminance = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return luminance < 0.45 ? QColor(Qt::white) : QColor(Qt::black);
}

QColor highlightColor() {
    return QColor(0xd6, 0x27, 0x28);
}

QColor matchColor() {
    return QColor(0xff, 0xa0, 0x00, 200);
}

QColor markColor() {
    return QColor(0x9b, 0x30, 0xff, 150);
}

} // namespace stagecraft::views::graphview
