#pragma once
/// \file
/// The check both front ends make when a saved session names a model file:
/// whether the file still has the content (sha256) the session was saved
/// with, and the one message that says it does not.

#include <optional>
#include <string>

namespace stagecraft::driver {

/// "PATH changed on disk since the session was saved (sha256 SAVED… now NOW…)" when
/// \p nowSha256 differs from a non-empty \p savedSha256; nothing otherwise.
std::optional<std::string> modelChangedMessage(const std::string& path,
                                               const std::string& savedSha256,
                                               const std::string& nowSha256);

} // namespace stagecraft::driver
