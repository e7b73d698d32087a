#pragma once
/// \file
/// A grouped graph as Graphviz DOT text (docs/exports.md): the ops of each
/// group of a partition drawn inside one cluster, or, collapsed, one node per
/// group. A pure function of its inputs: node ids come from op, tensor and
/// group ids, everything is emitted in id order, so the same graph and
/// partition give byte-identical text. Nothing here links Graphviz.

#include "ir/graph.h"
#include "partition/partition.h"

#include <string>
#include <string_view>

namespace stagecraft::io {

struct DotOptions {
    /// The graph's label, drawn on top; empty for none.
    std::string title;
    /// One node per group instead of one per op; an edge between two groups
    /// is labelled with the tensors crossing it and their bytes. For big graphs.
    bool collapsed = false;
};

/// The graph with its ops grouped as clusters, as Graphviz DOT text.
/// Expanded: `subgraph cluster_<label>` per group holding node `op<id>` per
/// op; graph inputs `in<tensor id>` and outputs `out<tensor id>` as house
/// shapes; one edge per use of a tensor, labelled with its shape. Collapsed:
/// node `group_<label>` per group. Constants (weights) are omitted.
/// \p partition must be a partition of \p graph.
std::string groupedGraphDot(const ir::Graph& graph, const partition::Partition& partition,
                            const DotOptions& options = {});

/// \returns \p text as a DOT double-quoted string: `"` and `\` escaped, line
/// breaks as `\n`, other control characters as spaces.
std::string dotQuoted(std::string_view text);

} // namespace stagecraft::io
