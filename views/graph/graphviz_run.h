#pragma once
// One synchronous dot layout of a LayoutInput: the only code of Stagecraft
// that calls Graphviz (gvc, cgraph). Graphviz is not thread-safe, so every
// call takes one process-wide mutex; GraphvizLayouter adds the worker thread
// and the cache on top.

#include "graph/graph_layout.h"
#include "support/expected.h"

#include <cstdint>

namespace stagecraft::views::graphview {

/// Lays \p input out top to bottom with dot; fails with the reason when the
/// input is malformed (validateLayoutInput) or Graphviz refuses it.
Expected<LayoutPtr> runDotLayout(const LayoutInput& input);

/// Dot layouts run by this process, for tests that check none was needed.
int64_t dotLayoutsRun();

} // namespace stagecraft::views::graphview
