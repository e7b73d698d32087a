#pragma once
/// \file
/// Small string helpers shared by the core and the front ends.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft {

/// Joins \p parts with \p separator.
std::string join(const std::vector<std::string>& parts, std::string_view separator);

/// Splits \p text at every \p separator (empty fields are kept).
std::vector<std::string> split(std::string_view text, char separator);

/// \returns \p text without leading and trailing white space.
std::string_view trim(std::string_view text);

/// Parses a whole decimal integer; nullopt on any stray character or overflow.
std::optional<int64_t> parseInt(std::string_view text);

/// Parses a whole decimal floating-point number; nullopt on stray characters.
std::optional<double> parseDouble(std::string_view text);

/// "1.5 MB", "312 B": binary-free, powers of 1000, for human reports.
std::string formatBytes(int64_t bytes);

/// "25.56 M", "4.09 G": a count with an SI suffix and two decimals.
std::string formatCount(int64_t count);

/// \returns \p text with control characters (C0, DEL and the C1 range in
/// UTF-8) written as \xNN escapes, so that a name from a file cannot move the
/// cursor, clear the screen or break a one-line message.
std::string printable(std::string_view text);

/// \returns printable(\p text) in single quotes for messages: 'x'.
std::string quote(std::string_view text);

} // namespace stagecraft
