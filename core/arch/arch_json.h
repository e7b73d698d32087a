#pragma once
/// \file
/// The JSON form of an architecture description ("format": "stagecraft-arch",
/// "version": 1), documented field by field in docs/arch.md.

#include "arch/arch.h"
#include "support/expected.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace stagecraft::arch {

/// The "format" value of architecture files.
inline constexpr std::string_view kArchFormat = "stagecraft-arch";
/// The only "version" this build reads and writes.
inline constexpr int kArchVersion = 1;

/// Parses and validates a description. Errors are one line, prefixed with
/// \p sourceName and naming the JSON path of the field, e.g.
/// `x.json: cluster.core_groups[0].local_buffer.bytes: must be a positive integer (got -5)`.
/// Never throws.
Expected<Arch> parseArch(std::string_view json, std::string_view sourceName);

/// Reads and parses the file at \p path (errors prefixed with the path).
Expected<Arch> loadArchFile(const std::filesystem::path& path);

/// The resolved description: every field present (defaults filled in), keys
/// in a fixed order, 2-space indent, trailing newline. parseArch(toJson(a))
/// gives back \p a, and the text is the same on every run.
std::string toJson(const Arch& arch);

} // namespace stagecraft::arch
