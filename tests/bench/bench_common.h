#pragma once
// Shared by the benchmarks: a temporary directory and zoo models imported
// from it.

#include "ir/graph.h"
#include "zoo/zoo.h"

#include <filesystem>
#include <optional>
#include <string>

namespace stagecraft::bench {

/// A fresh directory under the system temporary directory; empty on failure.
std::filesystem::path makeTempDir();

/// Writes zoo model \p name into \p dir and imports it; nullopt (with a
/// message on stderr) on failure.
std::optional<ir::Graph> zooGraph(const std::filesystem::path& dir, const std::string& name,
                                  const zoo::ZooOptions& options);

} // namespace stagecraft::bench
