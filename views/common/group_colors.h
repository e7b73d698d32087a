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

/// The fill of the \p rank-th sub-graph of a grouping step (Algorithm 2's
/// step-through): saturated where the groups' colours are pastel, so an
/// intermediate sub-graph never wears a final group's swatch. Eight hues,
/// then rounds that turn and darken them.
QColor stepGroupColor(int rank);

} // namespace stagecraft::views
