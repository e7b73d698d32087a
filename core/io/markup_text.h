#pragma once
/// \file
/// Text for XML and HTML (SVG exports, the HTML report): model-provided
/// names are hostile input, so every string put in markup goes through
/// escapeMarkup, which escapes the five markup characters and replaces what
/// XML cannot hold (control characters, malformed UTF-8).

#include <string>
#include <string_view>

namespace stagecraft::io {

/// \p text with `&`, `<`, `>`, `"` and `'` as character references, control
/// characters other than tab and line feed as spaces and each byte of a
/// malformed UTF-8 sequence as U+FFFD, so that it is valid in XML and HTML
/// text and in quoted attribute values.
std::string escapeMarkup(std::string_view text);

/// \p value with %.3g and an SI prefix (k, M, G, T, P): "1.2 G", "950 ".
std::string siNumber(double value);

} // namespace stagecraft::io
