#pragma once
// The grouped graph of a report as SVG: io::groupedGraphDot's text laid out
// and drawn by Graphviz's `dot -Tsvg` in a process of its own. Graphviz is
// not thread-safe and Studio lays graphs out in-process on a worker; a
// separate process cannot race it, and the CLI need not link Graphviz.

#include "ir/graph.h"
#include "schedule/schedule.h"
#include "support/expected.h"

#include <string>
#include <string_view>

namespace stagecraft::cli {

/// \p dot rendered by `dot -Tsvg` (found on PATH), as an `<svg>` element for
/// inlining in HTML: the XML prolog, the doctype, comments and namespace
/// declarations removed. Fails when dot cannot run or refuses the text.
Expected<std::string> renderDotSvg(std::string_view dot);

/// The grouped graph of \p partition (collapsed above 2,000 ops, as the
/// other exports) titled \p title, rendered by renderDotSvg.
Expected<std::string> groupedGraphSvg(const ir::Graph& graph, const partition::Partition& partition,
                                      const std::string& title);

} // namespace stagecraft::cli
