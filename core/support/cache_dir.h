#pragma once
/// \file
/// Where Stagecraft keeps what it can make again: compiled kernels
/// (codegen/object_cache.h) and zoo models written for programs that open
/// files (zoo::cachedZooModel).

#include <filesystem>

namespace stagecraft {

/// $STAGECRAFT_CACHE_DIR, else $XDG_CACHE_HOME/stagecraft, else
/// ~/.cache/stagecraft (not created).
std::filesystem::path userCacheDir();

} // namespace stagecraft
