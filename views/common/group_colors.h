#pragma once
// The color of a group, the same in every view, indexed by group id so that
// group "a" has the same color in every run and every view. The first twelve
// are ColorBrewer "Set3" (pastel, legible under black text); each further
// round of twelve turns those hues and darkens every other round, so that
// ResNet-50's group "m" is not group "a" again.

#include "partition/group_id.h"

#include <QColor>

namespace stagecraft::views {

/// The base color of group \p group; a light gray for no group (kNoGroup).
QColor groupColor(partition::GroupId group);

} // namespace stagecraft::views
