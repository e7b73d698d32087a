#pragma once
// The color of a group, the same in every view: a fixed cycle of twelve hues
// (ColorBrewer "Set3", pastel, legible under black text) indexed by group id,
// so group "a" has the same color in every run and every view.

#include "partition/group_id.h"

#include <QColor>

namespace stagecraft::views {

/// The base color of group \p group; a light gray for no group (kNoGroup).
QColor groupColor(partition::GroupId group);

} // namespace stagecraft::views
