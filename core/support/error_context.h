#pragma once
/// \file
/// Naming what an error happened in, once.

#include "support/expected.h"

#include <string_view>

namespace stagecraft {

/// \p error with "<context>: " in front, unless its message already starts
/// with \p context (an inner step named the file or model itself).
inline Error inContext(const Error& error, std::string_view context) {
    return error.message().rfind(context, 0) == 0 ? error : error.withContext(context);
}

} // namespace stagecraft
