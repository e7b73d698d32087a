#pragma once
// Checks shared by the instance view suites: the geometric promises of
// views::layoutInstances, as data.

#include "instances/instance_layout.h"

#include <QRectF>

#include <string>
#include <vector>

namespace stagecraft::test {

/// The first pair of overlapping rectangles as "i and j", or "" when none
/// overlap (touching edges do not count).
std::string firstOverlap(std::vector<QRectF> rects);

/// Every box that must not overlap another: group columns (group boxes) and
/// move ellipses.
std::vector<QRectF> separateBoxes(const views::InstanceLayout& layout);

/// "" when every needed and redundant edge and every move link points down
/// (producer entirely above consumer) and every instance edge joins groups
/// of strictly increasing layers; otherwise the first offender.
std::string firstUpwardEdge(const schedule::Schedule& schedule,
                            const views::InstanceLayout& layout);

/// "" when each group box contains its instances, which lie in index order
/// (left to right within a row, rows top to bottom) and do not overlap.
std::string firstMisplacedInstance(const schedule::Schedule& schedule,
                                   const views::InstanceLayout& layout);

/// Two layouts with identical geometry.
bool sameLayout(const views::InstanceLayout& a, const views::InstanceLayout& b);

} // namespace stagecraft::test
