#pragma once
/// \file
/// A guard run on JSON text before it is parsed: nesting deeper than
/// kMaxJsonDepth is refused, so a hostile document cannot exhaust the stack
/// of the parser's consumers (printing, copying and comparing JSON values
/// recurse).

#include "support/expected.h"

#include <string_view>

namespace stagecraft {

/// The deepest nesting of arrays and objects a JSON document may have. Every
/// document format of Stagecraft needs fewer than ten levels.
inline constexpr int kMaxJsonDepth = 64;

/// An error "nested deeper than 64 levels (line L)" when \p text nests
/// arrays and objects deeper than kMaxJsonDepth. Brackets inside strings do
/// not count; the text need not be valid JSON.
Status checkJsonDepth(std::string_view text);

} // namespace stagecraft
