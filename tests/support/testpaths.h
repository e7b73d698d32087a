#pragma once
// Where things are, for every test suite (Qt Test or GoogleTest): the source
// tree and the cache of fetched models. Qt-free.

#include <filesystem>

namespace stagecraft::test {

/// The source tree (STAGECRAFT_SOURCE_DIR, set by CTest).
std::filesystem::path sourceDir();

/// The cache of fetched third-party models (STAGECRAFT_MODELS, default
/// ~/.cache/stagecraft/models, filled by scripts/fetch-models).
std::filesystem::path modelsDir();

} // namespace stagecraft::test
