// The user's cache directory, from the environment (cache_dir.h).

#include "support/cache_dir.h"

#include <cstdlib>

namespace stagecraft {

std::filesystem::path userCacheDir() {
    namespace fs = std::filesystem;
    if (const char* dir = std::getenv("STAGECRAFT_CACHE_DIR"); dir != nullptr && *dir != '\0')
        return fs::path(dir);
    if (const char* dir = std::getenv("XDG_CACHE_HOME"); dir != nullptr && *dir != '\0')
        return fs::path(dir) / "stagecraft";
    const char* home = std::getenv("HOME");
    return fs::path(home != nullptr && *home != '\0' ? home : "/tmp") / ".cache" / "stagecraft";
}

} // namespace stagecraft
