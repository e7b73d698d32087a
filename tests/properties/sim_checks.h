#pragma once
// The properties every evaluated strategy run must have (GraphTurbo §4–5):
// schedule -> kernel plans -> allocation -> streams -> simulation -> report.
// The engine's validators run first (validateTimeline, validateAllocation);
// then each promise is checked again here from the data: the task graph's
// shape, buffer placements, the compute work dispatched against the planned
// work, the latency against the roofline, the report against the program.
// Each check returns the first violation as one line (empty: holds).

#include "sim/compare.h"

#include <string>

namespace stagecraft::test {

/// Every property of \p ev, a run of \p strategy; "" when all hold.
std::string evaluationProblem(const sim::Strategy& strategy, const sim::Evaluation& ev);

/// The first difference between two evaluations of the same inputs: task
/// graph, events (start, end, data phase, resource, slot), makespan and
/// every report field, compared exactly; "" when they are equal.
std::string evaluationDifference(const sim::Evaluation& a, const sim::Evaluation& b);

/// Energy (sim/energy.h) of \p ev, a run on \p arch: unknown exactly when
/// the arch has no energy table; every part finite and non-negative; the
/// actions, the levels, dynamic and static, the groups and the kernels each
/// add up to the run; leakage is the chip's static power over the latency;
/// the DDR reads and writes are the report's DDR bytes at DDR's figures, and
/// the GB's its GB bytes (a core with an LB reads its operands there). ""
/// when all hold.
std::string energyProblem(const arch::Arch& arch, const sim::Evaluation& ev);

/// The roofline chart (sim/roofline_chart.h) of \p ev on \p arch: every
/// kernel's and group's throughput at most the compute ceiling and, at each
/// level it moves bytes at, the level's bandwidth times its intensity; the
/// kernels' operations the compute tasks' work. "" when all hold.
std::string rooflineProblem(const arch::Arch& arch, const sim::Evaluation& ev);

namespace detail {
/// Placements of every buffer (§4.3): the first at the buffer's first task,
/// task order, pools only moving towards slower memory (LB -> GB -> DDR),
/// graph outputs ending in DDR.
std::string placementProblem(const kernel::Program& program);
/// No two buffers resident in one pool share bytes at the same time (the
/// allocator's offsets over the simulated times: space reused only after
/// its previous tenant left).
std::string residencyProblem(const kernel::Program& program, const sim::SimResult& sim);
/// Dependencies point backwards, every event ran forwards in time.
std::string taskGraphProblem(const kernel::TaskGraph& tasks, const sim::SimResult& sim);
/// The compute tasks carry each layer's planned work exactly once, their
/// time that work's unit time over the cores the layer keeps busy: its t
/// tiles dealt to the kernel's c cores in turn take ceil(t / c) rounds.
std::string workProblem(const kernel::Program& program, const kernel::TaskGraph& tasks);
} // namespace detail

} // namespace stagecraft::test
