#pragma once
// A small schedule built by hand (no scheduling engine involved), with every
// part of a schedule document present: two groups split 4 and 2 ways, plain
// and redundant edges, a DFS order, a concat and a copy, a trace.

#include "io/schedule_json.h"

namespace stagecraft::test {

struct ScheduleFixture {
    ir::Graph graph;
    schedule::Schedule schedule;
    io::ScheduleDocInfo info;
};

/// Graph x -conv1-> t1 -relu1-> t2 -conv2-> t3 -relu2-> t4 (t4 the output);
/// group a = {conv1, relu1} split 4 ways along dim 0 of t2 (a1..a4), group
/// b = {conv2, relu2} split 2 ways along dim 0 of t4 (b1, b2).
ScheduleFixture makeScheduleFixture();

/// Field by field (schedule::Overrides' defaulted operator== is deleted: its
/// member structs have no operator==).
bool sameOverrides(const schedule::Overrides& a, const schedule::Overrides& b);
bool sameDocInfo(const io::ScheduleDocInfo& a, const io::ScheduleDocInfo& b);

} // namespace stagecraft::test
