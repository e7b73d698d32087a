#pragma once
// Shared by the benchmarks: a temporary directory and zoo models imported
// from it.

#include "ir/graph.h"
#include "zoo/zoo.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace stagecraft::bench {

using Clock = std::chrono::steady_clock;

/// Milliseconds since \p start.
double msSince(Clock::time_point start);

/// The median of \p values (the upper one of an even count); not empty.
double median(std::vector<double> values);

/// A fresh directory under the system temporary directory; empty on failure.
std::filesystem::path makeTempDir();

/// Writes zoo model \p name into \p dir and imports it; nullopt (with a
/// message on stderr) on failure.
std::optional<ir::Graph> zooGraph(const std::filesystem::path& dir, const std::string& name,
                                  const zoo::ZooOptions& options);

} // namespace stagecraft::bench
