#pragma once
/// \file
/// Internal to core/io: the parts of the documents that more than one file
/// writes or reads (the overrides object, the trace), and the state of a
/// schedule document being read.

#include "io/internal/json_fields.h"
#include "io/internal/json_text.h"
#include "schedule/pipeline.h"
#include "schedule/schedule.h"

#include <map>
#include <string>
#include <vector>

namespace stagecraft::io {

/// The overrides object, all five keys, without format and version.
json::OrderedJson overridesToJson(const schedule::Overrides& overrides);
/// The overrides object at \p path: keys `merge`, `ungroup`, `split`,
/// `order`, `scope`, each optional, and `format` and `version` when
/// \p isFile (the caller checks those).
Expected<schedule::Overrides> overridesFromJson(const json::Json& value, const std::string& path,
                                                bool isFile);

/// The trace object {merges, order, binding}; ops by name.
json::OrderedJson traceToJson(const ir::Graph& graph, const partition::Trace& trace);
/// Reads the trace at \p path; instance names must be in \p labels.
Expected<partition::Trace> traceFromJson(const json::Json& value, const std::string& path,
                                         const ir::Graph& graph,
                                         const std::map<std::string, schedule::InstanceId>& labels);

/// A schedule document being read: the parts read so far.
struct DocReader {
    const ir::Graph& graph;
    schedule::Schedule schedule;
    /// Instance label -> id.
    std::map<std::string, schedule::InstanceId> labels;
    /// Instances each group declares (`groups[i].instances`).
    IdVector<schedule::GroupId, int64_t> instanceCounts;
};

/// `groups`: the partition and every group (splits checked against the
/// group's output), instances not yet known.
Status readGroups(DocReader& reader, const json::Json& root);
/// `instances`: checked against their groups; fills the groups' instance lists.
Status readInstances(DocReader& reader, const json::Json& root);
/// `edges` and `redundant_edges`: along group edges, no duplicates.
Status readEdges(DocReader& reader, const json::Json& root);
/// `order_kind`, `order` (a permutation, topological) and `utilization`.
Status readOrder(DocReader& reader, const json::Json& root);
/// `inserted`: the data-movement ops.
Status readMoves(DocReader& reader, const json::Json& root);

/// The scope name (LB, GB, DDR) in member \p key of \p object.
Expected<schedule::Scope> scopeField(const json::Json& object, const std::string& path,
                                     const char* key);

/// A binding read back (documents write schedule::trimmed, as Fig. 9 prints
/// it): \p trimmed padded with 1s to \p rank; fails when it
/// is longer than the rank.
Expected<schedule::Binding> paddedBinding(std::vector<int64_t> trimmed, size_t rank,
                                          const std::string& path);

} // namespace stagecraft::io
