#pragma once
// What the harnesses and the seed writer share: a scratch directory for
// files a reader needs on disk, and the graph schedule documents are read
// against.

#include "ir/graph.h"

#include <filesystem>
#include <string_view>

namespace stagecraft::fuzz {

/// The zoo model whose schedule documents the schedule harness reads.
inline constexpr std::string_view kScheduleModel = "fig2-blocks";

/// A directory of this process, made on first use under $STAGECRAFT_FUZZ_TMP,
/// else /dev/shm, else the system's temporary directory; removed at exit.
const std::filesystem::path& scratchDirectory();

/// kScheduleModel imported as `stagecraft schedule zoo:fig2-blocks` imports
/// it; aborts when that fails.
ir::Graph scheduleGraph();

} // namespace stagecraft::fuzz
