#include "common/group_colors.h"

#include <array>

namespace stagecraft::views {

namespace {

constexpr std::array<QRgb, 12> kSet3 = {0x8dd3c7, 0xffffb3, 0xbebada, 0xfb8072, 0x80b1d3, 0xfdb462,
                                        0xb3de69, 0xfccde5, 0xd9d9d9, 0xbc80bd, 0xccebc5, 0xffed6f};

} // namespace

QColor groupColor(partition::GroupId group) {
    if (group == partition::kNoGroup)
        return QColor(0xe8e8e8);
    return QColor(kSet3[group.index() % kSet3.size()]);
}

} // namespace stagecraft::views
