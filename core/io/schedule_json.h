#pragma once
/// \file
/// The schedule document (docs/schedule-format.md): a Schedule as JSON with
/// `"format": "stagecraft-schedule"`, `"version": 1` — groups with their
/// SplitInfo and split, instances with shape, footprint, binding and scope,
/// the instance DAG, the order, utilization, inserted data-movement ops, the
/// cluster plan, the overrides that produced it and, when asked, the algorithm
/// trace. Writing is deterministic (keys in a fixed order, 2-space indent, a
/// trailing newline) and exact: write(read(write(s))) == write(s) byte for byte.

#include "ir/graph.h"
#include "schedule/pipeline.h"
#include "schedule/schedule.h"
#include "support/expected.h"

#include <string>
#include <string_view>

namespace stagecraft::io {

inline constexpr std::string_view kScheduleFormat = "stagecraft-schedule";
inline constexpr int kScheduleVersion = 1;

/// What a schedule document says besides the schedule itself.
struct ScheduleDocInfo {
    /// The model as the user named it: a file path or "zoo:NAME".
    std::string modelPath;
    /// The architecture's name.
    std::string archName;
    /// The order asked for (the schedule's orderKind is what it resolved to).
    schedule::OrderChoice orderChoice = schedule::OrderChoice::Best;
    /// The overrides the schedule was built with.
    schedule::Overrides overrides;
    /// Write the schedule's algorithm trace as the `trace` member.
    bool includeTrace = false;
};

/// A schedule document read back.
struct ScheduleDocument {
    /// Everything the document holds. `grouping` (Algorithm 2's result before
    /// user regrouping) and `semantics` are not part of the document and stay
    /// null: to edit the schedule further, re-run the pipeline with
    /// info.overrides (reschedule() then falls back to buildSchedule()).
    schedule::Schedule schedule;
    ScheduleDocInfo info;
};

/// \p schedule of \p graph as a schedule document.
std::string writeScheduleJson(const ir::Graph& graph, const schedule::Schedule& schedule,
                              const ScheduleDocInfo& info);

/// Reads a schedule document written for \p graph. Everything is checked:
/// format and version, every field's type and range, every op, tensor and
/// instance name, the partition (each op of the graph in exactly one group,
/// groups numbered topologically), instance numbering and labels, edges along
/// group edges, the order (a topological permutation of the instances).
/// Errors are one line naming \p source and the field path, e.g.
/// "s.json: groups[3].ops[2]: unknown op 'conv9'".
Expected<ScheduleDocument> readScheduleJson(std::string_view text, const ir::Graph& graph,
                                            std::string_view source);

} // namespace stagecraft::io
