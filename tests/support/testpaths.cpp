#include "testpaths.h"

#include <cstdlib>

namespace stagecraft::test {

namespace {

std::filesystem::path envPath(const char* name, const std::filesystem::path& fallback) {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0' ? std::filesystem::path(value) : fallback;
}

} // namespace

std::filesystem::path sourceDir() {
    return envPath("STAGECRAFT_SOURCE_DIR", ".");
}

std::filesystem::path modelsDir() {
    const char* home = std::getenv("HOME");
    std::filesystem::path fallback =
        std::filesystem::path(home != nullptr ? home : "/tmp") / ".cache/stagecraft/models";
    return envPath("STAGECRAFT_MODELS", fallback);
}

} // namespace stagecraft::test
