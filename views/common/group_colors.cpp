#include "common/group_colors.h"

#include <algorithm>
#include <array>

namespace stagecraft::views {

namespace {

constexpr std::array<QRgb, 12> kSet3 = {0x8dd3c7, 0xffffb3, 0xbebada, 0xfb8072, 0x80b1d3, 0xfdb462,
                                        0xb3de69, 0xfccde5, 0xd9d9d9, 0xbc80bd, 0xccebc5, 0xffed6f};
/// Degrees a round turns the hues: not a multiple of Set3's spacing (~30°),
/// so a turned hue falls between two of the first round's.
constexpr int kHueStep = 97;

} // namespace

QColor groupColor(partition::GroupId group) {
    if (group == partition::kNoGroup)
        return QColor(0xe8e8e8);
    const auto index = static_cast<size_t>(group.index());
    const QColor base(kSet3[index % kSet3.size()]);
    const auto round = static_cast<int>(index / kSet3.size());
    if (round == 0)
        return base;
    // Odd rounds darken; later rounds a little more (Set3's gray, d9d9d9,
    // has no hue to turn and is told apart by this alone).
    const int hue = base.hsvHue() < 0 ? -1 : (base.hsvHue() + kHueStep * round) % 360;
    const int percent = std::max(70, 100 - 15 * (round % 2) - 4 * (round / 2));
    return QColor::fromHsv(hue, base.hsvSaturation(), base.value() * percent / 100);
}

QColor stepGroupColor(int rank) {
    const int index = std::max(rank, 0);
    const int round = index / 8;
    const int hue = (15 + 45 * (index % 8) + 22 * round) % 360;
    // Saturation 190/255 (0.75): Set3's colours stay at or below 0.56.
    return QColor::fromHsv(hue, 190, round % 2 == 0 ? 225 : 190);
}

} // namespace stagecraft::views
